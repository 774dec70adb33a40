"""A head look's verdict kept by its line's text (knowledge/match.py LOOK_LINES, helper ci42a) reads as the look run afresh.

The same sentences stand as a report's title, further down its head, under a traceback's first line, with and without a
line end, and beside sentences that share their first words but say otherwise (a failure, a success, a question, a speed
complaint): every reading, its line and its evidence, is the one a process that keeps no verdict gives, in either order."""

from __future__ import annotations

from attn_doctor.knowledge import match

SAID = [
    "FlashAttention 2 fails to import on my H100",
    "FlashAttention 2 is installed and works great on my H100",
    "FlashAttention 2 is 3x slower than sdpa on my H100",
    "How do I make FlashAttention 2 work on my H100?",
    "xformers gives NaN outputs with bf16 after the upgrade",
    "xformers gives the same outputs with bf16 after the upgrade",
]
TEXTS = [
    *SAID,
    "\n".join(SAID[:3]) + "\n",
    "\n".join(reversed(SAID)),
    "Traceback (most recent call last):\n" + "\n".join(SAID[2:]) + "\nImportError: cannot import name 'x'\n",
    "Title: help\n\n" + SAID[1] + "\r\n" + SAID[0] + "\r\n",
    "  " + SAID[0] + "\n" + SAID[4] + "\n",
]


def _readings(texts=TEXTS) -> list:
    return [[(m.entry.id, m.line, m.evidence) for m in match.scan(t).found] for t in texts]


def test_a_look_kept_by_its_line_reads_as_the_look_run_afresh(monkeypatch):
    index = match._index(None)
    monkeypatch.setattr(index, "_head_views", {})  # (every head read anew, its looks run again)
    monkeypatch.setattr(match, "LOOK_LINES_AFTER", 10 ** 9)
    fresh = _readings()
    assert any(fresh), "no text read: the sentences no longer say anything to the head's patterns"
    monkeypatch.setattr(match, "LOOK_LINES_AFTER", 0)
    monkeypatch.setattr(match, "_LOOK_VERDICTS", {})
    for order in (1, -1):
        monkeypatch.setattr(index, "_head_views", {})
        assert _readings(TEXTS[::order])[::order] == fresh
    kept = match._LOOK_VERDICTS
    assert kept and all(kept.values()), "no verdict kept by its line: the test reads nothing"
    assert sum(len(v) for v in kept.values()) > 20
