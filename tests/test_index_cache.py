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
    return (idx.patterns, idx.needles, idx.always, idx.head, idx.wide, idx.wide_factors, idx.group_needles, idx.factors,
            idx._local, idx._tables)


def _fresh(ids=None, probes=()) -> M._Index:
    return M._Index(ids, probes)


def _ids(text: str) -> list[tuple[str, int]]:
    return [(m.entry.id, m.line, m.count, m.score) for m in M.scan(text).found]


@pytest.fixture(scope="module")
def engine_once():
    """index_cache._engine_compile (a pattern's text, flags and amend -> the compiled pattern and what rebuilds it: a pure
    function of its arguments) with each answer computed once for the module. readings_off compiles every pattern the
    texts reach afresh; the tests that compare a cache state with it compiled the same patterns afresh again after each
    cache clear (test_a_bad_compiled_cache_changes_no_reading: cold, then every file refused; ~6 s of CPU of the module's
    ~37, session 39). What they test is the cache around the compiler (its files written, read back, refused, its index
    learnt again), which runs whole; the compiler's answer is the same either way, and readings_off's is its own (the
    first asked)."""
    import functools

    return functools.lru_cache(maxsize=None)(index_cache._engine_compile)


@pytest.fixture(scope="module")
def readings_off(engine_once) -> list:
    """The readings of TEXTS with no cache at all (ATTN_DOCTOR_CACHE_DIR empty), every pattern compiled afresh: what every
    cache state below must read. Read once for the module (it was read again by each of the five tests that compare with
    it, ~2-4 s of CPU each): the same texts, the same code, nothing kept between runs with the cache off."""
    from attn_doctor.knowledge import _compile, compile_pattern

    def fresh():
        compile_pattern.cache_clear()
        _compile.cache_clear()
        M._cached_index.cache_clear()

    with pytest.MonkeyPatch.context() as mp:
        mp.setenv(index_cache.ENV, "")
        mp.setattr(index_cache, "_engine_compile", engine_once)
        fresh()
        try:
            return [_ids(t.read_text(encoding="utf-8", errors="replace")) for t in TEXTS]
        finally:
            fresh()


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
def test_a_bad_cache_changes_no_reading(tmp_path, monkeypatch, state, readings_off, engine_once):
    want = readings_off
    assert sum(map(len, want)) >= 5
    monkeypatch.setenv(index_cache.ENV, str(tmp_path))
    monkeypatch.setattr(index_cache, "_engine_compile", engine_once)
    f = tmp_path / index_cache.NAME
    pats = [p for e in entries().values() for p in e.patterns]
    if state == "corrupt":
        f.write_text('{"key": "', encoding="utf-8")
    elif state == "other-key":  # another matcher's or Python's learning: every needle wrong, must be ignored. In the shape
        # the index is read in today (match._learn: needles, wide, groups, line_local, digit table), so that only the key
        # refuses it (the 3-field values written here until session 39 were refused by their shape: the test passed with
        # index_cache.load's key check taken out)
        f.write_text(json.dumps({"key": "0" * 64, "patterns": {p: [["zzzz"], False, None, None, False] for p in pats}}))
    elif state == "wrong-shape":
        f.write_text(json.dumps({"key": index_cache.code_key(), "patterns": {p: "x" for p in pats}}))
    else:  # the right key but a value that is no [needles, wide, groups, line_local, digit table] list
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


# ---- compiled patterns (index_cache.compiled) ------------------------------------------------------------------------

def _some_patterns() -> list[str]:
    """Patterns of every kind the matcher compiles: the report-head prose (KBs each, named groups), a few hundred others."""
    from attn_doctor.knowledge import bounded

    known = list(entries().values())
    heads = [p for e in known if e.head for p in e.patterns]
    others = [p for e in known if not e.head for p in e.patterns][::7]
    assert len(heads) >= 20 and len(others) >= 200
    return [bounded(p) for p in heads + others]


def _same(a, b) -> None:
    assert (a.pattern, a.flags, a.groups, dict(a.groupindex)) == (b.pattern, b.flags, b.groups, dict(b.groupindex))
    assert a == b  # (two patterns are equal where their engine code is: CPython compares it)


def _texts() -> list[str]:
    return [t.read_text(encoding="utf-8", errors="replace") for t in TEXTS]


def _found(rx, texts) -> list:
    return [[(m.span(), m.groups()) for m in rx.finditer(t)] for t in texts]


