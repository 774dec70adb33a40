"""Flex's smoke child compiles in its own process when Inductor's cache is warm (backends/flex.py,
_warm_cache, _one_worker): on the H100 the worker pool tripled FA4's smoke time beside it in a warm check
(fixtures/gpu/h100-issue22/f-fa4-import.txt). Real torch (the CPU build), a child per case."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("torch")
ROOT = Path(__file__).resolve().parents[1]
CODE = ("import torch; from attn_doctor.backends import flex; from torch._inductor import config; "
        "w = flex._one_worker(flex._warm_cache()); print(w, config.compile_threads)")


def run(cache: Path, **env) -> str:
    e = {k: v for k, v in os.environ.items() if k != "TORCHINDUCTOR_COMPILE_THREADS"}
    e.update(PYTHONPATH=str(ROOT), TORCHINDUCTOR_CACHE_DIR=str(cache), **env)
    return subprocess.run([sys.executable, "-c", CODE], env=e, capture_output=True, text=True, timeout=120).stdout.strip()


def test_cold_cache_keeps_the_pool_warm_cache_compiles_in_process(tmp_path):
    chose, threads = run(tmp_path / "cold").split()
    assert chose == "False"  # and Inductor's own default stands (one worker per core, up to 32)
    (tmp_path / "warm" / "fxgraph" / "ab").mkdir(parents=True)
    assert run(tmp_path / "warm") == "True 1"


def test_the_users_setting_wins(tmp_path):
    (tmp_path / "warm" / "fxgraph" / "ab").mkdir(parents=True)
    assert run(tmp_path / "warm", TORCHINDUCTOR_COMPILE_THREADS="2") == "False 2"
