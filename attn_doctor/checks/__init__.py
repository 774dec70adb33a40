"""Checks: rules that turn Facts (and smoke results) into Findings.

A check is a plain function `fn(facts, ctx) -> Iterable[Finding]` registered with `@check(section)`.
Add one by writing a function in the module of its section; it is picked up on import. A check that
raises becomes a `doctor.check-crashed` finding, never the end of the run.
"""

from __future__ import annotations

import traceback
from dataclasses import dataclass, field
from typing import Callable, Iterable

from ..knowledge import finding
from ..model import Finding

CheckFn = Callable[[dict, "Context"], Iterable[Finding]]
REGISTRY: list[tuple[str, CheckFn]] = []
SYMPTOMS: set[CheckFn] = set()  # checks whose findings are a backend's failed runs (see `check`)


@dataclass
class Context:
    """What the user asked for, and what earlier steps derived."""
    backends: dict[str, dict] = field(default_factory=dict)  # status table (from status.py)
    required: list[str] = field(default_factory=list)
    selected: list[str] | None = None  # --backend; None: all
    compile_mode: str | None = None  # torch.compile mode the job uses, if known
    strict: bool = False
    smoke: bool = False
    config: dict | None = None  # what a trainer config asked for (configs/)
    select: list[str] | None = None  # --select: report only these finding ids / prefixes; None: all
    ignore: list[str] = field(default_factory=list)  # --ignore: drop these finding ids / prefixes
    explicit: list[str] = field(default_factory=list)  # --require as given: kept whatever a config's GPU gate says

    def wanted(self, backend: str) -> bool:
        return self.selected is None or backend in self.selected

    def relevant(self, backend: str) -> bool:
        """The user named it (required/selected/config) or it is installed and usable."""
        if backend in self.required or (self.selected and backend in self.selected):
            return True
        return self.backends.get(backend, {}).get("status") not in (None, "missing", "skipped")


def check(section: str, runs: bool = False) -> Callable[[CheckFn], CheckFn]:
    """Register a check. `runs=True`: its findings report a backend's failed runs (the smoke tests),
    which a `stops_backend` finding about the same backend explains (see `run`)."""
    def deco(fn: CheckFn) -> CheckFn:
        REGISTRY.append((section, fn))
        if runs:
            SYMPTOMS.add(fn)
        return fn
    return deco


def _load_all() -> None:
    from . import allocator, backends, caches, flex, gpu, nvcc, platform, settings, smoke, throughput, trainer, versions  # noqa: F401,E501


def run(facts: dict, ctx: Context) -> list[Finding]:
    _load_all()
    out: list[Finding] = []
    runs: set[int] = set()  # id() of the findings of `runs` checks: a backend's failed runs
    for section, fn in REGISTRY:
        try:
            found = list(fn(facts, ctx) or ())
            out.extend(found)
            if fn in SYMPTOMS:
                runs.update(map(id, found))
        except Exception as e:  # a crashing check is a finding about the doctor, not the end of it
            tb = traceback.format_exc(limit=-3)
            out.append(finding("doctor.check-crashed", check=f"{section}.{fn.__name__}",
                               error=f"{type(e).__name__}: {e}", detail=tb[-1500:]))
    # A backend whose kernels cannot load (a `stops_backend` finding, e.g. xformers built for another
    # torch) fails every run: its failed runs are that finding's symptoms, not problems of their own.
    stopped = {f.backend for f in out if f.backend and _stops(f.id)}
    out = [f for f in out if not (f.backend in stopped and id(f) in runs)]
    # One finding per (id, backend, title): two checks may see the same problem. A failure traced
    # to a known cause that another check already reported in full, as an error about the same
    # backend, is not repeated; anything less (a note, a warning, another backend's error) would
    # leave the failed backend without its error.
    reported = {(f.id, f.backend) for f in out if f.severity == "error"}
    out = [f for f in out if not (f.id.endswith("known-error") and (f.params.get("cause"), f.backend) in reported)]
    # One missing dependency, one finding: a distribution whose absence a backend's import failed on
    # (import.dep-missing, with the line that installs it) is not said again as a package's unmet requirement.
    gone = {f.params.get("dep") for f in out if f.id == "import.dep-missing" and f.params.get("dep")}
    out = [f for f in out if not (f.id == "versions.requirement-missing" and f.params.get("dep") in gone)]
    seen, unique = set(), []
    for f in out:
        key = (f.id, f.backend, f.title)
        if key not in seen:
            seen.add(key)
            unique.append(f)
    return unique


def _stops(finding_id: str) -> bool:
    from ..knowledge import entries

    e = entries().get(finding_id)
    return bool(e and e.stops_backend)
