"""The GPUs' health before any kernel runs: memory and utilisation held by other processes, clocks and
why they are held down, power limit, PCIe link, ECC errors and pending page retirement or row
remapping, MIG mode, compute mode.

Read through NVML (nvidia-ml-py's `pynvml`, optional: probed in a child process where it is installed,
facts/nvml_probe.py), else from `nvidia-smi --query-gpu=... --format=csv`, which every NVIDIA driver
ships. Read only: nothing here changes a GPU setting. Both sources give one record per GPU of the
same shape (see nvml_probe.gpu_record).
"""

from __future__ import annotations

import os
import re
import shutil

from .. import proc

# nvidia-smi --help-query-gpu names (driver 580). A driver that does not know one refuses the whole
# query, so a shorter list follows.
FIELDS = ("index,name,uuid,memory.total,memory.used,utilization.gpu,clocks.sm,clocks.max.sm,clocks.mem,clocks.max.mem,"
          "clocks_event_reasons.active,temperature.gpu,power.draw,power.limit,power.default_limit,"
          "pcie.link.gen.current,pcie.link.gen.max,pcie.link.gen.gpumax,pcie.link.width.current,pcie.link.width.max,"
          "ecc.mode.current,ecc.errors.uncorrected.volatile.total,ecc.errors.uncorrected.aggregate.total,"
          "retired_pages.pending,mig.mode.current,mig.mode.pending,compute_mode,pstate")
FIELDS_OLD = FIELDS.replace("clocks_event_reasons.active", "clocks_throttle_reasons.active").replace(
    "pcie.link.gen.gpumax,", "")
FIELDS_MIN = "index,name,uuid,memory.total,memory.used,utilization.gpu,compute_mode"
COMPUTE = {"default": "default", "exclusive_process": "exclusive_process", "prohibited": "prohibited",
           "exclusive_thread": "exclusive_thread"}


def _val(s: str | None):
    """A CSV cell: None for [N/A], [Not Supported], N/A, empty; else the stripped text."""
    if s is None:
        return None
    s = s.strip()
    return None if not s or s.startswith("[") or s in ("N/A", "Not Supported") else s


def _num(s, cast=float):
    v = _val(s)
    if v is None:
        return None
    m = re.match(r"-?\d+(\.\d+)?", v)
    return cast(float(m.group(0))) if m else None


def _bool(s):
    v = (_val(s) or "").lower()
    return True if v in ("enabled", "yes", "true") else False if v in ("disabled", "no", "false") else None


def parse_smi(text: str, fields: str) -> list[dict]:
    """`nvidia-smi --query-gpu=<fields> --format=csv,noheader,nounits` -> the GPU records."""
    names = fields.split(",")
    out = []
    for line in text.splitlines():
        cells = [c.strip() for c in line.split(",")]
        if len(cells) != len(names) or not cells[0].isdigit():
            continue
        r = dict(zip(names, cells))
        ev = _val(r.get("clocks_event_reasons.active") or r.get("clocks_throttle_reasons.active"))
        mig_cur = _bool(r.get("mig.mode.current"))
        out.append({
            "index": int(r["index"]), "name": _val(r.get("name")), "uuid": _val(r.get("uuid")),
            "memory_total_mib": _num(r.get("memory.total"), int), "memory_used_mib": _num(r.get("memory.used"), int),
            "utilization_gpu": _num(r.get("utilization.gpu"), int), "processes": [],
            "clocks": {"sm": _num(r.get("clocks.sm"), int), "sm_max": _num(r.get("clocks.max.sm"), int),
                       "mem": _num(r.get("clocks.mem"), int), "mem_max": _num(r.get("clocks.max.mem"), int)},
            "clock_events": int(ev, 16) if ev and re.fullmatch(r"0x[0-9a-fA-F]+", ev) else None,
            "temperature_c": _num(r.get("temperature.gpu"), int),
            "power": {"draw_w": _num(r.get("power.draw")), "limit_w": _num(r.get("power.limit")),
                      "default_limit_w": _num(r.get("power.default_limit"))},
            "pcie": {"gen": _num(r.get("pcie.link.gen.current"), int), "gen_max": _num(r.get("pcie.link.gen.max"), int),
                     "gen_gpu_max": _num(r.get("pcie.link.gen.gpumax"), int),
                     "width": _num(r.get("pcie.link.width.current"), int),
                     "width_max": _num(r.get("pcie.link.width.max"), int)},
            "ecc": {"enabled": _bool(r.get("ecc.mode.current")),
                    "volatile_uncorrected": _num(r.get("ecc.errors.uncorrected.volatile.total"), int),
                    "aggregate_uncorrected": _num(r.get("ecc.errors.uncorrected.aggregate.total"), int)},
            "retired_pending": _bool(r.get("retired_pages.pending")),
            "remapped": None,
            "mig": None if mig_cur is None else {"current": mig_cur, "pending": _bool(r.get("mig.mode.pending")),
                                                  "instances": None},  # nvidia-smi -L lists them
            "compute_mode": COMPUTE.get((_val(r.get("compute_mode")) or "").lower()),
            "pstate": _val(r.get("pstate")),
        })
    return out


