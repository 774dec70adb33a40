"""Platform: torch present and importable, built for CUDA, a GPU it can see and has kernels for,
and a driver new enough for it."""

from __future__ import annotations

import dataclasses
import re
import shlex

from ..backends import cap_str
from ..facts import view
from ..knowledge import finding, finding_for_match, render, words
from ..knowledge.match import cause
from ..textutil import last_line as _last_line
from ..torchpin import index_of, install
from . import Context, check


def reinstall_torch(t: dict) -> str:
    """The same torch build again (files only), pinned to its version and index."""
    return install(t["version"], index_of(t["version"], t["cuda"]), reinstall=True)


def torch_index(facts: dict) -> str:
    """The PyTorch wheel index for the newest CUDA this driver runs (cu130, cu128, cu126)."""
    dc = view.cuda_major_minor((facts.get("driver") or {}).get("driver_cuda"))
    for cuda, tag in (((13, 0), "cu130"), ((12, 8), "cu128"), ((12, 6), "cu126")):
        if dc is None or dc >= cuda:
            return tag
    return "cu126"


def bad_allocator(facts: dict) -> dict | None:
    """The allocator setting torch cannot parse (var, value, problem, kind), or None: when `import
    torch` dies of a signal, that setting is the likely cause (torch 2.13's CUDA build aborts on it)."""
    from .allocator import NEW, OLD, parse

    env = view.env(facts)
    for var in (OLD, NEW):  # the old name wins when both are set
        raw = env.get(var)
        problems = parse(raw).problems if raw else []
        if problems:
            return dict(var=var, value=shlex.quote(raw), problem=problems[0].message, kind=problems[0].kind)
    return None


@check("platform")
def torch_present(facts: dict, ctx: Context):
    t = view.torch(facts)
    if not t["installed"]:
        index = torch_index(facts)
        seen = view.cuda_major_minor((facts.get("driver") or {}).get("driver_cuda")) is not None
        why = render(words("platform")["index_driver" if seen else "index_no_driver"], {"index": index})
        yield finding("torch.missing", python=(facts.get("system") or {}).get("python_executable", "python"),
                      index=index, index_why=why)
        return
    run = t["run"]
    if not t["probed"]:
        return
    if run.get("timed_out"):
        yield finding("torch.import-hang", version=t["version"] or "?", seconds=f"{run.get('seconds', 0):.0f}",
                      detail=_last_line(run.get("stderr_tail", "")))
        return
    if run.get("signal"):
        alloc = bad_allocator(facts)
        yield finding("torch.import-crashed-alloc" if alloc else "torch.import-crashed", version=t["version"] or "?",
                      signal=run["signal"], torch_cmd=reinstall_torch(t),
                      detail=_last_line(run.get("stderr_tail", "")), **(alloc or {}))
        return
    start = run.get("start_error") or ""
    if not t["import_ok"] and ("PermissionError" in start or "Permission denied" in start):
        # the interpreter itself cannot be run by this user: nothing is wrong with torch
        py = (facts.get("system") or {}).get("python_executable", "python")
        yield finding("python.not-executable", python=py, error=start, user=(facts.get("system") or {}).get("user") or "?")
        return
    if not t["import_ok"]:
        err = t["error"] or {}
        own = "\n".join([err.get("traceback", ""), f"{err.get('type', '')}: {err.get('message', '')}" if err else ""])
        noise = "\n".join([run.get("stderr_tail", ""), run.get("stdout_tail", "")])
        text = "\n".join([own, noise])
        last = f"{err.get('type', 'error')}: {_last_line(err.get('message', ''))}" if err else _last_line(text)
        if not last:  # no answer and not a word: say how the probe ended
            last = (f"could not start Python: {run['start_error']}" if run.get("start_error")
                    else f"the probe exited {run.get('returncode')} without an answer")
        sym = re.search(r"undefined symbol: ([\w$.@]+)", text)
        params = dict(title="torch", dist="torch", version=t["version"] or "?", error=last, install="pip install torch",
                      torch=t["version"] or "?", symbol=sym.group(1) if sym else "?", built_for="another torch",
                      python=(facts.get("system") or {}).get("python_executable", "python"), index=torch_index(facts),
                      torch_cmd=reinstall_torch(t))
        m = cause(own, noise, "torch")
        if m:
            f = finding_for_match(m.entry.id, "torch.import-failed", detail=m.evidence, severity="error",
                                  module="torch", **params)
            if f.fix and re.match(r"pip install\b[^#]*\btorch\b(?![-_])", f.fix) and f.fix.split("   #")[0] != params["torch_cmd"]:
                # a backend's reinstall line, filled in for torch: say it the one way torch is reinstalled
                f = dataclasses.replace(f, fix=params["torch_cmd"] + "   # the same torch build again, files only")
            yield f
        else:
            yield finding("torch.import-failed", version=t["version"] or "?", error=last, detail=last,
                          torch_cmd=reinstall_torch(t))


