"""Runs in a child interpreter: read every GPU's health through NVML (nvidia-ml-py, module `pynvml`).
Prints one JSON line. Only the standard library and pynvml are imported; each query that a driver
or GPU does not support leaves its field None instead of failing the probe. Nothing is changed on
the GPU: only nvmlDeviceGet* / nvmlSystemGet* calls.

The record of each GPU has the same shape as facts/gpu_health.parse_smi() makes from nvidia-smi.
"""

from __future__ import annotations

import json
import sys
import time

SENTINEL = "@@ATTN_DOCTOR@@"
COMPUTE_MODES = {0: "default", 1: "exclusive_thread", 2: "prohibited", 3: "exclusive_process"}


def _q(fn, *args):
    """fn(*args), or None when the driver / GPU does not support it (NVMLError and friends)."""
    try:
        return fn(*args)
    except Exception:
        return None


def _s(v):
    return v.decode(errors="replace") if isinstance(v, bytes) else v


def _mib(n):
    return None if n is None else int(n // (1024 * 1024))


def gpu_record(nv, i: int) -> dict:
    h = nv.nvmlDeviceGetHandleByIndex(i)
    g: dict = {"index": i, "name": _s(_q(nv.nvmlDeviceGetName, h)), "uuid": _s(_q(nv.nvmlDeviceGetUUID, h))}
    mem = _q(nv.nvmlDeviceGetMemoryInfo, h)
    g["memory_total_mib"], g["memory_used_mib"] = (_mib(mem.total), _mib(mem.used)) if mem else (None, None)
    # Utilisation is the share of the last sample period (1/6 s to 1 s) a kernel ran: three samples,
    # the lowest counts, so one burst is not "busy".
    samples = []
    for k in range(3):
        u = _q(nv.nvmlDeviceGetUtilizationRates, h)
        if u is not None:
            samples.append(int(u.gpu))
        if k < 2:
            time.sleep(0.1)
    g["utilization_gpu"] = min(samples) if samples else None
    procs = []
    for fn in ("nvmlDeviceGetComputeRunningProcesses", "nvmlDeviceGetGraphicsRunningProcesses"):
        for p in _q(getattr(nv, fn, lambda _h: None), h) or []:
            used = getattr(p, "usedGpuMemory", None)
            procs.append({"pid": int(p.pid), "name": _s(_q(nv.nvmlSystemGetProcessName, p.pid)),
                          "used_mib": _mib(used) if isinstance(used, int) and used < 1 << 62 else None})
    g["processes"] = procs
    g["clocks"] = {"sm": _q(nv.nvmlDeviceGetClockInfo, h, nv.NVML_CLOCK_SM),
                   "sm_max": _q(nv.nvmlDeviceGetMaxClockInfo, h, nv.NVML_CLOCK_SM),
                   "mem": _q(nv.nvmlDeviceGetClockInfo, h, nv.NVML_CLOCK_MEM),
                   "mem_max": _q(nv.nvmlDeviceGetMaxClockInfo, h, nv.NVML_CLOCK_MEM)}
    events = _q(getattr(nv, "nvmlDeviceGetCurrentClocksEventReasons", None) or nv.nvmlDeviceGetCurrentClocksThrottleReasons, h)
    g["clock_events"] = int(events) if events is not None else None
    g["temperature_c"] = _q(nv.nvmlDeviceGetTemperature, h, nv.NVML_TEMPERATURE_GPU)
    mw = lambda fn: (lambda v: None if v is None else round(v / 1000, 1))(_q(fn, h))  # noqa: E731  (milliwatts)
    g["power"] = {"draw_w": mw(nv.nvmlDeviceGetPowerUsage), "limit_w": mw(nv.nvmlDeviceGetEnforcedPowerLimit),
                  "default_limit_w": mw(nv.nvmlDeviceGetPowerManagementDefaultLimit)}
    g["pcie"] = {"gen": _q(nv.nvmlDeviceGetCurrPcieLinkGeneration, h),
                 "gen_max": _q(nv.nvmlDeviceGetMaxPcieLinkGeneration, h),
                 "gen_gpu_max": _q(getattr(nv, "nvmlDeviceGetGpuMaxPcieLinkGeneration", lambda _h: None), h),
                 "width": _q(nv.nvmlDeviceGetCurrPcieLinkWidth, h),
                 "width_max": _q(nv.nvmlDeviceGetMaxPcieLinkWidth, h)}
    ecc_mode = _q(nv.nvmlDeviceGetEccMode, h)
    g["ecc"] = {"enabled": bool(ecc_mode[0]) if ecc_mode else None,
                "volatile_uncorrected": _q(nv.nvmlDeviceGetTotalEccErrors, h, nv.NVML_MEMORY_ERROR_TYPE_UNCORRECTED,
                                           nv.NVML_VOLATILE_ECC),
                "aggregate_uncorrected": _q(nv.nvmlDeviceGetTotalEccErrors, h, nv.NVML_MEMORY_ERROR_TYPE_UNCORRECTED,
                                            nv.NVML_AGGREGATE_ECC)}
    pending = _q(nv.nvmlDeviceGetRetiredPagesPendingStatus, h)
    g["retired_pending"] = None if pending is None else bool(pending)
    rows = _q(getattr(nv, "nvmlDeviceGetRemappedRows", lambda _h: None), h)  # (corr, unc, pending, failure)
    g["remapped"] = None if rows is None else {"correctable": rows[0], "uncorrectable": rows[1],
                                               "pending": bool(rows[2]), "failure": bool(rows[3])}
    mig = _q(nv.nvmlDeviceGetMigMode, h)
    g["mig"] = None if mig is None else {"current": bool(mig[0]), "pending": bool(mig[1]), "instances": []}
    if g["mig"] and g["mig"]["current"]:
        for k in range(_q(nv.nvmlDeviceGetMaxMigDeviceCount, h) or 0):
            m = _q(nv.nvmlDeviceGetMigDeviceHandleByIndex, h, k)
            if m is None:
                continue
            mm = _q(nv.nvmlDeviceGetMemoryInfo, m)
            g["mig"]["instances"].append({"name": _s(_q(nv.nvmlDeviceGetName, m)), "uuid": _s(_q(nv.nvmlDeviceGetUUID, m)),
                                          "memory_total_mib": _mib(mm.total) if mm else None})
    g["compute_mode"] = COMPUTE_MODES.get(_q(nv.nvmlDeviceGetComputeMode, h))
    ps = _q(nv.nvmlDeviceGetPerformanceState, h)
    g["pstate"] = None if ps is None else f"P{ps}"
    return g


def probe() -> dict:
    try:
        import pynvml as nv
    except ImportError as e:
        return {"available": False, "missing": True, "error": f"{type(e).__name__}: {e}"}
    try:
        nv.nvmlInit()
    except Exception as e:  # no driver, no GPU, a container without the NVML library
        return {"available": False, "missing": False, "error": f"{type(e).__name__}: {e}"}
    try:
        out = {"available": True, "driver": _s(_q(nv.nvmlSystemGetDriverVersion)),
               "version": _s(_q(nv.nvmlSystemGetNVMLVersion)), "gpus": []}
        for i in range(nv.nvmlDeviceGetCount()):
            out["gpus"].append(gpu_record(nv, i))
        return out
    finally:
        _q(nv.nvmlShutdown)


def main() -> None:
    try:
        result = probe()
    except BaseException as e:  # the probe must always answer
        result = {"available": False, "missing": False, "error": f"{type(e).__name__}: {e}"}
    print("\n" + SENTINEL + json.dumps(result, default=str), flush=True)


if __name__ == "__main__":
    main()
    sys.exit(0)
