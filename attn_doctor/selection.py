"""--select / --ignore: which findings a run reports, by id or id prefix (after ruff's rule selectors).

A selector is a finding id (`alloc.bool-case`) or a prefix ending in '.' or '*' (`cache.`, `cache.*`,
`alloc.async*`). A selector that names no knowledge entry is a usage error: a typo must not silently
select nothing or ignore nothing.
"""

from __future__ import annotations

from typing import Iterable

from .model import UsageError

# Kept under --select (only --ignore drops them): a crashed check may have hidden a selected finding,
# and a backend named with --require (or by --config) is asked for explicitly.
ALWAYS_SHOWN = ("doctor.", "require.not-ok")


def parse(values: Iterable[str] | None, flag: str) -> list[str]:
    """Split comma-separated values, check each against the knowledge ids, keep the order given."""
    from .knowledge import entries

    ids = sorted(entries())
    out: list[str] = []
    if isinstance(values, str):  # the API's select="torch" is one value, as backends="sdpa" is
        values = [values]
    for raw in values or []:
        for sel in raw.split(","):
            sel = sel.strip()
            if not sel:
                continue
            if not any(matches(i, [sel]) for i in ids):
                hint = _closest(sel, ids)
                raise UsageError(f"{flag}: {sel!r} matches no finding id" + (f" (did you mean {hint!r}?)" if hint else ""))
            if sel not in out:
                out.append(sel)
    return out


def matches(finding_id: str, selectors: Iterable[str]) -> bool:
    for sel in selectors:
        if sel.endswith("*"):
            if finding_id.startswith(sel[:-1]):
                return True
        elif sel.endswith("."):
            if finding_id.startswith(sel):
                return True
        elif finding_id == sel:
            return True
    return False


def keep(finding_id: str, select: list[str] | None, ignore: list[str]) -> bool:
    """Whether a finding stays in the report: ignore wins over select."""
    if ignore and matches(finding_id, ignore):
        return False
    if select is None:
        return True
    return matches(finding_id, select) or finding_id.startswith(ALWAYS_SHOWN)


def _closest(sel: str, ids: list[str]) -> str | None:
    import difflib

    best = difflib.get_close_matches(sel.rstrip("*"), ids, n=1, cutoff=0.6)
    return best[0] if best else None
