#!/usr/bin/env python3
"""Run one build command and measure it: a timestamped log, and a JSON summary beside it.

    python3 scripts/gpu/timed.py NAME LOGDIR -- CMD ...

writes LOGDIR/NAME.log (every output line with a UTC timestamp, plus a MEMSAMPLE line every 30 s:
memory in use and compiler processes), and when the command ends LOGDIR/NAME.json:
{name, cmd, env (the build variables), start, end, wall_s, cpu_user_s, cpu_sys_s, cpu_min, rc,
peak_used_gib, peak_compilers}. CPU time is the command's and all its waited-for descendants'
(getrusage RUSAGE_CHILDREN), i.e. every nvcc/cicc/ptxas/g++ the build ran.

    python3 scripts/gpu/timed.py --ninja BUILD_DIR    # per-file times from BUILD_DIR/.ninja_log as JSON

The ninja log holds one line per compiled output: start and end in ms since ninja started. With one
thread per job and no more jobs than cores, a file's wall time is its CPU time.
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import threading
import time

BUILD_VARS = ("MAX_JOBS", "NVCC_THREADS", "FLASH_ATTN_CUDA_ARCHS", "FLASH_ATTENTION_FORCE_BUILD", "TORCH_CUDA_ARCH_LIST",
              "FLASH_ATTN_LOCAL_VERSION", "XFORMERS_BUILD_TYPE", "CUDA_HOME")


def stamp() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


def mem_used_gib() -> float | None:
    try:
        info = {}
        with open("/proc/meminfo") as fh:
            for line in fh:
                k, v = line.split(":", 1)
                info[k] = int(v.split()[0])
        return round((info["MemTotal"] - info["MemAvailable"]) / 1024 ** 2, 1)
    except (OSError, KeyError, ValueError):
        return None


def compilers() -> int:
    n = 0
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/comm") as fh:
                if fh.read().strip() in ("cicc", "ptxas", "cc1plus", "cudafe++"):
                    n += 1
        except OSError:
            pass
    return n


def ninja_times(build_dir: str) -> list[dict]:
    """Per-output times from every .ninja_log under build_dir (the last entry per output wins)."""
    out: dict[str, dict] = {}
    for root, _dirs, files in os.walk(build_dir):
        if ".ninja_log" not in files:
            continue
        with open(os.path.join(root, ".ninja_log")) as fh:
            for line in fh:
                if line.startswith("#"):
                    continue
                parts = line.rstrip("\n").split("\t")
                if len(parts) < 4:
                    continue
                start, end, _mtime, path = parts[:4]
                out[path] = {"file": os.path.basename(path), "start_s": int(start) / 1000, "end_s": int(end) / 1000,
                             "seconds": (int(end) - int(start)) / 1000}
    return sorted(out.values(), key=lambda r: r["start_s"])


def run(name: str, logdir: str, cmd: list[str]) -> int:
    os.makedirs(logdir, exist_ok=True)
    log = open(os.path.join(logdir, f"{name}.log"), "a", buffering=1)
    summary = {"name": name, "cmd": cmd, "env": {k: os.environ[k] for k in BUILD_VARS if k in os.environ},
               "start": stamp(), "peak_used_gib": 0.0, "peak_compilers": 0}
    log.write(f"{summary['start']} START {json.dumps(summary['env'])} {' '.join(cmd)}\n")
    t0 = time.monotonic()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    stop = threading.Event()

    def sample():
        while not stop.wait(30):
            used, n = mem_used_gib(), compilers()
            summary["peak_used_gib"] = max(summary["peak_used_gib"], used or 0)
            summary["peak_compilers"] = max(summary["peak_compilers"], n)
            log.write(f"{stamp()} MEMSAMPLE used_gib={used} compilers={n}\n")

    threading.Thread(target=sample, daemon=True).start()
    for raw in p.stdout:
        log.write(f"{stamp()} {raw.decode('utf-8', 'replace').rstrip()}\n")
    rc = p.wait()
    stop.set()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    user, sys_ = after.ru_utime - before.ru_utime, after.ru_stime - before.ru_stime
    summary.update(end=stamp(), wall_s=round(time.monotonic() - t0, 1), cpu_user_s=round(user, 1),
                   cpu_sys_s=round(sys_, 1), cpu_min=round((user + sys_) / 60, 2), rc=rc)
    log.write(f"{summary['end']} EXIT {rc}\n")
    log.close()
    tmp = os.path.join(logdir, f".{name}.json.tmp")
    with open(tmp, "w") as fh:
        json.dump(summary, fh, indent=1)
    os.replace(tmp, os.path.join(logdir, f"{name}.json"))
    return rc


if __name__ == "__main__":
    a = sys.argv[1:]
    if len(a) == 2 and a[0] == "--ninja":
        json.dump(ninja_times(a[1]), sys.stdout, indent=1)
        sys.exit(0)
    if len(a) < 4 or a[2] != "--":
        raise SystemExit(__doc__)
    sys.exit(run(a[0], a[1], a[3:]))
