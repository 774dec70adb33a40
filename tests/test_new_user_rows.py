"""Issue 20: the High and Medium rows of ../shared/reports/new-user-2026-11-24.md, each as a test
with the report's own command where this machine can run it (a real venv and real runs of the doctor
on the CPU; nothing here is faked but what a docstring says).

Rows tested elsewhere, with the report's commands: 4 (3 MB / 50 MB logs) tests/test_explain_stream.py;
5, 11, 12 tests/test_explain_field3.py; 6 tests/test_fleet.py (row 6 tests); 7 tests/test_roundtrip.py
(a $HOME where nothing can be created); 9, 10, 19 are scenarios in tests/test_findings.py, the last
also run for real in tests/test_hardening.py.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
FIXTURE = ROOT / "fixtures" / "cpu" / "check-no-smoke.json"  # the CPU VM's saved report (check --no-smoke)
PIP = re.compile(r"(?<![\w./-])(?:pip3?|uv pip)\s+(install|uninstall)\b")


def env_without_activation(**extra) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "CONDA_PREFIX")}
    env.update(NO_COLOR="1", **extra)
    return env


def doctor(*args, env=None, timeout=180):
    return subprocess.run([sys.executable, "-m", "attn_doctor", *args], capture_output=True, text=True,
                          timeout=timeout, env=env or env_without_activation(), cwd=str(ROOT))


@pytest.fixture(scope="module")
def venv(tmp_path_factory) -> Path:
    """A real venv with nothing in it (made --without-pip: the fast kind, and the kind that needs
    `ensurepip` or uv before any pip line can run)."""
    d = tmp_path_factory.mktemp("rows") / "venv-bare"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(d)], check=True, timeout=120)
    return d


def pip_lines(text: str) -> list[str]:
    text = re.sub(r" \\\n\s*", " ", text)
    return [ln for ln in text.splitlines() if PIP.search(ln)]


def test_row_1_an_active_venv_is_checked_not_the_tools_own(venv):
    """Row 1: attn-doctor runs from its own interpreter (as pipx installs it) while a venv is active:
    `source venv/bin/activate; attn-doctor check --no-smoke` checks the venv and says why."""
    env = env_without_activation(VIRTUAL_ENV=str(venv), PATH=f"{venv}/bin:{os.environ.get('PATH', '')}")
    r = doctor("check", "--no-smoke", env=env)
    out = " ".join(r.stdout.split())
    assert f"checking {venv}/bin/python: the active venv (VIRTUAL_ENV)" in out
    assert f"attn-doctor runs from {sys.executable}" in out
    assert "torch is not installed in this Python" in out  # the venv's torch, not the tool's
    assert pip_lines(r.stdout) and all(f"{venv}/bin/python" in ln for ln in pip_lines(r.stdout)), r.stdout


@pytest.fixture(scope="module")
def checked_venv(venv) -> subprocess.CompletedProcess:
    """`attn-doctor check --no-smoke --python VENV`, the command of rows 2 and 3: run once, read by both (ci40c)."""
    return doctor("check", "--no-smoke", "--python", str(venv))


def test_row_2_the_closing_line_keeps_python(venv, checked_venv):
    """Row 2: `attn-doctor check --no-smoke --python VENV`: the line to run next checks the same venv."""
    r = checked_venv
    last = r.stdout.rstrip("\n").splitlines()[-1]
    assert last.startswith("fix: ") and f"--python {venv}/bin/python" in last, last


def test_row_3_every_pip_line_names_the_checked_interpreter(venv, checked_venv):
    """Row 3: no bare `pip`: under --python every install line runs that interpreter's pip (this venv
    has none, so ensurepip comes first, or uv's pip where uv is on PATH), for check, fix and fix --require."""
    outs = [checked_venv.stdout,
            doctor("fix", "--python", str(venv)).stdout,
            doctor("fix", "--python", str(venv), "--require", "sage").stdout]
    lines = [ln for out in outs for ln in pip_lines(out)]
    assert lines
    for ln in lines:
        assert f"{venv}/bin/python -m ensurepip && {venv}/bin/python -m pip" in ln or f"--python {venv}" in ln, ln


def test_row_8_a_cache_path_that_is_a_file_is_named_first_with_the_exception(tmp_path):
    """Row 8: `TORCHINDUCTOR_CACHE_DIR=$TMPDIR/afile attn-doctor check` (real: flex's smoke child on
    this CPU): the first problem is the cache, its `seen:` is the exception (not the NumPy warning
    on stderr), and -v shows the traceback."""
    afile = tmp_path / "afile"
    afile.write_text("")
    env = env_without_activation(TORCHINDUCTOR_CACHE_DIR=str(afile))
    # one run gives both: the JSON report in a file (--json PATH) and the -v text on stdout (two runs were two torch
    # probes and two flex smoke children, ~20 s of CPU; ci40c)
    out = tmp_path / "report.json"
    r = doctor("check", "-b", "flex", "-v", "--json", str(out), env=env)
    doc = json.loads(out.read_text())
    errors = [f for f in doc["findings"] if f["severity"] == "error"]
    assert errors[0]["id"] == "smoke.cache-dir", [f["id"] for f in errors]
    assert "FileExistsError" in errors[0]["title"] and str(afile) in errors[0]["title"]
    assert errors[0]["fix"].startswith("export TORCHINDUCTOR_CACHE_DIR=")
    assert "cache.moved" not in {f["id"] for f in doc["findings"]}  # no cp into a file
    v = r.stdout
    seen = v[v.index("[smoke.cache-dir]"):]
    assert "seen:" in seen and "Traceback" not in seen[:0] and "File " in seen.split("seen:", 1)[1][:400]
    assert "_conversion_method_template" not in seen.split("seen:", 1)[1][:200]


