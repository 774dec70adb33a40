"""The doctor's result types: a Finding, a backend's status, the Report that renderers show."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

SCHEMA = "attn-doctor.report/1"
SEVERITIES = ("error", "warning", "info")
STATUSES = ("ok", "missing", "broken", "unsupported", "skipped")
BACKENDS = ("sdpa", "flex", "cute", "fa2", "fa3", "sage", "xformers")

EXIT_OK, EXIT_FINDINGS, EXIT_USAGE = 0, 1, 2


class UsageError(Exception):
    """Bad input from the user: one clear line, exit code 2, no traceback."""


class PreflightError(RuntimeError):
    """attn_doctor.require(): a required backend is not ok. `.report` is the whole Report,
    `.backends` the names that are not ok; the message lists the failing findings with their fixes."""

    def __init__(self, report: "Report", backends: list[str]):
        self.report, self.backends = report, list(backends)
        lines = ["required attention backend(s) not ok: " + "; ".join(
            f"{n} ({(report.backends.get(n) or {}).get('status', '?')}"
            + (f": {report.backends[n]['reason']}" if (report.backends.get(n) or {}).get("reason") else "") + ")"
            for n in self.backends)]
        for f in report.findings:
            if not self._about_named(f):
                continue  # another backend's problem: the trainer did not ask for it
            if f.severity == "error" or (f.backend in self.backends and f.severity == "warning"):
                lines.append(f"  [{f.severity}] {f.id}: {f.title}" + (f"\n      fix: {f.fix}" if f.fix else ""))
        super().__init__("\n".join(lines))

    def _about_named(self, f: "Finding") -> bool:
        """Is the finding about a backend not ok that was named (or about none: torch, the GPUs, the driver)?
        A package's finding belongs to the backends that need it (advice.NEEDS: flash-attn-4's to cute)."""
        from packaging.utils import canonicalize_name

        from .advice import NEEDS

        if f.backend:
            return f.backend in self.backends
        dist = f.params.get("dist")
        if not isinstance(dist, str) or not dist:
            return True
        owners = [b for b, needs in NEEDS.items() if canonicalize_name(dist) in needs]
        return not owners or any(b in self.backends for b in owners)


@dataclass(frozen=True)
class Finding:
    id: str
    severity: str
    section: str
    title: str
    fix: str | None = None
    backend: str | None = None
    detail: str | None = None  # the evidence: an error line, a path, a version
    params: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, d: dict) -> "Finding":
        return cls(**{k: d.get(k) for k in ("id", "severity", "section", "title", "fix", "backend", "detail")},
                   params=dict(d.get("params") or {}))


SEVERITY_RANK = {"error": 0, "warning": 1, "info": 2}
# The report's sections in the order the text report shows them; findings of one severity follow it.
SECTION_ORDER = ("platform", "gpu", "backends", "smoke", "versions", "flex", "nvcc", "allocator", "caches", "settings",
                 "config", "fleet", "trace", "doctor")


def finding_order(f: Finding) -> tuple:
    """Most important first: errors, then warnings, then notes; within a severity, by section as the
    text report shows them. The one order of text, markdown, GitHub, JSON and `fix`."""
    sec = SECTION_ORDER.index(f.section) if f.section in SECTION_ORDER else len(SECTION_ORDER)
    return (SEVERITY_RANK.get(f.severity, 9), sec, f.section, f.id, f.backend or "")


def sort_findings(findings: list[Finding]) -> list[Finding]:
    return sorted(findings, key=finding_order)


@dataclass
class Report:
    tool_version: str
    facts: dict
    backends: dict[str, dict]
    findings: list[Finding]
    required: list[str] = field(default_factory=list)
    exit_code: int = 0
    options: dict = field(default_factory=dict)
    config: dict | None = None  # what a trainer config asked for (--config), as configs/ read it
    ignored: int = 0  # findings dropped by --select / --ignore

    def to_dict(self) -> dict:
        return {
            "schema": SCHEMA,
            "tool_version": self.tool_version,
            "exit_code": self.exit_code,
            "required": list(self.required),
            "options": self.options,
            "backends": self.backends,
            "findings": [f.to_dict() for f in self.findings],
            "ignored": self.ignored,
            "config": self.config,
            "facts": self.facts,
        }

    def count(self, severity: str) -> int:
        return sum(1 for f in self.findings if f.severity == severity)
