"""What sets the members of a fleet apart, and which way each difference is fixed (issue 20).

`compared` gives each member's values: package versions, torch's build, Python, driver, GPUs,
backend statuses, the environment. For each value the members fall into groups; the reference is
the group the others are told to match. It is chosen by these rules in turn, so the same reports
give the same findings in any order:

1. Who may be copied. In a fleet with GPU members, a CPU-only member (torch without CUDA, or no
   GPU) has no vote and is never the model; a member without torch is never the model for torch.
2. What works stays. A direction that would break what works on a member loses to one that breaks
   nothing: an uninstall of a package that a working backend (advice.NEEDS) or torch needs there,
   directly or through the packages' own requirements; a backend's package moved to a version with
   which that backend is ok on no reference member; whatever advice.harms refuses with that
   member's own Situation (torch moved under compiled backends, a CPU torch on a GPU host).
3. A backend's status: ok beats the rest.
4. The majority of the voters.
5. A package is not copied from members where no backend it belongs to is ok (advice.NEEDS: xformers
   installed but broken there): that side loses.
6. The group with more backends ok (summed over its voters). Not for environment variables: how
   many backends work says nothing about which value of a variable is right.
7. Still equal: no direction. The finding says to make them the same and gives both lines: the
   fix for one side, the other side's line in its comment.

Packages of one backend's stack (advice.NEEDS: FA4's flash-attn-4, quack-kernels, cutlass-dsl...)
that differ between the same members in the same direction are one finding with one pinned pip
line. Every fix line is made for the members it names: advice.safe with that member's own
Situation, aimed at that member's own interpreter (target.from_facts); members whose lines differ
(another interpreter) get a line each, the first as the fix and the others below it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from packaging.requirements import InvalidRequirement, Requirement
from packaging.utils import canonicalize_name

from .. import advice
from ..devices import rows as device_rows
from ..facts import view
from ..knowledge import finding, get, render, words
from ..model import Finding
from ..target import Target, from_facts
from ..torchpin import index_of, install

# Environment variables that differ between ranks or hosts by design, or that a launcher sets for
# its workers (torchrun: TORCH_NCCL_ASYNC_ERROR_HANDLING): never a finding.
PER_RANK_ENV = {"RANK", "LOCAL_RANK", "WORLD_SIZE", "GROUP_RANK", "ROLE_RANK", "LOCAL_WORLD_SIZE",
                "CUDA_VISIBLE_DEVICES", "NVIDIA_VISIBLE_DEVICES", "HOME", "USER", "LOGNAME", "PATH",
                "TMPDIR", "NO_COLOR", "CI", "TORCH_NCCL_ASYNC_ERROR_HANDLING"}
PER_RANK_PREFIXES = ("SLURM_", "TORCHELASTIC_")
MAX_NAMES = 4  # members named in one finding before "and N more"


def W(key: str, **params) -> str:
    """A phrase of knowledge/fleet.toml's [words], filled in."""
    return render(words("fleet")[key], params)


def natural(s: str) -> list:
    """Sort key that puts n2 before n10 and r9 before r10."""
    return [int(p) if p.isdigit() else p for p in re.split(r"(\d+)", s)]


def _names(labels: list[str]) -> str:
    if len(labels) <= MAX_NAMES:
        return ", ".join(labels)
    return ", ".join(labels[:MAX_NAMES - 1]) + f" and {len(labels) - MAX_NAMES + 1} more"


# ---- what is compared ---------------------------------------------------------------------------

def _minor(v: str | None) -> str | None:
    parts = (v or "").split(".")
    return ".".join(parts[:2]) if v else None


