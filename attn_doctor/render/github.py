"""GitHub Actions workflow commands: one annotation per finding (`::error title=ID::TITLE Fix: FIX`).

Escaping follows GitHub's runner (actions/toolkit command.ts): in the message `%`, CR and LF become
%25, %0D, %0A; in a property value `:` and `,` become %3A and %2C as well. Severities map to error,
warning and notice. A last plain line sums the run up for the log.
"""

from __future__ import annotations

from ..model import Report

LEVEL = {"error": "error", "warning": "warning", "info": "notice"}


def escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def annotation(f) -> str:
    message = f.title + (f" Fix: {f.fix}" if f.fix else "")
    return f"::{LEVEL.get(f.severity, 'warning')} title={escape_property(f.id)}::{escape_data(message)}"


def render(report: Report) -> str:
    lines = [annotation(f) for f in report.findings]
    e, w, i = report.count("error"), report.count("warning"), report.count("info")
    req = ""
    if report.required:
        req = "; required: " + ", ".join(f"{n} {report.backends.get(n, {}).get('status', '?')}" for n in report.required)
    lines.append(f"attn-doctor {report.tool_version}: {e} error(s), {w} warning(s), {i} note(s){req} - exit {report.exit_code}")
    return "\n".join(lines) + "\n"
