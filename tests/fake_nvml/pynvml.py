"""A stand-in for nvidia-ml-py's `pynvml`, for tests on a machine without a GPU.

WHAT IS FAKED: the whole NVML library. It answers the nvmlDeviceGet* calls attn_doctor/facts/nvml_probe.py
makes, with the names, constants and return shapes of nvidia-ml-py 13.615.71 (pynvml.py in its wheel,
read 2026-11-25), from the JSON file named by $FAKE_NVML ({"driver": ..., "gpus": [{...}]}; a key a
GPU lacks raises NVMLError, as an unsupported query does). Put its directory on PYTHONPATH.
"""

import json
import os
from types import SimpleNamespace

NVML_CLOCK_SM, NVML_CLOCK_MEM = 1, 2
NVML_TEMPERATURE_GPU = 0
NVML_VOLATILE_ECC, NVML_AGGREGATE_ECC = 0, 1
NVML_MEMORY_ERROR_TYPE_CORRECTED, NVML_MEMORY_ERROR_TYPE_UNCORRECTED = 0, 1


class NVMLError(Exception):
    pass


_DATA = None


def _d():
    global _DATA
    if _DATA is None:
        with open(os.environ["FAKE_NVML"], encoding="utf-8") as fh:
            _DATA = json.load(fh)
    return _DATA


def _get(h, key):
    if key not in h:
        raise NVMLError(f"Not Supported: {key}")
    return h[key]


def nvmlInit():
    if _d().get("init_error"):
        raise NVMLError(_d()["init_error"])


def nvmlShutdown():
    pass


def nvmlSystemGetDriverVersion():
    return _d()["driver"]


def nvmlSystemGetNVMLVersion():
    return _d().get("nvml", "13.580.0")


def nvmlDeviceGetCount():
    return len(_d()["gpus"])


def nvmlDeviceGetHandleByIndex(i):
    return _d()["gpus"][i]


def nvmlDeviceGetName(h):
    return _get(h, "name")


def nvmlDeviceGetUUID(h):
    return _get(h, "uuid")


def nvmlDeviceGetMemoryInfo(h, version=None):
    m = _get(h, "memory")
    return SimpleNamespace(total=m["total"], used=m["used"], free=m["total"] - m["used"])


def nvmlDeviceGetUtilizationRates(h):
    return SimpleNamespace(gpu=_get(h, "util"), memory=0)


def nvmlDeviceGetComputeRunningProcesses(h):
    return [SimpleNamespace(pid=p["pid"], usedGpuMemory=p["used"]) for p in _get(h, "processes")]


def nvmlDeviceGetGraphicsRunningProcesses(h):
    return []


def nvmlSystemGetProcessName(pid):
    names = _d().get("process_names", {})
    if str(pid) not in names:
        raise NVMLError("Not Found")
    return names[str(pid)]


def nvmlDeviceGetClockInfo(h, kind):
    return _get(h, "clocks")["sm" if kind == NVML_CLOCK_SM else "mem"]


def nvmlDeviceGetMaxClockInfo(h, kind):
    return _get(h, "max_clocks")["sm" if kind == NVML_CLOCK_SM else "mem"]


def nvmlDeviceGetCurrentClocksEventReasons(h):
    return _get(h, "events")


def nvmlDeviceGetCurrentClocksThrottleReasons(h):
    return _get(h, "events")


def nvmlDeviceGetTemperature(h, sensor):
    return _get(h, "temp")


def nvmlDeviceGetPowerUsage(h):
    return _get(h, "power_mw")


def nvmlDeviceGetEnforcedPowerLimit(h):
    return _get(h, "limit_mw")


def nvmlDeviceGetPowerManagementDefaultLimit(h):
    return _get(h, "default_limit_mw")


def nvmlDeviceGetCurrPcieLinkGeneration(h):
    return _get(h, "pcie")["gen"]


def nvmlDeviceGetMaxPcieLinkGeneration(h):
    return _get(h, "pcie")["gen_max"]


def nvmlDeviceGetGpuMaxPcieLinkGeneration(h):
    return _get(h, "pcie")["gen_gpu_max"]


def nvmlDeviceGetCurrPcieLinkWidth(h):
    return _get(h, "pcie")["width"]


def nvmlDeviceGetMaxPcieLinkWidth(h):
    return _get(h, "pcie")["width_max"]


def nvmlDeviceGetEccMode(h):
    return _get(h, "ecc_mode")


def nvmlDeviceGetTotalEccErrors(h, kind, counter):
    return _get(h, "ecc")["volatile" if counter == NVML_VOLATILE_ECC else "aggregate"]


def nvmlDeviceGetRetiredPagesPendingStatus(h):
    return _get(h, "retired_pending")


def nvmlDeviceGetRemappedRows(h):
    return tuple(_get(h, "remapped"))


def nvmlDeviceGetMigMode(h):
    return tuple(_get(h, "mig_mode"))


def nvmlDeviceGetMaxMigDeviceCount(h):
    return len(_get(h, "mig_devices"))


def nvmlDeviceGetMigDeviceHandleByIndex(h, i):
    return _get(h, "mig_devices")[i]


def nvmlDeviceGetComputeMode(h):
    return _get(h, "compute_mode")


def nvmlDeviceGetPerformanceState(h):
    return _get(h, "pstate")