def compared(m) -> dict[tuple[str, str], str | None]:
    """The values of one member that every other member should share: {(kind, name): value}."""
    rep = m.report or {}
    facts = rep.get("facts") or {}
    t = view.torch(facts)
    out: dict[tuple[str, str], str | None] = {}
    out[("python", "Python")] = _minor((facts.get("system") or {}).get("python"))
    for name, d in view.stack(facts).items():
        out[("package", name)] = d.get("version")
    out[("torch-build", "torch")] = t["cuda"] and f"CUDA {t['cuda']}" or (t["hip"] and f"ROCm {t['hip']}") or (
        "CPU" if t["import_ok"] else None)
    out[("driver", "NVIDIA driver")] = (facts.get("driver") or {}).get("driver")
    gpus = sorted({f"{r['name']} {r['cap']}" for r in device_rows(facts, rep.get("backends") or {},
                                                                   only=[m.device] if m.device else None)
                   if r["device"] != "cpu"})
    out[("gpu", "GPUs")] = " + ".join(gpus) or None
    for name, row in (rep.get("backends") or {}).items():
        if row.get("status") != "skipped":  # not selected there: nothing to compare
            out[("backend", name)] = row.get("status")
    for var, val in (facts.get("env") or {}).items():
        if var not in PER_RANK_ENV and not var.startswith(PER_RANK_PREFIXES):
            out[("env", var)] = val
    out[("doctor", "attn-doctor")] = facts.get("tool_version") or rep.get("tool_version")
    return out


_ABSENT = {"package": "not installed", "env": "unset", "driver": "none", "gpu": "no GPU",
           "torch-build": "not importable", "backend": "absent"}


def _shown(kind: str, value: str | None) -> str:
    return _ABSENT.get(kind, "?") if value is None else str(value)


# ---- each member as the comparison sees it ------------------------------------------------------

@dataclass
class Side:
    label: str
    name: str  # the label, with "(CPU-only)" where the fleet has GPU members
    report: dict
    values: dict
    sit: advice.Situation  # what works there: what a fix line is checked against
    target: Target  # its own interpreter: what a fix line is aimed at
    cpu_only: bool
    has_gpu: bool
    needed: frozenset  # distributions that what works there needs: never uninstalled there

    @property
    def ok(self) -> int:
        return len(self.sit.working)

    @property
    def facts(self) -> dict:
        return self.report.get("facts") or {}

    def aimed_at(self, fid: str) -> Target:
        """attn-doctor itself is installed where it runs, not in the env it checks."""
        if fid == "fleet.doctor-differs":
            return Target(python=self.target.doctor or self.target.python, how="own", has_pip=None)
        return self.target


def side(m) -> Side:
    rep = m.report or {}
    facts = rep.get("facts") or {}
    own = [Finding.from_dict(d) for d in rep.get("findings") or [] if isinstance(d, dict)]
    sit = advice.Situation.of(facts, rep.get("backends") or {}, own)
    t = view.torch(facts)
    has_gpu = bool(view.gpus(facts))
    return Side(label=m.label, name=m.label, report=rep, values=compared(m), sit=sit, target=from_facts(facts),
                cpu_only=not has_gpu or (t["import_ok"] and not (t["cuda"] or t["hip"])), has_gpu=has_gpu,
                needed=_needed(facts, sit))


def _needed(facts: dict, sit: advice.Situation) -> frozenset:
    """The installed distributions that a working backend needs there: its own (advice.NEEDS),
    torch, and what those require in turn (their metadata; extras left out)."""
    requires = {canonicalize_name(n): (d or {}).get("requires") or [] for n, d in view.stack(facts).items()}
    roots = {canonicalize_name(p) for b in sit.working for p in advice.NEEDS.get(b, ())}
    if sit.working and sit.torch:
        roots.add("torch")
    seen: set[str] = set()
    todo = list(roots)
    while todo:
        n = todo.pop()
        if n in seen:
            continue
        seen.add(n)
        for raw in requires.get(n, ()):
            try:
                r = Requirement(raw)
            except InvalidRequirement:
                continue
            if r.marker is None or "extra" not in str(r.marker):
                todo.append(canonicalize_name(r.name))
    return frozenset(n for n in seen if n in sit.installed or n in requires)


@dataclass
class Group:
    value: str | None
    sides: list[Side]

    @property
    def labels(self) -> list[str]:
        return [s.label for s in self.sides]

    @property
    def names(self) -> str:
        return _names([s.name for s in self.sides])


