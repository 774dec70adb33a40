"""Match an error text or a whole log against the knowledge entries' patterns, best first.

How a log is read:
- Every pattern of every entry is searched; an entry's score is how specific its best hit is (the
  literal characters of the pattern), plus a little for each further pattern that hit.
- Specific beats generic: an entry whose hits all lie on lines already claimed by a more specific
  entry is dropped (the same error line is explained once). A `generic` entry (a catch-all) is
  judged line by line: it is reported when one of its lines has no specific entry that can be a
  failure's cause on or near it (within NEAR lines: the same traceback), so a note or a warning
  elsewhere in the log never hides an error nobody names.
- Several errors in one log are each reported, ranked by where they first occur: an earlier error
  is usually the cause of the later ones (a warning about the driver before "no CUDA GPUs", a
  failed import before the crash it leads to, the first exception of a chained traceback).
  Notes (info entries: deprecations, optional mismatches) come last.
- attn-doctor's own output names its findings as `[some.id]` (text) or `"id": "some.id"` (JSON);
  pasting it into `explain -` explains those findings.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field

try:  # the regex parser: re._parser from Python 3.11, sre_parse before
    from re import _parser as _sre
except ImportError:  # pragma: no cover - Python 3.10
    import sre_parse as _sre  # type: ignore[no-redef]
from functools import lru_cache

from . import Entry, entries

MAX_TEXT = 2_000_000  # characters of a log that are searched (the tail, where errors land)
MAX_HITS = 50  # occurrences of one pattern that are counted
ID_TAG_SCORE = 200  # attn-doctor's own `[id]` is as specific as a match gets
ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]")
ID_TAG = re.compile(r"\[([a-z0-9][a-z0-9_.-]*\.[a-z0-9_.-]+)\]|\"id\":\s*\"([a-z0-9][a-z0-9_.-]*\.[a-z0-9_.-]+)\"")


@dataclass
class Match:
    entry: Entry
    score: float  # how specific the best hit is
    evidence: str  # the line of the first hit
    position: int  # where in the text it first matched (earlier errors are often the cause)
    line: int = 0  # 1-based line of the first hit
    count: int = 1  # on how many lines it shows
    lines: list[int] = field(default_factory=list)  # the lines that matched (first few)


def literal_chars(pattern: str) -> int:
    """How many literal characters any match of `pattern` must contain: its specificity. Character
    classes and wildcards count 0, an alternation counts its weakest branch, a repeat its minimum."""
    return _min_literals(_sre.parse(pattern))


def _min_literals(sub) -> int:
    n = 0
    for op, av in sub:
        name = str(op)
        if name == "LITERAL":
            n += 1
        elif name == "BRANCH":
            n += min(_min_literals(b) for b in av[1])
        elif name == "SUBPATTERN":
            n += _min_literals(av[-1])
        elif name == "ATOMIC_GROUP":
            n += _min_literals(av)
        elif name in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"):
            n += av[0] * _min_literals(av[2])
    return n


def required_literal(pattern: str) -> str:
    """The longest run of characters every match contains (lower-cased), or "" when there is none:
    a cheap `in` test that skips the regex on logs that cannot match."""
    best, run = "", []

    def walk(sub):
        nonlocal best, run
        for op, av in sub:
            name = str(op)
            if name == "LITERAL":
                run.append(chr(av))
                continue
            if name == "SUBPATTERN" and not av[1] and not av[2]:  # a plain group: its literals still run on
                walk(av[-1])
                continue
            if len(run) > len(best):
                best = "".join(run)
            run = []
        return best

    walk(_sre.parse(pattern))
    if len(run) > len(best):
        best = "".join(run)
    return best.lower()


@lru_cache(maxsize=None)
def _specificity(pattern: str) -> int:
    return literal_chars(pattern)


@lru_cache(maxsize=None)
def _needle(pattern: str) -> str:
    lit = required_literal(pattern)
    return lit if len(lit) >= 4 else ""


def normalize(text: str) -> str:
    """The searchable text: its tail, without terminal colours or Windows line ends."""
    if len(text) > MAX_TEXT:
        text = text[-MAX_TEXT:]
    # A lone \r (a progress bar redrawing itself) stays: line numbers keep matching the user's file.
    return ANSI.sub("", text).replace("\r\n", "\n")


class _Lines:
    """Offsets → 1-based line numbers and line text, computed once per text."""

    def __init__(self, text: str):
        self.text = text
        self.starts = [0] + [m.end() for m in re.finditer("\n", text)]

    def number(self, pos: int) -> int:
        return bisect.bisect_right(self.starts, pos)

    def ends(self, start: int, end: int) -> set[int]:
        """The first and last line of a hit: what it claims (not a long lazy window in between)."""
        return {self.number(start), self.number(max(start, end - 1))}

    def line(self, number: int, at: int | None = None) -> str:
        """Line `number`; with `at`, only its \r-separated segment that holds offset `at`."""
        a = self.starts[number - 1]
        b = self.starts[number] - 1 if number < len(self.starts) else len(self.text)
        if at is not None:
            a = self.text.rfind("\r", a, at) + 1 or a
            j = self.text.find("\r", at, b)
            b = b if j == -1 else j
        return self.text[a:b].strip()


@dataclass
class _Candidate:
    entry: Entry
    score: float
    position: int
    count: int
    lines: set[int]
    first_line: int


def _candidates(text: str, lines: _Lines, ids: set[str] | None) -> list[_Candidate]:
    known = entries()
    lowered = text.lower()
    tagged: dict[str, list[tuple[int, int]]] = {}
    for m in ID_TAG.finditer(text):
        eid = m.group(1) or m.group(2)
        if eid in known:
            tagged.setdefault(eid, []).append((m.start(), m.end()))
    out = []
    for e in known.values():
        if ids is not None and e.id not in ids:
            continue
        best, distinct = 0, 0
        first: int | None = None
        hit_lines: set[int] = set()
        starts: set[int] = set()  # the lines where a hit begins: how many times the problem shows
        for pattern, rx in zip(e.patterns, e.compiled):
            needle = _needle(pattern)
            if needle and needle not in lowered:
                continue
            hit = False
            for k, m in enumerate(rx.finditer(text)):
                if k >= MAX_HITS:
                    break
                hit = True
                starts.add(lines.number(m.start()))
                hit_lines |= lines.ends(m.start(), m.end())
                if first is None or m.start() < first:
                    first = m.start()
            if hit:
                distinct += 1
                best = max(best, _specificity(pattern))
        for start, end in tagged.get(e.id, []):
            starts.add(lines.number(start))
            distinct += 1
            best = ID_TAG_SCORE
            hit_lines |= lines.ends(start, end)
            if first is None or start < first:
                first = start
        if first is None:
            continue
        out.append(_Candidate(e, best + 2 * (distinct - 1), first, len(starts), hit_lines, lines.number(first)))
    return out


NEAR = 10  # lines: how far from a catch-all's line a specific cause still explains it (one traceback)


def _near(lines: list[int], n: int) -> bool:
    i = bisect.bisect_left(lines, n - NEAR)
    return i < len(lines) and lines[i] <= n + NEAR


def match(text: str, *, limit: int | None = None, ids: set[str] | None = None) -> list[Match]:
    """The entries that explain `text`, best first (see the module docstring for the ranking)."""
    text = normalize(text or "")
    lines = _Lines(text)
    cands = _candidates(text, lines, ids)
    # Specific beats generic: the most specific entry claims its lines first.
    claimed: set[int] = set()
    kept = []
    for c in sorted(cands, key=lambda c: (c.entry.generic, -c.score, c.position, c.entry.id)):
        if c.entry.generic:
            break
        if c.lines and c.lines <= claimed:
            continue
        claimed |= c.lines
        kept.append(c)
    # A catch-all, line by line: it stays for any line of its that no specific cause explains nearby
    # (a wrapper such as BackendCompilerFailed sits a line or two from the error it wraps). A note or a
    # printed warning elsewhere explains no error line.
    causes = sorted({n for c in kept if c.entry.can_cause for n in c.lines})
    taken: set[int] = set()
    for c in sorted((c for c in cands if c.entry.generic), key=lambda c: (-c.score, c.position, c.entry.id)):
        if c.lines and (c.lines <= taken or all(_near(causes, n) for n in c.lines)):
            continue
        taken |= c.lines
        kept.append(c)
    # Errors and warnings by where they first occur (a check's severity says little about which log
    # line was fatal: a driver warning is often the cause of the error after it); notes last.
    kept.sort(key=lambda c: (c.entry.severity == "info", c.position, -c.score, c.entry.id))
    found = [Match(c.entry, c.score, lines.line(c.first_line, c.position)[:300], c.position, c.first_line, c.count,
                   sorted(c.lines)[:10]) for c in kept]
    return found[:limit] if limit else found


def _first_cause(found: list[Match]) -> Match | None:
    """The first match that can be a failure's cause, a specific one before a catch-all."""
    causes = [m for m in found if m.entry.can_cause]
    return next((m for m in causes if not m.entry.generic), causes[0] if causes else None)


def best(text: str, ids: set[str] | None = None) -> Match | None:
    """The entry that explains a failure whose text is `text`: only an entry that can be a failure's
    cause (never a note or a warning a working run prints: Entry.can_cause), a specific one before a
    catch-all, the earliest in the text first."""
    return _first_cause(match(text, ids=ids))


def cause(primary: str, noise: str = "", backend: str | None = None) -> Match | None:
    """Why a run failed. `primary` is the failure's own text (the exception and its traceback),
    `noise` what the run printed besides (warnings, stderr). A specific entry in the exception wins,
    then a specific one in the noise, then a catch-all in either. From the noise only an entry about
    this backend, or about none, may stand: another backend's warning is not this one's cause."""
    mine = [m for m in match(noise) if m.entry.backend in (None, backend)] if noise.strip() else []
    own = match(primary) if primary.strip() else []
    specific = [m for m in own + mine if not m.entry.generic]
    return _first_cause(specific) or _first_cause(own + mine)

