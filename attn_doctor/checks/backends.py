"""Backends: each one's status (ok | missing | broken | unsupported | skipped) and why, and what its
import probe's failure means."""

from __future__ import annotations

import re

from ..backends import SPECS, backward_reason, cap_str, forward_reason
from .. import plans
from ..facts import view
from ..knowledge import finding, finding_for_match
from ..knowledge.match import cause
from ..textutil import last_line as _last_line
from . import Context, check


def import_error_text(info: dict) -> tuple[str, str]:
    """What a failed import left: (the exception and its traceback, what it warned and printed).
    The exception names the cause more often than the noise around it, so it is matched first."""
    p = info.get("probe") or {}
    run = info.get("run") or {}
    err = p.get("error") or {}
    primary = "\n".join(x for x in [err.get("traceback") or "",
                                     f"{err.get('type', '')}: {err.get('message', '')}" if err else ""] if x)
    noise = "\n".join(x for x in ["\n".join(p.get("warnings") or []), run.get("stderr_tail") or "",
                                   run.get("stdout_tail") or ""] if x)
    return primary, noise


def import_failure(name: str, info: dict) -> str | None:
    """A short reason if the import probe failed, else None."""
    run = info.get("run") or {}
    p = info.get("probe") or {}
    if p.get("ok"):
        return None  # it imported; a crash after that is the smoke run's (the same child goes on to the kernels)
    if run.get("timed_out"):
        return f"import did not finish within {run.get('seconds', 0):.0f} s"
    if run.get("signal"):
        return f"import crashed the interpreter ({run['signal']})"
    if run.get("start_error"):
        return f"could not start Python: {run['start_error']}"
    if p.get("ok"):
        return None
    if p.get("stage") == "torch":
        return "torch fails to import"
    err = p.get("error") or {}
    if err:
        return f"{err.get('type')}: {_last_line(err.get('message', ''))}"
    return f"import probe exited {run.get('returncode')} without an answer: {_last_line(run.get('stderr_tail', ''))}"


def _torch_failed(t: dict) -> bool:
    return t["installed"] and t["probed"] and not t["import_ok"]


def no_usable_gpu(facts: dict) -> str | None:
    """Why the GPUs the driver lists cannot be used by this process (a CUDA torch that imports sees
    none of them), as a table reason, or None. A machine with no GPU at all (an image build) is not
    this: there a backend that imports is ok, with no kernel run."""
    t = view.torch(facts)
    smi = (facts.get("driver") or {}).get("gpus") or []
    rt = view.cuda_runtime(facts)
    if not smi or not t["import_ok"] or not (t["cuda"] or t["hip"]) or "available" not in rt \
            or rt["available"] or rt.get("devices"):
        return None  # (a report with no answer from torch's CUDA probe says nothing either way)
    cvd = view.env(facts).get("CUDA_VISIBLE_DEVICES")
    if cvd is not None and not view.gpus(facts):
        return f"cannot run: no visible GPU (CUDA_VISIBLE_DEVICES={cvd!r} hides all {len(smi)} GPU(s))"
    return f"cannot run: torch cannot start CUDA on the {len(smi)} GPU(s) nvidia-smi lists"


