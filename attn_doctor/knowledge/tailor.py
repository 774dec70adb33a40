"""Fit `explain`'s fix lines to the environment they are for (issue 23).

A knowledge entry's fix is written for any environment: an xformers reinstall names one CUDA index
(`--index-url .../whl/cu128`) and no release. Pasted into an env with torch 2.2.0+cu121, that line
installs the newest xformers, built for another torch, from another CUDA's index. So before explain
prints a fix, the versions it depends on are filled in from, in this order:
1. the checked environment: `explain --python PATH` (its torch's version and CUDA, read from its
   files without importing anything) or `explain --from REPORT.json` (the facts a check saved);
2. the input itself: the torch the log says is installed ("(you have 2.2.0+cu121)", "but you have
   torch 2.11.0+cu130", "PyTorch version: 2.7.1+cu126", "Successfully installed ... torch-2.8.0+cu128");
3. neither: a placeholder a shell refuses (`xformers==<...>`, `whl/<...>`: bash reads `<x>` as a
   redirect from a file that is not there and runs nothing), never a guess.

The xformers release built for a torch comes from installs/xformers.toml (read from the wheels).
Only lines that install xformers from a CUDA index are rewritten: a torch line whose index is chosen
for the GPU ("cu128+ for Blackwell") must keep it.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib  # type: ignore[no-redef]

from packaging.specifiers import InvalidSpecifier, SpecifierSet
from packaging.utils import canonicalize_name
from packaging.version import InvalidVersion, Version

from ..torchpin import base, index_of

HERE = Path(__file__).parent
VERSION = r"\d+\.\d+\.\d+(?:(?:a|b|rc|\.dev|\.post)\d+)*(?:\+[\w.]+)?"

# What the input says about the installed torch, most trusted first: (name, pattern with a `torch`
# group and, where the line gives it apart, a `cuda` group). Run by the matcher's prefilter (needles).
PROBES: tuple[tuple[str, str], ...] = (
    # xformers' built-for block: "PyTorch 2.1.0+cu121 with CUDA 1201 (you have 2.2.0+cu121)"
    ("you-have", rf"PyTorch \d[^\n]*?\(you have (?P<torch>{VERSION})\)"),
    # pip's resolver: "xformers 0.0.35 requires torch==2.10.0, but you have torch 2.11.0+cu130 which is ..."
    ("pip-resolver", rf"but you have torch (?P<torch>{VERSION})"),
    # torch's collect_env: "PyTorch version: 2.7.1+cu126", "CUDA used to build PyTorch: 12.6"
    ("collect-env", rf"^PyTorch version: (?P<torch>{VERSION})"),
    ("collect-env-cuda", r"^CUDA used to build PyTorch: (?P<cuda>\d+\.\d+)"),
    # what pip or uv installed last
    ("installed", rf"Successfully installed [^\n]*?\btorch-(?P<torch>{VERSION})(?=\s|$)"),
    ("installed", rf"^[ \t]*\+ torch==(?P<torch>{VERSION})[ \t]*$"),
    # a script printing its versions: "torch 2.2.0+cu121", "torch: 2.2.0+cu121", "torch.__version__ = '2.5.1+cu124'"
    # (no \s: a probe that cannot cross a line end is run on its needle's line alone, see match.spans_lines)
    ("printed", rf"^[^\n-]*?\btorch(?:\.__version__)?(?:[ \t]*[:=][ \t]*|[ \t]+|[ \t]+version:?[ \t]+)['\"]?v?(?P<torch>\d+\.\d+\.\d+\+(?:cu\d+|cpu|rocm[\d.]+))\b"),
)
RANK = {name: i for i, (name, _) in enumerate(PROBES)}


@dataclass(frozen=True)
class Versions:
    """The torch a fix is for: its version ("2.2.0+cu121") and the CUDA index its builds come from
    ("cu121"), and where they were read."""
    torch: str | None = None
    index: str | None = None
    source: str = ""
    target: object = None  # target.Target: the env the fixes act on (None: the job's, by name)
    situation: object = None  # advice.Situation: what that env holds and runs, so a fix never breaks it

    @property
    def known(self) -> bool:
        return bool(self.torch or self.index)


def from_facts(facts: dict, source: str, rows: dict | None = None) -> Versions:
    """The versions a check's facts (a fresh collection or a saved report, with its backends' `rows`) hold."""
    from ..advice import Situation
    from ..facts import view

    t = view.torch(facts)
    version = t.get("version")
    cuda = t.get("cuda") or ((facts.get("torch") or {}).get("build") or {}).get("cuda")
    from ..target import from_facts as target_of

    sit = Situation.of(facts, rows)
    if not version:
        return Versions(source=source, target=target_of(facts), situation=sit)
    return Versions(version, index_of(version, cuda), source, target_of(facts), sit)


def from_python(python: str, timeout: float = 60.0) -> Versions:
    """The versions in the interpreter `--python` names: its torch's metadata and torch/version.py,
    read as files (nothing is imported there). A UsageError when it is not a working Python."""
    from ..facts import packages, torch_build
    from ..facts.interpreter import query

    from ..target import of_interpreter

    from ..advice import Situation

    info = query(python, timeout=timeout)
    tgt = of_interpreter(info, "--python")
    pk = packages.collect(info["sys_path"], info["site_dirs"])
    dist = pk["stack"].get("torch")
    # what is installed there, read from its metadata (nothing is probed: which backends work is not known)
    sit = dataclasses.replace(Situation.of({"packages": pk}), probed=False)
    if not dist:
        return Versions(source=f"{python} (no torch installed there)", target=tgt, situation=sit)
    build = torch_build(pk)
    cuda_or_hip = build.get("cuda") or build.get("hip")
    cpu = (dist.get("version") or "").endswith("+cpu") or (bool(build) and not cuda_or_hip)  # version.py: cuda = None
    sit = dataclasses.replace(sit, torch=dist.get("version"), cpu_torch=cpu)
    return Versions(dist.get("version"), index_of(dist.get("version"), build.get("cuda")), python, tgt, sit)


def from_probes(hits: dict[str, list[tuple[int, dict]]]) -> Versions:
    """The versions the input names (the matcher's probe hits: name -> [(line, groups)]): the most
    trusted kind of line, the last one of that kind (what was installed last)."""
    torch = cuda = None
    where = 0
    for name in sorted(hits, key=lambda n: RANK.get(n, 99)):
        for line, groups in reversed(hits[name]):
            if groups.get("torch") and torch is None:
                torch, where = groups["torch"], line
            if groups.get("cuda") and cuda is None:
                cuda = groups["cuda"]
    if torch is None:
        return Versions()
    return Versions(torch, index_of(torch, cuda), f"the input (line {where})")


@lru_cache(maxsize=1)
def _xformers_releases() -> list[dict]:
    with open(HERE / "installs" / "xformers.toml", "rb") as fh:
        return tomllib.load(fh)["release"]


def xformers_release(torch: str | None) -> dict | None:
    """The newest xformers release whose wheels were built against this torch release (installs/xformers.toml)."""
    b = base(torch)
    return next((r for r in _xformers_releases() if r["torch"] == b), None) if b else None


# What knowledge writes where the torch release or its CUDA build is unknown: words a shell refuses
# to run as they stand (unset ${VAR:?...}), filled in below where the versions are known.
_XF = re.compile(r'"xformers==\$\{XFORMERS:\?[^}]*\}"')
_TORCH = re.compile(r'"torch==\$\{TORCH:\?your torch version[^}]*\}"')
# sdpa.no-flash-build: a build with the flash kernel is an official CUDA build of the same release, never the build
# installed (a CPU torch reinstalled has no flash kernel either)
_TORCH_CUDA_BUILD = re.compile(r'"torch==\$\{TORCH_CUDA_BUILD:\?[^}]*\}"')
_CUDA = "its build for your torch's CUDA: PyTorch's wheel index for that CUDA"


def _cuda_build(fix: str, v: Versions) -> str:
    """The `TORCH_CUDA_BUILD` placeholder filled from `v`: the installed release's official CUDA build (the CUDA `v`
    names; for a CPU torch, a placeholder for the tag the driver takes); where the installed torch is one already,
    the install line becomes a comment saying it would add nothing."""
    m = _TORCH_CUDA_BUILD.search(fix)
    b = base(v.torch)
    if not m or not b:
        return fix
    local = (v.torch or "").partition("+")[2]
    if local.startswith("rocm"):  # a ROCm machine: a CUDA build is no answer there; the placeholder stays
        return fix
    if re.fullmatch(r"cu\d+", local):  # an official CUDA wheel: installing it again changes nothing
        start = fix.rfind("\n", 0, m.start()) + 1
        end = fix.find("   # ", m.end())
        end = len(fix) if end < 0 else end
        return (fix[:start] + f"# torch {v.torch} is an official CUDA build already: installing it again adds no "
                f"kernel (the GPU, the platform or the inputs rule the flash kernel out)" + fix[end:])
    if v.index and v.index.startswith("cu") and local != "cpu":
        return fix[:m.start()] + f"'torch=={b}+{v.index}'" + fix[m.end():]
    return fix[:m.start()] + (f'"torch=={b}+${{CU:?the CUDA tag of a torch {b} build your driver runs, e.g. cu128 '
                              f'(nvidia-smi prints the driver\'s CUDA)}}"') + fix[m.end():]


@lru_cache(maxsize=1)
def _by_installed() -> dict[str, list[dict]]:
    """knowledge/fix_words.toml's [[by_installed]] rules by entry id."""
    from ..torchpin import words

    out: dict[str, list[dict]] = {}
    for rule in words().get("by_installed", []):
        out.setdefault(rule["entry"], []).append(rule)
    return out


