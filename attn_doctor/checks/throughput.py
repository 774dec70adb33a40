"""Throughput against expectation: the smoke test's timed case against the reference for this GPU
kind and backend (knowledge/throughput.toml), and, when it is below 70% of it, the likeliest cause
among the settings (checks/settings.py) and the GPU's health (checks/gpu.py)."""

from __future__ import annotations

from functools import lru_cache

from ..backends import SPECS
from ..knowledge import HERE, finding, tomllib
from . import Context, check
from .gpu import problems as gpu_problems
from .settings import active
from .smoke import _where, failure, results

SLOW = 0.7  # below 70% of the reference's speed
# Settings that slow every launch or kernel, likeliest first, and the backends each slows.
SETTING_CLASSES = ("interpreter", "sync", "debug", "allocator-off", "compile-off")
GPU_CAUSES = ("gpu.busy", "gpu.memory-held", "gpu.clocks-slowdown", "gpu.thermal", "gpu.power-capped", "gpu.mig",
              "gpu.compute-exclusive")


@lru_cache(maxsize=1)
def references() -> tuple[dict, ...]:
    with open(HERE / "throughput.toml", "rb") as fh:
        return tuple(tomllib.load(fh).get("reference", []))


def reference(gpu: str | None, backend: str, case: str) -> dict | None:
    return next((r for r in references() if r["gpu"] == gpu and r["backend"] == backend and r["case"] == case), None)


def likeliest_cause(facts: dict, backend: str) -> tuple[str, str]:
    """(what, the line to paste) for the likeliest reason a backend ran slow here."""
    env_on = [s for s in active(facts.get("env") or {}) if s["class"] in SETTING_CLASSES
              and (s["class"] != "compile-off" or backend == "flex")
              and (s["class"] != "interpreter" or backend in s["breaks"])]
    env_on.sort(key=lambda s: SETTING_CLASSES.index(s["class"]))
    if env_on:
        s = env_on[0]
        return f"{s['var']}={s['value']} is set (see its own finding)", f"unset {s['var']}"
    found = {fid: p for fid, p in reversed(gpu_problems(facts))}
    for fid in GPU_CAUSES:
        if fid in found:
            from ..knowledge import get, render

            e = get(fid)
            return render(e.title, found[fid]).rstrip("."), render(e.fix, found[fid])
    return ("no setting or GPU problem found here explains it: other work on the host's CPUs, or a slower "
            "system than the reference's", "attn-doctor bench   # times each backend at your own shapes")


@check("smoke")
def timed_case(facts: dict, ctx: Context):
    for key, name, res in results(facts):
        if key == "cpu" or failure(res):
            continue
        c = next((c for c in res.get("cases") or [] if c.get("kind", "dense") != "refusal"), None)
        # Only the fastest of the repeated calls is judged: a report saved before they existed has one
        # call, which on healthy H100s was up to 3.3x the median (fixtures/gpu/h100*, sage and cute).
        if not c or not c.get("ok") or not c.get("seconds_min"):
            continue
        ref = reference(res.get("gpu"), name, c["name"])
        if not ref:
            continue
        took = c["seconds_min"]
        speed = ref["seconds"] / took
        if speed >= SLOW:
            continue
        what, paste = likeliest_cause(facts, name)
        yield finding("smoke.slow", backend=name, title=SPECS[name].title, where=_where(key, res, facts),
                      percent=f"{speed * 100:.0f}", seconds=f"{took * 1000:.2f}", reference=f"{ref['seconds'] * 1000:.2f}",
                      cause=what, cause_fix=paste, detail=f"reference: {ref['runs']} runs, {ref['source']}")