def _canonical(g: Group, kind: str = "") -> tuple:
    """The order of groups when nothing else decides (the first is a tie's reference): a value
    before its absence, so a tie's first line installs or sets, never removes; then by value."""
    return (g.value is None, natural(str(g.value)))


# ---- which way ----------------------------------------------------------------------------------

@dataclass
class Diff:
    kind: str
    name: str
    odd: Group  # the members told to change
    ref: Group  # the members whose value they take
    tie: bool  # no direction: the fix gives both lines
    why: str
    groups: list[Group]
    total: int


def _voters(g: Group, gpu_fleet: bool) -> list[Side]:
    return [s for s in g.sides if not (gpu_fleet and s.cpu_only)]


def _is_torch(kind: str, name: str) -> bool:
    return kind == "torch-build" or (kind == "package" and name == "torch")


def choose(kind: str, name: str, groups: list[Group], gpu_fleet: bool) -> tuple[Group, bool, str]:
    """(reference group, tie, why) for one compared value; see the module's docstring."""
    total = sum(len(g.sides) for g in groups)
    voting = gpu_fleet and any(_voters(g, True) for g in groups)
    has_value = any(g.value is not None for g in groups)

    def eligible(g: Group) -> bool:
        if voting and not _voters(g, True):
            return False
        return not (_is_torch(kind, name) and g.value is None and has_value)

    cands = [g for g in groups if eligible(g)] or list(groups)
    harmed = {id(g): _harmed(kind, name, g, groups) for g in cands}
    broken = {id(g): _broken_there(kind, name, g) for g in cands}

    def rank(g: Group) -> tuple:
        v = _voters(g, voting)
        return (not harmed[id(g)], kind == "backend" and g.value == "ok", len(v), not broken[id(g)],
                0 if kind == "env" else sum(s.ok for s in v))

    best = max(rank(g) for g in cands)
    top = sorted((g for g in cands if rank(g) == best), key=lambda g: _canonical(g, kind))
    ref = top[0]
    counts = dict(ref_count=len(ref.sides), total=total)
    if len(top) > 1:
        return ref, True, W("why_tie_env" if kind == "env" else "why_tie", **counts)
    others = [g for g in cands if g is not ref]
    cpu_left_out = voting and any(not _voters(g, True) for g in groups)  # a CPU-only group had no say
    if not others:
        return ref, False, W("why_cpu" if cpu_left_out else "why_majority", **counts)
    second = max(rank(g) for g in others)
    runner = sorted((g for g in others if rank(g) == second), key=lambda g: _canonical(g, kind))[0]
    a, b = rank(ref), rank(runner)
    decided = next(i for i in range(len(a)) if a[i] != b[i])
    if decided == 0:
        broken = sorted({s.name for s in harmed[id(runner)]}, key=natural)
        return ref, False, W("why_safe", broken=_names(broken), **counts)
    if decided == 1:
        return ref, False, W("why_ok_status", **counts)
    if decided == 2:
        return ref, False, W("why_cpu" if cpu_left_out else "why_majority", **counts)
    if decided == 3:  # no majority: a package is not copied from members where its backend is not ok
        return ref, False, W("why_broken_there", package=name, owners=", ".join(broken[id(runner)]), **counts)
    per = len(_voters(ref, voting))  # as many voters on each side here: say it per member
    return ref, False, W("why_more_ok", ok=_num(a[4] / per), other_ok=_num(b[4] / per), **counts)


def _num(x: float) -> str:
    return str(int(x)) if x == int(x) else f"{x:.1f}"


def _harmed(kind: str, name: str, to: Group, groups: list[Group]) -> list[Side]:
    """The members that taking `to`'s value would break something on that works there now."""
    out = []
    for g in groups:
        if g is to:
            continue
        for s in g.sides:
            if _breaks(kind, name, to, s):
                out.append(s)
    return out


def _broken_there(kind: str, name: str, g: Group) -> list[str]:
    """The backends whose package `g` holds and which are ok on none of `g`'s members (xformers broken
    where it is installed): its version is not copied to the others; [] otherwise."""
    if kind != "package" or g.value is None:
        return []
    dist = canonicalize_name(name)
    owners = [b for b, needs in advice.NEEDS.items() if dist in needs]
    if not owners or any(b in s.sit.working for s in g.sides for b in owners):
        return []
    return owners