def parse_apps(text: str) -> dict[str, list[dict]]:
    """`--query-compute-apps=gpu_uuid,pid,process_name,used_memory` -> processes per GPU uuid."""
    out: dict[str, list[dict]] = {}
    for line in text.splitlines():
        cells = [c.strip() for c in line.split(",")]
        if len(cells) < 4 or not cells[1].isdigit():
            continue
        out.setdefault(cells[0], []).append({"pid": int(cells[1]), "name": _val(cells[2]),
                                             "used_mib": _num(cells[3], int)})
    return out


def parse_remapped(text: str) -> dict[str, dict]:
    """`--query-remapped-rows=gpu_uuid,remapped_rows.correctable,remapped_rows.uncorrectable,
    remapped_rows.pending,remapped_rows.failure` -> per GPU uuid."""
    out = {}
    for line in text.splitlines():
        c = [x.strip() for x in line.split(",")]
        if len(c) == 5 and c[0].startswith("GPU-"):
            out[c[0]] = {"correctable": _num(c[1], int), "uncorrectable": _num(c[2], int),
                         "pending": _bool(c[3]), "failure": _bool(c[4])}
    return out


def from_smi(smi: str, timeout: float) -> dict:
    out: dict = {"source": "nvidia-smi", "gpus": [], "error": None}
    for fields in (FIELDS, FIELDS_OLD, FIELDS_MIN):
        r = proc.run([smi, f"--query-gpu={fields}", "--format=csv,noheader,nounits"], timeout=timeout)
        if r.ok:
            out["gpus"] = parse_smi(r.stdout, fields)
            break
        out["error"] = (r.start_error or (r.text().strip().splitlines() or [f"exit {r.returncode}"])[-1])[:300]
        if r.timed_out:
            return out
    else:
        return out
    out["error"] = None
    apps = proc.run([smi, "--query-compute-apps=gpu_uuid,pid,process_name,used_memory", "--format=csv,noheader,nounits"],
                    timeout=timeout)
    rows = proc.run([smi, "--query-remapped-rows=gpu_uuid,remapped_rows.correctable,remapped_rows.uncorrectable,"
                          "remapped_rows.pending,remapped_rows.failure", "--format=csv,noheader,nounits"], timeout=timeout)
    procs = parse_apps(apps.stdout) if apps.ok else {}
    remap = parse_remapped(rows.stdout) if rows.ok else {}
    for g in out["gpus"]:
        g["processes"] = procs.get(g.get("uuid") or "", [])
        g["remapped"] = remap.get(g.get("uuid") or "")
    return out


def _mark_visible(out: dict) -> dict:
    """Is each process's pid in this machine's (container's) process table? NVML answers with the
    host's pids; inside a container they name nothing here."""
    for g in out.get("gpus") or []:
        for p in g.get("processes") or []:
            p["here"] = os.path.exists(f"/proc/{p['pid']}")
    return out


def collect(timeout: float = 15.0, python: str | None = None) -> dict:
    """NVML in a child where pynvml imports (the doctor's interpreter, then the checked one), else
    nvidia-smi; {"source": None} when neither is there (no NVIDIA driver)."""
    nvml: dict = {"available": False, "missing": True}
    for py in dict.fromkeys([None, python]):
        r = proc.run(proc.child_argv("facts.nvml_probe", python=py), timeout=timeout)
        nvml = r.payload or {"available": False, "missing": False,
                             "error": "the NVML probe " + ("timed out" if r.timed_out else f"exited {r.returncode}")}
        if nvml.get("available") or not nvml.get("missing"):
            break
    if nvml.get("available"):
        return _mark_visible({"source": "nvml", "nvml": {k: nvml.get(k) for k in ("version", "driver")},
                              "gpus": nvml["gpus"], "error": None})
    smi = shutil.which("nvidia-smi")
    why = "nvidia-ml-py is not installed" if nvml.get("missing") else f"NVML failed: {nvml.get('error')}"
    if not smi:
        return {"source": None, "nvml": {"error": why}, "gpus": [], "error": None}
    out = from_smi(smi, timeout)
    out["nvml"] = {"error": why}
    return _mark_visible(out)