@check("platform")
def gpu_visibility(facts: dict, ctx: Context):
    t = view.torch(facts)
    if not t["import_ok"]:
        return
    drv = facts.get("driver") or {}
    smi_gpus = drv.get("gpus") or []
    rt = view.cuda_runtime(facts)
    env = view.env(facts)
    if not t["cuda"] and not t["hip"]:
        if smi_gpus:
            yield finding("torch.cpu-build", version=t["version"], severity="error",
                          gpu=smi_gpus[0]["name"], index=torch_index(facts), where="",
                          torch_cmd=install(t["version"], torch_index(facts), reinstall=False))
        else:
            yield finding("torch.cpu-build", version=t["version"], gpu="no GPU", index=torch_index(facts),
                          where="; only for an env (an image) that will run on GPU hosts: this machine has no GPU, "
                                "and the CPU build runs sdpa and flex here as well",
                          torch_cmd=install(t["version"], torch_index(facts), reinstall=False))
        return
    if rt.get("available"):
        return
    cvd = env.get("CUDA_VISIBLE_DEVICES")
    if smi_gpus and cvd is not None and not view.gpus(facts):
        yield finding("gpu.hidden-by-env", value=cvd, count=len(smi_gpus))
        return
    if smi_gpus:
        err = rt.get("error") or {}
        warns = "\n".join((t["probe"].get("warnings") or []))
        own = "\n".join([err.get("traceback", ""), err.get("message", "")])
        text = "\n".join([own, warns])
        params = dict(torch=t["version"], cuda=t["cuda"], driver=drv.get("driver") or "?",
                      driver_cuda=drv.get("driver_cuda") or "?", error=_last_line(text), index=torch_index(facts),
                      torch_cmd=install(t["version"], torch_index(facts), reinstall=False))
        m = cause(own, warns)
        if m and m.entry.id != "gpu.cuda-init-failed":
            yield finding_for_match(m.entry.id, "gpu.cuda-init-failed", detail=m.evidence, severity="error",
                                    count=len(smi_gpus), **params)
        else:
            yield finding("gpu.cuda-init-failed", torch=t["version"], count=len(smi_gpus),
                          error=_last_line(text) or "torch.cuda.is_available() is False", detail=_last_line(text))
        return
    if drv.get("error"):
        yield finding("gpu.smi-failed", error=drv["error"])
    yield finding("gpu.none")


@check("platform")
def driver_new_enough(facts: dict, ctx: Context):
    t = view.torch(facts)
    drv = facts.get("driver") or {}
    tc = view.cuda_major_minor(t["cuda"])
    dc = view.cuda_major_minor(drv.get("driver_cuda"))
    if not tc or not dc:
        return
    if tc[0] > dc[0]:
        yield finding("cuda.driver-too-old", torch=t["version"], cuda=t["cuda"], driver=drv.get("driver") or "?",
                      driver_cuda=drv.get("driver_cuda"), index=torch_index(facts), error="", detail=None,
                      torch_cmd=install(t["version"], torch_index(facts), reinstall=False))
    elif tc > dc:
        yield finding("cuda.driver-minor-older", torch=t["version"], cuda=t["cuda"], driver=drv.get("driver") or "?",
                      driver_cuda=drv.get("driver_cuda"))


def _arch_ok(cap: tuple[int, int], arch_list: list[str]) -> bool:
    """Does torch carry machine code this GPU runs (same major, not newer minor) or PTX it can JIT?"""
    for a in arch_list:
        kind, _, num = a.partition("_")
        num = num.rstrip("af")
        if not num.isdigit():
            continue
        major, minor = int(num[:-1]), int(num[-1])
        if kind == "sm" and major == cap[0] and minor <= cap[1]:
            return True
        if kind == "compute" and (major, minor) <= cap:
            return True
    return False


@check("platform")
def torch_has_kernels_for_gpu(facts: dict, ctx: Context):
    rt = view.cuda_runtime(facts)
    arch = rt.get("arch_list") or []
    if not arch:
        return
    t = view.torch(facts)
    for g in rt.get("devices") or []:
        cap = tuple(g["capability"])
        if not _arch_ok(cap, arch):
            index = "cu128" if cap >= (10, 0) else "cu126"
            old = (view.torch_base(facts) or view.version("0")) < view.version("2.7") and cap >= (10, 0)
            # Blackwell kernels came with torch 2.7 (cu128): older torch has no such build to pin to
            cmd = install("2.7.0" if old else t["version"], index, reinstall=False)
            yield finding("gpu.arch-not-in-torch", torch=t["version"], gpu=g["name"], cap=cap_str(cap),
                          archs=" ".join(arch), index=index, torch_cmd=cmd)
