"""Match an error text or a whole log against the knowledge entries' patterns, best first."""

from __future__ import annotations

from dataclasses import dataclass

from . import Entry, entries

MAX_TEXT = 2_000_000  # characters of a log that are searched (the tail, where errors land)


@dataclass
class Match:
    entry: Entry
    score: float
    evidence: str  # the first matching line
    position: int  # where in the text it matched (earlier errors are often the cause)


def match(text: str, *, limit: int | None = None, ids: set[str] | None = None) -> list[Match]:
    """Entries whose patterns occur in `text`. Score: how many of an entry's patterns matched,
    then how specific (long) the matched text is."""
    if len(text) > MAX_TEXT:
        text = text[-MAX_TEXT:]
    found: list[Match] = []
    for e in entries().values():
        if not e.patterns or (ids is not None and e.id not in ids):
            continue
        hits, span, first, pos = 0, 0, None, None
        for rx in e.compiled:
            m = rx.search(text)
            if m:
                hits += 1
                span += len(m.group(0))
                if pos is None or m.start() < pos:
                    pos = m.start()
                    line_start = text.rfind("\n", 0, m.start()) + 1
                    line_end = text.find("\n", m.end())
                    first = text[line_start: line_end if line_end != -1 else len(text)].strip()[:300]
        if hits:
            found.append(Match(e, hits * 1000 + span, first or "", pos or 0))
    found.sort(key=lambda m: (-m.score, m.position, m.entry.id))
    return found[:limit] if limit else found


def best(text: str, ids: set[str] | None = None) -> Match | None:
    ms = match(text, limit=1, ids=ids)
    return ms[0] if ms else None
