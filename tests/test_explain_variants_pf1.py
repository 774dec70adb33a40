"""The prefilter's literal groups (factors), the gluing of lines only line-local patterns search, and the search of a
region by the kinds of its lines (helper pf1, session 8): a log that repeats a line naming a backend (a warning each
step, an info line each worker) costs a few pattern runs per block, and explain finds exactly what it found before.
benchmarks/explain_repeated_lines.py measures the speed; here the mechanism and its answers."""

from __future__ import annotations

import pytest

from attn_doctor.knowledge import match as M
from attn_doctor.knowledge.match import digit_table, factors, line_factors, line_local, needles, shape

UNDEFINED_SYMBOL = ("Traceback (most recent call last):\n  File \"/workspace/train.py\", line 14, in <module>\n"
                    "    from flash_attn import flash_attn_varlen_func\n"
                    "ImportError: /venv/lib/python3.11/site-packages/flash_attn_2_cuda.cpython-311-x86_64-linux-gnu.so: "
                    "undefined symbol: _ZN3c104cuda9SetDeviceEi\n")


# ---- the factors -----------------------------------------------------------------------------------

def test_every_sequence_element_of_literals_is_a_group():
    assert factors(r"xformers[^\n]{0,80}only (?:works|runs) with CUDA") == \
        tuple(sorted({(shape("xformers"),), ("only ",), (shape("runs"), shape("works")), (shape(" with cuda"),)}))


def test_an_optional_literal_is_no_group():
    got = factors(r"flash_attn(?:_cuda)? is broken")
    assert (shape("_cuda"),) not in got and all("_cu" not in a for g in got for a in g)
    assert (shape("flash_attn"),) in got and (shape(" is broken"),) in got
    assert factors(r"xformers(?: not)* ok") == ((shape(" ok"),), (shape("xformers"),))  # `*`: maybe none


def test_a_lookarounds_literals_are_no_group():
    got = factors(r"xformers(?=[^\n]*RTX 5090)(?![^\n]*disabled)[^\n]*fails")
    assert got == ((shape("fails"),), (shape("xformers"),))
    assert factors(r"(?<=Warning: )sdpa used") == ((shape("sdpa used"),),)


def test_an_inline_case_flag_reads_as_lower_case():
    # the knowledge compiles with IGNORECASE; a scoped (?-i:) or (?i) group still needs its letters, in some case,
    # and a line's shape is lower-cased: the group is lower-cased too
    assert factors(r"(?i:FlashAttention) (?-i:Killed)") == ((shape("flashattention killed"),),)
    assert factors(r"(?i)XFORMERS not built") == ((shape("xformers not built"),),)


def test_a_branch_is_a_group_when_each_way_holds_one():
    assert (shape("flash"), shape("sage")) in factors(r"(?:flash|sage)_attn[^\n]*missing")
    # a way without a literal of 3 bytes (`\d+`) gives the branch no group; the rest still are groups
    assert factors(r"(?:flash_attn|\d+)[^\n]*missing") == ((shape("missing"),),)
    # a cased non-ASCII letter is no needle (the shape lower-cases ASCII only): a way of Cyrillic words has none
    assert factors(r"xformers[^\n]*(?:not working|не работает)") == ((shape("xformers"),),)
    # characters without case are (CJK: three bytes each)
    assert (shape("not working"), "不支持") in factors(r"xformers[^\n]*(?:not working|不支持)")


def test_the_needles_are_one_of_the_groups():
    for p in (r"\bxformers\b[^\n]{0,100}?\bmslk\b[^\n]{0,60}?\bmissing\b", r"(?:flash|sage)_attn[^\n]*not installed"):
        assert needles(p) in factors(p)


# ---- the prefilter ---------------------------------------------------------------------------------

def _hot(pattern: str, line: str) -> bool:
    index = M._index(frozenset(), (("probe", pattern),))
    k = next(k for k, (e, p) in enumerate(index.patterns) if p == pattern)
    index.shapes.clear()
    index.present.clear()
    got = index.hot([line.encode().translate(M._SHAPE)])
    return any(k in pats for _, pats in got)


