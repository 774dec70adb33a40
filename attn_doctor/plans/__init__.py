"""Install plans: for a backend that is missing, broken or built for another torch, the install that
fits this machine, computed from the facts alone, most reliable route first.

The release matrices and mappings are data (attn_doctor/knowledge/installs/*.toml, each with the date it
was read and its source); the words are templates in installs/text.toml. Nothing is fetched, nothing is
run: a plan is text to paste.
"""

from __future__ import annotations

import string
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib  # type: ignore[no-redef]

from packaging.version import Version

from ..facts import view

DATA = Path(__file__).resolve().parent.parent / "knowledge" / "installs"
PLANNED = ("fa2", "fa3", "cute", "xformers", "sage")
GIB = 1024 ** 3


@lru_cache(maxsize=None)
def data(name: str) -> dict:
    with open(DATA / f"{name}.toml", "rb") as fh:
        return tomllib.load(fh)


def T(key: str, **params) -> str:
    """The template `key` of installs/text.toml, filled in."""
    return string.Formatter().vformat(data("text")["text"][key], (), params)


@dataclass
class Route:
    kind: str  # wheel | pip | source | instead
    title: str
    commands: list[str] = field(default_factory=list)  # to paste, in order
    notes: list[str] = field(default_factory=list)  # comment lines: assumptions, checks, time
    short: str = ""
    url: str | None = None
    params: dict = field(default_factory=dict)  # the figures behind it (MAX_JOBS, archs, minutes), for tests and JSON


@dataclass
class Plan:
    backend: str
    title: str
    stack: str
    read: str
    routes: list[Route] = field(default_factory=list)
    refusals: list[str] = field(default_factory=list)  # sentences: routes that do not fit, and why

    @property
    def short(self) -> str:
        if self.routes:
            return self.routes[0].short
        return self.refusals[0] if self.refusals else ""

    def text(self, width: int = 80, target=None, situation=None) -> str:
        """A shell-pasteable block: comments say why, commands do it, most reliable route first.
        Commands are aimed at `target` and checked against `situation` (advice.safe): one that would
        break what works comes out as comments and a separate env.
        Lines fit `width` (comments wrap as comments, commands continue with a backslash); a URL stays whole."""
        from .. import advice

        lines = [T("header", title=self.title, stack=self.stack, read=self.read)]
        lines += [f"# {r}" for r in self.refusals]
        for i, r in enumerate(self.routes, 1):
            lines.append(T("route", n=i, title=r.title))
            lines += r.notes
            for cmd in r.commands:
                head, sep, comment = cmd.partition("   # ")
                if sep and not head.lstrip().startswith("#"):  # a comment after a command goes above it
                    lines += [f"#    {comment}", advice.safe(head, situation, target, self.backend)]
                else:
                    lines.append(advice.safe(cmd, situation, target, self.backend))
        out: list[str] = []
        for line in "\n".join(lines).split("\n"):
            out += advice.fit(advice.aim(line, target), width)  # prose names commands too: aimed before it is fitted
        return "\n".join(out)

    def to_json(self) -> dict:
        return {"backend": self.backend, "title": self.title, "stack": self.stack, "read": self.read,
                "short": self.short, "refusals": list(self.refusals),
                "routes": [{"kind": r.kind, "title": r.title, "commands": r.commands, "notes": r.notes,
                            "url": r.url, "params": r.params} for r in self.routes]}


@dataclass
class Stack:
    """What a plan depends on, read from Facts (fresh or saved); None where a saved report lacks it."""
    torch: Version | None
    torch_str: str | None
    cuda: str | None  # torch.version.cuda, e.g. "13.0"
    hip: str | None
    abi: bool | None  # torch._C._GLIBCXX_USE_CXX11_ABI
    abi_assumed: bool
    python: str | None  # "3.12"
    system: str | None
    machine: str | None
    gpus: list[tuple[int, str, tuple[int, int]]]  # (index, name, capability)
    cores: int | None
    mem_bytes: int | None
    mem_basis: str
    nvcc: dict | None  # the nvcc torch's extension builder would use: {path, version}
    nvcc_found: list[dict]
    ninja: str | None
    env: dict
    installed: dict  # distribution -> version, everything on sys.path

    @property
    def cuda_major(self) -> int | None:
        mm = view.cuda_major_minor(self.cuda)
        return mm[0] if mm else None

    @property
    def py_tag(self) -> str | None:
        return self.python.replace(".", "") if self.python else None

    @property
    def torch_mm(self) -> str | None:
        return f"{self.torch.major}.{self.torch.minor}" if self.torch else None

    def describe(self) -> str:
        parts = [f"torch {self.torch_str}" if self.torch_str else "torch ?"]
        if self.cuda:
            parts.append(f"CUDA {self.cuda}")
        if self.python:
            parts.append(f"Python {self.python}")
        if self.abi is not None:
            parts.append(f"cxx11abi {'TRUE' if self.abi else 'FALSE'}" + (" (assumed)" if self.abi_assumed else ""))
        parts.append(f"{(self.system or '?').lower()} {self.machine or '?'}")
        caps = sorted({f"sm{c[0]}{c[1]}" for _, _, c in self.gpus})
        parts.append("GPUs " + ", ".join(caps) if caps else "no GPU seen")
        if self.cores:
            parts.append(f"{self.cores} cores")
        if self.mem_bytes:
            parts.append(f"{self.mem_bytes / GIB:.0f} GiB {self.mem_basis}")
        return ", ".join(parts)


