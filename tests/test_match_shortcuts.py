"""The matcher's shortcuts change no reading (perf19, session 19): a report head's prose pattern is not run where the head
lacks one of its literal groups (text_factors, lookarounds' included), its matches on a head are kept for the heads read
last (_Index.head_spans), and attribution's first_named is kept per line. A head pattern that opens with zero-width looks
(prose.toml's LINE) has each look taken once per line start and its rest matched there (_head_split, helper ci38a)."""

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


def _head_texts() -> list[str]:
    """The `head` entries' examples and the same heads shifted: under blank lines (the titled patterns skip them, the
    engine trying the last blank line first), under an indented or a very long blank line, joined on one line, cut at
    a line's end; and heads with nothing to find."""
    examples = [ex for e in knowledge.entries().values() if e.head for ex in e.examples]
    texts = examples[::6]
    for ex in examples[1::22]:
        texts += ["\n\n" + ex, "\n \t\n" + ex + "\n", " " * 4097 + "\n" + ex, ex.replace("\n", " ") + "\n\n",
                  "Title naming nothing\n" + ex, "  " + ex, "\n"]
    return texts + ["", "\n", "\n\n\n", "x", "flash attention", "\nflash attention is slow\n"]


def test_head_split_finds_what_the_whole_pattern_finds():
    """Each head pattern's matches, its looks taken once per line start (_Index._head_finds), are the whole pattern's
    finditer spans, on the head entries' examples and heads shifted around them; and the split reads the pattern as it
    is written: the blank lines' prefix, the looks (zero-width, capturing nothing) and the rest give the pattern back."""
    index = M._index(None)
    split = {k: M._head_split(index.patterns[k][1]) for k in index.head}
    assert sum(v is not None for v in split.values()) >= 30  # (prose.toml's LINE opens most of them)
    for k, v in split.items():
        if v is None:
            continue
        anchored, looks, rest = v
        whole = (M._BLANKS if anchored else "") + "".join(g for g, _ in looks)
        assert index.patterns[k][1].startswith(whole) and knowledge.bounded(index.patterns[k][1][len(whole):]) == rest.pattern
        for g, rx in looks:
            assert M.regex_parser.parse(g, re.I | re.M).getwidth() == (0, 0) and rx.groups == 0
    texts = _head_texts()
    found = 0
    for text in texts:
        said: dict = {}  # (one head's looks, shared by its patterns as head_spans shares them)
        for k in index.head:
            want = [m.span() for m in index.rx(k).finditer(text)]
            assert index._head_finds(text, k, said) == want, (index.patterns[k][0].id, k, text[:80])
            found += bool(want)
    assert found >= 40


def test_head_split_refuses_other_shapes():
    """A pattern the split cannot read as looks then a rest is run whole: no look first, a look that takes characters
    or captures, a quantified group, a first look without `^` in every branch, nothing after the looks."""
    for pattern in (r"flash attention is slow", r"(?:^slow)(?=x)y", r"(?:^(?=(a)))b\1", r"(?:^(?!x))?y",
                    r"(?:^(?!x)|(?=y))z", r"(?:^(?!x))", r"(?:^[ \t]*(?!x))y", r"\A(?:[ \t]*\n)*flash"):
        assert M._head_split(pattern) is None, pattern
    anchored, looks, rest = M._head_split(r"\A(?:[ \t]*\n)*(?:^(?![ \t]))(?=[^\n]*?flash)(?:(?!x)(?!y))[^\n]*slow")
    assert anchored and [g for g, _ in looks] == [r"(?:^(?![ \t]))", r"(?=[^\n]*?flash)", r"(?:(?!x)(?!y))"]
    assert rest.pattern == r"[^\n]{0,4096}slow"


