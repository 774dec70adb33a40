"""Versions: the installed stack checked against itself, from each distribution's Requires-Dist."""

from __future__ import annotations

from functools import lru_cache

from packaging.markers import default_environment
from packaging.requirements import InvalidRequirement, Requirement
from packaging.specifiers import InvalidSpecifier, SpecifierSet
from packaging.utils import canonicalize_name

from ..advice import PRE_FLOOR
from ..facts import view
from ..facts.packages import STACK
from ..knowledge import finding
from ..torchpin import index_of
from . import Context, check

# nvidia-cutlass-dsl names -libs-cu12 unconditionally, but -libs-cu13 serves CUDA 13 torch instead.
ALTERNATIVES = {
    "nvidia-cutlass-dsl-libs-cu12": "nvidia-cutlass-dsl-libs-cu13",
    "nvidia-cutlass-dsl-libs-cu13": "nvidia-cutlass-dsl-libs-cu12",
}
def _installed(facts: dict, name: str) -> str | None:
    return view.dist_version(facts, name)


def _pip(dep: str, spec: str) -> str:
    """pip's line for one requirement. A package published only as pre-releases gets a pre-release
    floor in its own specifier, which lets pip take a pre-release of it alone (never `--pre`, which
    lets every dependency be one)."""
    try:
        pre = any(view.version(s.version) and view.version(s.version).is_prerelease for s in SpecifierSet(spec))
    except InvalidSpecifier:
        pre = False
    if dep in PRE_FLOOR and not pre:
        spec = ",".join(x for x in (spec, f">={PRE_FLOOR[dep]}") if x)
    return f"pip install '{dep}{spec}'"


def parse_requirement(raw) -> Requirement | None:
    """`raw` parsed, or None where it is no requirement; a string's kept (read only, here and by checks.flex: one object
    serves every check; a check parses the stack's ~12 requirements, ~1 ms)."""
    return _kept_requirement(raw) if isinstance(raw, str) else _parsed_requirement(raw)


def _parsed_requirement(raw) -> Requirement | None:
    try:
        return Requirement(raw)
    except InvalidRequirement:
        return None


_kept_requirement = lru_cache(maxsize=4096)(_parsed_requirement)


def requirement_problems(facts: dict) -> list[dict]:
    """Every unmet requirement of a stack distribution: missing, or installed at the wrong version."""
    stack = view.stack(facts)
    marker_env = facts.get("marker_env") or default_environment()
    out = []
    every: dict[str, set[str]] = {}  # dep -> every specifier the stack puts on it
    for name, d in stack.items():
        for raw in d.get("requires") or []:
            req = parse_requirement(raw)
            if req is None:
                continue
            if req.marker is not None:
                try:
                    if not req.marker.evaluate(dict(marker_env, extra="")):
                        continue
                except Exception:
                    continue
            dep = canonicalize_name(req.name)
            have = _installed(facts, dep)
            if have is None and dep in ALTERNATIVES and _installed(facts, ALTERNATIVES[dep]):
                dep = ALTERNATIVES[dep]
                have = _installed(facts, dep)
            every.setdefault(dep, set()).update(str(s) for s in req.specifier)
            problem = {"dist": name, "version": d.get("version"), "dep": dep, "spec": str(req.specifier),
                       "req": raw.split(";")[0].strip(), "have": have}
            if have is None:
                out.append(dict(problem, kind="missing"))
            elif req.specifier and not req.specifier.contains(have, prereleases=True):
                out.append(dict(problem, kind="conflict"))
    for p in out:  # the fix must satisfy every package that names the dep, not only this one
        p["all"] = _tightest(every.get(p["dep"]) or ()) or p["spec"]
    return out


def _tightest(specs) -> str:
    """Specifiers as one, each bound said once: the highest lower bound, the lowest upper bound."""
    from packaging.specifiers import Specifier

    lows, highs, rest = {}, {}, set()
    for raw in specs:
        try:
            s = Specifier(raw)
            v = view.version(s.version)
        except Exception:
            v = None
        if v is None or s.operator not in (">=", ">", "<", "<="):
            rest.add(raw)
        elif s.operator in (">=", ">"):
            lows[raw] = v
        else:
            highs[raw] = v
    keep = set(rest)
    if lows:
        keep.add(max(lows, key=lambda k: (lows[k], k.startswith(">") and not k.startswith(">="))))
    if highs:
        keep.add(min(highs, key=lambda k: (highs[k], not k.startswith("<="))))
    return ",".join(sorted(keep))


