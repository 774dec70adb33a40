"""Fail loudly instead of guessing (issue 16): a GPU that is not there, a bench that times nothing,
a merge that says one cause once and counts what it prints, `explain -` with nothing to read, a
training out-of-memory error, and a rank stopped by its launcher leaving no report files behind."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import fakefacts as ff
from attn_doctor import bench, fleet
from attn_doctor.checks import Context
from attn_doctor.facts import require_devices
from attn_doctor.model import UsageError
from attn_doctor.render import json as rjson
from attn_doctor.report import evaluate
from torch_here import needs_torch

ROOT = Path(__file__).resolve().parents[1]


def doctor(*args, stdin: str | None = None, env: dict | None = None, timeout: float = 300):
    e = dict(os.environ, PYTHONPATH=str(ROOT), NO_COLOR="1", **(env or {}))
    return subprocess.run([sys.executable, "-m", "attn_doctor", *args], capture_output=True, text=True,
                          input=stdin, timeout=timeout, env=e, cwd=ROOT)


# ---- --device N that CUDA does not show -----------------------------------------------------------

H200 = {"driver": "580.159.04", "gpus": [{"index": 0, "name": "NVIDIA H200", "capability": [9, 0]},
                                          {"index": 1, "name": "NVIDIA H200", "capability": [9, 0]}]}


def test_a_device_that_is_not_there_names_the_gpus_seen():
    """FAKES nvidia-smi's answer on a two-H200 box."""
    with pytest.raises(UsageError, match=r"--device 5: no such GPU; GPUs seen: 0 \(NVIDIA H200\), 1 \(NVIDIA H200\)"):
        require_devices(H200, {}, [0, 5])
    require_devices(H200, {}, [1])  # there: no error
    # CUDA_VISIBLE_DEVICES=1 leaves one GPU, which CUDA calls 0
    with pytest.raises(UsageError, match=r"--device 1: no such GPU; GPUs seen: 0 \(NVIDIA H200\)"):
        require_devices(H200, {"CUDA_VISIBLE_DEVICES": "1"}, [1])
    with pytest.raises(UsageError, match=r"GPUs seen: none \(nvidia-smi lists no GPU: nvidia-smi not found\)"):
        require_devices({"gpus": [], "error": "nvidia-smi not found"}, {}, [0])


def test_check_device_999_exits_2_in_one_line():
    """REAL, on whatever machine runs the suite (no machine has GPU 999): exit 2, one line, no kernels."""
    r = doctor("check", "-d", "999", "--backend", "sdpa")
    assert r.returncode == 2, r.stdout + r.stderr
    assert r.stderr.count("\n") == 1 and "--device 999: no such GPU; GPUs seen: " in r.stderr
    assert r.stdout == ""


def test_a_device_that_is_not_there_starts_no_torch_probe(monkeypatch):
    """The refusal comes from nvidia-smi's list alone: no `import torch` child is started (and waited for) first, on
    whatever machine runs the suite. FAKED: probe_torch, replaced by one that records it was called."""
    from attn_doctor import facts

    started = []
    monkeypatch.setattr(facts, "probe_torch", lambda *a, **k: started.append(a) or {"probe": None, "run": {}})
    with pytest.raises(UsageError, match="--device 999: no such GPU"):
        facts.collect(backends=["sdpa"], timeout=60, smoke={"level": "standard"}, device_ids=[999], strict_devices=True)
    assert started == []
    # a --device under --distributed (not strict) and no --device at all: the probe runs as before
    facts.collect(backends=["sdpa"], timeout=60, device_ids=[999], strict_devices=False)
    assert len(started) == 1


# ---- bench says why ---------------------------------------------------------------------------------

def test_bench_says_per_backend_why_nothing_was_timed():
    """FAKES the statuses of a torch-less venv, and cute ok on a CPU-only run."""
    no_torch = {"sdpa": {"status": "missing", "reason": "torch is not installed"},
                "flex": {"status": "missing", "reason": "torch is not installed"},
                "cute": {"status": "missing", "reason": "not installed (pip install --pre flash-attn-4)"}}
    assert bench.not_timed(no_torch, "cpu", None, any_timed=False) == {
        "sdpa": "missing: torch is not installed", "flex": "missing: torch is not installed",
        "cute": "missing: not installed (pip install --pre flash-attn-4)"}
    assert bench.not_timed({"cute": {"status": "ok"}, "sdpa": {"status": "ok"}}, "cpu", ["cute"]) == {
        "cute": "needs a CUDA GPU; this run is on the CPU"}