def test_head_split_tries_line_starts_as_the_engine_does():
    """Patterns written to tell the ways apart: the titled form's blank lines tried last one first (the rest's match then
    differs), no line start inside a match tried, a look that fails on one line only, an empty match (the whole pattern's
    own rules), a blank line longer than the gap bound."""
    from types import SimpleNamespace

    cases = [(r"\A(?:[ \t]*\n)*(?:^(?!x))\n?\w*", "\n\t\nab\ncd", [(0, 5)]),
             (r"\A(?:[ \t]*\n)*(?:^(?!x))\w+", "\n\t\nab", [(0, 5)]),
             (r"\A(?:[ \t]*\n)*(?:^(?!x))\w+", "\n\t\nxb", []),
             (r"\A(?:[ \t]*\n)*(?:^(?!x))\w+", " " * 4097 + "\nab", []),
             (r"(?:^(?!x))[^\n]*\n[^\n]*", "a\nb\nc\nd", [(0, 3), (4, 7)]),
             (r"(?:^(?!x))(?=[^\n]*b)\w", "ab\nxb\ncd\nbb\n", [(0, 1), (9, 10)]),
             (r"(?:^(?!x))\w*", "a\n\nb\n", [(0, 1), (2, 2), (3, 4), (5, 5)]),
             (r"\A(?:[ \t]*\n)*(?:^(?!x))\w*", "", [(0, 0)]),
             (r"\A(?:[ \t]*\n)*(?:^(?!x))\w*", "\n", [(0, 1)]),
             (r"(?:^(?!x))(?:|a)", "a\nb", [(0, 0), (0, 1), (2, 2)]),  # (after an empty match, one that is not at the same place)
             (r"\A(?:[ \t]*\n)*(?:^(?!x))(?:|a)", "a", [(0, 0), (0, 1)])]
    for pattern, text, want in cases:
        rx = knowledge.compile_pattern(pattern)
        assert M._head_split(pattern) is not None, pattern
        fake = SimpleNamespace(_head_split={}, patterns=[(None, pattern)], rx=lambda k, rx=rx: rx, _disk={},
                               _text_learnt={}, _later=set())
        assert [m.span() for m in rx.finditer(text)] == want, (pattern, text)
        assert M._Index._head_finds(fake, text, 0, {}) == want, (pattern, text)
    assert [g for g, _ in M._head_split(r"(?:^(?![])]))(?=[^\n]*[(])y")[1]] == [r"(?:^(?![])]))", r"(?=[^\n]*[(])"]


def test_a_head_patterns_named_look_is_tried_after_the_lines_look():
    """Helper ci41d (session 41): a head pattern whose rest opens with `[^\n]*?(?:G)` (prose.toml's `[^\n]*?(?:<B>)`, the
    backend the line names) has the look `(?=[^\n]*?(?:G))` tried right after its first look, one text for the patterns
    that end so (tried once per line start, read by each); not where G may be skipped or refers to a group. The spans are
    the whole pattern's: here on lines that fail each way, and test_head_split_finds_what_the_whole_pattern_finds reads
    every head pattern through _Index._head_finds on the head entries' examples."""
    from types import SimpleNamespace

    index = M._index(None)
    added: dict[str, int] = {}
    for k in index.head:
        pattern = index.patterns[k][1]
        split = M._head_split(pattern)
        named = M._named_first(pattern, split)
        if named is not None and named != split:
            assert named[1][0] == split[1][0] and named[1][2:] == split[1][1:], index.patterns[k][0].id
            added[named[1][1][0]] = added.get(named[1][1][0], 0) + 1
    assert max(added.values()) >= 15 and len(added) <= 3, {g[:60]: n for g, n in added.items()}
    pattern = r"(?:^(?!x))(?=[^\n]*boom)[^\n]*?(?:flash|sage\w*)[^\n]*"
    looks = M._named_first(pattern, M._head_split(pattern))[1]
    assert [g for g, _ in looks] == [r"(?:^(?!x))", r"(?=[^\n]*?(?:flash|sage\w*))", r"(?=[^\n]*boom)"]
    for pattern in (r"(?:^(?!x))[^\n]*?(?:flash|sage)?boom", r"(?:^(?!x))[^\n]*?(?:(f)\1|sage)boom", r"(?:^(?!x))[^\n]*boom",
                    r"(?:^(?!x))[^\n]*?(?:flash|sage)*boom"):
        split = M._head_split(pattern)
        assert M._named_first(pattern, split) is split, pattern
    pattern = r"(?:^(?!x))(?=[^\n]*boom)[^\n]*?(?:flash|sage\w*)[^\n]*"
    rx = knowledge.compile_pattern(pattern)
    for text in ("flash boom\nboom\nsage\nx flash boom\n  sageattention boom x\nboom " + "y" * 5000 + " flash\nsage boom",
                 "", "\n", "boom flash", "FLASH BOOM\nSageAttn went boom"):
        fake = SimpleNamespace(_head_split={}, patterns=[(None, pattern)], rx=lambda k, rx=rx: rx, _disk={},
                               _text_learnt={}, _later=set())
        want = [m.span() for m in rx.finditer(text)]
        assert M._Index._head_finds(fake, text, 0, {}) == want, text
        assert len(fake._head_split[0][1]) == 3
    assert want == [(0, 10), (11, 29)]


