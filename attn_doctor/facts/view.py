"""Read-side helpers over a Facts dict (fresh or loaded from a saved report), tolerant of gaps."""

from __future__ import annotations

from functools import lru_cache

from packaging.version import InvalidVersion, Version


def version(v: str | None) -> Version | None:
    if not v:
        return None
    if isinstance(v, str):
        return _parsed(v)
    try:
        return Version(v)
    except InvalidVersion:
        return None


@lru_cache(maxsize=512)
def _parsed(v: str) -> Version | None:
    """A version string parsed once (a Version is never changed once made): `check` parses the same torch and package
    versions ~60 times, and a process that checks many machines (tests/test_findings.py) the same ones again
    (helper ci39a, session 39)."""
    try:
        return Version(v)
    except InvalidVersion:
        return None


def emulates_bf16(torch_version: str | None) -> bool:
    """Whether this torch's torch.cuda.is_bf16_supported() answers True below compute capability 8.0 (emulated
    bfloat16: torch 2.3 and later, configs.hf_transformers.by_gpu_reading says where); a version not known is taken as
    a current torch."""
    have = version(torch_version)
    return have is None or have >= Version("2.3")


def torch(facts: dict) -> dict:
    """installed, version, cuda, import_ok, error, run — whatever is known about torch."""
    t = facts.get("torch") or {}
    dist = t.get("dist") or {}
    probe = t.get("probe") or {}
    run = t.get("run") or {}
    return {
        "installed": bool(dist) or bool(probe.get("import_ok")),
        "version": probe.get("version") or dist.get("version"),
        "cuda": probe.get("cuda"),
        "hip": probe.get("hip"),
        "import_ok": bool(probe.get("import_ok")),
        "error": probe.get("import_error") or probe.get("probe_error"),
        "probe": probe,
        "run": run,
        "probed": bool(probe) or bool(run),
    }


def torch_version(facts: dict) -> Version | None:
    return version(torch(facts)["version"])


def torch_base(facts: dict) -> Version | None:
    v = torch_version(facts)
    return Version(v.base_version) if v else None


def cuda_runtime(facts: dict) -> dict:
    return ((facts.get("torch") or {}).get("probe") or {}).get("cuda_runtime") or {}


def gpus(facts: dict) -> list[dict]:
    """Visible GPUs: torch's view when torch could see them, else the driver's (nvidia-smi)."""
    devs = cuda_runtime(facts).get("devices") or []
    if devs:
        return [dict(d, source="torch") for d in devs]
    smi = (facts.get("driver") or {}).get("gpus") or []
    visible = smi
    cvd = (facts.get("env") or {}).get("CUDA_VISIBLE_DEVICES")
    if cvd is not None and smi:
        wanted = [x.strip() for x in cvd.split(",") if x.strip()]
        visible = []
        for w in wanted:
            if w.lstrip("-").isdigit() and int(w) < 0:
                break  # CUDA stops at the first invalid index
            visible += [g for g in smi if str(g["index"]) == w or (g.get("uuid") or "").startswith(w)]
    return [dict(g, source="nvidia-smi") for g in visible]


def capabilities(facts: dict) -> list[tuple[int, int]]:
    return [tuple(g["capability"]) for g in gpus(facts) if g.get("capability")]


def stack(facts: dict) -> dict:
    return ((facts.get("packages") or {}).get("stack")) or {}


def dist_version(facts: dict, name: str) -> str | None:
    d = stack(facts).get(name)
    if d and d.get("version"):
        return d["version"]
    # Metadata unreadable: the version in its .dist-info directory name still says it is installed.
    return ((facts.get("packages") or {}).get("versions") or {}).get(name)


def env(facts: dict) -> dict:
    return facts.get("env") or {}


def cuda_major_minor(s: str | None) -> tuple[int, int] | None:
    if not s:
        return None
    parts = str(s).split(".")
    try:
        return int(parts[0]), int(parts[1]) if len(parts) > 1 else 0
    except ValueError:
        return None


def built_for(name: str, facts: dict) -> str | None:
    """The torch (and CUDA, ABI) a compiled backend was built for, as its metadata says; None when unknown."""
    if name == "xformers":
        b = (facts.get("packages") or {}).get("xformers_build") or {}
        return f"torch {b['torch']}" if b.get("torch") else None
    if name == "fa2":
        d = stack(facts).get("flash-attn") or {}
        tag = d.get("build_tag")
        if tag:
            return f"torch {tag['torch']}, CUDA {tag['cuda']}, cxx11abi {'TRUE' if tag['cxx11abi'] else 'FALSE'}"
    return None
