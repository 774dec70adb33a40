"""Collectors: look at the machine and return Facts, a JSON-round-trippable dict.

Nothing heavy is imported in the doctor's own process. torch and each installed backend are
imported in child processes, all started at once, each with a timeout; with smoke tests on, the
same children go on to run the backend's kernels (attn_doctor.smoke). The cheap collectors
(metadata, environment, caches, nvcc, nvidia-smi) run meanwhile.
"""

from __future__ import annotations

import datetime as _dt
import os
import re
import shutil
import sys
from concurrent.futures import ThreadPoolExecutor

from packaging.markers import default_environment

from .. import __version__, proc
from ..model import UsageError
from ..backends import SPECS
from . import caches, gpu_health, gpus, nvcc, packages, system, view

TORCH_BACKENDS = ("sdpa", "flex")  # part of torch: imported by the torch probe


def _run_summary(r: proc.ProcResult) -> dict:
    return {
        "returncode": r.returncode, "signal": r.signal_name, "timed_out": r.timed_out,
        "seconds": round(r.seconds, 3), "start_error": r.start_error, "output_bytes": r.output_bytes,
        "stderr_tail": r.stderr[-4000:], "stdout_tail": r.stdout[-2000:] if r.payload is None else "",
    }


def probe_torch(timeout: float, python: str | None = None) -> dict:
    r = proc.run(proc.child_argv("facts.torch_probe", python=python), timeout=timeout)
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


def torch_build(pk: dict) -> dict:
    """torch's CUDA/ROCm build, read from torch/version.py as text (no import)."""
    d = pk["stack"].get("torch")
    if not d:
        return {}
    try:
        with open(os.path.join(d["location"], "torch", "version.py"), encoding="utf-8") as fh:
            text = fh.read()
    except OSError:
        return {}
    out = {}
    for key in ("cuda", "hip"):
        m = re.search(rf"^{key}\s*(?::[^=]*)?=\s*(.+)$", text, re.MULTILINE)
        if m:
            val = m.group(1).strip().strip("'\"")
            out[key] = None if val == "None" else val
    return out


def smoke_devices(driver: dict, environ: dict, build: dict, device_ids: list[int] | None) -> list[str]:
    """torch device names to smoke-test on: cuda:0..n-1 for the GPUs CUDA will show, else the CPU."""
    if not (build.get("cuda") or build.get("hip")) or not driver.get("gpus"):
        return ["cpu"]
    n = len(view.gpus({"driver": driver, "env": environ}))
    if n == 0:
        return ["cpu"]
    ids = list(range(n)) if device_ids is None else [i for i in device_ids if 0 <= i < n]
    return [f"cuda:{i}" for i in ids] or ["cpu"]


def require_devices(driver: dict, environ: dict, device_ids: list[int]) -> None:
    """A GPU index the user named (--device) that CUDA will not show is bad input: exit 2, naming
    the GPUs seen, before anything runs on a device that is not there."""
    seen = view.gpus({"driver": driver, "env": environ})
    missing = [i for i in device_ids if not 0 <= i < len(seen)]
    if missing:
        names = (", ".join(f"{n} ({g.get('name') or '?'})" for n, g in enumerate(seen)) if seen
                 else "none (nvidia-smi lists no GPU" + (f": {driver['error']}" if driver.get("error") else "") + ")")
        raise UsageError(f"--device {', '.join(map(str, missing))}: no such GPU; GPUs seen: {names}")