def test_compiled_patterns_are_read_back_the_same(tmp_path, monkeypatch):
    import re

    monkeypatch.setenv(index_cache.ENV, str(tmp_path))
    flags = re.IGNORECASE | re.MULTILINE
    pats = _some_patterns()
    texts = _texts()
    cold = [index_cache.compiled(p, flags) for p in pats]
    files = list(tmp_path.glob("re-*/*.bin"))
    assert len(files) == len(set(pats))
    # warm: from the files alone (the parser is never asked)
    monkeypatch.setattr(index_cache, "_ENGINE", (*index_cache._ENGINE[:2], None, *index_cache._ENGINE[3:]))
    warm = [index_cache.compiled(p, flags) for p in pats]
    hits = 0
    for p, c, w in zip(pats, cold, warm):
        plain = re.compile(p, flags)
        _same(plain, c)
        _same(plain, w)
        want = _found(plain, texts)
        assert _found(c, texts) == want == _found(w, texts)
        hits += any(want)
    assert hits >= 5  # the comparison compares matches, not only empty results


@pytest.mark.parametrize("damage", ["truncated", "flipped", "other-pattern", "other-flags", "garbage", "empty"])
def test_a_damaged_compiled_file_is_compiled_again(tmp_path, monkeypatch, damage):
    import re

    monkeypatch.setenv(index_cache.ENV, str(tmp_path))
    heads = [p for e in entries().values() if e.head for p in e.patterns]
    a, b = heads[0], heads[1]
    index_cache.compiled(a, re.I)
    index_cache.compiled(b, re.I)
    fa, fb = index_cache._compiled_path(a, re.I), index_cache._compiled_path(b, re.I)
    raw = fa.read_bytes()
    if damage == "truncated":
        fa.write_bytes(raw[:-8])
    elif damage == "flipped":  # the header intact, one code unit changed: the digest says so
        fa.write_bytes(raw[:-4] + bytes([raw[-4] ^ 1]) + raw[-3:])
    elif damage == "other-pattern":  # another pattern's file under this one's name
        fa.write_bytes(fb.read_bytes())
    elif damage == "other-flags":
        fa.write_bytes(index_cache._compiled_path(a, re.I | re.M).read_bytes() if index_cache.compiled(a, re.I | re.M)
                       else b"")  # (compiled() returns a pattern: the file exists)
    elif damage == "garbage":
        fa.write_bytes(b"\x00\xff" * 64)
    else:
        fa.write_bytes(b"")
    assert index_cache._read_compiled(fa, a, re.I) is None
    got = index_cache.compiled(a, re.I)
    _same(got, re.compile(a, re.I))
    assert _found(got, _texts()) == _found(re.compile(a, re.I), _texts())
    assert index_cache._read_compiled(fa, a, re.I) is not None  # written again, whole


def test_compiled_patterns_off_unwritable_and_errors(tmp_path, monkeypatch):
    import re

    monkeypatch.setenv(index_cache.ENV, "")
    assert index_cache._compiled_path("x", 0) is None
    _same(index_cache.compiled(r"fla(sh)", re.I), re.compile(r"fla(sh)", re.I))
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    monkeypatch.setenv(index_cache.ENV, str(blocker / "sub"))
    _same(index_cache.compiled(r"(?P<v>\d+)x", re.M), re.compile(r"(?P<v>\d+)x", re.M))  # no exception
    monkeypatch.setenv(index_cache.ENV, str(tmp_path / "c"))
    with pytest.raises(re.error):  # a bad pattern raises as re.compile does, and leaves no file
        index_cache.compiled(r"(unclosed", 0)
    assert not list((tmp_path / "c").glob("re-*/*.bin"))


def test_a_bad_compiled_cache_changes_no_reading(tmp_path, monkeypatch, readings_off, engine_once):
    from attn_doctor.knowledge import _compile, compile_pattern

    def fresh():
        compile_pattern.cache_clear()
        _compile.cache_clear()
        M._cached_index.cache_clear()

    texts = _texts()
    want = readings_off
    monkeypatch.setenv(index_cache.ENV, str(tmp_path))
    monkeypatch.setattr(index_cache, "_engine_compile", engine_once)  # (its files written, read, refused: for real)
    try:
        fresh()
        cold = [_ids(t) for t in texts]
        files = list(tmp_path.glob("re-*/*.bin"))
        assert len(files) >= 20
        fresh()
        warm = [_ids(t) for t in texts]
        for f in files:  # every file another pattern's (its neighbour's): each is refused and compiled again
            f.write_bytes(files[(files.index(f) + 1) % len(files)].read_bytes() if f.stat().st_size else b"")
        fresh()
        swapped = [_ids(t) for t in texts]
    finally:
        fresh()
    assert want == cold == warm == swapped


