"""`attn-doctor bench` on the CPU: real child processes time real SDPA/Flex calls (no fakes of the
timing code). Wrong kernels are never ranked: tests/fake_adapters.py's bench_wrong is torch's SDPA
with a wrong softmax scale (it fakes a fast, wrong backend)."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from attn_doctor import bench
from torch_here import needs_torch

needs_torch()  # (its children import torch; this process never needs it)
ROOT = Path(__file__).resolve().parents[1]
SHAPE = bench.shapes_from([64], 2, 4, None, 32, "float32", False)


def plan(adapter):
    return {"backend": "sdpa", "adapter": f"tests.fake_adapters:{adapter}", "device": "cpu", "shapes": SHAPE,
            "backward": True, "tol": 5e-3, "min_time": 0.05, "max_iters": 20}


def test_a_correct_backend_is_timed_with_its_flops():
    out = bench.run_child(plan("bench_good"), timeout=600)  # never reached (ci40a)
    (rec,) = [r for r in out["records"] if "shape" in r]
    assert not rec.get("wrong")
    assert rec["check"]["worst_rel_err"] < 1e-5
    assert rec["fwd"]["median"] > 0 and rec["fwd"]["iters"] >= 10
    s = SHAPE[0]
    flops = 4 * s["batch"] * s["heads"] * s["seqlen"] ** 2 * s["head_dim"]
    assert rec["fwd"]["tflops"] == pytest.approx(flops / rec["fwd"]["median"] / 1e12)
    assert rec["fwd_bwd"]["tflops"] == pytest.approx(3.5 * flops / rec["fwd_bwd"]["median"] / 1e12)


def test_a_wrong_backend_is_never_timed_or_ranked():
    out = bench.run_child(plan("bench_wrong"), timeout=600)
    (rec,) = [r for r in out["records"] if "shape" in r]
    assert rec["wrong"] and "fwd" not in rec
    row = dict(rec, backend="sdpa", variant=None, label="sdpa", shape=SHAPE[0])
    assert bench.recommend(SHAPE, [row], backward=True)[0]["best"] is None


def test_the_fastest_correct_one_is_recommended_with_how_to_select_it():
    s = SHAPE[0]
    rows = [
        {"backend": "sdpa", "variant": None, "label": "sdpa", "shape": s, "fwd": {"median": 2.0, "tflops": 1.0},
         "fwd_bwd": {"median": 6.0, "tflops": 1.0}},
        {"backend": "cute", "variant": None, "label": "cute", "shape": s, "fwd": {"median": 1.0, "tflops": 2.0},
         "fwd_bwd": {"median": 4.0, "tflops": 1.5}},
        {"backend": "fa3", "variant": None, "label": "fa3", "shape": s, "fwd": {"median": 0.1, "tflops": 20.0},
         "fwd_bwd": {"median": 0.2, "tflops": 20.0}, "wrong": True},
    ]
    (rec,) = bench.recommend(SHAPE, rows, backward=True)
    assert rec["best"] == "cute" and rec["metric"] == "fwd_bwd"
    assert rec["speedup_vs_sdpa"] == pytest.approx(1.5)
    assert rec["select"]["blissful"] == "--cute" and rec["select"]["musubi"] is None


def test_bench_cli_on_the_cpu(tmp_path):
    out = tmp_path / "bench.json"
    env = dict(os.environ, PYTHONPATH=str(ROOT), NO_COLOR="1")
    r = subprocess.run([sys.executable, "-m", "attn_doctor", "bench", "--seqlen", "128", "--heads", "2",
                        "--head-dim", "32", "--dtype", "fp32", "--backend", "sdpa", "--min-time", "0.05",
                        "--json", str(out)], capture_output=True, text=True, timeout=600, env=env, cwd=ROOT)
    assert r.returncode == 0, r.stdout + r.stderr
    doc = json.loads(out.read_text())
    assert doc["schema"] == "attn-doctor.bench/1" and doc["device"] == "cpu"
    assert doc["recommendations"][0]["best"] == "sdpa"
    assert "the others need a CUDA GPU" in r.stdout
    assert "fastest correct" in r.stdout


def test_bench_bad_input_is_one_line_exit_2():
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    for args in (["--seqlen", "12x"], ["--dtype", "fp8"], ["--heads", "6", "--kv-heads", "4"]):
        r = subprocess.run([sys.executable, "-m", "attn_doctor", "bench", *args], capture_output=True, text=True,
                           timeout=60, env=env, cwd=ROOT)
        assert r.returncode == 2 and r.stderr.count("\n") == 1 and "Traceback" not in r.stderr, args