def _breaks(kind: str, name: str, to: Group, s: Side) -> bool:
    if kind == "package":
        dist = canonicalize_name(name)
        if to.value is None and dist in s.needed:
            return True  # an uninstall of what a working backend (or torch) needs there
        owners = [b for b, needs in advice.NEEDS.items() if dist in needs and b in s.sit.working]
        if to.value is not None and owners and not any(b in r.sit.working for r in to.sides for b in owners):
            return True  # a working backend's package moved to a version it runs with nowhere
    if kind not in ("package", "torch-build"):
        return False  # no pip line: nothing advice.harms would refuse
    fid, extra = _entry(kind, name, to.value, [s], to)
    line = render(get(fid).fix, dict(extra, hosts="", why="", value="", reference=_shown(kind, to.value)))
    return bool(advice.harms(line, s.sit))


def _torch_pin(g: Group) -> str:
    """torch as `g` has it, pinned with its build (the probe's version and CUDA, not only metadata)."""
    t = view.torch(sorted(g.sides, key=lambda s: (s.cpu_only, natural(s.label)))[0].facts)
    version = t["version"] or g.value
    return install(version, index_of(version, t["cuda"]), reinstall=False)


def _entry(kind: str, name: str, reference: str | None, odd: list[Side], ref: Group) -> tuple[str, dict]:
    """(knowledge id, extra params) for members `odd` told to take `ref`'s value `reference`."""
    if kind == "package":
        if reference is None:
            return "fleet.package-extra", {"package": name}
        if name == "torch":
            return "fleet.torch-differs", {"package": name, "torch": reference, "torch_cmd": _torch_pin(ref)}
        return "fleet.package-differs", {"package": name}
    if kind == "env":
        return ("fleet.env-extra" if reference is None else "fleet.env-differs"), {"var": name}
    if kind == "backend":
        return "fleet.backend-differs", {"backend": name}
    if kind == "torch-build":
        r = reference or ""
        index = "cpu" if r == "CPU" else "cu" + r[5:].replace(".", "") if r.startswith("CUDA ") else \
            "rocm" + r[5:] if r.startswith("ROCm ") else "cu130"
        version = next((s.values.get(("package", "torch")) for s in odd if s.values.get(("package", "torch"))), None)
        return "fleet.torch-build-differs", {"what": name, "index": index,
                                             "torch_cmd": install(version, index, reinstall=False)}
    return f"fleet.{kind}-differs", {"what": name}


# ---- the differences ----------------------------------------------------------------------------

def diffs(sides: list[Side]) -> list[Diff]:
    """Every group of members that differs from its reference, with the direction chosen."""
    gpu_fleet = any(not s.cpu_only for s in sides)
    any_gpu = any(s.has_gpu for s in sides)
    keys = sorted({k for s in sides for k in s.values})
    torch_differs = len({s.values.get(("package", "torch")) for s in sides}) > 1
    out = []
    for key in keys:
        kind, name = key
        if kind == "torch-build" and torch_differs:
            continue  # a different torch version already says it; its build would repeat it
        here = [s for s in sides if key in s.values or kind != "backend"]  # backend not selected: not compared
        if kind == "driver" and any_gpu:
            here = [s for s in here if s.has_gpu]  # no GPU, no driver: the GPUs finding says it
        by: dict[str | None, list[Side]] = {}
        for s in sorted(here, key=lambda s: natural(s.label)):
            by.setdefault(s.values.get(key), []).append(s)
        if len(by) < 2:
            continue
        groups = sorted((Group(v, ss) for v, ss in by.items()), key=lambda g: _canonical(g, kind))
        ref, tie, why = choose(kind, name, groups, gpu_fleet)
        total = len(here)
        out += [Diff(kind, name, g, ref, tie, why, groups, total) for g in groups if g is not ref]
    return out


def torch_missing(sides: list[Side]) -> set[str]:
    """Labels of the members with no torch, when another member has one."""
    none = {s.label for s in sides if not view.stack(s.facts).get("torch")}
    return none if none and len(none) < len(sides) else set()


