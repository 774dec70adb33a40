"""The matcher's pass over one text, done once where a test's cases read the same text again (session 36, helper ci36a).

`check` asks `knowledge.match.cause` why a backend failed, and `cause` scans the failure's own text and what the run
printed besides, one `scan` each. tests/test_findings.py's property tests hand the matcher the same text again: the first
example of each entry is a failing import under every backend (5 whole checks, 4 of them scanning a text already
scanned), torch's own failing import has the very traceback a backend's had (each of its ~1,900 cases), and `best` scans
again the text `match` just scanned. (tests/test_failure_kept.py reads its noise texts again too, but there the matcher's
own cache of report heads, _Index.head_spans, already spares most of a repeated scan: 69.2 -> 67.9 s of CPU with this,
within the noise; it is not used there.)

`scans_once(memo)` makes `match.scan` answer an input it has answered already (the same text, the same entry ids and
probes, the same index: the knowledge as loaded now) with that answer; every other input is scanned as before, through
the same code. Only the repeat of an identical call is dropped: every case still runs the whole check, `cause`, the
attribution and the rendering on that scan's answer. `scan` is deterministic and its answer (`Scan`: the ranked matches,
the lines around them) is read, never changed, by its callers: tests/test_findings.py::test_a_scan_read_again_is_the_same
checks that on the first example of every 40th entry.
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import Iterator

from attn_doctor.knowledge import match as _match


@contextmanager
def scans_once(memo: dict | None = None) -> Iterator[dict]:
    """Within the block, `knowledge.match.scan` of a str already scanned (same ids, probes and index) returns the answer
    it gave then. `memo` (a dict the caller keeps, e.g. one per test module) shares the answers across blocks."""
    memo = {} if memo is None else memo
    real = _match.scan

    def scan(source, *, ids=None, probes=()):
        if not isinstance(source, str):  # a stream or bytes: read once by nature
            return real(source, ids=ids, probes=probes)
        ids = frozenset(ids) if ids is not None else None
        probes = tuple(probes)
        key = (source, ids, probes, _match._index(ids, probes))  # (the index: a test that adds an entry gets another)
        hit = memo.get(key)
        if hit is None:
            hit = memo[key] = real(source, ids=ids, probes=probes)
        return hit

    _match.scan = scan
    try:
        yield memo
    finally:
        _match.scan = real