def test_a_short_literal_beside_the_needle_rules_a_line_out():
    # (helper ex181) attn.return-value's shape: its needle `return` is on every `return fn(*args, **kwargs)` line of a warning's
    # traceback (7,252 lines of benchmarks/explain_50mb.py's log, each searched); the backtick it needs is one character
    import re

    p = r"\b(?:flash[ _-]?att\w*|FA[234])\b[^\n]{0,40}?\breturn(?:s|ed)?\b[^\n]{0,10}?`\(?[\w.]+,[ \t]*[\w.]+\)?`"
    groups = line_factors(p)
    assert ("`",) in groups and set(factors(p)) <= set(groups)
    assert not any(set(a) <= {"0"} for g in groups for a in g)  # `FA2` shapes as `000`: in every number, no group
    hit = "flash_attn_func returns `(out, lse)` now"
    assert re.search(p, hit, re.I) and _hot(p, hit) and _hot(p, "FA3 RETURNED `out,lse`")
    assert not _hot(p, "  return fn(*args, **kwargs)")  # the needle alone
    assert not _hot(p, "flash_attn_func returns (out, lse) now")  # a near miss: no backtick, no match
    assert not re.search(p, "flash_attn_func returns (out, lse) now", re.I)


def test_a_line_is_hot_for_a_pattern_only_where_it_holds_each_group():
    p = r"\bxformers\b[^\n]{0,100}?\bmslk\b[^\n]{0,60}?\b(?:missing|not installed)\b"
    assert _hot(p, "[rank3] xformers: mslk is missing, some ops disabled")
    assert _hot(p, "WARNING XFORMERS needs MSLK which is NOT INSTALLED")  # case
    # near misses: the needle without the other literals
    assert not _hot(p, "[rank0] step 12 xformers memory_efficient_attention ok, tokens/s 4321")
    assert not _hot(p, "xformers mslk ok")


# ---- line_local and digit_table -----------------------------------------------------------------------

@pytest.mark.parametrize("pattern, local", [
    (r"flash_attn[^\n]{0,40}is not installed", True),
    (r"(?<![\w.])_C\.pyd\b", True),  # a lookbehind that cannot read a line end: the same at a line's start
    (r"xformers[^\n]*(?![^\n]{0,6}disabled)", True),
    (r"Error: foo(?=\n  File)", False),  # reads the next line
    (r"(?<=\s)flash_attn", False),  # reads the line end before the line
    (r"\Aflash_attn is broken", False),  # the text's start
    (r"flash_attn broken\Z", False),
    (r"flash_attn\n  File", False),  # spans lines
])
def test_line_local(pattern, local):
    assert line_local(pattern) is local


def test_digit_table_groups_the_digits_a_pattern_cannot_tell_apart():
    def row(p):
        t = digit_table(p)
        return None if t is None else bytes(range(48, 58)).translate(t).decode()
    assert row(r"flash_attn \d+\.\d+ [^\n]*failed") == "0000000000"
    assert row(r"RTX ?50[5-9]0") == "0111156666"
    assert row(r"(\d)\1 twice") is None  # a back-reference tells every digit apart


def test_digit_table_of_sm_codes():
    t = digit_table(r"sm_?(?:8[06]|90)")
    said = bytes(range(48, 58)).translate(t).decode()
    # 0, 6, 8 and 9 are each told apart from every other digit; 1-5 and 7 are alike
    assert len({said[d] for d in (0, 6, 8, 9)}) == 4 and {said[d] for d in (1, 2, 3, 4, 5, 7)} == {"1"}


# ---- the answers: the same with the mechanisms off -------------------------------------------------------

def _found(text: str, ids: set[str] | None = None):
    return [(m.entry.id, m.line, m.count, m.lines, m.evidence) for m in M.scan(text, ids=ids).found]