# ---- parsed TOML (index_cache.toml) -----------------------------------------------------------------------------------

def _parse(raw: bytes) -> dict:
    import tomllib

    return tomllib.loads(raw.decode("utf-8"))


def test_knowledge_toml_read_back_the_same(tmp_path, monkeypatch):
    from attn_doctor.knowledge import HERE

    monkeypatch.setenv(index_cache.ENV, str(tmp_path))
    files = sorted(HERE.glob("*.toml"))
    assert len(files) >= 20
    want = [_parse(f.read_bytes()) for f in files]
    cold = [index_cache.toml(f.read_bytes(), _parse) for f in files]
    kept = list(tmp_path.glob("toml-*/*.json"))
    assert len(kept) == len(files)

    def refuse(raw):
        raise AssertionError("parsed again")

    refuse.__qualname__ = _parse.__qualname__  # (the cache is the parser's: keyed by its name)
    warm = [index_cache.toml(f.read_bytes(), refuse) for f in files]  # from the files alone
    assert want == cold == warm
    assert sum(len(d.get("entry", ())) for d in warm) >= 300


@pytest.mark.parametrize("damage", ["other-content", "corrupt", "not-a-table"])
def test_a_damaged_toml_copy_is_parsed_again(tmp_path, monkeypatch, damage):
    monkeypatch.setenv(index_cache.ENV, str(tmp_path))
    raw = b'[[entry]]\nid = "a.b"\npatterns = ["x\\\\d+"]\nn = 1.5\n'
    assert index_cache.toml(raw, _parse) == _parse(raw)
    (f,) = tmp_path.glob("toml-*/*.json")
    if damage == "other-content":  # another file's parse under this one's name
        other = b'x = 2\n'
        f.write_text(json.dumps({"sha256": "0" * 64, "data": _parse(other)}), encoding="utf-8")
    elif damage == "corrupt":
        f.write_text('{"sha256": ', encoding="utf-8")
    else:
        doc = json.loads(f.read_text(encoding="utf-8"))
        f.write_text(json.dumps({"sha256": doc["sha256"], "data": [1]}), encoding="utf-8")
    assert index_cache.toml(raw, _parse) == _parse(raw)
    assert json.loads(f.read_text(encoding="utf-8"))["data"] == _parse(raw)  # written again


def test_a_toml_json_cannot_hold_is_not_kept(tmp_path, monkeypatch):
    monkeypatch.setenv(index_cache.ENV, str(tmp_path))
    raw = b'when = 2026-11-29T08:00:00Z\nx = nan\n'
    got = index_cache.toml(raw, _parse)
    assert got["when"] == _parse(raw)["when"] and got["x"] != got["x"]
    assert not list(tmp_path.glob("toml-*/*.json"))
    monkeypatch.setenv(index_cache.ENV, "")
    assert index_cache.toml(b"a = 1\n", _parse) == {"a": 1}


def test_rewritten_patterns_are_read_back_without_rewriting(tmp_path, monkeypatch):
    import functools
    import re

    from attn_doctor.knowledge import bounded

    monkeypatch.setenv(index_cache.ENV, str(tmp_path))
    flags = re.IGNORECASE | re.MULTILINE
    raw = [p for e in entries().values() if e.head for p in e.patterns][:10] + [r"flash_attn[^\n]*nan", r"a\w+b"]
    assert any(bounded(p) != p for p in raw)  # some are rewritten
    cold = [index_cache.compiled(p, flags, rewrite=bounded) for p in raw]
    calls = []

    @functools.wraps(bounded)
    def counted(p):
        calls.append(p)
        return bounded(p)

    warm = [index_cache.compiled(p, flags, rewrite=counted) for p in raw]
    assert calls == []  # read back: not rewritten again
    texts = _texts()
    for p, c, w in zip(raw, cold, warm):
        plain = re.compile(bounded(p), flags)
        _same(plain, c)
        _same(plain, w)
        assert _found(c, texts) == _found(plain, texts) == _found(w, texts)
    # a file of the pattern as written (no rewrite) is not the rewritten one's, nor the other way round
    index_cache.compiled(raw[-2], flags)
    assert index_cache._compiled_path(raw[-2], flags) != index_cache._compiled_path(raw[-2], flags, bounded)
    f = index_cache._compiled_path(raw[-2], flags, bounded)
    assert index_cache._read_compiled(f, raw[-2], flags) is None  # its text is not the pattern's own
    assert index_cache.compiled(raw[-2], flags).pattern == raw[-2]



