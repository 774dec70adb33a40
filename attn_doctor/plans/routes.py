"""One function per backend: Stack -> Plan. The figures come from installs/*.toml, the words from
installs/text.toml."""

from __future__ import annotations

import os

from packaging.version import Version

from ..facts import view
from . import GIB, Plan, Route, Stack, T, buildtime, data

TITLES = {"fa2": "FlashAttention 2", "fa3": "FlashAttention 3", "cute": "FA4 (flash_attn.cute)",
          "xformers": "xformers", "sage": "SageAttention"}


def _plan(name: str, s: Stack, read: str) -> Plan:
    return Plan(backend=name, title=TITLES[name], stack=s.describe(), read=read)


def _blocked(plan: Plan, s: Stack) -> bool:
    """No CUDA torch: nothing to plan but installing one."""
    if s.torch is None:
        plan.refusals.append(T("no_torch"))
    elif s.hip:
        plan.refusals.append(T("rocm", torch=s.torch_str))
    elif not s.cuda:
        plan.refusals.append(T("cpu_torch", torch=s.torch_str))
    else:
        return False
    return True


def _caps(s: Stack) -> list[tuple[int, int]]:
    return sorted({c for _, _, c in s.gpus})


def _gpu_names(s: Stack, caps: set) -> str:
    picked = [f"GPU {i} ({n}, sm{c[0]}{c[1]})" for i, n, c in s.gpus if c in caps]
    return ", ".join(picked) if picked else "no GPU"


def _short_plan(name: str) -> str:
    return T("short_plan", backend=name)


def _missing_pkgs(s: Stack, names: list[str]) -> list[str]:
    have = {k.lower().replace("_", "-") for k in s.installed}
    out = []
    for n in names:
        if n == "ninja" and s.ninja:
            continue
        if n not in have:
            out.append(n)
    return out


def _nvcc_lines(s: Stack) -> tuple[list[str], str | None, bool]:
    """Comment lines about the nvcc a source build would use, the CUDA_HOME to set (if another one
    matches torch's CUDA), and whether a matching nvcc exists at all."""
    tc = view.cuda_major_minor(s.cuda)
    cur = s.nvcc or {}
    cv = view.cuda_major_minor(cur.get("version"))
    if tc and cv and cv[0] == tc[0]:
        return [T("fa2_nvcc_ok", nvcc=cur["path"], version=cur["version"], cuda=s.cuda)], None, True
    other = next((f for f in s.nvcc_found if tc and view.cuda_major_minor(f["version"])
                  and view.cuda_major_minor(f["version"])[0] == tc[0]), None)
    if other:
        home = os.path.dirname(os.path.dirname(other["path"]))
        return [T("fa2_nvcc_other", nvcc=cur.get("path") or "none", version=cur.get("version") or "?",
                  other=other["path"], oversion=other["version"], cuda=s.cuda)], home, True
    return [T("fa2_nvcc_none", cuda=s.cuda)], None, False


def _nvcc_version(s: Stack, home: str | None) -> Version | None:
    if home:
        v = next((f["version"] for f in s.nvcc_found if f["path"].startswith(home + "/")), None)
    else:
        v = (s.nvcc or {}).get("version")
    return view.version(v)


