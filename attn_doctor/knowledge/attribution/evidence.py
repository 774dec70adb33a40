"""The entry an attributed match is said by, by kind of evidence (attribution_evidence.toml and the [[specialize]]
and [[generalize]] rows of attribution.toml): the backend's own entry for a backend-neutral match (specialized), the
backend-neutral entry for a backend's own match that another library's kernel or traceback shows (generalized), the
entry's own backend where the text shows it (_own_where_shown), and the backend a failing import's module names
(_fallback_backend).
"""

from __future__ import annotations

import re
from functools import lru_cache

from .. import Entry, toml_data
from .shapes import _first_lines, _traceback, Attribution, EXCEPTION_LINE, FRAME, TITLE_LINES, TRACEBACK_START, WINDOW
from .tables import _grouped, _toml, rules
from .naming import _file_named
from .search import _nearest_for


def specialized(entry: Entry, backend: str | None, evidence: str, lines: list[str] = (), line: int = 0) -> str | None:
    """The id of the backend's own entry that says this backend-neutral match better, once its backend is known
    ([[specialize]] in attribution.toml), else None. A row's `when` reads the match's evidence, its `near` the lines within
    WINDOW of 1-based `line` and the title (helper ex127: words beside the match that say which variant of the cause it is),
    its `unless` the same lines (a hit there leaves the row out)."""
    if backend is None:
        return None
    for to, when, near, unless in rules().specialize.get((entry.id, backend), ()):
        if when is not None and not when.search(evidence):
            continue
        if near is not None and not any(near.search(lines[j]) for j in _near(lines, line)):
            continue
        if unless is not None and any(unless.search(lines[j]) for j in _near(lines, line)):
            continue
        return to
    return None


def _beside_other_kernel(entry: Entry, lines: list[str], line: int) -> str | None:
    """([[generalize]] in attribution.toml, helper ex84) the backend-neutral entry where the nearest library the text names is
    an attention kernel outside the seven (backend "other")."""
    to = {g["entry"]: g["to"] for g in _toml().get("generalize", ())}.get(entry.id)
    if to is None:
        return None
    found = _nearest_for(entry, lines, line)
    return to if found is not None and found.backend == "other" else None


# helper ex86 (session 13): attribution by kind of evidence, tables in knowledge/attribution_evidence.toml (tests/test_explain_variants_ex86.py)
@lru_cache(maxsize=1)
def _evidence_rules() -> dict:
    data = toml_data("attribution_evidence.toml")
    generalize = {x["entry"]: (x["to"], re.compile(x["shows"]), re.compile(x["prose"])) for x in data.get("generalize", ())}
    shown = {x["entry"]: re.compile(x["shows"]) for x in data.get("own_where_shown", ())}
    fallback = _grouped(data.get("fallback_backend", ()), lambda x: x["entry"], lambda x: (x["backend"], re.compile(x["when"])))
    return {"generalize": generalize, "shown": shown, "fallback": fallback}


def _near(lines: list[str], line: int) -> set[int]:
    """Line indexes within WINDOW of 1-based `line`, and the input's title lines."""
    return set(range(max(0, line - 1 - WINDOW), min(len(lines), line + WINDOW))) | set(_first_lines(lines, TITLE_LINES))


def _says_in_words(entry: Entry, lines: list[str], line: int, prose: re.Pattern) -> bool:
    """Does a line near 1-based `line` say something in the writer's own words (`prose`): not a frame or a frame's code, not an
    exception's or a traceback's line, not a line the entry's own patterns match (the message itself, wherever it is quoted)?"""
    own = entry.compiled
    for j in sorted(_near(lines, line)):
        t = lines[j]
        if j == line - 1 or not prose.search(t) or FRAME.search(t) or EXCEPTION_LINE.search(t) or TRACEBACK_START.search(t):
            continue
        if j > 0 and FRAME.search(lines[j - 1]) or any(rx.search(t) for rx in own):
            continue
        return True
    return False


