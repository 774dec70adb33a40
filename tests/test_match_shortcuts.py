"""The matcher's shortcuts change no reading (perf19, session 19): a report head's prose pattern is not run where the head
lacks one of its literal groups (text_factors, lookarounds' included), its matches on a head are kept for the heads read
last (_Index.head_spans), and attribution's first_named is kept per line."""

from __future__ import annotations

import re

from attn_doctor import knowledge
from attn_doctor.knowledge import match as M
from attn_doctor.knowledge.attribution import sentences


def _readings(text: str) -> list[tuple]:
    return [(m.entry.id, m.score, m.evidence, m.position, m.line, m.count, m.lines) for m in M.scan(text).found]


def test_fold_covers_what_ignorecase_matches():
    """Every character the engine matches case-blind to an ASCII letter folds to that letter (else a literal group could
    be missed in a head that holds it)."""
    every = "".join(chr(c) for c in range(128, 0x110000) if not 0xD800 <= c < 0xE000)
    for m in re.finditer("[a-z]", every, re.IGNORECASE):
        c = m.group()
        assert any(re.fullmatch(x, c, re.IGNORECASE) and M._fold(c) == x for x in "abcdefghijklmnopqrstuvwxyz"), hex(ord(c))
    assert M._fold("FlashAttention İmport ſage \u212aernel") == "flashattention import sage kernel"


def test_text_factors_read_positive_lookarounds_only():
    assert M.text_factors(r"^(?=[^\n]*\bboom\b)[^\n]*?xformers") == (("boom",), ("xformers",))
    assert M.text_factors(r"(?<=fail: )(?:sage|flex)") == (("fail: ",), ("flex", "sage"))
    # a negative lookaround's literals are what must be absent; an optional part's may be
    assert M.text_factors(r"(?![^\n]*works)(?:very )?slow") == (("slow",),)
    assert M.text_factors(r"(?:(?=abc)x|y)z") == (("x", "y"), ("z",))  # (a lookaround in one way only: not required)


def test_the_head_gate_changes_no_reading(monkeypatch):
    """The `head` entries' own examples (prose reports) and a few heads without a backend's name read the same with
    every head pattern run, as before."""
    texts = [ex for e in knowledge.entries().values() if e.head for ex in e.examples][::4]
    texts += ["Training is slow on my machine.\nAny idea?", "xformers\n", "İmport of ſageattention fails on my RTX 5090"]
    assert len(texts) >= 20
    gated = [_readings(t) for t in texts]
    index = M._index(None)
    monkeypatch.setattr(index, "head_gate", {})  # no gate, no memo: every head pattern runs (as at c067c59a)
    assert [_readings(t) for t in texts] == gated
    assert sum(bool(r) for r in gated) >= 15  # (the examples are read at all)


def test_head_matches_kept_for_the_last_heads_only(monkeypatch):
    monkeypatch.setattr(M, "HEAD_VIEWS", 3)
    index = M._index(None)
    texts = [f"My flash attention {n} install fails on my machine.\nsageattention is slow" for n in range(8)]
    with monkeypatch.context() as m:
        m.setattr(index, "head_gate", {})  # every head pattern run, nothing kept
        plain = [_readings(t) for t in texts]
    monkeypatch.setattr(index, "_head_views", {})
    monkeypatch.setattr(index, "_head_chars", 0)
    assert [_readings(t) for t in texts] == plain
    assert 0 < len(index._head_views) <= 3
    assert index._head_chars == 2 * sum(map(len, index._head_views))  # (each head and its folded copy)
    assert [_readings(t) for t in texts[-3:]] == plain[-3:]  # read again: from what is kept
    assert any(r[0].startswith("prose.") for r in plain[0])


def test_first_named_kept_is_first_named():
    lines = ["ImportError: cannot import name 'memory_efficient_attention' from 'xformers.ops'",
             "F.scaled_dot_product_attention = sageattn", "nothing here", "flash_attn_interface is missing"]
    for line in lines * 2:
        assert sentences.first_named(line) == sentences._first_named.__wrapped__(line, 0)
    assert sentences.first_named(lines[0]) == "xformers" and sentences.first_named(lines[2]) is None
