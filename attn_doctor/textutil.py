"""Error text cut to what a report line shows: shared by the checks, so none imports another for it."""

from __future__ import annotations


def last_line(text: str) -> str:
    """The last non-blank line, stripped, at most 300 characters (where a traceback names its error)."""
    lines = [ln.strip() for ln in (text or "").splitlines() if ln.strip()]
    return lines[-1][:300] if lines else ""