def test_a_looks_verdict_is_kept_and_read_back(monkeypatch):
    """A look's verdict (is it a zero-width group that captures nothing) is learnt once and read back from the index
    (index_cache) by a later process, not parsed again; a kept value of another shape is not believed."""
    pattern = r"(?:^(?!x))(?=[^\n]*?flash)(?:a|b)[^\n]*slow"
    learnt: dict = {}
    first = M._head_split(pattern, {}, learnt)
    assert first is not None and len(first[1]) == 2
    looks = [r"(?:^(?!x))", r"(?=[^\n]*?flash)"]
    assert sorted(learnt) == ["\0look:" + looks[1], "\0look:^" + looks[0], "\0split:" + pattern]
    assert learnt["\0split:" + pattern] == [[], False, looks, None, False]
    assert all(v == [[], False, [], True, False] for k, v in learnt.items() if k.startswith("\0look:"))

    def no_parse(*a, **k):
        raise AssertionError("parsed again")
    monkeypatch.setattr(M, "_is_look", no_parse)
    monkeypatch.setattr(M, "_group_end", no_parse)  # (nor walked for the groups' ends)
    again: dict = {}
    second = M._head_split(pattern, dict(learnt), again)
    assert second is not None and [g for g, _ in second[1]] == [g for g, _ in first[1]] and again == learnt
    monkeypatch.undo()
    elsewhere = dict(learnt, **{"\0split:" + pattern: [[], False, looks[::-1], None, False]})  # (not where it says)
    assert M._head_split(pattern, elsewhere, {})[1] == first[1]
    lying = {k: [[], False, [], "yes", False] for k in learnt}  # (no bool verdict: found again)
    assert M._head_split(pattern, lying, {})[1] == first[1]
    refused = {k: [[], False, [], False, False] for k in learnt}  # (a kept "no": the pattern runs whole)
    assert M._head_split(pattern, refused, {}) is None


# ---- attribution's rules read through their needles (attribution/tables.py _rule_gate, helper ci40b) ------------------------

_RULE_LINES = [
    # each backend named as a traceback, a path, a package, a sentence does; upper case, digits, hex, other scripts
    "ImportError: /venv/lib/python3.11/site-packages/flash_attn_2_cuda.cpython-311-x86_64-linux-gnu.so: undefined symbol: _ZN3c10",
    "  File \"/opt/conda/lib/python3.10/site-packages/FLASH_ATTN/flash_attn_interface.py\", line 91, in _flash_attn_forward",
    "ModuleNotFoundError: No module named 'flash_attn_interface'", "from flash_attn.cute import flash_attn_func",
    "RuntimeError: FlashAttention only supports Ampere GPUs or newer.", "flash-attn 2.7.4.post1 is not installed",
    "Building wheel for flash-attn (setup.py) ... error", "pip install flash_attn==2.8.3 --no-build-isolation",
    "xformers.ops.fmha.dispatch: No operator found for `memory_efficient_attention_forward` with inputs:",
    "WARNING[XFORMERS]: xFormers can't load C++/CUDA extensions. xFormers was built for: PyTorch 2.5.1+cu124",
    "ERROR: SAGEATTENTION 2.2.0 REQUIRES CUDA 12.8 FOR SM120", "from sageattention import sageattn_qk_int8_pv_fp16_cuda",
    "torch._inductor.exc.InductorError: LoweringException: flex_attention on sm_75", "create_block_mask(mask_mod, B, H, 1024, 1024)",
    "torch.nn.functional.scaled_dot_product_attention(q, k, v, attn_mask=mask)", "UserWarning: Memory efficient kernel not used because:",
    "Using Flash Attention backend on V1 engine.", "vllm/_C.abi3.so: undefined symbol: _ZN5torch3jit", "kernels-community/flash-attn3",
    "Torch and xFormers do not support RTX 50xx yet", "FA3 fails on H100 but FA2 works", "FlashAttention-3 (hopper) build failed",
    "flash_attn_varlen_func() got an unexpected keyword argument 'window_size'", "ｆｌａｓｈ＿ａｔｔｎ 安装失败", "flash_attn 安装失败",
    "FlashAttention \u212aernel İmport ſage failed", "ÉCHEC : flash_attn introuvable", "flash\u200battn is a zero-width split",
    "F.scaled_dot_product_attention = sageattn", "mlx.core.fast.scaled_dot_product_attention: mismatching batch dimension",
    "with triton flash attention loss blows up; without Flash attention the loss is stable",
    # near misses: no backend, or names that only look like one
    "", "nothing here", "Traceback (most recent call last):", "flash", "attention is all you need", "flashlight attn",
    "RuntimeError: CUDA error: out of memory", "0xdeadbeef 0123456789abcdef", "sage green xformer-ish flashy attn",
]