# ---- a reader's patterns compiled together (index_cache.Pack: attribution.rules()) -----------------------------------

def _rules():
    from attn_doctor.knowledge import attribution

    attribution.rules.cache_clear()
    try:
        return attribution.rules()
    finally:
        attribution.rules.cache_clear()


def test_attribution_rules_are_the_same_from_the_pack(tmp_path, monkeypatch):
    monkeypatch.setenv(index_cache.ENV, "")
    off = _rules()
    monkeypatch.setenv(index_cache.ENV, str(tmp_path))
    cold = _rules()
    (f,) = tmp_path.glob("re-*/pack-attribution.bin")
    before = f.stat().st_mtime_ns, f.read_bytes()
    monkeypatch.setattr(index_cache, "_ENGINE", (*index_cache._ENGINE[:2], None, *index_cache._ENGINE[3:]))
    warm = _rules()  # from the pack alone: the parser is never asked
    assert off == cold == warm  # (dataclass equality: each pattern's engine code compared)
    assert len(off.libraries) >= 300
    assert (f.stat().st_mtime_ns, f.read_bytes()) == before  # nothing new: not written again


@pytest.mark.parametrize("damage", ["flipped", "torn", "garbage", "other-patterns"])
def test_a_damaged_pack_is_compiled_again(tmp_path, monkeypatch, damage):
    import re

    monkeypatch.setenv(index_cache.ENV, str(tmp_path))
    pats = [(r"flash[_-]?attn", re.I), (r"(?P<v>\d+)\.(\d+)", 0), (r"^xformers\b", re.I | re.M)]
    pack = index_cache.Pack("t")
    want = [pack.compile(p, f) for p, f in pats]
    pack.save()
    (f,) = tmp_path.glob("re-*/pack-t.bin")
    raw = f.read_bytes()
    if damage == "flipped":
        f.write_bytes(raw[:-4] + bytes([raw[-4] ^ 1]) + raw[-3:])
    elif damage == "torn":
        f.write_bytes(raw[:-6])
    elif damage == "garbage":
        f.write_bytes(b"{}\n" + raw)
    else:  # a pack of other patterns: those asked for now are compiled, and only they are kept
        other = index_cache.Pack("t")
        other.compile(r"sage", 0)
        other.save()
    pack = index_cache.Pack("t")
    got = [pack.compile(p, f) for p, f in pats]
    assert pack.missed
    for a, b, (p, fl) in zip(want, got, pats):
        _same(a, b)
        _same(b, re.compile(p, fl))
    pack.save()
    again = index_cache.Pack("t")
    assert [again.compile(p, f) for p, f in pats] == want and not again.missed  # written again, whole
    again.save()
    assert set(again.held) == set((p, int(f)) for p, f in pats)


def test_a_pack_gives_one_object_per_pattern_and_raises_as_re_does(tmp_path, monkeypatch):
    import re

    monkeypatch.setenv(index_cache.ENV, str(tmp_path))
    pack = index_cache.Pack("t")
    assert pack.compile("abc", re.I) is pack.compile("abc", re.I)
    with pytest.raises(re.error):
        pack.compile("(abc", 0)
    monkeypatch.setenv(index_cache.ENV, "")
    off = index_cache.Pack("t")
    _same(off.compile("a(b)", 0), re.compile("a(b)"))
    off.save()  # nothing to keep, nowhere: no exception


MODULES_PACKED = ("match", "attribution.sentences", "attribution.refusals", "attribution.decide", "attribution.shapes",
                  "attribution.probes", "attribution.search")


