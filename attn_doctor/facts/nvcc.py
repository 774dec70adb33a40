"""Every nvcc a source build could pick up, and which one torch's extension builder would use."""

from __future__ import annotations

import glob
import os
import re
import shutil
from concurrent.futures import ThreadPoolExecutor

from .. import proc

RELEASE = re.compile(r"release (\d+)\.(\d+)")


def candidates(environ: dict, sys_path: list[str]) -> list[tuple[str, str]]:
    """(path, where it was found), deduplicated by real path, in the order a build would look."""
    found: list[tuple[str, str]] = []
    for var in ("CUDA_HOME", "CUDA_PATH"):
        if environ.get(var):
            found.append((os.path.join(environ[var], "bin", "nvcc"), f"${var}"))
    for d in (environ.get("PATH") or "").split(os.pathsep):
        if d:
            p = os.path.join(d, "nvcc")
            if os.path.isfile(p):
                found.append((p, "PATH"))
    for p in sorted(glob.glob("/usr/local/cuda*/bin/nvcc")):
        found.append((p, "/usr/local/cuda*"))
    for sp in sys_path:  # the pip wheels nvidia-cuda-nvcc(-cuXX)
        for p in sorted(glob.glob(os.path.join(sp, "nvidia", "cuda_nvcc", "bin", "nvcc"))
                        + glob.glob(os.path.join(sp, "nvidia", "cu*", "bin", "nvcc"))):
            found.append((p, "pip wheel"))
    seen, out = set(), []
    for p, src in found:
        key = os.path.realpath(p)
        if key in seen:
            continue
        seen.add(key)
        out.append((p, src))
    return out


def build_choice(environ: dict) -> str | None:
    """What torch.utils.cpp_extension would use: CUDA_HOME/CUDA_PATH, then nvcc on PATH, then /usr/local/cuda."""
    for var in ("CUDA_HOME", "CUDA_PATH"):
        if environ.get(var):
            return os.path.join(environ[var], "bin", "nvcc")
    which = shutil.which("nvcc", path=environ.get("PATH"))
    if which:
        return which
    if os.path.exists("/usr/local/cuda/bin/nvcc"):
        return "/usr/local/cuda/bin/nvcc"
    return None


def probe(path: str, source: str, timeout: float) -> dict:
    info: dict = {"path": path, "source": source, "version": None, "error": None, "kind": None}
    if not os.path.exists(path):
        info.update(kind="absent", error="no such file")
        return info
    if not os.access(path, os.X_OK):
        info.update(kind="not-executable", error="not executable")
        return info
    r = proc.run([path, "--version"], timeout=timeout)
    if r.timed_out:
        info.update(kind="hang", error=f"no answer to --version within {timeout:g} s")
    elif r.start_error:
        info.update(kind="not-executable", error=r.start_error)
    else:
        m = RELEASE.search(r.stdout)
        if m and r.returncode == 0:
            info["version"] = f"{m.group(1)}.{m.group(2)}"
        else:
            first = next((ln for ln in r.text().splitlines() if ln.strip()), "")[:200]
            info.update(kind="garbage", error=f"exit {r.returncode}; printed {first!r}")
    return info


def collect(environ: dict, sys_path: list[str], timeout: float = 10.0) -> dict:
    cands = candidates(environ, sys_path)
    with ThreadPoolExecutor(max_workers=max(1, min(8, len(cands)))) as ex:
        results = list(ex.map(lambda c: probe(c[0], c[1], timeout), cands))
    return {"found": results, "build_choice": build_choice(environ)}
