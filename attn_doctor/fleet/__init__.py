"""The fleet view: many reports (the ranks of one job, or nodes checked one by one) as one.

Input is member reports, each a report dict from one host or rank. Output is a Fleet: a row per
member and device, and findings for what sets members apart: every compared value (torch and
package versions, torch's CUDA build, Python, driver, GPUs, backend statuses, the environment)
is held against a reference group, and each member that differs is named with the line to run
there. differ.py chooses the reference (what works stays, then the majority, then the members with
more backends ok; a tie says "make them the same") and never by the order of the reports.
Members that fail their own check, ranks that never reported, and an exchange that broke are
findings too; the exit code follows the findings, as for one report.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field, replace

from .. import __version__, advice
from ..devices import rows as device_rows
from ..facts import view
from ..knowledge import finding
from ..model import EXIT_FINDINGS, EXIT_OK, SCHEMA, Finding, UsageError, finding_order
from ..target import from_facts
from . import differ
from .differ import MAX_NAMES, PER_RANK_ENV, PER_RANK_PREFIXES, _names, compared, natural  # noqa: F401

FLEET_SCHEMA = "attn-doctor.fleet/1"

@dataclass
class Member:
    label: str  # how the fleet view names it: host, host/rN, or host [file]
    source: str  # the file it came from, or "rank N"
    host: str | None
    rank: int | None
    report: dict | None  # None: the rank answered with an error instead of a report
    error: str | None = None
    device: str | None = None  # the one device a distributed rank speaks for

    @property
    def exit_code(self) -> int | None:
        return None if self.report is None else self.report.get("exit_code")

    def count(self, severity: str) -> int:
        return sum(1 for f in (self.report or {}).get("findings") or [] if f.get("severity") == severity)


@dataclass
class Fleet:
    members: list[Member]
    findings: list[Finding]
    missing: list[dict] = field(default_factory=list)  # {"rank", "world_size", "seconds", "why"}
    strict: bool = False
    world_size: int | None = None
    exit_code: int = EXIT_OK

    @property
    def hosts(self) -> list[str]:
        return list(dict.fromkeys(m.host or "?" for m in self.members))

    def rows(self) -> list[dict]:
        """One row per member and device: {member, device, name, cap, cells, why}."""
        out = []
        for m in self.members:
            if m.report is None:
                out.append({"member": m, "device": None, "cells": {}, "why": {}, "name": "", "cap": ""})
                continue
            for r in device_rows(m.report.get("facts") or {}, m.report.get("backends") or {},
                                 only=[m.device] if m.device else None):
                out.append(dict(r, member=m))
        return out

    def count(self, severity: str) -> int:
        return sum(1 for f in self.findings if f.severity == severity)

    def to_dict(self) -> dict:
        return {
            "schema": FLEET_SCHEMA,
            "tool_version": __version__,
            "exit_code": self.exit_code,
            "strict": self.strict,
            "world_size": self.world_size,
            "hosts": self.hosts,
            "members": [{"label": m.label, "source": m.source, "host": m.host, "rank": m.rank,
                         "device": m.device, "exit_code": m.exit_code, "error": m.error,
                         "errors": m.count("error"), "warnings": m.count("warning"),
                         "notes": m.count("info")} for m in self.members],
            "missing": self.missing,
            "devices": [{"member": r["member"].label, "device": r["device"], "name": r["name"], "cap": r["cap"],
                         "backends": r["cells"]} for r in self.rows()],
            "findings": [f.to_dict() for f in self.findings],
            # The members' own reports, whole: `merge` reads a fleet file back as its members.
            "reports": [{"source": m.source, "host": m.host, "rank": m.rank, "device": m.device,
                         "error": m.error, "report": m.report} for m in self.members],
        }


# ---- who a report is ----------------------------------------------------------------------------

def identity(report: dict) -> dict:
    """host, rank and device of a report: what `check --distributed` recorded, else the launcher's
    environment the report saw (a plain `check` run under torchrun or srun)."""
    facts = report.get("facts") or {}
    dist = (report.get("options") or {}).get("distributed") or {}
    env = facts.get("env") or {}
    rank = dist.get("rank")
    if rank is None:
        raw = env.get("RANK", env.get("SLURM_PROCID"))
        rank = int(raw) if raw is not None and str(raw).isdigit() else None
    return {"host": dist.get("host") or (facts.get("system") or {}).get("hostname"), "rank": rank,
            "device": dist.get("device")}


def member(report: dict | None, source: str, *, host: str | None = None, rank: int | None = None,
           error: str | None = None) -> Member:
    """A member from its report (or, for a rank that sent an error, from what the exchange knows)."""
    ident = identity(report) if report else {"host": None, "rank": None, "device": None}
    return Member(label="", source=source, host=ident["host"] or host,
                  rank=rank if ident["rank"] is None else ident["rank"], report=report, error=error,
                  device=ident["device"])


def _label(members: list[Member]) -> None:
    """host, or host/rN for ranks; a file name or #n where that still leaves two alike."""
    for m in members:
        m.label = (m.host or "?") + (f"/r{m.rank}" if m.rank is not None else "")
    seen: dict[str, int] = {}
    dups = {m.label for m in members if sum(1 for x in members if x.label == m.label) > 1}
    for m in members:
        if m.label in dups and not m.source.startswith("rank "):
            m.label += f" [{os.path.basename(m.source.split(':')[0]) or m.source}]"
    for m in members:
        n = seen[m.label] = seen.get(m.label, 0) + 1
        if n > 1:
            m.label += f" #{n}"