def collect(backends: list[str] | None = None, timeout: float = 180.0, python: str | None = None,
            smoke: dict | None = None, device_ids: list[int] | None = None, progress=None,
            interpreter: dict | None = None, strict_devices: bool = False, target=None) -> dict:
    """All facts. `backends` limits which backends are probed (None: all installed).
    `smoke` ({"level", "dtype", "head_dims"}) also runs kernels, into facts["smoke"].
    `python` (or `interpreter`, what facts.interpreter.query said of it): check that interpreter,
    not the doctor's own: its sys.path, its probes, its kernels.
    `strict_devices`: every index in `device_ids` must be a GPU CUDA shows, else UsageError."""
    from ..smoke import cute_cache_check, run_child, smoke_record
    from ..smoke.plan import auto_dtype, plan as make_plan

    if interpreter is None and python is not None:
        from .interpreter import query

        interpreter = query(python, timeout=min(timeout, 60.0))
    if interpreter is not None:
        python = interpreter["python"]
    if target is None:
        from .. import target as tg

        target = tg.of_interpreter(interpreter, "--python") if interpreter is not None else tg.own()

    environ = dict(os.environ)
    wanted = set(backends or SPECS)
    # A --device index that is not there is bad input (exit 2): it is judged from nvidia-smi's list before the torch
    # probe starts, since leaving the `with` waits for every child it started (`check -d 9` waited out an
    # `import torch` and CUDA's initialisation to say one line). Without --device the probe starts first, as the
    # slowest child.
    devices_first = bool(strict_devices and device_ids)
    with ThreadPoolExecutor(max_workers=32) as ex:
        f_torch = None if devices_first else ex.submit(probe_torch, timeout, python)
        f_gpus = ex.submit(gpus.collect, min(timeout, 15.0))
        pk = packages.collect(interpreter["sys_path"], interpreter["site_dirs"]) if interpreter else packages.collect()
        f_nvcc = ex.submit(nvcc.collect, environ, pk["sys_path"], min(timeout, 15.0))
        inst = installed_backends(pk)
        build = torch_build(pk)
        if devices_first:
            require_devices(f_gpus.result(), environ, device_ids)
            f_torch = ex.submit(probe_torch, timeout, python)
        devices = smoke_devices(f_gpus.result(), environ, build, device_ids) if smoke is not None else ["cpu"]
        # Before any smoke child makes a CUDA context: what the GPUs hold is then someone else's.
        drv = f_gpus.result()
        health = gpu_health.collect(min(timeout, 15.0), python) if drv.get("gpus") else {"source": None, "gpus": []}
        health["own_pids"] = proc.live_pids()  # the torch probe may already hold a context: not someone else's
        health["device_ids"] = device_ids  # --device / a rank's GPU: only those are this job's to judge
        jobs = {}
        for name in SPECS:
            if name not in wanted:
                continue
            in_torch = name in TORCH_BACKENDS
            if not in_torch and not inst[name]["installed"]:
                continue
            if smoke is None:
                if not in_torch:
                    jobs[(name, "import")] = ex.submit(run_child, name, "cpu", timeout, python=python,
                                                       progress=progress, key="import")
                continue
            for dev in devices:
                if dev == "cpu" and not SPECS[name].cpu:
                    if (name, "import") not in jobs:  # no GPU here: still prove it imports
                        jobs[(name, "import")] = ex.submit(run_child, name, "cpu", timeout, python=python,
                                                           progress=progress, key="import")
                    continue
                jobs[(name, dev)] = ex.submit(run_child, name, dev, timeout, auto=smoke, python=python,
                                              progress=progress, key=dev.replace("cuda:", "gpu"))
        sysf = system.collect()
        if interpreter is not None:  # the report names the interpreter it checked, and the doctor's own
            sysf.update(python=interpreter["version"], python_executable=interpreter["executable"],
                        in_venv=interpreter["in_venv"], python_requested=interpreter["requested"],
                        doctor_python=sys.executable)
        cache_facts = caches.collect(environ, sysf["user"])
        imports = {n: dict(i) for n, i in inst.items()}
        smoke_facts: dict = {"level": (smoke or {}).get("level"), "devices": {}}
        for (name, dev), fut in jobs.items():
            r = fut.result()
            if name not in TORCH_BACKENDS and "probe" not in imports[name]:
                imports[name].update(probe=r["import"], run=r["run"])
            if dev == "import" or (r["import"] or {}).get("ok") is False:
                continue
            rec = smoke_record(r)
            key = "cpu" if dev == "cpu" else dev.split(":")[1]
            smoke_facts["devices"].setdefault(key, {})[name] = rec
        torch_facts = f_torch.result()
        rt = (torch_facts.get("probe") or {}).get("cuda_runtime") or {}
        if any(k != "cpu" for k in smoke_facts["devices"]) and not rt.get("available"):
            # torch cannot use CUDA here: that is one platform finding, not a failure of every backend
            smoke_facts["skipped"] = "torch cannot use CUDA"
            smoke_facts["devices"] = {k: v for k, v in smoke_facts["devices"].items() if k == "cpu"}
        fa4_cache = environ.get("FLASH_ATTENTION_CUTE_DSL_CACHE_ENABLED") == "1"
        for key, per in smoke_facts["devices"].items():
            rec = per.get("cute")
            if rec and fa4_cache and rec["cases"] and rec["cases"][0].get("ok"):
                first = rec["cases"][0].get("first_seconds") or 0
                if first <= 1.0:
                    rec["cache_check"] = {"first_seconds": first, "ok": True, "warm_already": True}
                else:  # it compiled: does a second process find the kernel on disk?
                    cap = tuple(rec["capability"]) if rec.get("capability") else None
                    dtype = auto_dtype(smoke, cap, view.emulates_bf16((torch_facts.get("probe") or {}).get("version")))
                    cases, _ = make_plan("cute", cap, level=smoke.get("level", "standard"),
                                         dtype=dtype, head_dims=smoke.get("head_dims"))
                    rec["cache_check"] = cute_cache_check(rec["device"], cases[0] if cases else None, timeout, python)
        facts = {
            "collected_at": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
            "tool_version": __version__,
            "system": sysf,
            "env": system.env_snapshot(environ),
            "torch": {"dist": pk["stack"].get("torch"), "build": build, **torch_facts},
            "driver": f_gpus.result(),
            "packages": pk,
            "imports": imports,
            "nvcc": f_nvcc.result(),
            "gpu_health": health,
            "caches": cache_facts,
            "host_cc": host_cc(environ),
            "probed_backends": sorted(wanted),
            "marker_env": interpreter["marker_env"] if interpreter else default_environment(),
            "target": target.to_dict(),  # the env every printed command acts on (advice.py)
        }
        if smoke is not None:
            facts["smoke"] = smoke_facts
    return facts
