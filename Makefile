# Two entry points a fresh machine needs: `make check` and `make test` (what CI runs).
PY ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
# torch, for the tests' real SDPA/FlexAttention runs (the doctor itself never depends on it). pip
# resolves it as configured: from PyPI that is the CUDA build (4.7 GB of venv with its nvidia libraries;
# the tests hold with it, GPU or not); for the CPU build (a few hundred MB) name its index:
#   make test TORCH_INDEX=<PyTorch's CPU wheel index URL>
TORCH ?= torch==2.13.0
TORCH_INDEX ?=

$(BIN)/.installed: pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q $(if $(TORCH_INDEX),--index-url $(TORCH_INDEX)) '$(TORCH)'
	$(BIN)/python -m pip install -q -e '.[test]'
	touch $@

.PHONY: check test
# attn-doctor is in $(BIN), not on PATH: the lines it prints (`attn-doctor fix ...`) run once the venv is active.
check: $(BIN)/.installed
	@echo "$(BIN)/attn-doctor check"; $(BIN)/attn-doctor check; rc=$$?; \
	echo "attn-doctor is installed in $(VENV), not on PATH: run '. $(VENV)/bin/activate' first to paste its lines as printed"; \
	exit $$rc

# two workers per core, at least 4: many tests wait on the doctor's own subprocesses and timeouts (hangs, ranks, smoke
# children), which another worker's CPU work fills (session 32: on 2 cores the CI's workers were busy ~40% of the time)
# bytecode written even where the shell says PYTHONDONTWRITEBYTECODE (this machine does): the controller then rewrites
# and compiles the ~450 test modules once for the 4 workers (tests/ci_prewarm.py); without it every worker rewrote all
# of them at collection (~25 s of CPU each, session 40)
test: $(BIN)/.installed
	env -u PYTHONDONTWRITEBYTECODE $(BIN)/python -m pytest -q -n $$($(BIN)/python -c 'import os; print(max(4, 2 * (os.cpu_count() or 1)))')