def _holds(releases: str, installed: str | None) -> bool:
    """Does the installed release (None: not installed) fall in `releases` ("none", or a PEP 440 specifier)?"""
    if releases == "none" or installed is None:
        return releases == "none" and installed is None
    try:
        return SpecifierSet(releases).contains(Version(installed), prereleases=True)
    except (InvalidSpecifier, InvalidVersion):
        return False


def by_installed(fix: str | None, v: Versions, entry: str | None) -> str | None:
    """The fix knowledge gives `entry` for the release of a package the env holds (knowledge/fix_words.toml
    [[by_installed]]: the first case that holds it); `fix` where the env is not known or no case holds."""
    if not fix or not entry or v.situation is None:
        return fix
    installed = getattr(v.situation, "installed", {}) or {}
    for rule in _by_installed().get(entry, ()):
        have = installed.get(canonicalize_name(rule["package"]))
        for case in rule["cases"]:
            if _holds(case["releases"], have):
                return case["fix"].replace("{version}", have or "")
    return fix


# an allocator setting written under torch's unified name (knowledge's fixes: train.oom, alloc.*): the name before 2.11
# (PYTORCH_CUDA_ALLOC_CONF) where the torch the fix is for is older; torch 2.6 does not read PYTORCH_ALLOC_CONF at all, so the
# line as written changes nothing there (nu42: a log of torch 2.6.0+cu124 that ran out of memory)
_ALLOC_SET = re.compile(r"^export PYTORCH_ALLOC_CONF=(?!\"?\$)")
_ALLOC_OLD_NOTE = re.compile(r"[ \t]*\(torch < 2\.11: (?:keep the old name )?PYTORCH_CUDA_ALLOC_CONF\)")