def statuses(facts: dict, ctx: Context) -> dict[str, dict]:
    t = view.torch(facts)
    caps = view.capabilities(facts)
    gpus = view.gpus(facts)
    cuda_torch = bool(t["cuda"] or t["hip"])
    tv = view.torch_base(facts)
    unusable = no_usable_gpu(facts)
    out: dict[str, dict] = {}
    planned: dict = {}  # (the Stack the install plans read, read once for every missing backend)
    for name, spec in SPECS.items():
        row: dict = {"title": spec.title, "status": "ok", "reason": "", "version": None, "forward_only": False}
        out[name] = row
        if not ctx.wanted(name):
            row.update(status="skipped", reason="not selected (--backend)")
            continue
        # 1. Installed and importable?
        if spec.in_torch:
            row["version"] = t["version"]
            if not t["installed"]:
                row.update(status="missing", reason="torch is not installed")
                continue
            if not t["import_ok"]:
                row.update(status="broken", reason="torch fails to import" if t["probed"] else "torch was not probed")
                continue
            if name == "flex":
                if tv and tv < view.version("2.5"):
                    row.update(status="missing", reason=f"FlexAttention needs torch 2.5 or newer (this is {t['version']})")
                    continue
                flex = t["probe"].get("flex") or {}
                if not flex.get("ok"):
                    err = flex.get("error") or {}
                    row.update(status="broken", reason=f"{err.get('type')}: {_last_line(err.get('message', ''))}")
                    continue
                tri = t["probe"].get("triton") or {}
                if gpus and cuda_torch and not tri.get("ok"):
                    row.update(status="broken", reason="Triton is missing or broken: flex cannot compile on the GPU")
                    continue
        else:
            info = (facts.get("imports") or {}).get(name) or {}
            row["version"] = info.get("version")
            if not info.get("installed"):
                row.update(status="missing", reason=f"not installed ({plans.short(name, facts, planned) or spec.install})")
                continue
            if "probe" not in info and "run" not in info:
                row.update(status="skipped", reason="import not probed")
                continue
            why = import_failure(name, info)
            if why:  # its probe imports torch first: when torch itself fails, that is the reason
                row.update(status="broken", reason="torch fails to import" if _torch_failed(t) else why)
                continue
            row["import_seconds"] = (info.get("probe") or {}).get("seconds")
        # 2. Can it run on this machine's GPUs?
        if unusable and not spec.cpu:  # it imports, but this process has no GPU to run it on
            row.update(status="unsupported", reason=unusable)
            continue
        if not gpus:
            if spec.cpu:
                row["reason"] = "runs on the CPU" + (" (forward only)" if name == "flex" else "")
                if name == "flex":
                    if tv and tv < view.version("2.6"):
                        row.update(status="unsupported", reason="FlexAttention runs on the CPU from torch 2.6")
                    row["forward_only"] = True
            elif not cuda_torch and t["installed"]:
                row.update(status="unsupported", reason="torch is a CPU-only build")
            else:
                row["reason"] = "imports; no CUDA GPU here, so no kernel was run"
            continue
        if not cuda_torch and not spec.cpu:
            row.update(status="unsupported", reason="torch is a CPU-only build")
            continue
        per_gpu = {}
        for g in gpus:
            cap = tuple(g["capability"]) if g.get("capability") else None
            per_gpu[str(g["index"])] = forward_reason(spec, cap) if cap else None
        row["gpus"] = per_gpu
        bad = [r for r in per_gpu.values() if r]
        if bad and len(bad) == len(per_gpu):
            row.update(status="unsupported", reason=bad[0])
            continue
        bwd = [backward_reason(spec, c) for c in caps if not forward_reason(spec, c)]  # GPUs it runs on
        bwd = [b for b in bwd if b]
        if bwd:
            row["forward_only"] = True
            row["reason"] = bwd[0]
        if bad:
            row["reason"] = (row["reason"] + "; " if row["reason"] else "") + f"not on every GPU: {bad[0]}"
    _fold_smoke(facts, out)
    return out


def _fold_smoke(facts: dict, rows: dict[str, dict]) -> None:
    """A backend whose kernels failed on any device is broken, whatever its import said."""
    from .smoke import failure, results  # here: the checks register in _load_all's order

    per: dict[str, dict] = {}
    for key, name, res in results(facts):
        per.setdefault(name, {})[key] = res
    for name, by_dev in per.items():
        row = rows.get(name)
        if row is None:
            continue
        # The row shows a device where it ran: on a mixed node some GPUs may not run it at all.
        primary = next((r for r in by_dev.values() if r.get("cases")), next(iter(by_dev.values())))
        row["smoke"] = {k: primary.get(k) for k in ("device", "gpu", "summary", "wall_seconds", "cases", "notes",
                                                      "cache_check", "stuck_in")}
        row["wall_seconds"] = max(r.get("wall_seconds") or 0 for r in by_dev.values())
        if len(by_dev) > 1:
            row["smoke_devices"] = {k: r.get("summary") for k, r in by_dev.items()}
        fails = [(k, failure(r)) for k, r in by_dev.items() if failure(r)]
        if fails and row.get("status") == "ok":
            where = "" if len(by_dev) == 1 else f" on device {fails[0][0]}"
            row.update(status="broken", reason=f"smoke test failed{where}: {fails[0][1]}")