def _found_plainly(text: str, monkeypatch, ids: set[str] | None = None):
    """_found with the prefilter's groups, the gluing and the kinds off. What the matcher learns under them stays here: no
    index file read or written (the plain index's empty groups, kept, were believed by every later process on the same
    index file: json-records' work per character 16.4 -> 36.5 in test_explain_long_lines, helper ci39d), and line_factors'
    answers made from the patched factors forgotten (they are cached for the process). (The index file is read: learning
    every pattern again cost each call ~3 s.)"""
    from attn_doctor.knowledge import index_cache

    with monkeypatch.context() as mp:
        mp.setattr(M, "factors", lambda pattern, min_len=3: ())
        mp.setattr(M, "GLUE", -1)
        mp.setattr(M, "KIND_LINES", 10 ** 9)
        mp.setattr(index_cache, "save", lambda patterns: None)
        M._cached_index.cache_clear()
        M.line_factors.cache_clear()
        try:
            return _found(text, ids)
        finally:
            M._cached_index.cache_clear()
            M.line_factors.cache_clear()


def _log(line, n: int, error_at: int) -> str:
    return "".join((UNDEFINED_SYMBOL if i == error_at else "") + line(i) for i in range(n))


TRANSFORMERS = (lambda i: f"step {i}: loss={i % 97 / 40:.4f} | /venv/lib/python3.11/site-packages/transformers/"
                f"modeling_utils.py:1234: UserWarning: flash_attn is not installed, using sdpa instead\n")
XFORMERS = lambda i: f"[rank{i % 8}] step {i} xformers memory_efficient_attention ok, tokens/s {1000 + i * 37}\n"
RTX = lambda i: (f"GPU {i % 3}: NVIDIA GeForce RTX 50{(i % 10)}0, xformers {i % 7} built for sm_{80 + i % 20}\n"
                 f"xformers does not support the RTX 5090 yet (step {i})\n")
SAGE = lambda i: f"Using sage attention\n{i % 100:3d}%|####      | {i % 20}/20 [00:{i % 60:02d}<00:12, 1.61it/s]\n"


@pytest.mark.parametrize("line", [TRANSFORMERS, XFORMERS, RTX, SAGE], ids=["transformers", "xformers", "rtx", "sage"])
def test_a_log_repeating_a_backend_line_is_explained_as_before(line, monkeypatch):
    text = _log(line, 3000, 1500)
    got = _found(text)
    assert got == _found_plainly(text, monkeypatch)
    error_line = text[:text.index("undefined symbol")].count("\n") + 1
    assert ("import.undefined-symbol", error_line) in [(i, n) for i, n, *_ in got]


def test_a_line_repeated_is_counted_on_each_of_its_lines(monkeypatch):
    # the transformers fallback warning on every line: the entry is found on each (up to MAX_HITS), by the kinds of
    # the lines, as it was line by line
    text = _log(TRANSFORMERS, 400, 200)
    got = {i: (n, c, lines) for i, n, c, lines, _ in _found(text)}
    assert got["fa2.not-available-fallback"] == (1, M.MAX_HITS, list(range(1, 11)))
    assert _found(text) == _found_plainly(text, monkeypatch)


def test_a_wide_pattern_whose_other_literals_are_within_its_window_still_matches(monkeypatch):
    # xformers.built-for-other-torch reads `_C.pyd` within 600 characters of `xformers`, across lines: the window
    # around each xformers line is kept where `_C.pyd` is within it (and dropped in the repeated lines far from it)
    pyd = ("WARNING[XFORMERS]: xFormers can't load C++/CUDA extensions. xFormers was built for:\n"
           "    PyTorch 2.1.0+cu121 with CUDA 1201 (you have 2.2.0+cu121)\n"
           "  File \"C:\\ComfyUI\\python_embeded\\Lib\\site-packages\\xformers\\_C.pyd\"\n")
    text = "".join(XFORMERS(i) for i in range(2000)) + pyd + "".join(XFORMERS(i) for i in range(2000))
    got = _found(text)
    assert got == _found_plainly(text, monkeypatch)
    assert "xformers.built-for-other-torch" in [i for i, *_ in got]


