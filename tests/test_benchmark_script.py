"""The benchmark script runs and writes its result (one timed run; no time is asserted)."""

from __future__ import annotations

import json
import subprocess
import sys
from importlib import metadata
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_bench_writes_a_result(tmp_path):
    try:
        metadata.version("torch")
    except metadata.PackageNotFoundError:
        pytest.skip("collect_env needs torch")
    out = tmp_path / "r.json"
    r = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "check_vs_collect_env.py"), "-n", "1",
                        "--warmup", "0", "--out", str(out), "--note", "test"], capture_output=True, text=True,
                       timeout=600)
    assert r.returncode == 0, r.stderr
    doc = json.loads(out.read_text())
    assert doc["schema"] == "attn-doctor.bench/1" and doc["note"] == "test" and doc["runs"] == 1
    for name in ("attn-doctor", "collect_env"):
        c = doc["commands"][name]
        assert len(c["seconds"]) == 1 and c["min"] == c["median"] == c["max"] > 0
    assert doc["goal_met"] == (doc["median_ratio"] <= 0.5)
    assert "median ratio attn-doctor / collect_env" in r.stdout