# ---- what differs ------------------------------------------------------------------------------

def differences(members: list[Member]) -> list[Finding]:
    """A finding for every group of members whose value differs from its reference (differ.py
    says how the reference is chosen: never by the order of the members)."""
    have = [m for m in members if m.report is not None]
    if len(have) < 2:
        return []
    return differ.findings([differ.side(m) for m in have])


# A member's own finding that a fleet finding already says (for the members it names): one cause,
# one error. torch missing on a member is fleet.torch-differs, with the pinned line to run there.
SAID_BY_FLEET = {"torch.missing": "fleet.torch-differs"}


def torch_missing(members: list[Member]) -> set[str]:
    """Labels of the members with no torch, when another member has one."""
    have = [m for m in members if m.report is not None]
    none = {m.label for m in have if not view.stack((m.report or {}).get("facts") or {}).get("torch")}
    return none if none and len(none) < len(have) else set()


def covered(members: list[Member]) -> set[tuple[str, str]]:
    """(member label, finding id) pairs that a fleet finding says already."""
    return {(label, "torch.missing") for label in torch_missing(members)}


def member_problems(members: list[Member], strict: bool) -> list[Finding]:
    out = []
    said = covered(members)
    for m in members:
        if m.report is None:
            out.append(finding("fleet.rank-error", member=m.label, host=m.host or "?", error=m.error or "no report"))
            continue
        own = [f for f in m.report.get("findings") or [] if (m.label, f.get("id")) not in said]
        errors = [f for f in own if f.get("severity") == "error"]
        warnings = [f for f in own if f.get("severity") == "warning"]
        failing = errors + (warnings if strict else [])
        if m.exit_code and not failing and len(own) < len(m.report.get("findings") or []):
            continue  # it fails for a reason a fleet finding names
        if m.exit_code or failing:
            ids = sorted({f.get("id") for f in failing}) or ["a required backend is not ok"]
            f = finding("fleet.member-failed", member=m.label, host=m.host or "?", count=len(failing),
                        ids=", ".join(ids))
            out.append(replace(f, fix=advice.aim(f.fix, from_facts(m.report.get("facts") or {}))))
    return out


def missing_problems(missing: list[dict]) -> list[Finding]:
    return [finding("fleet.rank-missing", rank=x["rank"], world_size=x.get("world_size") or "?",
                    seconds=f"{x.get('seconds') or 0:.0f}", more=f"{2 * (x.get('seconds') or 60):.0f}",
                    detail=x.get("note")) for x in missing]


def build(members: list[Member], missing: list[dict] | None = None, strict: bool = False,
          world_size: int | None = None, exchange_error: dict | None = None) -> Fleet:
    """The fleet of `members` (in the order given: rank 0, or the first file, first)."""
    if any(m.rank is not None for m in members) and all(m.rank is not None for m in members):
        members = sorted(members, key=lambda m: m.rank)
    _label(members)
    missing = sorted(missing or [], key=lambda x: x["rank"])
    findings = member_problems(members, strict) + differences(members)
    if exchange_error:  # one finding says why: the ranks it could not gather are rows, not findings
        findings.append(finding("fleet.exchange-failed", **exchange_error))
    else:
        findings += missing_problems(missing)
    # one order whatever the order of the members: by importance, then by what the finding says
    findings = sorted(findings, key=lambda f: (finding_order(f), natural(f.title), f.fix or ""))
    failing = any(f.severity == "error" or (strict and f.severity == "warning") for f in findings)
    return Fleet(members=members, findings=findings, missing=missing, strict=strict, world_size=world_size,
                 exit_code=EXIT_FINDINGS if failing else EXIT_OK)


# ---- merge: reports saved on many machines -----------------------------------------------------

def load(paths: list[str]) -> tuple[list[Member], list[dict]]:
    """Members (and ranks recorded missing) from report files and fleet files, in argument order."""
    from ..saved import load_json

    members: list[Member] = []
    missing: list[dict] = []
    if not paths:
        raise UsageError("merge: name at least one report (attn-doctor check --json REPORT.json on each machine)")
    seen: dict[str, str] = {}
    for path in paths:
        real = os.path.realpath(path)
        if real in seen:
            raise UsageError(f"merge: {path} is given twice (the same file as {seen[real]}); name each report once")
        seen[real] = path
        data = load_json(path)
        schema = data.get("schema") if isinstance(data, dict) else None
        if schema == FLEET_SCHEMA:
            for rec in data.get("reports") or []:
                rep = rec.get("report")
                if rep is not None and not _is_report(rep):
                    raise UsageError(f"{path} holds a member that is not an attn-doctor report")
                members.append(member(rep, f"{path}:{rec.get('source')}", host=rec.get("host"), rank=rec.get("rank"),
                                      error=rec.get("error")))
            missing += [dict(x, note=f"recorded in {path}") for x in data.get("missing") or []]
        elif _is_report(data):
            twin = next((m for m in members if m.report == data), None)
            if twin is not None:
                raise UsageError(f"merge: {path} holds the same report as {twin.source}; name each report once")
            members.append(member(data, path))
        else:
            raise UsageError(f"{path} is not an attn-doctor report (no \"schema\": \"{SCHEMA}\" or \"{FLEET_SCHEMA}\")")
    return members, missing


def _is_report(data) -> bool:
    return isinstance(data, dict) and data.get("schema") == SCHEMA and isinstance(data.get("facts"), dict)


def merge(paths: list[str], strict: bool = False) -> Fleet:
    members, missing = load(paths)
    return build(members, missing, strict=strict)