def _alloc_name(fix: str, v: Versions) -> str:
    """`fix` with a literal allocator setting under the name that `v`'s torch reads (checks/allocator.target_name): the
    old name, both names swapped in the command, for a torch older than 2.11; as written where torch is newer or unknown."""
    from ..checks.allocator import OLD, target_name
    from ..facts import view

    b = base(v.torch)
    if not b or not _ALLOC_SET.match(fix) or target_name(view.version(b)) != OLD:
        return fix
    cmd, sep, note = fix.partition("   # ")
    cmd = re.sub(r"\bPYTORCH_(CUDA_)?ALLOC_CONF\b", lambda m: "PYTORCH_ALLOC_CONF" if m.group(1) else OLD, cmd)
    note = _ALLOC_OLD_NOTE.sub(f" (the name torch {b} reads)", note, count=1) if sep else note
    return cmd + sep + note


def tailor(fix: str | None, v: Versions, backend: str | None = None, entry: str | None = None) -> str | None:
    """`fix` with the xformers release, the torch release and its CUDA build filled in from `v` (the
    env's, or the ones the log names), then aimed at the env's interpreter (advice.aim); where `v`
    does not say, the placeholders a shell refuses stay. `entry`: the id whose fix it is, where the
    env's release of a package decides the words (by_installed)."""
    from ..advice import aim
    from ..target import GENERIC

    fix = by_installed(fix, v, entry)
    if not fix:
        return fix
    if v.torch:
        rel = xformers_release(v.torch)
        fix = _XF.sub(f"'xformers=={rel['version']}'" if rel else
                      f'"xformers==${{XFORMERS:?the xformers release built for torch {base(v.torch) or v.torch}}}"', fix)
        fix = _TORCH.sub(f"'torch=={v.torch}'", fix)
        fix = _cuda_build(fix, v)
        fix = _alloc_name(fix, v)
    if v.index and v.index.startswith("cu"):
        fix = fix.replace(_CUDA, f"its {v.index} build: PyTorch's wheel index for {v.index}")
    if v.situation is not None:  # an env it knows: what would break there is said, not run (as check's fixes)
        from ..advice import safe

        return safe(fix, v.situation, v.target or GENERIC, backend, cpu_first=True)
    return aim(fix, v.target or GENERIC)