@check("backends")
def import_failures(facts: dict, ctx: Context):
    """Name the cause of every failed backend import."""
    imports = facts.get("imports") or {}
    pk = facts.get("packages") or {}
    t = view.torch(facts)
    for name, info in imports.items():
        if not ctx.wanted(name) or not info.get("installed"):
            continue
        if "probe" not in info and "run" not in info:
            continue  # not probed (a report collected with --backend): its status says skipped
        why = import_failure(name, info)
        if not why or why == "torch fails to import" or _torch_failed(t):
            continue  # torch's own failure is reported (torch.*): the backend's probe died of it too
        if name == "cute" and _fa2_wrote_cute(pk.get("flash_attn") or {}):
            continue  # FA2 overwrote or deleted FA4's files: flash_attn_namespace names that cause, once
        spec = SPECS[name]
        primary, noise = import_error_text(info)
        text = primary + "\n" + noise
        run = info.get("run") or {}
        params = dict(backend=name, title=spec.title, dist=info.get("dist") or spec.dists[0],
                      version=info.get("version") or "?", install=spec.install, error=why,
                      torch=t["version"] or "?", module=spec.module)
        err = ((info.get("probe") or {}).get("error")) or {}
        # The exception's own line, not whatever was printed last (often an unrelated warning).
        evidence = _last_line(err.get("traceback", "")) or _last_line(text)
        if run.get("timed_out"):
            yield finding("import.hang", detail=evidence, seconds=f"{run.get('seconds', 0):.0f}", **params)
            continue
        if run.get("signal"):
            yield finding("import.crashed", detail=evidence, signal=run["signal"], **params)
            continue
        cut = pk.get("cutlass") or {}
        if name == "cute" and err.get("type") == "ModuleNotFoundError" and (err.get("name") or "").split(".")[0] == "cutlass" \
                and cut.get("installed") and not cut.get("location_is_site_dir"):
            yield finding("cute.dsl-pth-not-processed", detail=evidence, location=cut.get("location"),
                          dsl_packages=cut.get("dsl_packages") or f"{cut.get('location')}/nvidia_cutlass_dsl/dsl_packages",
                          **params)
            continue
        from .caches import named_in
        from .flex import triton_pin  # here: the checks register in _load_all's order

        gone = _missing_dependency(facts, err)
        if gone:
            yield finding("import.dep-missing", detail=evidence, **gone, **params)
            continue

        cache = named_in(facts, primary)
        if cache:  # the error names a cache directory that cannot be used: that is the cause
            yield finding("import.cache-dir", detail=evidence, **cache, **params)
            continue
        m = cause(primary, noise, name)
        if m and ABSENT.get(m.entry.id) == name:
            m = None  # "not installed" cannot be why an installed package fails to import (xformers._C missing)
        if m:
            sym = re.search(r"undefined symbol: ([\w$.@]+)", text)
            built = view.built_for(name, facts)
            # an import that fails is an error, whatever the matched entry's usual level
            yield finding_for_match(m.entry.id, "import.known-error", backend=name, severity="error",
                                    detail=_last_line(primary) or m.evidence or evidence,
                                    symbol=sym.group(1) if sym else "?", built_for=built or "another torch",
                                    pin=triton_pin(facts), **{k: v for k, v in params.items() if k != "backend"})
        else:
            yield finding("import.failed", detail=evidence, **params)