def test_module_patterns_are_read_back_the_same_bytes_too(tmp_path, monkeypatch):
    """A module's own patterns (index_cache.module_pack: match.py's are mostly bytes) come back from the pack equal to
    re.compile's, of the same kind (bytes or str), without the parser; a pack of another module's is not mixed in."""
    import importlib
    import re

    monkeypatch.setenv(index_cache.ENV, str(tmp_path))
    pats = {}
    for name in MODULES_PACKED:
        mod = importlib.import_module("attn_doctor.knowledge." + name)
        assert isinstance(mod._R, index_cache.Pack)
        pats[name] = [(v.pattern, v.flags) for v in vars(mod).values() if isinstance(v, re.Pattern)]
    assert any(isinstance(p, bytes) for p, _ in pats["match"]) and len(pats["attribution.sentences"]) >= 20
    for name, ps in pats.items():
        pack = index_cache.module_pack(name)
        for p, f in ps:
            pack.compile(p, f)
        pack.save()
    monkeypatch.setattr(index_cache, "_ENGINE", (*index_cache._ENGINE[:2], None, *index_cache._ENGINE[3:]))
    for name, ps in pats.items():
        pack = index_cache.module_pack(name)
        for p, f in ps:
            got = pack.compile(p, f)
            assert got == re.compile(p, f) and type(got.pattern) is type(p), (name, p)
        assert not pack.missed, name
        assert set(pack.held) == {(p, int(f)) for p, f in ps}, name  # every one kept, the bytes patterns too


def test_what_is_kept_after_a_scan_is_what_is_learnt_when_asked(tmp_path, monkeypatch, engine_once):
    """line_groups, is_local and digit_table are learnt when first asked and kept in index.json after the first scan that
    learnt any (_Index.keep); read back, each is what the pattern's parse says when asked afresh."""
    monkeypatch.setenv(index_cache.ENV, str(tmp_path))
    monkeypatch.setattr(index_cache, "_engine_compile", engine_once)  # (what is learnt and kept: for real)
    M._cached_index.cache_clear()
    try:
        cold = _fresh()
        assert not cold.factors and not cold._local and not cold._tables  # nothing learnt before it is asked about
        for t in _texts() + ["\n".join(f"step {i}: xformers flash_attn sdpa warning {i}" for i in range(200))]:
            M._cached_index.cache_clear()  # each a run of its own, as explain's (an index keeps what it learnt once)
            M.scan(t)  # (the last, a region of 64 lines or more: digit tables asked for)
    finally:
        M._cached_index.cache_clear()
    doc = json.loads((tmp_path / index_cache.NAME).read_text(encoding="utf-8"))
    assert sum(v[3] is not None for v in doc["patterns"].values()) >= 5
    idx = _fresh()  # warm: what was kept
    groups, local, tables = dict(idx.factors), dict(idx._local), dict(idx._tables)
    assert len(groups) >= 20 and sum(local.values()) >= 5 and sum(t is not None for t in tables.values()) >= 3
    idx.factors.clear()
    idx._local.clear()
    idx._tables.clear()
    assert {k: idx.line_groups(k) for k in groups} == groups
    assert {k: idx.is_local(k) for k in local} == local
    assert {k: idx.digit_table(k) for k in tables} == tables
    assert {k: M.digit_table(idx.patterns[k][1]) for k in tables} == tables


def test_a_folder_past_its_bound_keeps_its_newest_half(tmp_path, monkeypatch):
    """The compiled-pattern and TOML folders grow with each knowledge or Python version (files named by content): save()
    prunes a folder past index_cache.BOUND to its newest half, leaves one within it and anything that is not its own."""
    import os
    monkeypatch.setattr(index_cache, "BOUND", {"re-": 10, "toml-": 4})
    monkeypatch.setenv(index_cache.ENV, str(tmp_path))
    big, small, other = tmp_path / "re-aaaa", tmp_path / "toml-bbbb", tmp_path / "mine"
    for folder, n in ((big, 14), (small, 4), (other, 20)):
        folder.mkdir()
        for i in range(n):
            f = folder / f"{i:02d}.bin"
            f.write_bytes(b"x")
            os.utime(f, (1_000_000 + i, 1_000_000 + i))  # file i is older than file i + 1
    index_cache.save({"p": [[], False, None, None]})
    assert sorted(p.name for p in big.iterdir()) == [f"{i:02d}.bin" for i in range(9, 14)]  # the newest 5 (bound // 2)
    assert len(list(small.iterdir())) == 4 and len(list(other.iterdir())) == 20
    assert index_cache.load() == {"p": [[], False, None, None]}