def findings(sides: list[Side]) -> list[Finding]:
    """The fleet findings of what differs: stacks bundled, one cause said once."""
    gpu_fleet = any(not s.cpu_only for s in sides)
    for s in sides:  # named as CPU-only where that sets it apart: a fleet with GPU members
        s.name = W("cpu_only", name=s.label) if gpu_fleet and s.cpu_only else s.label
    pending = diffs(sides)
    stacks, pending = _bundle(pending)
    torchless = torch_missing(sides)
    told = _told_to_install(stacks, pending)
    out = [_stack_finding(b, d) for b, d in stacks]
    for d in pending:
        if d.kind == "backend" and set(d.odd.labels) <= torchless:
            continue  # no torch there, so no backend: fleet.torch-differs already says why
        if d.kind == "backend" and d.odd.value == "missing" and set(d.odd.labels) <= told.get(d.name, set()):
            continue  # its packages are missing there, and a finding gives the line that installs them
        out.append(_finding(d))
    return out


def _owner(dist: str) -> str | None:
    return next((b for b, needs in advice.NEEDS.items() if canonicalize_name(dist) in needs), None)


def _bundle(pending: list[Diff]) -> tuple[list[tuple[str, list[Diff]]], list[Diff]]:
    """Packages of one backend's stack that differ between the same members in the same
    direction: one (backend, [diffs]) each; the rest as they were."""
    stacks, used = [], set()
    for backend, needs in advice.NEEDS.items():
        if len(needs) < 2:
            continue
        buckets: dict[tuple, list[Diff]] = {}
        for d in pending:
            if id(d) in used or d.kind != "package" or canonicalize_name(d.name) not in needs:
                continue
            buckets.setdefault((tuple(d.odd.labels), tuple(d.ref.labels), d.tie), []).append(d)
        for ds in buckets.values():
            if len(ds) > 1:
                ds.sort(key=lambda d: needs.index(canonicalize_name(d.name)))
                stacks.append((backend, ds))
                used |= {id(d) for d in ds}
    return stacks, [d for d in pending if id(d) not in used]


def _told_to_install(stacks, pending) -> dict[str, set[str]]:
    """backend -> members told (with a direction) to install a package it needs."""
    out: dict[str, set[str]] = {}
    for d in [d for _, ds in stacks for d in ds] + pending:
        if d.kind == "package" and not d.tie and d.odd.value is None and d.ref.value is not None:
            for b, needs in advice.NEEDS.items():
                if canonicalize_name(d.name) in needs:
                    out.setdefault(b, set()).update(d.odd.labels)
    return out


# ---- fix lines, member by member ----------------------------------------------------------------

def _lines(fix: str, params: dict, sides: list[Side], fid: str, backend: str | None) -> list[str]:
    """The fix for `sides`: one line per distinct line (each member's own interpreter and what
    works there decide it), each naming its members."""
    by: dict[str, list[Side]] = {}
    for s in sides:
        key = advice.safe(render(fix, dict(params, hosts="")), s.sit, s.aimed_at(fid), backend) or ""
        by.setdefault(key, []).append(s)
    return [advice.safe(render(fix, dict(params, hosts=_names([s.name for s in ss]))), ss[0].sit,
                        ss[0].aimed_at(fid), backend) or "" for ss in by.values()]


def _fix_and_plan(lines: list[str]) -> tuple[str, str | None]:
    first, *rest = lines[0].split("\n")
    more = rest + [ln for other in lines[1:] for ln in other.split("\n")]
    return first, (advice.fit_block("\n".join(more)) if more else None)


def _command(line: str) -> str:
    """The command of a fix line without its comment (a refused line: what it says)."""
    if line.lstrip().startswith("#"):
        return line.lstrip("# ").strip()
    return advice._strip_comment(line).strip()


def _tied(fix: str, other: str, ref_hosts: str) -> str:
    return advice.one_comment(W("tie_fix", line=fix, ref_hosts=ref_hosts, other=_command(other)))