# Entries that say a backend's own package is absent: never the cause of that installed package's failed import.
ABSENT = {"xformers.not-installed": "xformers", "sage.not-installed": "sage", "fa2.missing": "fa2"}

# Modules a backend imports that come from another distribution (ModuleNotFoundError's `name`).
DEPENDENCY = {"cutlass": "nvidia-cutlass-dsl", "quack": "quack-kernels", "tvm_ffi": "apache-tvm-ffi",
              "torch_c_dlpack_ext": "torch-c-dlpack-ext", "triton": "triton", "einops": "einops"}


def _missing_dependency(facts: dict, err: dict) -> dict | None:
    """A ModuleNotFoundError for a module whose distribution is not installed at all: params for
    import.dep-missing (missing, dep, fix_cmd, note), else None."""
    from .flex import triton_pin
    from .versions import _pip, requirement_problems

    if err.get("type") != "ModuleNotFoundError":
        return None
    module = (err.get("name") or "").split(".")[0]
    if not module:
        m = re.search(r"No module named '([\w.]+)'", err.get("message") or "")
        module = m.group(1).split(".")[0] if m else ""
    dep = DEPENDENCY.get(module)
    if not dep or view.dist_version(facts, dep):
        return None
    if dep == "triton":
        spec = triton_pin(facts)[len("triton"):]
    else:
        spec = next((p["all"] for p in requirement_problems(facts) if p["dep"] == dep and p["kind"] == "missing"), "")
    t = view.torch(facts)
    note = "; this torch is a CPU-only build, so it could not run here anyway" if t["installed"] and not (
        t["cuda"] or t["hip"]) else ""
    fix_cmd = _pip(dep, spec)
    if dep == "triton" and note and t["version"]:
        # a CPU torch pins no triton, and no triton makes a GPU backend run on it: the CUDA build brings its own
        from ..torchpin import install
        from .platform import torch_index

        fix_cmd = install(t["version"], torch_index(facts), reinstall=False) + "; it brings the triton it was built with"
    return dict(missing=module, dep=dep, fix_cmd=fix_cmd, note=note)


@check("backends")
def capability(facts: dict, ctx: Context):
    """Backends that import but cannot run (or cannot train) on these GPUs."""
    for name, row in ctx.backends.items():
        if not ctx.relevant(name) or row["status"] not in ("ok", "unsupported"):
            continue
        spec = SPECS[name]
        gpus = view.gpus(facts)
        if not gpus:
            continue
        if row["status"] == "unsupported" and row.get("gpus"):
            g = gpus[0]
            yield finding("backend.unsupported-gpu", backend=name, title=spec.title, reason=row["reason"],
                          gpu=g.get("name"), cap=cap_str(g["capability"]) if g.get("capability") else "?",
                          severity="error" if name in ctx.required else None)
        elif row.get("forward_only") and spec.training and row["status"] == "ok":
            g = next((g for g in gpus if g.get("capability") and not forward_reason(spec, tuple(g["capability"]))
                      and backward_reason(spec, tuple(g["capability"]))), gpus[0])
            yield finding("backend.no-backward-on-gpu", backend=name, title=spec.title, reason=row["reason"],
                          gpu=g.get("name"), cap=cap_str(g["capability"]) if g.get("capability") else "?")


@check("backends")
def mixed_gpus(facts: dict, ctx: Context):
    """A node that mixes GPUs: a backend that runs on some of them and not on the others."""
    for name, row in ctx.backends.items():
        per = row.get("gpus") or {}
        bad = sorted((k for k, why in per.items() if why), key=int)
        if row["status"] != "ok" or not bad or len(bad) == len(per) or not ctx.relevant(name):
            continue
        good = sorted((k for k, why in per.items() if not why), key=int)
        yield finding("backend.some-gpus", backend=name, title=SPECS[name].title, ok=",".join(good),
                      bad=", ".join(bad), reason=per[bad[0]])