def _rule_readings(lines: list[str]) -> list[tuple]:
    from attn_doctor.knowledge.attribution import tables

    sentences._first_named.cache_clear()
    return [(tables._first_rule(x), sentences._first_named(x, sentences._Same(tables.rules()))) for x in lines]


def test_the_rule_gate_changes_no_reading(monkeypatch):
    """_first_rule and first_named read a line through the rules whose needle it holds (tables._rule_gate): the same answer
    as every rule read, on lines written here (each backend as a path, a package, a sentence, in capitals, other scripts,
    near misses) and a sample of the entries' example lines."""
    from attn_doctor.knowledge.attribution import tables

    examples = [x for e in list(knowledge.entries().values())[::25] for ex in e.examples for x in ex.splitlines()]
    lines = _RULE_LINES + [x.upper() for x in _RULE_LINES] + examples
    monkeypatch.setattr(tables, "GATE_AFTER", 10 ** 9)
    monkeypatch.setattr(tables, "_GATE", [None, 0, None])
    every = _rule_readings(lines)
    assert tables._GATE[2] is None
    monkeypatch.setattr(tables, "GATE_AFTER", 0)
    gated = _rule_readings(lines)
    assert tables._GATE[2] is not None
    assert gated == every
    assert sum(a is not None for a, _ in every) >= 30 and sum(b is not None for _, b in every) >= 30  # (it compares readings)
    at = tables._line_gate(tables.rules(), "nothing here")
    assert tables._picked(at, "libraries", tables.rules().libraries) == []  # (and the gate passes over rules)
    sentences._first_named.cache_clear()


def test_a_rule_without_a_needle_is_read_on_every_line(monkeypatch):
    """A rule whose needles the gate cannot know (none, or a verbose pattern) is searched on every line."""
    from attn_doctor.knowledge.attribution import tables

    r = tables.rules()
    odd = (("fa2", re.compile(r"^\d{3}\s\w+$", re.I | re.ASCII), False),
           ("sage", re.compile(r"s a g e  # verbose", re.I | re.ASCII | re.VERBOSE), False))
    monkeypatch.setattr(tables, "rules", lambda: type(r)(**{**vars(r), "libraries": odd + r.libraries, "torch_own": ()}))
    monkeypatch.setattr(tables, "GATE_AFTER", 0)
    monkeypatch.setattr(tables, "_GATE", [None, 0, None])
    assert tables._first_rule("123 abc") == ("fa2", False)
    assert tables._first_rule("we use sage here") == ("sage", False)
    assert tables._GATE[2] is not None


def test_the_rule_gate_is_built_after_gate_after_lines(monkeypatch):
    """A short explain reads every rule (finding their needles parses each: ~0.1 s); the gate is built once a process has
    read GATE_AFTER lines."""
    from attn_doctor.knowledge.attribution import tables

    monkeypatch.setattr(tables, "_GATE", [None, 0, None])
    said = {tables._first_rule("flash_attn is missing") for _ in range(tables.GATE_AFTER)}
    assert tables._GATE[2] is None and tables._GATE[1] == tables.GATE_AFTER
    assert tables._first_rule("flash_attn is missing") in said and len(said) == 1
    assert tables._GATE[2] is not None