@check("versions")
def requirements(facts: dict, ctx: Context):
    stack = view.stack(facts)
    problems = requirement_problems(facts)
    fa4, quack = _installed(facts, "flash-attn-4"), _installed(facts, "quack-kernels")
    guide_pin = False
    if fa4 and quack and view.version(quack) and view.version(quack) < view.version("0.5"):
        # The CuTE guide's quack-kernels==0.2.4 beside FA4: name both sides, whatever FA4 declares.
        need = next((p["spec"] for p in problems if p["dist"] == "flash-attn-4" and p["dep"] == "quack-kernels"), "")
        guide_pin = True
        yield finding("cute.quack-guide-pin", backend="cute", quack=quack, fa4=fa4,
                      need=need or ">=0.5.3", fix_cmd=_pip("quack-kernels", need or ">=0.5.3"))
    # An old version that is itself wrong drags in its own unmet requirements: report the root only.
    wrong = {p["dep"] for p in problems if p["kind"] == "conflict"}
    for p in problems:
        if guide_pin and (p["dist"] == "quack-kernels" or (p["dist"] == "flash-attn-4" and p["dep"] == "quack-kernels")):
            continue
        if p["dist"] in wrong:
            continue
        # torch's own pins on CUDA libraries: worth a warning; the attention stack's: an error.
        sev = "warning" if p["dist"] == "torch" and p["dep"] not in STACK else "error"
        if p["kind"] == "missing":
            yield finding("versions.requirement-missing", severity=sev, dist=p["dist"], version=p["version"],
                          req=p["req"], dep=p["dep"], fix_cmd=_pip(p["dep"], p["all"]))
        elif p["dep"] == "torch":
            yield finding("versions.needs-other-torch", dist=p["dist"], version=p["version"], req=p["req"],
                          have=p["have"])
        else:
            yield finding("versions.conflict", severity=sev, dist=p["dist"], version=p["version"], req=p["req"],
                          dep=p["dep"], have=p["have"], fix_cmd=_pip(p["dep"], p["all"]))
    for name, d in stack.items():
        if d.get("error"):
            yield finding("versions.metadata-unreadable", dist=name, path=d.get("path"), error=d["error"])


@check("versions")
def duplicates(facts: dict, ctx: Context):
    dups = (facts.get("packages") or {}).get("duplicates") or {}
    for name, copies in dups.items():
        used, rest = copies[0], copies[1:]
        yield finding("versions.duplicate", dist=name, used=f"{used['version']} in {used['location']}",
                      shadowed="; ".join(f"{c['version']} in {c['location']}" for c in rest),
                      location=rest[0]["location"])


@check("versions")
def fa2_wheel_matches_torch(facts: dict, ctx: Context):
    d = view.stack(facts).get("flash-attn") or {}
    tag = d.get("build_tag")
    t = view.torch(facts)
    tv = view.torch_base(facts)
    if not tag or not tv:
        return
    want_torch = f"{tv.major}.{tv.minor}"
    abi = (t["probe"] or {}).get("cxx11_abi")
    if tag["torch"] != want_torch or (abi is not None and bool(abi) != tag["cxx11abi"]):
        yield finding("fa2.wheel-mismatch", backend="fa2", version=d.get("version"),
                      built=f"torch {tag['torch']}, cxx11abi {'TRUE' if tag['cxx11abi'] else 'FALSE'}",
                      torch=t["version"], abi="TRUE" if abi else "FALSE" if abi is not None else "?",
                      want=f"torch{want_torch}cxx11abi{'TRUE' if abi in (True, None) else 'FALSE'}")


@check("versions")
def xformers_built_for_torch(facts: dict, ctx: Context):
    b = (facts.get("packages") or {}).get("xformers_build") or {}
    t = view.torch(facts)
    built, have = view.version(b.get("torch")), view.version(t["version"])
    if not built or not have:
        return
    xv = _installed(facts, "xformers")
    index = index_of(t["version"], t["cuda"]) or "cu130"  # the index of this torch's CUDA build
    if built.base_version != have.base_version:
        yield finding("xformers.built-for-other-torch", backend="xformers", version=xv, built=b["torch"],
                      torch=t["version"], index=index, fix_cmd=_xformers_reinstall(facts))
    elif (built.local or "") != (have.local or ""):
        yield finding("xformers.built-for-other-cuda", backend="xformers", version=xv, built=b["torch"],
                      torch=t["version"], index=index, fix_cmd=_xformers_reinstall(facts))


def _xformers_reinstall(facts: dict) -> str | None:
    """The install plan's release for this torch, as a reinstall; or, when none exists yet, the uninstall."""
    from .. import plans

    try:
        p = plans.make("xformers", facts)
    except Exception:
        return None  # the entry's general fix then
    r = p.routes[0] if p.routes else None
    if r and r.kind == "pip":
        return r.commands[0].replace("pip install ", "pip install --force-reinstall --no-deps ", 1)
    why = p.refusals[0] if p.refusals else "no xformers release fits this torch"
    return f"pip uninstall -y xformers   # {why}: use sdpa; after the uninstall, attn-doctor fix --require xformers gives the source build"


@check("versions")
def cutlass_libs_match_torch_cuda(facts: dict, ctx: Context):
    if not _installed(facts, "nvidia-cutlass-dsl"):
        return
    t = view.torch(facts)
    tc = view.cuda_major_minor(t["cuda"])
    if not tc:
        return
    have = {m for m in (12, 13) if _installed(facts, f"nvidia-cutlass-dsl-libs-cu{m}")}
    if have and tc[0] not in have:
        v = _installed(facts, "nvidia-cutlass-dsl")
        yield finding("cute.cutlass-libs-cuda", backend="cute", have=", ".join(f"cu{m}" for m in sorted(have)),
                      cuda=t["cuda"], major=tc[0], version=v)
