"""GPUs and driver as the driver sees them (nvidia-smi), independent of whether torch works."""

from __future__ import annotations

import re
import shutil

from .. import proc

QUERY = "index,name,compute_cap,memory.total,driver_version,uuid,pci.bus_id"


def parse_smi(text: str) -> list[dict]:
    gpus = []
    for line in text.splitlines():
        parts = [p.strip() for p in line.split(",")]
        if len(parts) < 7 or not parts[0].isdigit():
            continue
        cap = None
        m = re.fullmatch(r"(\d+)\.(\d+)", parts[2])
        if m:
            cap = [int(m.group(1)), int(m.group(2))]
        mem = re.match(r"(\d+)", parts[3])
        gpus.append({"index": int(parts[0]), "name": parts[1], "capability": cap,
                     "memory_mib": int(mem.group(1)) if mem else None, "driver": parts[4],
                     "uuid": parts[5], "pci": parts[6]})
    return gpus


def driver_cuda(text: str) -> str | None:
    m = re.search(r"CUDA Version:\s*([\d.]+)", text)
    return m.group(1) if m else None


def collect(timeout: float = 10.0) -> dict:
    smi = shutil.which("nvidia-smi")
    out: dict = {"nvidia_smi": smi, "gpus": [], "driver": None, "driver_cuda": None, "error": None}
    try:
        with open("/proc/driver/nvidia/version", encoding="utf-8", errors="replace") as fh:
            m = re.search(r"Kernel Module\s+([\d.]+)", fh.read())
            if m:
                out["driver"] = m.group(1)
    except OSError:
        pass
    if not smi:
        return out
    r = proc.run([smi, f"--query-gpu={QUERY}", "--format=csv,noheader,nounits"], timeout=timeout)
    if r.timed_out:
        out["error"] = f"nvidia-smi did not answer within {timeout:g} s"
        return out
    if not r.ok:
        out["error"] = (r.start_error or r.text().strip().splitlines()[-1:] or [f"exit {r.returncode}"])[0][:500]
        return out
    out["gpus"] = parse_smi(r.stdout)
    if out["gpus"]:
        out["driver"] = out["gpus"][0]["driver"] or out["driver"]
    # The newest CUDA the driver supports is only in the banner.
    r2 = proc.run([smi], timeout=timeout)
    if r2.ok:
        out["driver_cuda"] = driver_cuda(r2.stdout)
    return out
