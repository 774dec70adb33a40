"""Collectors: look at the machine and return Facts, a JSON-round-trippable dict.

Nothing heavy is imported in the doctor's own process. torch and each installed backend are
imported in child processes, all at once, each with a timeout; the cheap collectors (metadata,
environment, caches, nvcc) run meanwhile.
"""

from __future__ import annotations

import datetime as _dt
import os
import shutil
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from packaging.markers import default_environment

from .. import __version__, proc
from ..backends import SPECS
from . import caches, gpus, nvcc, packages, system

ROOT = str(Path(__file__).resolve().parents[2])  # the directory that holds the attn_doctor package


def child_argv(module: str, *args: str, python: str | None = None) -> list[str]:
    """A child interpreter that runs one of our probe modules, with attn_doctor appended to its
    sys.path (appended, so it can never shadow the user's own packages)."""
    code = (f"import sys; sys.path.append({ROOT!r}); "
            f"from attn_doctor.{module} import main; main()")
    return proc.python_argv(code, *args, python=python)


def _run_summary(r: proc.ProcResult) -> dict:
    return {
        "returncode": r.returncode, "signal": r.signal_name, "timed_out": r.timed_out,
        "seconds": round(r.seconds, 3), "start_error": r.start_error, "output_bytes": r.output_bytes,
        "stderr_tail": r.stderr[-4000:], "stdout_tail": r.stdout[-2000:] if r.payload is None else "",
    }


def probe_torch(timeout: float, python: str | None = None) -> dict:
    r = proc.run(child_argv("facts.torch_probe", python=python), timeout=timeout)
    return {"probe": r.payload, "run": _run_summary(r)}


def probe_import(name: str, timeout: float, python: str | None = None) -> dict:
    r = proc.run(child_argv("facts.import_probe", SPECS[name].import_code, python=python), timeout=timeout)
    return {"probe": r.payload, "run": _run_summary(r)}


def installed_backends(pk: dict) -> dict[str, dict]:
    """Which non-torch backends are present, from metadata and file layout alone."""
    stack, entries = pk["stack"], pk["sys_path"]
    fa = pk["flash_attn"]["copies"]
    out = {}
    for name in ("cute", "fa2", "fa3", "sage", "xformers"):
        spec = SPECS[name]
        dist = next((d for d in spec.dists if d in stack), None)
        if name == "cute":
            present = dist is not None or any(c["has_cute"] for c in fa)
            where = next((c["path"] + "/cute" for c in fa if c["has_cute"]), None)
        elif name == "fa2":
            present = dist is not None or any(c["has_init"] for c in fa)
            where = next((c["path"] for c in fa if c["has_init"]), None)
        else:
            where = packages.find_module(spec.top_module, entries)
            present = dist is not None or where is not None
        out[name] = {"installed": present, "dist": dist,
                     "version": stack[dist]["version"] if dist else None, "module_path": where}
    return out


def host_cc(environ: dict) -> dict:
    """The C compiler Triton builds its launcher with: $CC, else clang, gcc or cc on PATH."""
    if environ.get("CC"):
        cc = environ["CC"]
        path = shutil.which(cc, path=environ.get("PATH")) or (cc if os.path.isfile(cc) else None)
        return {"from": "CC", "name": cc, "path": path}
    for name in ("clang", "gcc", "cc"):
        path = shutil.which(name, path=environ.get("PATH"))
        if path:
            return {"from": "PATH", "name": name, "path": path}
    return {"from": None, "name": None, "path": None}


def collect(backends: list[str] | None = None, timeout: float = 120.0, python: str | None = None) -> dict:
    """All facts. `backends` limits which import probes run (None: all installed)."""
    environ = dict(os.environ)
    wanted = set(backends or SPECS)
    with ThreadPoolExecutor(max_workers=16) as ex:
        f_torch = ex.submit(probe_torch, timeout, python)
        f_gpus = ex.submit(gpus.collect, min(timeout, 15.0))
        pk = packages.collect()
        f_nvcc = ex.submit(nvcc.collect, environ, pk["sys_path"], min(timeout, 15.0))
        inst = installed_backends(pk)
        f_imports = {n: ex.submit(probe_import, n, timeout, python)
                     for n, i in inst.items() if i["installed"] and n in wanted}
        sysf = system.collect()
        cache_facts = caches.collect(environ, sysf["user"])
        imports = {}
        for n, info in inst.items():
            entry = dict(info)
            if n in f_imports:
                entry.update(f_imports[n].result())
            imports[n] = entry
        facts = {
            "collected_at": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
            "tool_version": __version__,
            "system": sysf,
            "env": system.env_snapshot(environ),
            "torch": {"dist": pk["stack"].get("torch"), **f_torch.result()},
            "driver": f_gpus.result(),
            "packages": pk,
            "imports": imports,
            "nvcc": f_nvcc.result(),
            "caches": cache_facts,
            "host_cc": host_cc(environ),
            "probed_backends": sorted(wanted),
            "marker_env": default_environment(),
        }
    return facts