def _jobs(s: Stack, gib_per_job: float, threads: int) -> tuple[int, str, str]:
    """MAX_JOBS bounded by memory and cores; and the two phrases that say where each bound came from."""
    if s.mem_bytes:
        by_mem = max(1, int(s.mem_bytes / GIB // gib_per_job))
        mem = f"{s.mem_bytes / GIB:.0f} GiB {s.mem_basis}"
    else:
        by_mem, mem = 2, "memory unknown (2 assumed)"
    if s.cores:
        by_cpu = max(1, s.cores // max(1, threads))
        cores = f"at most {s.cores} cores / {threads} thread(s) per job"
    else:
        by_cpu, cores = by_mem, "cores unknown"
    return max(1, min(by_mem, by_cpu)), mem, cores


def _env_prefix(pairs: list[tuple[str, str]]) -> str:
    """VAR=value ... for a command line; a value with ';' or a space is quoted (the shell would split it)."""
    out = []
    for k, v in pairs:
        if v is None:
            continue
        if any(ch in v for ch in "; ") and not v.startswith('"'):
            v = f'"{v}"'
        out.append(f"{k}={v}")
    return " ".join(out)


# ---- FlashAttention 2 ---------------------------------------------------------------------------

def _fa2_wheels(s: Stack, d: dict) -> tuple[list[tuple[dict, str]], list[str]]:
    """(release, evidence) that cover the stack, most reliable first; plus the wheels known absent."""
    if s.system != "Linux" or not (s.torch and s.cuda_major and s.py_tag and s.abi is not None):
        return [], []
    abi = "TRUE" if s.abi else "FALSE"
    key = f"cu{{tag}}torch{s.torch_mm}cxx11abi{abi}-cp{s.py_tag}"
    hits, absent = [], []
    for rel in d["release"]:
        tag = (rel.get("cuda") or {}).get(str(s.cuda_major))
        combo = key.format(tag=tag)
        if key.format(tag=s.cuda_major) in (rel.get("absent") or []):  # setup.py guesses cu<major> since post1
            absent.append((rel["version"], key.format(tag=s.cuda_major)))
        if not tag or s.torch_mm not in rel["torch"] or s.python not in rel["python"] or abi not in rel["abi"] \
                or s.machine not in rel["machine"]:
            continue
        if any(all({"torch": s.torch_mm, "python": s.python, "cuda": str(s.cuda_major)}.get(k) == v
                   for k, v in ex.items()) for ex in rel.get("exclude") or []):
            continue
        ev = rel["evidence"]
        if ev == "seen":
            ev = "seen" if combo in (rel.get("seen") or []) else "unconfirmed"
        hits.append((rel, ev))
    rank = {"tag-workflow": 0, "seen": 0, "unconfirmed": 1}
    hits.sort(key=lambda h: (rank[h[1]], -_vkey(h[0]["version"])))
    return hits, absent


def _vkey(v: str) -> float:
    """Versions sort newest first (a float is enough for 2.x.y.postN)."""
    pv = Version(v)
    return pv.major * 1e6 + pv.minor * 1e4 + pv.micro * 1e2 + (pv.post or 0)


def _fa2_name(d: dict, rel: dict, s: Stack, tag: str | None) -> str:
    return d["wheel"].format(version=rel["version"], cuda=tag, torch=s.torch_mm,
                             abi="TRUE" if s.abi else "FALSE", py=s.py_tag, machine=s.machine)


def _arch_tokens(s: Stack, table: dict) -> tuple[list[str], list[tuple[int, int]]]:
    """flash-attn's arch tokens for the GPUs present, and the capabilities no token covers."""
    toks, uncovered = [], []
    for c in _caps(s):
        t = table.get(str(c[0]))
        if t and c >= (8, 0):
            if t not in toks:
                toks.append(t)
        else:
            uncovered.append(c)
    return sorted(toks, key=int), uncovered


def fa2(s: Stack) -> Plan:
    d = data("fa2")
    plan = _plan("fa2", s, d["read"])
    if _blocked(plan, s):
        return plan
    caps = _caps(s)
    if caps and all(c < (8, 0) for c in caps):
        plan.refusals.append(f"FlashAttention 2 needs sm80 or newer; {_gpu_names(s, set(caps))}: use sdpa (or xformers)")
        return plan
    hits, absent = _fa2_wheels(s, d)
    for version, combo in absent:
        plan.refusals.append(T("fa2_absent", version=version, combo=combo))
    if hits:
        rel, ev = hits[0]
        wheel = _fa2_name(d, rel, s, rel["cuda"][str(s.cuda_major)])
        url = d["url"].format(version=rel["version"], wheel=wheel)
        evidence = T({"tag-workflow": "fa2_evidence_tag", "seen": "fa2_evidence_seen",
                      "unconfirmed": "fa2_evidence_unconfirmed"}[ev])
        plan.routes.append(Route(kind="wheel", title=T("fa2_wheel_title", wheel=wheel, version=rel["version"],
                                                         evidence=evidence),
                                 commands=[f"pip install {url}"],
                                 short=T("fa2_wheel_short", version=rel["version"], plan=_short_plan("fa2")),
                                 url=url, params={"version": rel["version"], "wheel": wheel, "evidence": ev}))
    else:
        newest = max((t for r in d["release"] for t in r["torch"]), key=Version)
        plan.refusals.append(T("fa2_no_wheel", torch=s.torch_mm, cuda_major=s.cuda_major, py=s.python,
                               abi="TRUE" if s.abi else "FALSE" if s.abi is not None else "?",
                               machine=s.machine, newest_torch=newest))
    plan.routes.append(_fa2_source(s, d, caps))
    fa4 = s.installed.get("flash-attn-4")
    if fa4:
        plan.refusals.append(T("fa2_fa4_clash", fa4=fa4))
    return plan


def _fa2_source(s: Stack, d: dict, caps: list) -> Route:
    b = d["build"]
    toks, uncovered = _arch_tokens(s, b["archs"])
    notes = []
    if toks:
        archs, why = ";".join(toks), "only the GPUs present (" + ", ".join(f"sm{c[0]}{c[1]}" for c in caps if c not in uncovered) + ")"
    else:
        archs, why = b["default_archs"], T("gpu_none", archs=b["default_archs"])
    narch = len(archs.split(";"))
    threads = min(4, narch)
    jobs, mem, cores = _jobs(s, b["gib_per_job"], threads)
    est = buildtime.estimate("fa2", files=buildtime.fa2_files(), jobs=jobs, threads=threads, archs=narch, cores=s.cores)
    streams, (lo, hi) = est.streams, est.minutes
    nv_notes, home, ok = _nvcc_lines(s)
    nv = _nvcc_version(s, home)
    for tok in archs.split(";"):
        need = Version(b["arch_min_nvcc"][tok])
        if nv and nv < need:
            gpus = _gpu_names(s, {c for c in caps if b["archs"].get(str(c[0])) == tok})
            nv_notes.append(T("fa2_nvcc_old_arch", version=nv, need=need, arch=tok, gpus=gpus))
    notes.append(T("fa2_maxjobs", jobs=jobs, mem=mem, gib=b["gib_per_job"], gib_source=b["gib_per_job_source"],
                   cores=cores, threads=threads,
                   threads_why="nvcc --threads compiles the archs of one file in parallel: one per arch, at most 4"))
    notes.append(T("fa2_archs", archs=archs, why=why))
    notes.append(T("fa2_time", units=est.files, narch=narch, mlo=est.per_file[0], mhi=est.per_file[1],
                   streams=streams, basis=est.basis))
    notes += nv_notes
    notes.append(T("fa2_setup_guess"))
    cmds = []
    missing = _missing_pkgs(s, ["ninja", "packaging", "setuptools", "wheel"])
    if missing:
        cmds.append(T("prereq", pkgs=" ".join(missing)))
    env = [("CUDA_HOME", home), ("MAX_JOBS", str(jobs)), ("NVCC_THREADS", str(threads)), ("FLASH_ATTN_CUDA_ARCHS", archs)]
    cmds.append(f"{_env_prefix(env)} pip install flash-attn=={d['sdist']} --no-build-isolation --no-cache-dir")
    if not ok:
        cmds = [f"# {c}" for c in cmds]  # not runnable until a matching nvcc is installed
    short = T("fa2_source_short", lo=lo, hi=hi, plan=_short_plan("fa2"))
    return Route(kind="source", title=T("fa2_source_title", version=d["sdist"], lo=lo, hi=hi, streams=streams),
                 commands=cmds, notes=notes, short=short,
                 params={"max_jobs": jobs, "nvcc_threads": threads, "archs": archs, "minutes": [lo, hi], "files": est.files,
                         "cuda_home": home, "nvcc_ok": ok, "missing": missing})


# ---- FlashAttention 3 ---------------------------------------------------------------------------

def _instead(s: Stack) -> str:
    """What runs on these GPUs instead of FA3: cute on sm90/sm100, fa2 on sm8x/sm12x, sdpa below."""
    caps = _caps(s)
    if not caps:
        return "sdpa"
    if all(c[0] in (9, 10) for c in caps):
        return "cute (pip install 'flash-attn-4>=4.0.0b0') or sdpa"
    if all(c >= (8, 0) for c in caps):
        return "fa2 (attn-doctor fix -r fa2) or sdpa"
    return "sdpa"


def fa3(s: Stack) -> Plan:
    d = data("fa3")
    plan = _plan("fa3", s, d["read"])
    if _blocked(plan, s):
        return plan
    caps = _caps(s)
    sm90 = [c for c in caps if c == (9, 0)]
    if not sm90:
        plan.refusals.append(T("fa3_not_here", gpus=_gpu_names(s, set(caps)), verb="is" if len(s.gpus) == 1 else "are")
                             if caps else T("fa3_no_gpu"))
        inst = _instead(s)
        plan.routes.append(Route(kind="instead", title=T("fa3_instead", instead=inst),
                                 short=T("fa3_instead_short", instead=inst.split(" (")[0])))
        return plan
    tc = view.cuda_major_minor(s.cuda)
    if tc and tc < (12, 3):
        plan.refusals.append(T("fa3_cuda_old", need=d["min_cuda"], cuda=s.cuda))
        plan.routes.append(Route(kind="instead", title=T("fa3_instead", instead=_instead(s)),
                                 short=T("fa3_instead_short", instead=_instead(s).split(" (")[0])))
        return plan
    has_sm8 = any(c[0] == 8 for c in caps)
    threads = d["nvcc_threads"]  # one arch a file: nvcc --threads has nothing to split
    jobs, mem, cores = _jobs(s, d["gib_per_job"], threads)
    switches = {} if has_sm8 else {"FLASH_ATTENTION_DISABLE_SM80": "TRUE"}
    est = buildtime.estimate("fa3", files=buildtime.fa3_files(switches), jobs=jobs, threads=threads, archs=1, cores=s.cores)
    streams, (lo, hi) = est.streams, est.minutes
    reduced = {f"FLASH_ATTENTION_DISABLE_{x}": "TRUE" for x in d["reduced_disable"]}
    rest = buildtime.estimate("fa3", files=buildtime.fa3_files(reduced), jobs=jobs, threads=threads, archs=1, cores=s.cores,
                              reduced=True)
    nv_notes, home, ok = _nvcc_lines(s)
    notes = [T("fa2_maxjobs", jobs=jobs, mem=mem, gib=d["gib_per_job"], gib_source=data("fa2")["build"]["gib_per_job_source"],
               cores=cores, threads=threads, threads_why="one arch a file: nvcc --threads has nothing to split"),
             T("fa3_time", files=est.files, mlo=est.per_file[0], mhi=est.per_file[1], streams=streams, basis=est.basis),
             T("fa3_reduced", switches=" ".join(f"{k}=TRUE" for k in reduced), files=rest.files, lo=rest.minutes[0],
               hi=rest.minutes[1])] + nv_notes
    if tc and tc[0] == 12 and tc != (12, 8):
        notes.append(T("fa3_download"))
    env = [("CUDA_HOME", home), ("MAX_JOBS", str(jobs)), ("NVCC_THREADS", str(threads)),
           ("FLASH_ATTENTION_DISABLE_SM80", None if has_sm8 else "TRUE")]
    cmds = []
    missing = _missing_pkgs(s, ["ninja", "packaging", "setuptools", "wheel"])
    if missing:
        cmds.append(T("prereq", pkgs=" ".join(missing)))
    cmds += [f"git clone --depth 1 {d['repo']} && cd flash-attention/hopper",
             f"{_env_prefix(env)} pip install . --no-build-isolation --no-cache-dir"]
    notes.append("#    it installs flash_attn_3, imported as: from flash_attn_interface import flash_attn_func")
    if not ok:
        cmds = [f"# {c}" for c in cmds]
    plan.routes.append(Route(kind="source", title=T("fa3_title", lo=lo, hi=hi, streams=streams), commands=cmds,
                             notes=notes, short=T("fa3_short", plan=_short_plan("fa3")),
                             params={"max_jobs": jobs, "nvcc_threads": threads, "minutes": [lo, hi], "files": est.files,
                                     "disable_sm80": not has_sm8, "reduced_files": rest.files,
                                     "reduced_minutes": list(rest.minutes)}))
    alt = "cute (FA4: pip install 'flash-attn-4>=4.0.0b0') is the maintained Hopper path; sdpa needs nothing"
    plan.routes.append(Route(kind="instead", title=T("fa3_instead", instead=alt)))
    return plan


# ---- FA4 (flash_attn.cute) ----------------------------------------------------------------------

def cute(s: Stack) -> Plan:
    d = data("cute")
    plan = _plan("cute", s, d["read"])
    if _blocked(plan, s):
        return plan
    if s.python and Version(s.python + ".0") not in _spec(d["python"]):
        plan.refusals.append(T("cute_python", need=d["python"], py=s.python))
        return plan
    caps = _caps(s)
    fwd = [c for c in caps if (8, 0) <= c < (13, 0)]
    if caps and not fwd:
        plan.refusals.append(T("cute_no_gpu", gpus=_gpu_names(s, set(caps)) + ": use sdpa"))
        return plan
    major = s.cuda_major
    if major not in (12, 13):
        plan.refusals.append(T("cute_cuda", cuda=s.cuda))
        return plan
    extra = "[cu13]" if major == 13 else ""
    spec = f"'flash-attn-4{extra}>={d['version']}'"  # a pre-release floor: pip takes --pre for FA4 alone
    cmd = (f"pip install {spec} 'quack-kernels{d['quack']}' 'nvidia-cutlass-dsl{extra}{d['cutlass_dsl']}'"
           f"   # {d['libs'][str(major)]} for torch's CUDA {major}")
    notes = []
    fwd_only = [c for c in fwd if c < (9, 0)]
    if fwd_only:
        notes.append(T("cute_backward", gpus=_gpu_names(s, set(fwd_only))))
    fa2 = s.installed.get("flash-attn") or s.installed.get("flash_attn")
    if fa2:
        notes.append(T("cute_fa2_shadow", fa2=fa2))
    plan.routes.append(Route(kind="pip", title=T("cute_title", version=d["version"], major=major), commands=[cmd],
                             notes=notes, short=T("cute_short", spec=spec),
                             params={"extra": extra, "libs": d["libs"][str(major)]}))
    return plan


def _spec(s: str):
    from packaging.specifiers import SpecifierSet

    return SpecifierSet(s)


# ---- xformers -----------------------------------------------------------------------------------

def _flavour(cuda: str | None) -> str | None:
    mm = view.cuda_major_minor(cuda)
    return f"cu{mm[0]}{mm[1]}" if mm else None


def xformers(s: Stack) -> Plan:
    d = data("xformers")
    plan = _plan("xformers", s, d["read"])
    if _blocked(plan, s):
        return plan
    base = s.torch.base_version
    flav = _flavour(s.cuda)
    rels = [r for r in d["release"] if r["torch"] == base]
    newest = d["release"][0]
    meanwhile = T("xf_meanwhile", also="; cute or fa2 where they fit (attn-doctor check)")
    if not rels:
        plan.refusals.append(T("xf_none", torch=base, newest=newest["version"], newest_torch=newest["torch"], read=d["read"]))
        plan.routes.append(Route(kind="instead", title=meanwhile, short=T("xf_none_short", torch=base)))
        plan.routes.append(_xf_source(s, d, newest["version"]))
        return plan
    rel = rels[0]
    py = rel["python"]
    if s.python and " to cp" in py:
        hi = py.split(" to cp")[1]
        if int(s.py_tag) > int(hi):
            plan.refusals.append(T("xf_python", version=rel["version"], python=py, py=s.python))
            plan.routes.append(_xf_source(s, d, rel["version"]))
            return plan
    if flav == rel["pypi"]:
        cmd, where = f"pip install xformers=={rel['version']}", T("xf_pypi")
        short = T("xf_short", version=rel["version"])
    elif flav in rel["flavours"]:
        cmd, where = (f"pip install xformers=={rel['version']}   # the {flav} build: from PyTorch's wheel index for "
                      f"{flav} (pip --index-url) if pip's index lacks it"), T("xf_index", flavour=flav)
        short = T("xf_short_index", version=rel["version"], flavour=flav, plan=_short_plan("xformers"))
    else:
        plan.refusals.append(T("xf_other_flavour", version=rel["version"], torch=rel["torch"],
                               flavours=", ".join(rel["flavours"]), flavour=flav))
        plan.routes.append(_xf_source(s, d, rel["version"]))
        plan.routes.append(Route(kind="instead", title=meanwhile))
        return plan
    plan.routes.append(Route(kind="pip", title=T("xf_title", version=rel["version"], torch=rel["torch"], flavour=flav, where=where),
                             commands=[cmd],
                             short=short,
                             params={"version": rel["version"], "flavour": flav}))
    return plan


def _xf_source(s: Stack, d: dict, version: str) -> Route:
    jobs, mem, cores = _jobs(s, data("fa2")["build"]["gib_per_job"], 1)
    caps = _caps(s)
    archs = ";".join(f"{c[0]}.{c[1]}" for c in caps) or None
    env = [("TORCH_CUDA_ARCH_LIST", f'"{archs}"' if archs else None), ("MAX_JOBS", str(jobs))]
    nv_notes, home, ok = _nvcc_lines(s)
    if home:
        env.insert(0, ("CUDA_HOME", home))
    cmds = [f"{_env_prefix(env)} {d['build']['command'].format(version=version)}"]
    if not ok:
        cmds = [f"# {c}" for c in cmds]
    return Route(kind="source", title=T("xf_source_title", version=version, jobs=jobs), commands=cmds,
                 notes=[f"#    MAX_JOBS={jobs}: {mem}, {cores}"] + nv_notes, params={"max_jobs": jobs, "archs": archs})


# ---- SageAttention ------------------------------------------------------------------------------

def sage(s: Stack) -> Plan:
    d = data("sage")
    plan = _plan("sage", s, d["read"])
    if _blocked(plan, s):
        return plan
    plan.routes.append(Route(kind="pip", title=T("sage_pypi_title", version=d["pypi"]),
                             commands=[f"pip install sageattention=={d['pypi']}"], notes=[T("sage_training")],
                             short=T("sage_pypi_short", version=d["pypi"]), params={"version": d["pypi"]}))
    if s.torch < Version(d["min_torch"]):
        plan.refusals.append(T("sage_torch_old", need=d["min_torch"], torch=s.torch_str))
        return plan
    caps = _caps(s)
    table = d["min_cuda"]
    ok_caps = [c for c in caps if f"{c[0]}.{c[1]}" in table]
    bad = [c for c in caps if c not in ok_caps]
    if caps and not ok_caps:
        plan.refusals.append(T("sage_unsupported", supported=", ".join(f"sm{k.replace('.', '')}" for k in table),
                               gpus=_gpu_names(s, set(bad))))
        return plan
    nv_notes, home, ok = _nvcc_lines(s)
    nv = _nvcc_version(s, home)
    notes = []
    for i, n, c in s.gpus:
        key = f"{c[0]}.{c[1]}"
        if key not in table:
            continue
        need = Version(table[key])
        good = "ok" if nv and nv >= need else f"nvcc {nv or 'none'} is too old: the build stops" if nv else "no matching nvcc"
        ok = ok and (nv is None or nv >= need)
        notes.append(T("sage_arch_cuda", gpu=f"GPU {i} ({n})", cap=f"{c[0]}{c[1]}", need=need, ok=good))
    jobs, mem, cores = _jobs(s, d["gib_per_job"], 1)
    archs = ";".join(f"{c[0]}.{c[1]}" for c in ok_caps) or "8.0;8.6;8.9;9.0;12.0"
    notes = [f"#    MAX_JOBS={jobs}, EXT_PARALLEL=1: {mem}, {cores} (setup.py's defaults, EXT_PARALLEL=4 x MAX_JOBS=32, are unbounded)",
             f"#    TORCH_CUDA_ARCH_LIST={archs}: setup.py builds for this list first, else for the GPUs visible at build time"] \
        + notes + nv_notes + [T("sage_training")]
    env = [("CUDA_HOME", home), ("TORCH_CUDA_ARCH_LIST", f'"{archs}"'), ("EXT_PARALLEL", "1"), ("MAX_JOBS", str(jobs))]
    cmds = [f"git clone --depth 1 {d['repo']} && cd SageAttention",
            f"{_env_prefix(env)} pip install . --no-build-isolation --no-cache-dir"]
    if not ok:
        cmds = [f"# {c}" for c in cmds]
    plan.routes.append(Route(kind="source", title=T("sage_source_title", version=d["source_version"],
                                                     archs=", ".join(f"sm{c[0]}{c[1]}" for c in ok_caps) or "the default archs",
                                                     jobs=jobs),
                             commands=cmds, notes=notes, params={"max_jobs": jobs, "archs": archs, "nvcc_ok": ok}))
    return plan