def test_row_13_plot_without_matplotlib_is_refused_before_timing():
    """Row 13: `attn-doctor bench -s 256 --min-time 0.1 --plot out.png` without matplotlib: refused
    at once (exit 2), not after the benchmark ran."""
    import importlib.util

    if importlib.util.find_spec("matplotlib") is not None:
        pytest.skip("matplotlib is installed here: the refusal cannot happen")
    r = doctor("bench", "-s", "256", "--min-time", "0.1", "--plot", "out.png", timeout=60)
    assert r.returncode == 2 and "--plot needs matplotlib" in r.stderr and r.stderr.count("\n") == 1


def test_row_14_a_device_that_is_not_there_is_exit_2():
    """Row 14: `attn-doctor bench -d 1` on a machine with no second GPU."""
    r = doctor("bench", "-d", "1", "-s", "256", "--min-time", "0.1", timeout=120)
    assert r.returncode == 2 and "--device 1: no such GPU" in r.stderr


def test_row_15_fix_takes_the_config(tmp_path):
    """Row 15: `attn-doctor fix --config trl.yaml` carries the config's findings (a TRL config that
    packs with flex: its required backend and its trap)."""
    cfg = tmp_path / "trl.yaml"
    cfg.write_text("model_name_or_path: Qwen/Qwen2.5-0.5B\nattn_implementation: flash_attention_2\n"
                   "packing: true\nbf16: true\nlearning_rate: 2.0e-5\nper_device_train_batch_size: 8\n"
                   "gradient_checkpointing: true\nnum_train_epochs: 1\noutput_dir: out\n")
    r = doctor("fix", "--config", str(cfg), "--json")
    assert r.returncode == 0, r.stderr
    ids = {f["id"] for f in json.loads(r.stdout)["fixes"]}
    assert "require.not-ok" in ids, ids


def test_row_16_fa4_is_installed_without_pre():
    """Row 16: the cute hint pins a pre-release floor for FA4 alone; no --pre reaches its dependencies."""
    from attn_doctor import advice
    from attn_doctor.backends import SPECS

    assert "--pre" not in SPECS["cute"].install
    assert advice.repair("pip install --pre 'flash-attn-4[cu13]'") == "pip install 'flash-attn-4[cu13]>=4.0.0b0'"


def test_row_17_the_api_validates_as_the_cli_does():
    """Row 17: attn_doctor.check(timeout=-1) / timeout='abc': a UsageError in the API's words;
    require(['sdpa', 'flex']) takes a list."""
    import attn_doctor

    for bad in (-1, "abc"):
        with pytest.raises(attn_doctor.UsageError, match="timeout"):
            attn_doctor.check(timeout=bad, smoke=False)
    # the list is flattened before anything is probed (api.require): the CPU VM's saved report serves, where a live
    # probe of this machine was a torch import that told this row nothing (ci40c)
    report = attn_doctor.require(["sdpa", "flex"], smoke=False, timeout=120, from_report=str(FIXTURE))
    assert report.required == ["sdpa", "flex"]


def test_row_18_a_shape_that_cannot_fit_is_refused_before_timing():
    """Row 18: `attn-doctor bench --batch 100000 -s 100000`: said at once, in GiB, exit 2."""
    r = doctor("bench", "--batch", "100000", "-s", "100000", timeout=600)  # 14 s of CPU here: never reached (ci40a)
    assert r.returncode == 2 and "needs at least" in r.stderr and "GiB" in r.stderr and "Traceback" not in r.stderr


def test_row_18_on_a_machine_without_a_gpu_the_refusal_starts_no_child(monkeypatch):
    """Row 18, in process: where nvidia-smi lists no GPU the timing can only run on the CPU, so the shape is judged
    against this machine's memory before collect() starts the torch probe and the smoke children (each an
    `import torch`); where a GPU is listed it is judged after them, as before. FAKED: nvidia-smi's list and collect(),
    which records that it was reached."""
    from attn_doctor import api, facts
    from attn_doctor.facts import gpus
    from attn_doctor.model import UsageError

    reached = []

    def collect(**kw):
        reached.append(kw)
        raise RuntimeError("collect reached")

    monkeypatch.setattr(facts, "collect", collect)
    args = (None, [100000], False, 100000, 24, None, 128, "bf16", False, False, None, 60.0, 0.1)
    monkeypatch.setattr(gpus, "collect", lambda timeout=10.0: {"gpus": []})
    with pytest.raises(UsageError, match=r"needs at least .* GiB for its tensors; this machine's memory has"):
        api.run_bench(*args)
    assert reached == []
    monkeypatch.setattr(gpus, "collect", lambda timeout=10.0: {"gpus": [{"index": 0, "name": "NVIDIA H200", "memory_mib": 143771}]})
    with pytest.raises(RuntimeError, match="collect reached"):
        api.run_bench(*args)
    assert len(reached) == 1
