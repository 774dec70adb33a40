# Two entry points a fresh machine needs: `make check` and `make test` (what CI runs).
PY ?= python3
VENV ?= .venv
BIN := $(VENV)/bin

$(BIN)/.installed: pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	# torch==2.13.0: the CPU build on this workplace's disk; the doctor itself never depends on torch.
	$(BIN)/python -m pip install -q -e '.[test]' 'torch==2.13.0'
	touch $@

.PHONY: check test
check: $(BIN)/.installed
	$(BIN)/attn-doctor check

test: $(BIN)/.installed
	$(BIN)/python -m pytest -q
