"""GPU health: what NVML (or nvidia-smi) said about each GPU the job will use, before any kernel ran
(facts["gpu_health"], facts/gpu_health.py). Thresholds are the vendor's where it gives one (ECC,
retired pages, remapped rows, MIG and compute modes, clock event reasons), and stated in
knowledge/gpu.toml where it does not. Idle readings the driver lowers on purpose (PCIe link, clocks
at idle) are not judged. Nothing here changes a GPU setting."""

from __future__ import annotations

from ..facts import view
from ..knowledge import finding
from . import Context, check

GIB = 1024
HELD_MIB, HELD_SHARE = 2 * GIB, 0.05  # memory other processes hold: at least 2 GiB and 5% of the GPU
BUSY = 20  # % of time a kernel ran, lowest of three samples
POWER_SHARE = 0.9  # enforced limit below 90% of the default
UNDER_LOAD = 50  # % busy before a narrow PCIe link is judged
# NVML clock event reasons (nvmlClocksEventReason*)
HW = {0x8: "a hardware slowdown", 0x40: "a hardware thermal slowdown", 0x80: "the power brake"}
SW_THERMAL = 0x20
REASONS = {0x1: "idle", 0x2: "application clocks", 0x4: "software power cap", 0x8: "hardware slowdown",
           0x10: "sync boost", 0x20: "software thermal slowdown", 0x40: "hardware thermal slowdown",
           0x80: "power brake", 0x100: "display clocks"}


def _uuid(u: str | None) -> str:
    return (u or "").lower().removeprefix("gpu-")


def _without_own(g: dict, own: set[int]) -> dict:
    """The record without the doctor's own children (the torch probe may hold a context already)."""
    ours = [p for p in g.get("processes") or [] if p.get("pid") in own]
    if not ours:
        return g
    used = g.get("memory_used_mib")
    freed = sum(p.get("used_mib") or 0 for p in ours)
    return dict(g, processes=[p for p in g["processes"] if p.get("pid") not in own],
                memory_used_mib=None if used is None else max(0, used - freed))


def job_gpus(facts: dict) -> list[dict]:
    """The health records of the GPUs this job sees (CUDA_VISIBLE_DEVICES applied through the GPUs'
    UUIDs where known), else every GPU's; the doctor's own processes left out."""
    h = facts.get("gpu_health") or {}
    own = set(h.get("own_pids") or [])
    recs = [_without_own(g, own) for g in h.get("gpus") or []]
    visible = view.gpus(facts)
    if h.get("device_ids") is not None:  # --device, or this rank's GPU under --distributed
        visible = [g for i, g in enumerate(visible) if i in h["device_ids"]]
    seen = {_uuid(g.get("uuid")) for g in visible} - {""}
    mine = [r for r in recs if _uuid(r.get("uuid")) in seen]
    return mine or ([] if h.get("device_ids") is not None and seen else recs)


def _gib(mib) -> str:
    return f"{mib / GIB:.1f} GiB" if mib is not None else "?"


def _who(g: dict) -> str:
    procs = [p for p in g.get("processes") or []]
    if not procs:
        return "no process is visible from here: it runs in another container or as another user"
    return ", ".join(f"pid {p['pid']} {p.get('name') or '?'}" + (f" {_gib(p['used_mib'])}" if p.get("used_mib") else "")
                     + (" (the host's pid: not in this container)" if p.get("here") is False else "")
                     for p in sorted(procs, key=lambda p: -(p.get("used_mib") or 0))[:4]) + \
        (f" and {len(procs) - 4} more" if len(procs) > 4 else "")