def test_digit_blind_matches_wherever_the_pattern_does_and_on_any_digits():
    from attn_doctor.knowledge.match import digit_blind

    rx = digit_blind(r"RTX ?50[5-9]0(?: ?Ti)?[^\n]{0,40}(?:not supported|unsupported)")
    for line in ("RTX 5090 not supported", "NVIDIA RTX5070 Ti is unsupported"):
        assert rx.search(line)  # where the pattern matches
    assert rx.search("RTX 1234 not supported")  # and on other digits: lines alike but for their digits
    assert not rx.search("GTX 1080 not supported")  # near miss: the letters still count
    assert digit_blind(r"[^5]x").search("5x")  # a negated class takes every digit too
    assert digit_blind(r"sm_(?!90)\d+ fails") is None  # a negative lookaround that tells digits apart: none


def test_a_digit_reading_pattern_skipped_where_no_kind_of_line_can_hold_it(monkeypatch):
    # backend.unsupported-gpu reads `RTX 50[5-9]0`: on lines of many step numbers (too many kinds for its digits)
    # it is searched only where its digit-blind copy finds something on a line of each kind (digits masked)
    text = _log(XFORMERS, 3000, 1500) + "".join(RTX(i) for i in range(100))
    got = _found(text)
    assert got == _found_plainly(text, monkeypatch)
    assert "backend.unsupported-gpu" in [i for i, *_ in got]


def test_a_lookahead_reading_the_next_lines_reads_them_as_before(monkeypatch):
    # cute.dsl-drift's `No module named 'quack'` holds unless a later line says another library requires quack: its
    # lookahead reads the window a wide pattern's line opens there, kept whether or not that pattern searches it
    text = ("E   ModuleNotFoundError: No module named 'quack'\n\nThe above exception was the direct cause of the "
            "following exception:\n\nImportError: The sparse attention (blk128) backend requires the `quack` package "
            "from https://github.com/Dao-AILab/quack.")
    assert _found(text) == _found_plainly(text, monkeypatch)
    assert "cute.dsl-drift" not in [i for i, *_ in _found(text)]


def test_the_plain_reading_leaves_nothing_behind(tmp_path, monkeypatch):
    """_found_plainly's patched factors must not reach a later reading (helper ci39d): line_factors' answers are cached for
    the process, and what an index learnt is kept in the index file that every later process on the same code reads. Both
    once held the plain reading's empty groups (json-records' work per character 16.4 -> 36.5 in test_explain_long_lines,
    a bound that then failed at random: it depended on which process had read first)."""
    import json

    from attn_doctor.knowledge import index_cache

    from attn_doctor.knowledge import entries

    monkeypatch.setenv(index_cache.ENV, str(tmp_path))
    text = _log(XFORMERS, 300, 150)
    ids = set(sorted(e.id for e in entries().values() if not e.head and any("xformers" in p for p in e.patterns))[:16])
    M.line_factors.cache_clear()  # (as in a fresh process: no pattern's line groups asked yet)
    _found_plainly(text, monkeypatch, ids)
    assert not (tmp_path / index_cache.NAME).exists()  # the plain reading's index is not kept
    M._cached_index.cache_clear()
    try:
        _found(text, ids)
        index = M._index(frozenset(ids))
        asked = [index.patterns[k][1] for k in index.factors]
    finally:
        M._cached_index.cache_clear()
    assert asked and not [p[:60] for p in asked if not line_factors(p)]
    kept = json.loads((tmp_path / index_cache.NAME).read_text(encoding="utf-8"))["patterns"]
    assert not [p[:60] for p, v in kept.items() if v[0] and v[2] == []]


@pytest.mark.parametrize("pattern", [r"flash_attn[^\n]*is broken", r"flash_attn is broken\n[^\n]*sm_80"])
def test_a_kept_index_without_groups_is_learnt_again(pattern):
    """A pattern with needles has one literal group at least (its needles): an index file that keeps none for it was written
    by a process whose factors said nothing, and is not believed (read, every line holding the needle was searched)."""
    alts, wide = needles(pattern), M.spans_lines(pattern)
    assert alts
    _, _, facs, _, _ = M._learn(pattern, {pattern: [list(alts), wide, [], None, False]}, {})
    assert facs != ()
    assert not wide or facs == factors(pattern)