def _params(d: Diff) -> dict:
    return dict(value=_shown(d.kind, d.odd.value), hosts=d.odd.names, count=len(d.odd.sides),
                reference=_shown(d.kind, d.ref.value), ref_hosts=d.ref.names, ref_count=len(d.ref.sides),
                total=d.total, why=d.why)


def _detail(d: Diff) -> str:
    return "; ".join(f"{_shown(d.kind, g.value)}: {g.names}" for g in d.groups)


def _finding(d: Diff) -> Finding:
    fid, extra = _entry(d.kind, d.name, d.ref.value, d.odd.sides, d.ref)
    params = dict(_params(d), **extra)
    backend = _owner(d.name) if d.kind == "package" else None
    e = get(fid)
    fix, plan = _fix_and_plan(_lines(e.fix, params, d.odd.sides, fid, backend))
    if d.tie:  # the other way: the reference side takes the odd side's value
        rid, rextra = _entry(d.kind, d.name, d.odd.value, d.ref.sides, d.odd)
        rparams = dict(_params(d), value=params["reference"], reference=params["value"], **rextra)
        other = _lines(get(rid).fix, rparams, d.ref.sides, rid, backend)
        fix = _tied(fix, other[0].split("\n")[0], d.ref.names)
    f = finding(fid, detail=_detail(d), **{k: v for k, v in params.items() if k != "backend"},
                **({"backend": d.name} if d.kind == "backend" else {}))
    return Finding(id=f.id, severity=f.severity, section=f.section, title=f.title, fix=fix, backend=f.backend,
                   detail=f.detail, params=dict(f.params, **({"plan": plan} if plan else {})))


def _stack_cmd(pairs: list[tuple[str, str | None]]) -> str:
    """One line that gives a member each (package, version); None: not installed."""
    drop = [p for p, v in pairs if v is None]
    pins = [f"'{p}=={v}'" for p, v in pairs if v is not None]
    parts = ([W("uninstall_line", names=" ".join(drop))] if drop else []) + \
        ([W("install_line", reqs=" ".join(pins))] if pins else [])
    return " && ".join(parts)


def _stack_finding(backend: str, ds: list[Diff]) -> Finding:
    d0 = ds[0]
    odd, ref = d0.odd, d0.ref
    pkgs = [d.name for d in ds]
    title = ((ref.sides[0].report.get("backends") or {}).get(backend) or {}).get("title") or backend

    odd_vals, ref_vals = [d.odd.value for d in ds], [d.ref.value for d in ds]
    if all(v is None for v in odd_vals) and all(v is not None for v in ref_vals):
        value, reference = W("stack_absent"), W("stack_present")
    elif all(v is not None for v in odd_vals) and all(v is None for v in ref_vals):
        value, reference = W("stack_present"), W("stack_absent")
    else:
        value, reference = W("stack_other"), W("stack_pinned")
    params = dict(_params(d0), value=value, reference=reference, stack=title, packages=_names(pkgs),
                  count=len(odd.sides), stack_cmd=_stack_cmd(list(zip(pkgs, ref_vals))))
    e = get("fleet.stack-differs")
    fix, plan = _fix_and_plan(_lines(e.fix, params, odd.sides, e.id, backend))
    if d0.tie:
        rparams = dict(params, hosts=ref.names, stack_cmd=_stack_cmd(list(zip(pkgs, odd_vals))))
        other = _lines(e.fix, rparams, ref.sides, e.id, backend)
        fix = _tied(fix, other[0].split("\n")[0], ref.names)
    detail = (f"{ref.names}: " + ", ".join(f"{p} {_shown('package', v)}" for p, v in zip(pkgs, ref_vals)) +
              f"; {odd.names}: " + ", ".join(f"{p} {_shown('package', v)}" for p, v in zip(pkgs, odd_vals)))
    f = finding("fleet.stack-differs", backend=backend, detail=detail, **params)
    return Finding(id=f.id, severity=f.severity, section=f.section, title=f.title, fix=fix, backend=f.backend,
                   detail=f.detail, params=dict(f.params, **({"plan": plan} if plan else {})))
