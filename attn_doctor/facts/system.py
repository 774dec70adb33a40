"""The machine and the environment variables that change how attention backends behave."""

from __future__ import annotations

import getpass
import os
import platform
import re
import shutil
import socket
import sys

# Variables read as they are. Anything that looks like a secret is never recorded.
ENV_NAMES = (
    "CC", "CXX", "CUDA_HOME", "CUDA_PATH", "CUDA_VISIBLE_DEVICES", "CUDA_LAUNCH_BLOCKING",
    "LD_LIBRARY_PATH", "LD_PRELOAD", "PATH", "PYTHONPATH", "PYTHONNOUSERSITE", "TMPDIR", "HOME",
    "USER", "LOGNAME", "XDG_CACHE_HOME", "MAX_JOBS", "TORCH_CUDA_ARCH_LIST", "DIFFUSERS_ATTN_BACKEND",
    "FLASH_ATTN_CUDA_ARCHS", "NVCC_THREADS", "EXT_PARALLEL",
    "NVIDIA_VISIBLE_DEVICES", "NO_COLOR", "CI", "VIRTUAL_ENV", "CONDA_PREFIX",
    "LOCAL_RANK", "RANK", "WORLD_SIZE", "SLURM_PROCID", "SLURM_JOB_ID",
    # settings that slow a job down (knowledge/settings.toml) without one of the prefixes below
    "CUBLAS_WORKSPACE_CONFIG", "NVIDIA_TF32_OVERRIDE", "CUDA_MODULE_LOADING",
)
ENV_PREFIXES = ("PYTORCH_", "TORCHINDUCTOR_", "TORCH_", "TORCHDYNAMO_", "TRITON_", "CUTE_DSL_", "FLASH_ATTENTION_",
                "FA_", "XFORMERS_", "NCCL_", "CUDNN_")
SECRET = re.compile(r"TOKEN|SECRET|PASSW|API_?KEY|ACCESS_KEY|CREDENTIAL|AUTH", re.IGNORECASE)
MAX_VALUE = 4096  # a huge value is recorded cut, with its length


def env_snapshot(environ: dict | None = None) -> dict[str, str]:
    environ = os.environ if environ is None else environ
    out = {}
    for k in sorted(environ):
        if SECRET.search(k):
            continue
        if k in ENV_NAMES or k.startswith(ENV_PREFIXES):
            v = environ[k]
            if len(v) > MAX_VALUE:
                v = v[:MAX_VALUE] + f"...[{len(environ[k])} characters]"
            out[k] = v
    return out


def user_name() -> tuple[str | None, str | None]:
    """The login name that getpass finds, or the error it raises (FA4's cache dir needs one)."""
    try:
        return getpass.getuser(), None
    except Exception as e:  # KeyError in containers whose uid has no passwd entry
        return None, f"{type(e).__name__}: {e}"


def _read(path: str) -> str | None:
    try:
        with open(path, encoding="ascii", errors="replace") as fh:
            return fh.read()
    except OSError:
        return None


def _cgroup_memory_limit() -> int | None:
    """The container's memory limit in bytes (cgroup v2, else v1); None when unlimited or unknown."""
    for path in ("/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"):
        raw = (_read(path) or "").strip()
        if raw.isdigit() and int(raw) < 1 << 60:  # v1 writes a huge number for "no limit"
            return int(raw)
    return None


def _cgroup_cpu_limit() -> float | None:
    raw = (_read("/sys/fs/cgroup/cpu.max") or "").split()
    if len(raw) == 2 and raw[0].isdigit() and raw[1].isdigit() and int(raw[1]) > 0:
        return int(raw[0]) / int(raw[1])
    return None


def resources() -> dict:
    """CPU cores and memory a source build can use (MAX_JOBS is sized from them)."""
    try:
        usable = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        usable = os.cpu_count()
    mem: dict = {}
    for line in (_read("/proc/meminfo") or "").splitlines():
        m = re.match(r"(MemTotal|MemAvailable):\s+(\d+) kB", line)
        if m:
            mem["total_bytes" if m.group(1) == "MemTotal" else "available_bytes"] = int(m.group(2)) * 1024
    mem["cgroup_limit_bytes"] = _cgroup_memory_limit()
    return {"cpu": {"count": os.cpu_count(), "usable": usable, "cgroup_limit": _cgroup_cpu_limit()},
            "memory": mem}


def collect() -> dict:
    user, user_error = user_name()
    libc = platform.libc_ver()
    return {
        "python": platform.python_version(),
        "python_executable": sys.executable,
        "os": platform.platform(),
        "system": platform.system(),
        "machine": platform.machine(),
        "hostname": socket.gethostname(),
        "libc": f"{libc[0]} {libc[1]}".strip() or None,
        "user": user,
        "user_error": user_error,
        "uid": os.getuid() if hasattr(os, "getuid") else None,
        "in_venv": sys.prefix != getattr(sys, "base_prefix", sys.prefix),
        **resources(),
        "ninja": shutil.which("ninja"),  # what torch's extension builder runs (`ninja --version`)
    }