@check("backends")
def required(facts: dict, ctx: Context):
    for name in ctx.required:
        row = ctx.backends.get(name) or {}
        if row.get("status") != "ok":
            spec = SPECS[name]
            fix = (plans.text(name, facts, ctx.backends) or spec.install) if plans.wanted(name, facts, row) else \
                f"attn-doctor check --backend {name}   # its findings above give the fix"
            plan = None
            if "\n" in fix:  # a plan of several steps: the fix stays one line, the command that prints the plan
                plan, fix = fix, f"attn-doctor fix --require {name}   # prints the install plan for {spec.title} here"
            yield finding("require.not-ok", backend=name, title=spec.title, status=row.get("status", "?"),
                          reason=row.get("reason") or "", install=fix, plan=plan)


def _fa2_wrote_cute(layout: dict) -> bool:
    """flash-attn-4's flash_attn/cute/ files are not all its own now: FA2's copy overwrote some, or an
    uninstall of flash-attn deleted them (facts/packages.py, flash_attn_layout)."""
    shared = layout.get("cute_shared") or {}
    return bool((layout.get("fa4_missing") or {}).get("count") or shared.get("flash-attn")
                or shared.get("neither") or shared.get("missing"))


@check("backends")
def flash_attn_namespace(facts: dict, ctx: Context):
    """flash-attn (FA2) and flash-attn-4 share the `flash_attn` name; xformers assumes it is FA2."""
    pk = facts.get("packages") or {}
    layout = pk.get("flash_attn") or {}
    owners = layout.get("cute_owners") or {}
    fa2, fa4 = view.dist_version(facts, "flash-attn"), view.dist_version(facts, "flash-attn-4")
    if ctx.wanted("cute"):
        gone = layout.get("fa4_missing") or {}
        shared = layout.get("cute_shared")  # absent in reports collected before it was recorded
        if fa4 and gone.get("count"):
            yield finding("cute.files-missing", backend="cute", fa4=fa4, missing=gone["count"], of=gone.get("of", "?"),
                          example=gone.get("example") or "?", fa2=fa2 or "flash-attn")
        elif len(owners) > 1 and shared is not None and not _fa2_wrote_cute(layout):
            yield finding("cute.shares-files-with-fa2", backend="cute", fa2=fa2 or "?", fa4=fa4 or "?",
                          n=shared.get("flash-attn-4", 0))
        elif len(owners) > 1:
            yield finding("cute.shadowed-by-fa2", backend="cute", fa2=fa2 or "?", fa4=fa4 or "?",
                          n=(shared or {}).get("flash-attn") or "some")
        elif "flash-attn" in owners and not fa4:
            yield finding("cute.stale-fa2-cute", backend="cute", fa2=fa2 or "?")
    route = pk.get("fa4_route") or {}
    if ctx.wanted("cute") and fa4 and route.get("fa4_returns") and route["torch_unpacks"] not in route["fa4_returns"]:
        yield finding("sdpa.fa4-route-mismatch", backend="cute", torch=view.torch(facts)["version"] or "?", fa4=fa4,
                      expects=route["torch_unpacks"], returns=" or ".join(str(n) for n in route["fa4_returns"]))
    copies = layout.get("copies") or []
    x = (facts.get("imports") or {}).get("xformers") or {}
    if ctx.wanted("xformers") and x.get("installed") and copies and not copies[0].get("has_init") and not fa2:
        # The import probe shows the same failure; say it once, with its cause.
        probed = "probe" in x or "run" in x
        why = import_failure("xformers", x) if probed else None
        if probed and why is None and x.get("probe"):
            return
        if probed and why is not None and not re.search(r"flash_attn", why):
            return  # its import failed for a reason of its own (xformers._C, a symbol): not FA4's namespace
        yield finding("xformers.fa4-namespace", backend="xformers",
                      error=why or "flash_attn is flash-attn-4's namespace package")