def test_bench_cute_on_the_cpu_prints_why(tmp_path):
    """REAL: `bench -b cute` here (no FA4 on the CPU): exit 1 and a line that says why."""
    r = doctor("bench", "-b", "cute", "--json", str(tmp_path / "b.json"))
    assert r.returncode == 1
    assert "not timed:" in r.stdout and "cute: " in r.stdout
    doc = json.loads((tmp_path / "b.json").read_text())
    assert set(doc["not_timed"]) == {"cute"}
    if doc["device"] == "cpu":  # the sequence lengths --help names for the CPU
        assert [s["seqlen"] for s in doc["shapes"]] == [256, 1024]
        assert doc["ceiling"] is None  # nothing to read against it: not measured


def test_bench_help_says_the_cpu_sequence_lengths():
    r = doctor("bench", "--help")
    assert "1024,4096,16384 on a GPU; 256,1024 on the CPU" in " ".join(r.stdout.split())


def test_a_rate_above_the_ceiling_is_called_a_bad_ceiling():
    from attn_doctor.render.bench import render
    from attn_doctor.render.text import make_console

    s = bench.shapes_from([256], 8, 24, None, 128, "bfloat16", False)[0]
    # (a GPU's: on the CPU no ceiling is measured or shown, new-user row 11 of 2026-12-03)
    result = {"device": "cuda:0", "ceiling": {"dtype": "bfloat16", "n": 1024, "tflops": 0.02}, "backward": False,
              "shapes": [s], "not_timed": {},
              "results": [{"backend": "sdpa", "variant": None, "label": "sdpa", "shape": s,
                           "fwd": {"median": 0.01, "tflops": 0.0316}}],
              "recommendations": bench.recommend([s], [{"backend": "sdpa", "variant": None, "label": "sdpa", "shape": s,
                                                        "fwd": {"median": 0.01, "tflops": 0.0316}}], False)}
    import io
    buf = io.StringIO()
    render(result, make_console(file=buf, width=200))
    out = buf.getvalue()
    assert "158%" not in out and ">100%" in out
    assert "ceiling measurement is wrong" in out


def test_plot_without_matplotlib_asks_for_an_installable_package(monkeypatch):
    from attn_doctor.render.bench import plot

    monkeypatch.setitem(sys.modules, "matplotlib", None)  # FAKES a Python without matplotlib
    with pytest.raises(UsageError, match=r"pip install matplotlib\Z"):
        plot({"results": [], "shapes": []}, "x.png")


# ---- merge ------------------------------------------------------------------------------------------

def _report(host: str, torch: bool = True) -> dict:
    """The REAL CPU VM's facts (tests/fakefacts.cpu_box) on host `host`; without torch: FAKES its
    removal (no metadata, the import probe's ModuleNotFoundError)."""
    f = ff.cpu_box()
    f["system"]["hostname"] = host
    if not torch:
        f["packages"]["stack"].pop("torch", None)
        f["packages"].get("versions", {}).pop("torch", None)
        f["torch"] = {"dist": None, "run": ff.run_ok(0.1), "probe": {
            "import_ok": False, "warnings": [],
            "import_error": ff.error("ModuleNotFoundError", "No module named 'torch'", name="torch")}}
    return json.loads(rjson.dumps(evaluate(f, Context(), {"smoke": False})))


def _merge(tmp_path, *reports, args=()):
    paths = []
    for i, rep in enumerate(reports):
        p = tmp_path / f"r{i}.json"
        p.write_text(json.dumps(rep))
        paths.append(str(p))
    return doctor("merge", *paths, *args), paths


def test_torch_missing_on_a_member_is_one_error(tmp_path):
    r, _ = _merge(tmp_path, _report("a"), _report("b", torch=False))
    flat = " ".join(r.stdout.split())
    assert r.returncode == 1
    errors = [ln for ln in r.stdout.splitlines() if ln.strip().startswith("ERROR")]
    assert len(errors) == 1 and "[fleet.torch-differs]" in " ".join(r.stdout.split()), r.stdout
    assert "pip install 'torch==2.13.0+cpu'   # the cpu build" in r.stdout and "on b" in r.stdout
    assert "1 error(s)" in flat


def test_merge_summary_counts_what_it_prints(tmp_path):
    r, _ = _merge(tmp_path, _report("a"), _report("b"))
    printed = {sev: sum(1 for ln in r.stdout.splitlines() if ln.strip().startswith(sev))
               for sev in ("ERROR", "WARNING", "INFO")}
    assert printed["WARNING"] >= 1  # the CPU VM's own warnings, shown once for both members
    assert (f"{printed['ERROR']} error(s), {printed['WARNING']} warning(s), {printed['INFO']} note(s) above"
            in " ".join(r.stdout.split())), r.stdout


