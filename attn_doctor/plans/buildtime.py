"""How long a FlashAttention source build takes: files x CPU-minutes per file, spread over the compile
streams the machine runs at once.

    CPU       = files x archs x per_file            (CPU-minutes; per_file: one file, one arch, measured)
    streams   = min(cores, jobs x min(threads, archs))   (nvcc --threads only splits one file's archs)
    wall      = overhead + CPU / streams + tail
    tail      = half of one file's own wall time (the last files finish alone; with every file the same
                size and files >> streams this is the average idle at the end of a list schedule)

The per-file figures, the overhead and the run each came from are data in knowledge/installs/fa2.toml
and fa3.toml ([build.time]); a build measured on a GPU host (scripts/gpu/builds.sh, timed.py) checks
them: its CPU-minutes / files is the per-file figure, its wall the model's output.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

from . import data


@dataclass
class Estimate:
    backend: str
    files: int
    archs: int
    per_file: tuple[float, float]  # CPU-minutes for one file and one arch: low, high
    streams: int
    minutes: tuple[int, int]
    cpu_minutes: tuple[float, float]
    basis: str  # which measurement the per-file figure is

    def to_json(self) -> dict:
        return {"backend": self.backend, "files": self.files, "archs": self.archs, "per_file": list(self.per_file),
                "streams": self.streams, "minutes": list(self.minutes), "cpu_minutes": list(self.cpu_minutes),
                "basis": self.basis}


def streams(jobs: int, threads: int, archs: int, cores: int | None) -> int:
    per_job = max(1, min(threads, archs))
    s = max(1, jobs) * per_job
    return max(1, min(s, cores)) if cores else s


def wall_minutes(files: int, archs: int, per_file: float, jobs: int, threads: int, cores: int | None,
                 overhead: float = 0.0) -> float:
    """The model, for one per-file figure."""
    if files <= 0:
        return overhead
    st = streams(jobs, threads, archs, cores)
    per_job = max(1, min(threads, archs))
    cpu = files * archs * per_file
    one_file = per_file * math.ceil(archs / per_job)
    # more streams than cores: every file runs slower by that ratio
    crowd = max(1.0, max(1, jobs) * per_job / cores) if cores else 1.0
    tail = min(one_file * crowd, cpu / st) / 2
    return overhead + cpu / st + tail


def time_data(backend: str, reduced: bool = False) -> dict:
    t = data(backend)["build"]["time"]
    if reduced and "reduced" in t:
        merged = dict(t)
        merged.update(t["reduced"])
        return merged
    return t


def estimate(backend: str, *, files: int, jobs: int, threads: int, archs: int, cores: int | None,
             reduced: bool = False) -> Estimate:
    """Wall-clock minutes (low, high) for `files` kernel files of `backend` ("fa2" or "fa3")."""
    t = time_data(backend, reduced)
    per = float(t["cpu_min_per_file"])
    lo_f, hi_f = t["spread"]
    lo, hi = (wall_minutes(files, archs, per * f, jobs, threads, cores, t["overhead_min"]) for f in (lo_f, hi_f))
    return Estimate(backend=backend, files=files, archs=archs, per_file=(round(per * lo_f, 2), round(per * hi_f, 2)),
                    streams=streams(jobs, threads, archs, cores),
                    minutes=(max(1, math.floor(lo)), max(1, math.ceil(hi))),
                    cpu_minutes=(round(files * archs * per * lo_f, 1), round(files * archs * per * hi_f, 1)),
                    basis=t["basis"])


# ---- which files a build compiles ----------------------------------------------------------------

FA2_HDIMS = (32, 64, 96, 128, 192, 256)


def fa2_files(hdims=FA2_HDIMS) -> int:
    """flash-attn 2.8.x setup.py: fwd, bwd and split-KV fwd x fp16/bf16 x causal/not per head dim, plus
    flash_api.cpp (73 for all six head dims)."""
    return 3 * 2 * 2 * len([h for h in hdims if h in FA2_HDIMS]) + 1


def _on(env: dict, name: str) -> bool:
    return str(env.get(f"FLASH_ATTENTION_DISABLE_{name}", "FALSE")).upper() == "TRUE"


def fa3_file_list(env: dict | None = None) -> list[str]:
    """The sources hopper/setup.py compiles under these FLASH_ATTENTION_DISABLE_* variables (its
    logic at flash-attention 0251105a, 2026-08-15): instantiation files, flash_api_stable.cpp,
    flash_fwd_combine.cu (unless SPLIT is off) and flash_prepare_scheduler.cu."""
    env = env or {}
    dis = lambda n: _on(env, n)  # noqa: E731
    hd = [h for h in (64, 96, 128, 192, 256) if not dis(f"HDIM{h}")]
    half = ["bf16"] + ([] if dis("FP16") else ["fp16"])
    fwd90 = half + ([] if dis("FP8") else ["e4m3"])
    split = [""] + ([] if dis("SPLIT") else ["_split"])
    paged = [""] + ([] if dis("PAGEDKV") else ["_paged"])
    softcap = [""] + ([] if dis("SOFTCAP") else ["_softcap"])
    softcap_all = [""] if dis("SOFTCAP") else ["_softcapall"]
    packgqa = [""] + ([] if dis("PACKGQA") else ["_packgqa"])
    diff64 = [] if dis("HDIMDIFF64") else ["64_256", "64_512"]
    diff192 = [] if dis("HDIMDIFF192") else ["192_128"]
    sm80 = not dis("SM80")

    def fwd(dims, dtypes):
        return [f"flash_fwd_hdim{h}_{d}{p}{s}{c}{g}_sm90.cu"
                for h, d, s, p, c, g in itertools.product(dims, dtypes, split, paged, softcap, packgqa)
                if not (g and (p or s))]

    files = fwd(hd, fwd90) + fwd(diff64, half) + fwd(diff192, fwd90)
    if sm80:
        files += [f"flash_fwd_hdim{h}_{d}{p}{s}{c}_sm80.cu"
                  for h, d, s, p, c in itertools.product(hd, half, split, paged, softcap_all)]
    if not dis("BACKWARD"):
        files += [f"flash_bwd_hdim{h}_{d}{c}_sm90.cu" for h, d, c in itertools.product(hd, half, softcap_all)]
        if sm80:
            files += [f"flash_bwd_hdim{h}_{d}{c}_sm80.cu" for h, d, c in itertools.product(hd, half, softcap)]
    files.append("flash_api_stable.cpp")
    if not dis("SPLIT"):
        files.append("flash_fwd_combine.cu")
    files.append("flash_prepare_scheduler.cu")
    return files


def fa3_files(env: dict | None = None) -> int:
    return len(fa3_file_list(env))
