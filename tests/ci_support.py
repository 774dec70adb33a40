"""Shared by test_formats, test_configs and test_select_ignore: the saved report they re-evaluate, and
ways to run the CLI and the library on it."""

from __future__ import annotations

import copy
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "fixtures"
CONFIGS = FIXTURES / "configs"
# Captured with `PYTORCH_CUDA_ALLOC_CONF=expandable_segments:true attn-doctor check --no-smoke --json ...` on
# the project's 2-core CPU build machine (torch 2.13.0+cpu, no GPU), 2026-11-22. See fixtures/reports/README.md.
CPU_REPORT = FIXTURES / "reports" / "cpu-alloc-bool-case.json"


def saved_facts() -> dict:
    return copy.deepcopy(json.loads(CPU_REPORT.read_text())["facts"])


def with_gpu(facts: dict, name: str = "NVIDIA H100 80GB HBM3", cap=(9, 0)) -> dict:
    """FAKE: the CPU machine's facts plus one GPU as nvidia-smi would list it (for GPU-dependent rules)."""
    facts = copy.deepcopy(facts)
    facts.setdefault("driver", {})["gpus"] = [{"index": 0, "name": name, "capability": list(cap), "memory_mib": 81559}]
    return facts


def evaluate(facts: dict | None = None, **ctx_args):
    from attn_doctor.checks import Context
    from attn_doctor.report import evaluate as ev

    return ev(saved_facts() if facts is None else facts, Context(**ctx_args), {})


def cli(*args, env: dict | None = None, cwd: str | None = None) -> subprocess.CompletedProcess:
    full = dict(os.environ)
    full["PYTHONPATH"] = str(ROOT) + os.pathsep + full.get("PYTHONPATH", "")
    full.pop("GITHUB_ACTIONS", None)
    full.update(env or {})
    return subprocess.run([sys.executable, "-m", "attn_doctor", *args], capture_output=True, text=True,
                          timeout=300, env=full, cwd=cwd or str(ROOT))