def test_the_same_report_twice_is_refused(tmp_path):
    rep = _report("a")
    r, paths = _merge(tmp_path, rep)
    again = doctor("merge", paths[0], "./" + os.path.relpath(paths[0], ROOT))
    assert again.returncode == 2 and again.stderr.count("\n") == 1 and "is given twice" in again.stderr
    copy = tmp_path / "copy.json"
    copy.write_text(Path(paths[0]).read_text())
    twin = doctor("merge", paths[0], str(copy))
    assert twin.returncode == 2 and "holds the same report as" in twin.stderr


# ---- explain - ---------------------------------------------------------------------------------------

def test_explain_empty_input_says_it_got_no_text():
    r = doctor("explain", "-", stdin="  \n")
    assert r.returncode == 2 and "got no text on stdin" in r.stderr and r.stderr.count("\n") == 1


def test_explain_on_a_terminal_says_what_it_waits_for():
    """REAL: a pseudo-terminal as stdin; the hint comes before anything is read."""
    import pty

    master, slave = pty.openpty()
    e = dict(os.environ, PYTHONPATH=str(ROOT), NO_COLOR="1")
    p = subprocess.Popen([sys.executable, "-m", "attn_doctor", "explain", "-"], stdin=slave,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=e, cwd=ROOT)
    os.close(slave)
    try:
        os.write(master, b"\x04")  # Ctrl-D: end of input, nothing typed
        out, err = p.communicate(timeout=120)
    finally:
        os.close(master)
    assert "paste the error or the log, then press Ctrl-D" in err
    assert p.returncode == 2 and "got no text" in err


def test_a_training_oom_is_not_the_smoke_tests_tiny_oom():
    from attn_doctor.knowledge.match import best

    text = ("Traceback (most recent call last):\n  File \"/workspace/train.py\", line 88, in <module>\n"
            "    accelerator.backward(loss)\n  File \"/venv/lib/python3.12/site-packages/torch/_tensor.py\", "
            "line 626, in backward\n    torch.autograd.backward(\ntorch.OutOfMemoryError: CUDA out of memory. "
            "Tried to allocate 768.00 MiB. GPU 0 has a total capacity of 23.55 GiB of which 412.06 MiB is free.")
    assert best(text).entry.id == "train.oom"
    r = doctor("explain", "-", stdin=text)
    flat = " ".join(r.stdout.split())
    assert "[train.oom]" in flat or "train.oom" in flat
    assert "another process holds the GPU's memory" not in flat
    # the smoke test's own tiny OOM keeps its entry
    assert best("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB.").entry.id == "smoke.oom"


# ---- a rank stopped by its launcher ------------------------------------------------------------------

def test_sigterm_leaves_no_report_files(tmp_path):
    """REAL: rank 1 of 2 as srun starts it, alone: it checks, writes its report to a temporary file and
    waits for rank 0, which never comes; SIGTERM then (what a launcher sends) leaves no file behind."""
    needs_torch("distributed", "__init__", reason="--distributed needs torch.distributed")  # (found, not imported)
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    e = {k: v for k, v in os.environ.items() if not k.startswith(("SLURM_", "TORCHELASTIC_"))
         and k not in ("RANK", "WORLD_SIZE", "LOCAL_RANK", "MASTER_ADDR", "MASTER_PORT")}
    e.update(PYTHONPATH=str(ROOT), NO_COLOR="1", TMPDIR=str(tmp_path), SLURM_PROCID="1", SLURM_NTASKS="2",
             SLURM_LOCALID="1", SLURM_JOB_ID="4243", SLURM_STEP_NODELIST="localhost", MASTER_PORT=str(port))
    p = subprocess.Popen([sys.executable, "-m", "attn_doctor", "check", "--distributed", "--no-smoke",
                          "--gather-timeout", "120"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         env=e, cwd=ROOT)
    try:
        deadline = time.monotonic() + 600  # never reached: a check (its torch probe) before the report is written
        while time.monotonic() < deadline and not list(tmp_path.glob("attn-doctor-rank-*.json")):
            assert p.poll() is None, p.communicate()
            time.sleep(0.2)
        assert list(tmp_path.glob("attn-doctor-rank-*.json")), "rank 1 never wrote its report"
        p.send_signal(signal.SIGTERM)
        p.communicate(timeout=60)
    finally:
        if p.poll() is None:
            p.kill()
    assert p.returncode != 0
    assert list(tmp_path.glob("attn-doctor-*")) == []
