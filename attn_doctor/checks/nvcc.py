"""nvcc against torch's CUDA. It matters only for building extensions from source (fa2, fa3,
SageAttention 2.x, xformers); prebuilt wheels, Triton and the CuTe DSL never call the system nvcc."""

from __future__ import annotations

import os

from ..facts import view
from ..knowledge import finding
from . import Context, check


def _home(nvcc_path: str) -> str:
    return os.path.dirname(os.path.dirname(nvcc_path))


def _matching(found: list[dict], tc: tuple[int, int] | None) -> dict | None:
    """A working nvcc of torch's CUDA version (exact first, else the same major)."""
    if not tc:
        return None
    working = [f for f in found if f.get("version")]
    exact = [f for f in working if view.cuda_major_minor(f["version"]) == tc]
    same = [f for f in working if view.cuda_major_minor(f["version"])[0] == tc[0]]
    return (exact or same or [None])[0]


@check("nvcc")
def nvcc_matches_torch(facts: dict, ctx: Context):
    t = view.torch(facts)
    info = facts.get("nvcc") or {}
    found = info.get("found") or []
    choice = info.get("build_choice")
    tc = view.cuda_major_minor(t["cuda"])
    env = view.env(facts)
    by_path = {f["path"]: f for f in found}
    for var in ("CUDA_HOME", "CUDA_PATH"):
        if env.get(var):
            f = by_path.get(os.path.join(env[var], "bin", "nvcc"))
            if f and f.get("kind") == "absent":
                match = _matching(found, tc)
                home = _home(match["path"]) if match else ""
                yield finding("nvcc.cuda-home-no-nvcc", var=var, value=env[var], home=home,
                              fix_cmd=f"export {var}={home}" if home else
                              f"unset {var}   # or point it at a CUDA toolkit directory that has bin/nvcc")
            break
    for f in found:
        if f.get("kind") in ("hang", "garbage", "not-executable"):
            yield finding(f"nvcc.{f['kind']}", path=f["path"], error=f.get("error") or "",
                          severity=None if f["path"] == choice else "info")
    if not tc:
        return  # CPU torch (or torch unknown): nothing to match
    working = [f for f in found if f.get("version")]
    if not working:
        yield finding("nvcc.none", cuda=t["cuda"], major=tc[0], minor=tc[1])
        return
    chosen = by_path.get(choice) if choice else None
    if not chosen or not chosen.get("version"):
        return
    nv = view.cuda_major_minor(chosen["version"])
    if nv == tc:
        return
    same_major = [f for f in working if view.cuda_major_minor(f["version"])[0] == tc[0]]
    exact = [f for f in same_major if view.cuda_major_minor(f["version"]) == tc]
    better = (exact or same_major or [None])[0]
    want = f"/usr/local/cuda-{tc[0]}.{tc[1]}"
    fix = (f"export CUDA_HOME={_home(better['path'])}" if better
           else f"export CUDA_HOME={want}   # after installing the CUDA {tc[0]}.{tc[1]} toolkit there (source builds only)")
    kind = "nvcc.major-mismatch" if nv[0] != tc[0] else "nvcc.minor-mismatch"
    if kind == "nvcc.minor-mismatch" and same_major and not exact:
        fix = f"export CUDA_HOME={want}   # optional: after installing the CUDA {tc[0]}.{tc[1]} toolkit there"
    # env.sh points CUDA_HOME only at a toolkit that fixes the finding: same major, exact for a minor gap.
    home = _home(better["path"]) if better and (kind == "nvcc.major-mismatch" or exact) else ""
    yield finding(kind, path=chosen["path"], nvcc=chosen["version"], cuda=t["cuda"], torch=t["version"],
                  fix_cmd=fix, home=home)


@check("nvcc")
def arch_list_leaves_out_gpu(facts: dict, ctx: Context):
    """TORCH_CUDA_ARCH_LIST / FLASH_ATTN_CUDA_ARCHS set without a GPU present: a source build gets no kernel for it."""
    from ..plans import archlist

    env = view.env(facts)
    gpus = [g for g in view.gpus(facts) if g.get("capability")]
    if not gpus:
        return
    caps = sorted({tuple(g["capability"]) for g in gpus})
    builds = {"TORCH_CUDA_ARCH_LIST": "SageAttention 2.x, xformers, FA3 and every other torch CUDA extension",
              "FLASH_ATTN_CUDA_ARCHS": "flash-attn (FA2)"}
    unset = {"TORCH_CUDA_ARCH_LIST": "torch then builds for the GPUs visible at build time",
             "FLASH_ATTN_CUDA_ARCHS": "flash-attn then builds 80;90;100;120"}
    for var in ("TORCH_CUDA_ARCH_LIST", "FLASH_ATTN_CUDA_ARCHS"):
        raw = env.get(var)
        if not raw or not raw.strip():
            continue
        judged = archlist.missing(var, raw, caps)
        if not judged or not judged[0]:
            continue
        left, fixed = judged
        names = ", ".join(f"GPU {g.get('index')} ({g.get('name')}, sm{g['capability'][0]}{g['capability'][1]})"
                          for g in gpus if tuple(g["capability"]) in left)
        yield finding("build.arch-list-leaves-out-gpu", var=var, value=raw, gpus=names, builds=builds[var],
                      fixed=fixed, unset=unset[var])
