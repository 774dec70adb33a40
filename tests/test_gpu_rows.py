"""A row per GPU in `check`, and nodes that mix GPU generations: each GPU is held to its own
compute capability (attn_doctor/devices.py, smoke/plan.py, checks/backends.py)."""

from __future__ import annotations

import copy
import io
import re
import json
from pathlib import Path

from attn_doctor.checks import Context
from attn_doctor.render.text import make_console, render
from attn_doctor.report import evaluate

FIX = Path(__file__).resolve().parents[1] / "fixtures" / "fleet"


def two_gpu_facts() -> dict:
    """FAKES a node with an H200 (sm90) and a T4 (sm75) on the real CPU smoke facts: torch 2.11.0+cu130
    sees both, triton imports, flash-attn-4 imports, and each GPU has the smoke records the children
    would have sent (the real CPU records of sdpa and flex, relabelled, for sdpa, flex and cute;
    with sm75 below its range cute planned nothing on the T4: attn_doctor.smoke.plan says so)."""
    from attn_doctor.smoke.plan import plan

    facts = copy.deepcopy(json.loads((FIX / "cpu-check-smoke.json").read_text())["facts"])
    t = facts["torch"]
    t["probe"].update(version="2.11.0+cu130", cuda="13.0")
    t["build"] = {"cuda": "13.0"}
    t["probe"]["triton"] = {"ok": True, "version": "3.6.0"}
    gpus = [("NVIDIA H200", [9, 0]), ("Tesla T4", [7, 5])]
    t["probe"]["cuda_runtime"] = {"available": True, "device_count": 2, "devices": [
        {"index": i, "name": n, "capability": c, "memory_mib": 81559} for i, (n, c) in enumerate(gpus)]}
    facts["driver"] = {"driver": "580.159.04", "gpus": [dict(index=i, name=n, capability=c) for i, (n, c) in enumerate(gpus)]}
    facts["imports"]["cute"] = {"installed": True, "dist": "flash-attn-4", "version": "4.0.0b36",
                                "probe": {"ok": True, "seconds": 3.0}, "run": {"returncode": 0}}
    cpu = facts["smoke"]["devices"].pop("cpu")
    for i, (name, cap) in enumerate(gpus):
        per = {}
        for b in ("sdpa", "flex", "cute"):
            rec = copy.deepcopy(cpu["flex" if b == "flex" else "sdpa"])
            rec.update(device=f"cuda:{i}", gpu=name, capability=cap)
            rec["final"].update(gpu=name, capability=cap)
            cases, notes = plan(b, tuple(cap))
            if not cases:
                rec.update(cases=[], planned=[], notes=notes, summary="not run")
            per[b] = rec
        facts["smoke"]["devices"][str(i)] = per
    return facts


def test_plan_runs_nothing_on_a_gpu_below_the_backend():
    from attn_doctor.smoke.plan import plan

    cases, notes = plan("cute", (7, 5))
    assert cases == [] and notes == ["not run on this GPU: cute needs compute capability 8.0 or newer; this GPU is 7.5"]
    assert plan("cute", (9, 0))[0]


def test_check_shows_a_row_per_gpu_and_mixed_capabilities_are_not_failures():
    report = evaluate(two_gpu_facts(), Context(smoke=True))
    assert report.backends["cute"]["status"] == "ok"
    assert "not on every GPU" in report.backends["cute"]["reason"]
    (f,) = [f for f in report.findings if f.id == "backend.some-gpus"]
    assert f.title == ("FlashAttention 4 (CuTe DSL) runs on GPU 0 but not on GPU 1 of this machine: cute needs "
                       "compute capability 8.0 or newer; this GPU is 7.5.")
    assert f.fix.startswith("export CUDA_VISIBLE_DEVICES=0 ")
    # the T4 cannot run cute at all: no claim that it runs "forward only" there
    assert not [f for f in report.findings if f.id == "backend.no-backward-on-gpu"]
    buf = io.StringIO()
    render(report, make_console(buf, width=80))
    out = buf.getvalue()
    lines = [ln.split() for ln in out.splitlines() if ln.startswith(("GPU ", "  0 ", "  1 "))]
    assert lines == [["GPU", "name", "cap", "sdpa", "flex", "cute"],
                     ["0", "NVIDIA", "H200", "sm90", "ok", "ok", "ok"],
                     ["1", "Tesla", "T4", "sm75", "ok", "ok", "n/a"]]
    assert "n/a: the backend cannot run on that GPU's compute capability" in out
    # `fix:` lines are never wrapped, so a copied command stays whole (tests/test_cli.py too_wide)
    # nor is a missing backend's install hint, which starts with the checked interpreter's pip
    assert max(len(ln) for ln in out.splitlines()
               if not ln.lstrip().startswith("fix: ") and not re.match(r"    \S*python3? -m pip ", ln)) <= 80


def test_one_gpu_tested_has_no_gpu_table():
    facts = two_gpu_facts()
    del facts["smoke"]["devices"]["1"]
    buf = io.StringIO()
    render(evaluate(facts, Context(smoke=True)), make_console(buf, width=80))
    assert "GPU  name" not in buf.getvalue()


def test_a_backend_failing_on_one_gpu_is_broken_and_shown_there():
    """FAKES sdpa's first case failing with a CUDA error on GPU 1 only (the record of GPU 0 untouched)."""
    from attn_doctor.devices import rows

    facts = two_gpu_facts()
    case = facts["smoke"]["devices"]["1"]["sdpa"]["cases"][0]
    case.update(ok=False, error={"type": "RuntimeError", "message": "CUDA error: an illegal memory access was encountered",
                                 "traceback": ""})
    report = evaluate(facts, Context(smoke=True))
    assert report.backends["sdpa"]["status"] == "broken"
    assert report.backends["sdpa"]["reason"].startswith("smoke test failed on device 1: ")
    assert [(r["device"], r["cells"]["sdpa"]) for r in rows(report.facts, report.backends)] == [("0", "ok"), ("1", "FAIL")]
