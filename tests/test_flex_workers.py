"""Flex's smoke child compiles in its own process when Inductor's cache is warm (backends/flex.py,
_warm_cache, _one_worker): on the H100 the worker pool tripled FA4's smoke time beside it in a warm check
(fixtures/gpu/h100-issue22/f-fa4-import.txt). Real torch (the CPU build), in a child process.

One child answers the three cases (session 38, helper ci38c: a child per case imported torch and Inductor's config
three times, ~6 s of CPU each), in an order where none can lend the next its answer: first the user's
TORCHINDUCTOR_COMPILE_THREADS=2, in the child's environment from its start as a user's shell sets it (Inductor's config
reads it at import; a warm cache, so only the user's setting can make the answer False), then the setting gone from the
environment and a cold cache (False: nothing else changed), then the same warm cache again (True, and Inductor's
config set to 1 where it was 2: the call itself set it)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from torch_here import needs_torch

needs_torch()  # (its child imports torch; this process never needs it)
ROOT = Path(__file__).resolve().parents[1]
CODE = """
import json, os, sys
import torch
from attn_doctor.backends import flex
from torch._inductor import config

cold, warm = sys.argv[1:3]
out = {}
os.environ["TORCHINDUCTOR_CACHE_DIR"] = warm
out["user"] = [flex._one_worker(flex._warm_cache()), config.compile_threads]
del os.environ["TORCHINDUCTOR_COMPILE_THREADS"]
os.environ["TORCHINDUCTOR_CACHE_DIR"] = cold
out["cold"] = [flex._one_worker(flex._warm_cache()), config.compile_threads]
os.environ["TORCHINDUCTOR_CACHE_DIR"] = warm
out["warm"] = [flex._one_worker(flex._warm_cache()), config.compile_threads]
print(json.dumps(out))
"""


@pytest.fixture(scope="module")
def answers(tmp_path_factory) -> dict:
    """{case: [chose one worker, Inductor's compile_threads after the call]} for "user", "cold", "warm"."""
    d = tmp_path_factory.mktemp("flex-workers")
    (d / "warm" / "fxgraph" / "ab").mkdir(parents=True)
    e = {k: v for k, v in os.environ.items() if k != "TORCHINDUCTOR_CACHE_DIR"}
    e.update(PYTHONPATH=str(ROOT), TORCHINDUCTOR_COMPILE_THREADS="2")
    r = subprocess.run([sys.executable, "-c", CODE, str(d / "cold"), str(d / "warm")], env=e, capture_output=True,
                       text=True, timeout=600)  # torch + Inductor, ~6 s of CPU: never reached (ci40a)
    assert r.returncode == 0, r.stderr[-3000:]
    return json.loads(r.stdout.strip().splitlines()[-1])


def test_cold_cache_keeps_the_pool_warm_cache_compiles_in_process(answers):
    assert answers["cold"][0] is False  # and Inductor's own setting stands
    assert answers["cold"][1] == answers["user"][1]
    assert answers["warm"] == [True, 1]


def test_the_users_setting_wins(answers):
    assert answers["user"] == [False, 2]