def _python(facts: dict) -> str | None:
    probe = (facts.get("torch") or {}).get("probe") or {}
    full = probe.get("python") or (facts.get("marker_env") or {}).get("python_full_version") \
        or (facts.get("system") or {}).get("python")
    if not full:
        return None
    parts = str(full).split(".")
    return ".".join(parts[:2]) if len(parts) >= 2 else None


def _memory(sysf: dict) -> tuple[int | None, str]:
    mem = sysf.get("memory") or {}
    avail, total, limit = mem.get("available_bytes"), mem.get("total_bytes"), mem.get("cgroup_limit_bytes")
    base, basis = (avail, "available") if avail else (total, "total") if total else (None, "unknown")
    if limit and (base is None or limit < base):
        return limit, "container limit"
    return base, basis


def _cores(sysf: dict) -> int | None:
    cpu = sysf.get("cpu") or {}
    n = cpu.get("usable") or cpu.get("count")
    lim = cpu.get("cgroup_limit")
    if n and lim:
        n = max(1, min(n, int(lim)))
    return n


def stack(facts: dict) -> Stack:
    t = view.torch(facts)
    probe = t["probe"] or {}
    tv = view.torch_version(facts)
    abi = probe.get("cxx11_abi")
    assumed = False
    if abi is None and tv is not None:
        # flash-attention's publish.yml: "PyTorch 2.7+ pip wheels use CXX11_ABI=1 by default"
        abi, assumed = tv >= Version("2.7"), True
    sysf = facts.get("system") or {}
    nv = facts.get("nvcc") or {}
    found = nv.get("found") or []
    choice = nv.get("build_choice")
    chosen = next((f for f in found if f.get("path") == choice), None)
    if choice and chosen is None:
        chosen = {"path": choice, "version": None}
    mem, basis = _memory(sysf)
    gpus = [(g.get("index", i), g.get("name") or "GPU", tuple(g["capability"]))
            for i, g in enumerate(view.gpus(facts)) if g.get("capability")]
    pk = facts.get("packages") or {}
    installed = dict(pk.get("versions") or {})
    installed.update({k: v.get("version") for k, v in (pk.get("stack") or {}).items() if v.get("version")})
    return Stack(
        torch=tv, torch_str=t["version"], cuda=t["cuda"] or ((facts.get("torch") or {}).get("build") or {}).get("cuda"),
        hip=t["hip"], abi=abi, abi_assumed=assumed, python=_python(facts),
        system=sysf.get("system"), machine=sysf.get("machine"), gpus=gpus, cores=_cores(sysf),
        mem_bytes=mem, mem_basis=basis, nvcc=chosen, nvcc_found=[f for f in found if f.get("version")],
        ninja=sysf.get("ninja"), env=view.env(facts), installed=installed)


def _route_module(name: str):
    from . import routes

    return getattr(routes, name)


def make(name: str, facts: dict) -> Plan:
    """The plan for backend `name` on the machine `facts` describe."""
    if name not in PLANNED:
        raise KeyError(f"no install plan for {name!r} (it is part of torch)")
    return _route_module(name)(stack(facts))


# name -> (repr of the Stack, its plan's short) of the last stacks asked: a plan is a function of the Stack alone (its
# fields and the installs/*.toml data, read once), and a process that checks many faked machines (the property tests of
# tests/test_findings.py: ~10,000 checks, each asking the five plans of the same box's Stack) made each plan again,
# ~1 ms of every check (helper ci39a, session 39). Keyed by the Stack's repr: equal reprs are equal fields (their
# values are str, int, bool, None, Version and lists, tuples and dicts of these); a repr that differs only costs a plan.
_SHORTS: dict[tuple[str, str], str] = {}
SHORTS_KEPT = 64


def short(name: str, facts: dict, read: dict | None = None) -> str | None:
    """The backends table's reason for a missing backend, or None when no plan applies. `read`: a dict the caller keeps
    while `facts` do not change (checks/backends.statuses, for its five backends), where the Stack is read once."""
    if name not in PLANNED:
        return None
    try:
        if read is None or "stack" not in read:
            s = stack(facts)
            read = {} if read is None else read
            read.update(stack=s, repr=repr(s))
        s = read["stack"]
        key = (name, read["repr"])
        got = _SHORTS.get(key)
        if got is None:
            got = _route_module(name)(s).short  # (make(name, facts), on the Stack already read)
            if len(_SHORTS) >= SHORTS_KEPT:
                _SHORTS.clear()
            _SHORTS[key] = got
        return got
    except Exception:  # odd facts (a hand-edited report): the table falls back to the plain install line
        return None


def wanted(name: str, facts: dict, row: dict) -> bool:
    """Does a backend in this status need an install plan? Missing, or broken because it was built
    for another torch (an FA2 wheel tagged for another torch/ABI, xformers compiled for another torch)."""
    status = row.get("status")
    if status == "missing":
        return True
    if status != "broken" or name not in PLANNED:
        return False
    built = view.built_for(name, facts)
    t = view.torch(facts)
    if name == "xformers" and built:
        return built != f"torch {t['version']}"
    if name == "fa2" and built:
        tv = view.torch_base(facts)
        abi = (t["probe"] or {}).get("cxx11_abi")
        other_abi = abi is not None and f"cxx11abi {'TRUE' if abi else 'FALSE'}" not in built
        return bool(tv) and (f"torch {tv.major}.{tv.minor}," not in built or other_abi)
    return False


def text(name: str, facts: dict, rows: dict | None = None) -> str | None:
    """The plan as a block to paste, aimed at the env the facts describe and checked for harm."""
    from .. import advice
    from ..target import from_facts

    if name not in PLANNED:
        return None
    try:
        return make(name, facts).text(target=from_facts(facts), situation=advice.Situation.of(facts, rows))
    except Exception:
        return None