def problems(facts: dict) -> list[tuple[str, dict]]:
    """(finding id, params) for every health problem of the job's GPUs."""
    out = []
    for g in job_gpus(facts):
        p = {"gpu": f"GPU {g['index']} ({g.get('name') or '?'})", "index": g["index"]}
        total, used = g.get("memory_total_mib"), g.get("memory_used_mib")
        if total and used is not None and used >= HELD_MIB and used >= HELD_SHARE * total:
            out.append(("gpu.memory-held", dict(p, used=_gib(used), total=_gib(total), who=_who(g))))
        if (g.get("utilization_gpu") or 0) >= BUSY:
            out.append(("gpu.busy", dict(p, util=g["utilization_gpu"], who=_who(g))))
        ev = g.get("clock_events") or 0
        hw = [name for bit, name in HW.items() if ev & bit]
        clk = g.get("clocks") or {}
        if hw:
            out.append(("gpu.clocks-slowdown", dict(p, reasons=" and ".join(hw), sm=clk.get("sm") or "?",
                                                     sm_max=clk.get("sm_max") or "?")))
        if ev & SW_THERMAL:
            t = g.get("temperature_c")
            out.append(("gpu.thermal", dict(p, temp=f", {t} C" if t is not None else "")))
        pw = g.get("power") or {}
        if pw.get("limit_w") and pw.get("default_limit_w") and pw["limit_w"] < POWER_SHARE * pw["default_limit_w"]:
            out.append(("gpu.power-capped", dict(p, limit=f"{pw['limit_w']:g}", default=f"{pw['default_limit_w']:g}")))
        pcie = g.get("pcie") or {}
        if pcie.get("gen_max") and pcie.get("gen_gpu_max") and pcie["gen_max"] < pcie["gen_gpu_max"]:
            out.append(("gpu.pcie-slot", dict(p, gen_max=pcie["gen_max"], gen_gpu_max=pcie["gen_gpu_max"])))
        if (g.get("utilization_gpu") or 0) >= UNDER_LOAD and pcie.get("width") and pcie.get("width_max") \
                and pcie["width"] < pcie["width_max"]:
            out.append(("gpu.pcie-narrow", dict(p, width=pcie["width"], width_max=pcie["width_max"])))
        ecc = g.get("ecc") or {}
        if (ecc.get("volatile_uncorrected") or 0) > 0:
            out.append(("gpu.ecc-uncorrected", dict(p, count=ecc["volatile_uncorrected"])))
        if g.get("retired_pending"):
            out.append(("gpu.retired-pending", p))
        rm = g.get("remapped") or {}
        if rm.get("failure"):
            out.append(("gpu.remap-failed", p))
        elif rm.get("pending"):
            out.append(("gpu.remap-pending", p))
        mig = g.get("mig") or {}
        if mig.get("current"):
            inst = mig.get("instances")
            slices = ", ".join(f"{i.get('name') or '?'} {_gib(i.get('memory_total_mib'))}" for i in inst or []) or (
                "its slices were not read: nvidia-smi -L lists them" if inst is None else "no slice created yet")
            out.append(("gpu.mig", dict(p, slices=slices)))
        if mig and mig.get("pending") is not None and mig.get("pending") != mig.get("current"):
            on = lambda b: "enabled" if b else "disabled"  # noqa: E731
            out.append(("gpu.mig-pending", dict(p, pending=on(mig["pending"]), current=on(mig.get("current")))))
        if g.get("compute_mode") == "prohibited":
            out.append(("gpu.compute-prohibited", p))
        elif g.get("compute_mode") in ("exclusive_process", "exclusive_thread"):
            out.append(("gpu.compute-exclusive", p))
    return out


@check("gpu")
def gpu_health(facts: dict, ctx: Context):
    for fid, params in problems(facts):
        yield finding(fid, **params)


def health_lines(facts: dict) -> list[str]:
    """The text report's GPU health section: the source, then one line per GPU."""
    h = facts.get("gpu_health") or {}
    if not h or not h.get("source"):
        why = ((h.get("nvml") or {}).get("error")) if h else None
        return [f"not read ({why})"] if why and view.gpus(facts) else []
    src = "NVML" if h["source"] == "nvml" else f"nvidia-smi ({(h.get('nvml') or {}).get('error') or 'NVML not used'})"
    lines = [f"read through {src}"]
    for g in job_gpus(facts):
        clk, pw, pcie = g.get("clocks") or {}, g.get("power") or {}, g.get("pcie") or {}
        ev = g.get("clock_events")
        reasons = ", ".join(n for b, n in REASONS.items() if ev and ev & b) if ev else "none"
        parts = [f"GPU {g['index']}: {_gib(g.get('memory_used_mib'))} of {_gib(g.get('memory_total_mib'))} in use",
                 f"{g.get('utilization_gpu', '?')}% busy",
                 f"{len(g.get('processes') or [])} process(es)",
                 f"SM {clk.get('sm', '?')}/{clk.get('sm_max', '?')} MHz (clock events: {reasons})",
                 f"power limit {pw.get('limit_w', '?')}/{pw.get('default_limit_w', '?')} W",
                 f"PCIe gen {pcie.get('gen', '?')}/{pcie.get('gen_max', '?')} x{pcie.get('width', '?')}/{pcie.get('width_max', '?')}",
                 f"compute mode {g.get('compute_mode') or '?'}"]
        if (g.get("mig") or {}).get("current"):
            parts.append("MIG on")
        lines.append(", ".join(parts))
    return lines