def generalized(entry: Entry, lines: list[str], line: int) -> str | None:
    """The id of the backend-neutral entry that says this backend's own match better (the reverse of specialized()), else
    None: where the nearest library the text names is an attention kernel outside the seven (attribution.toml's
    [[generalize]], helper ex84), or in a report that says things in words and shows nothing of the backend the entry
    carries near it, WINDOW lines either way or its title (attribution_evidence.toml's [[generalize]], helper ex86)."""
    if not 0 < line <= len(lines):
        return None
    beside = _beside_other_kernel(entry, lines, line)
    if beside is not None:
        return beside
    beneath = _beneath_other_backend(entry, lines, line)
    if beneath is not None:
        return beneath
    rule = _evidence_rules()["generalize"].get(entry.id)
    if rule is None:
        return None
    to, shows, prose = rule
    if any(shows.search(lines[j]) for j in _near(lines, line)):
        return None
    return to if _says_in_words(entry, lines, line, prose) else None


def _beneath_other_backend(entry: Entry, lines: list[str], line: int) -> str | None:
    """([[generalize]], helper ex91) the backend-neutral entry where the match's own traceback has frames in another attention
    backend's package and none in the entry's own: a Triton kernel of xformers or flash_attn out of shared memory is not
    FlexAttention's, whose fix (kernel_options) does not reach it."""
    to = {g["entry"]: g["to"] for g in _toml().get("generalize", ())}.get(entry.id)
    if to is None or entry.backend is None:
        return None
    seen = {named[0] for j in _traceback(lines, line - 1) if FRAME.search(lines[j])
            for named in [_file_named(lines[j])] if named is not None}  # whose file each frame is in
    return to if seen and entry.backend not in seen else None


def _own_where_shown(entry: Entry, own: str | None, lines: list[str], line: int) -> str | None:
    """The entry's own backend where the text shows it near the match ([[own_where_shown]]), else None (read as a
    backend-neutral entry)."""
    shows = _evidence_rules()["shown"].get(entry.id)
    if shows is None or own is None or not 0 < line <= len(lines):
        return own
    return own if any(shows.search(lines[j]) for j in _near(lines, line)) else None


def _fallback_backend(entry: Entry, lines: list[str], line: int) -> tuple[str | None, Attribution | None]:
    """([[fallback_backend]]) the backend the failing import's module names, on the match's line or the line under it."""
    for b, when in _evidence_rules()["fallback"].get(entry.id, ()):
        for n in (line, line + 1)[:len(lines) - line + 1]:
            if when.search(lines[n - 1]):
                return b, Attribution(b, n, lines[n - 1].strip()[:300])
    return None, None


@lru_cache(maxsize=1)
def _vendor_libraries() -> tuple[tuple[dict, re.Pattern], ...]:
    return tuple((row, re.compile(row["frames"])) for row in _toml().get("vendor_library", ()))


RAISED_FROM = re.compile(r"Exception raised from \w+ at ")  # torch's C++ error: where the check that raised it is


def vendor_library(entry: Entry, backend: str | None, lines: list[str], line: int) -> tuple[dict, int] | None:
    """([[vendor_library]] in attribution.toml, helper ex144) (the row, the 1-based line that shows it) where this match of a
    backend the row covers was raised through a vendor library's own API: its files or calls on a line of the match's
    traceback, or on torch's "Exception raised from ... at <file>" line just under the message, and no frame of a covered
    backend's own files in that traceback (flash_attn calling the vendor's kernels stays flash_attn's), else None."""
    if backend is None or not 0 < line <= len(lines):
        return None
    for row, rx in _vendor_libraries():
        if backend not in row["covers"]:
            continue
        up = _traceback(lines, line - 1)
        if any(FRAME.search(lines[j]) and (_file_named(lines[j]) or ("",))[0] in row["covers"] for j in up):
            continue
        below = [j for j in range(line - 1, min(len(lines), line + 3)) if RAISED_FROM.search(lines[j])]
        shown = next((j for j in up + below if rx.search(lines[j])), None)
        if shown is not None:
            return row, shown + 1
    return None
