"""knowledge/index_cache.py: what the matcher learns of each pattern (needles, spans, groups) kept on disk, and each
pattern compiled only when first run (knowledge/match.py's _Index). A cache may only ever save time: every reading is
the same with it, without it, stale, corrupt or unwritable. Real entries, real fixture texts; the cache folder is a
tmp dir (ATTN_DOCTOR_CACHE_DIR set by monkeypatch for the one test)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from attn_doctor.knowledge import entries, index_cache
from attn_doctor.knowledge import match as M

ROOT = Path(__file__).resolve().parent.parent
# a few training texts of different kinds (a build log, a traceback, a UI report), never a held-out or measure-only set
TEXTS = sorted((ROOT / "fixtures" / "errors" / "round74").glob("*.txt"))[:6] + \
    sorted((ROOT / "fixtures" / "errors" / "round79").glob("*.txt"))[:4]


def _fields(idx: M._Index) -> tuple:
    return (idx.patterns, idx.needles, idx.always, idx.head, idx.wide, idx.wide_factors, idx.group_needles)


def _fresh(ids=None, probes=()) -> M._Index:
    return M._Index(ids, probes)


def _ids(text: str) -> list[tuple[str, int]]:
    return [(m.entry.id, m.line, m.count, m.score) for m in M.scan(text).found]


def test_texts_are_there():
    assert len(TEXTS) == 10


def test_cold_warm_and_off_build_the_same_index(tmp_path, monkeypatch):
    monkeypatch.setenv(index_cache.ENV, "")
    off = _fields(_fresh())
    monkeypatch.setenv(index_cache.ENV, str(tmp_path))
    cold = _fields(_fresh())
    doc = json.loads((tmp_path / index_cache.NAME).read_text(encoding="utf-8"))
    assert doc["key"] == index_cache.code_key() and len(doc["patterns"]) >= len(off[0]) - len(off[3])
    warm = _fields(_fresh())
    assert off == cold == warm
    assert off[1] and off[4] and off[5]  # the comparison compares something: needles, wide patterns, their groups


def test_nothing_is_compiled_before_it_runs(tmp_path, monkeypatch):
    monkeypatch.setenv(index_cache.ENV, str(tmp_path))
    idx = _fresh()
    assert all(r is None for r in idx._rx)
    rx = idx.rx(0)
    assert rx.pattern and idx._rx[0] is rx and idx.rx(0) is rx


@pytest.mark.parametrize("state", ["corrupt", "other-key", "wrong-shape", "lying"])
def test_a_bad_cache_changes_no_reading(tmp_path, monkeypatch, state):
    monkeypatch.setenv(index_cache.ENV, "")
    M._cached_index.cache_clear()
    want = [_ids(t.read_text(encoding="utf-8", errors="replace")) for t in TEXTS]
    assert sum(map(len, want)) >= 5
    monkeypatch.setenv(index_cache.ENV, str(tmp_path))
    f = tmp_path / index_cache.NAME
    pats = [p for e in entries().values() for p in e.patterns]
    if state == "corrupt":
        f.write_text('{"key": "', encoding="utf-8")
    elif state == "other-key":  # another matcher's or Python's learning: every needle wrong, must be ignored
        f.write_text(json.dumps({"key": "0" * 64, "patterns": {p: [["zzzz"], False, None] for p in pats}}))
    elif state == "wrong-shape":
        f.write_text(json.dumps({"key": index_cache.code_key(), "patterns": {p: "x" for p in pats}}))
    else:  # the right key but a value that is no [needles, wide, groups] triple
        f.write_text(json.dumps({"key": index_cache.code_key(), "patterns": {p: [["zzzz"]] for p in pats}}))
    M._cached_index.cache_clear()
    try:
        got = [_ids(t.read_text(encoding="utf-8", errors="replace")) for t in TEXTS]
    finally:
        M._cached_index.cache_clear()
    assert got == want
    assert json.loads(f.read_text(encoding="utf-8"))["key"] == index_cache.code_key()  # learnt again and rewritten


def test_the_key_is_the_learning_code(monkeypatch):
    k = index_cache.code_key()
    assert len(k) == 64
    index_cache.code_key.cache_clear()
    monkeypatch.setattr(index_cache, "HERE", Path("/nonexistent-attn-doctor"))
    try:
        assert index_cache.code_key() == ""  # code it cannot read: no key, so nothing is read or written
        assert index_cache.load() == {}
    finally:
        index_cache.code_key.cache_clear()


def test_an_unwritable_cache_is_silent(tmp_path, monkeypatch):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    monkeypatch.setenv(index_cache.ENV, str(blocker / "sub"))
    index_cache.save({"a": [[], False, None]})  # no exception
    assert index_cache.load() == {}
    idx = _fresh()
    assert idx.needles


def test_probes_keep_their_own_flags(tmp_path, monkeypatch):
    monkeypatch.setenv(index_cache.ENV, str(tmp_path))
    idx = _fresh(frozenset(), (("probe", r"torch==(\d+\.\d+)"),))
    k = next(iter(idx.probe_names))
    assert idx.rx(k).pattern == r"torch==(\d+\.\d+)"  # not bounded(): a probe is compiled as written
