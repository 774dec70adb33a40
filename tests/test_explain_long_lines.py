"""`explain` on logs with very long lines (issue 23, "whole input"). A training log captured with `> log.txt` or
`tee` holds tqdm's progress bar as ONE line: every state of the bar, joined by carriage returns (a 20,000-step run
is about 2 MB on one line). Before this change such a line took 15 s to read when it stood among the first lines
(the report-title patterns of prose.toml ran over all of it) and about 3 s elsewhere; benchmarks/explain_long_lines.py
times it. The logs here are built in the shape tqdm writes (`Steps:  5%|▌  | 1000/20000 [00:05<1:23:45, 3.21it/s,
loss=0.1]`), with real error lines from the fixtures' texts; nothing here is timed."""

from __future__ import annotations

import pytest

from attn_doctor.explain import examine
from attn_doctor.knowledge import match as M

AMPERE = "RuntimeError: FlashAttention only supports Ampere GPUs or newer."
UNDEFINED = ("ImportError: /venv/lib/python3.11/site-packages/flash_attn_2_cuda.cpython-311-x86_64-linux-gnu.so: "
             "undefined symbol: _ZN3c104cuda9SetDeviceEi")


def bar(n: int, label: str = "Steps") -> str:
    """One tqdm line as a log file holds it: n states joined by carriage returns."""
    return "\r".join(f"{label}: {i * 100 // n:3d}%|{'█' * (i * 10 // n):10s}| {i}/{n} [00:{i % 60:02d}<1:23:45, "
                     f"3.21it/s, lr=0.0001, step_loss=0.{i % 97:03d}]" for i in range(n))


def ids(text: str) -> list[tuple[str, int]]:
    return [(m.entry.id, m.line) for m in examine(text).found]


def test_an_error_after_a_progress_bar_is_found_on_its_real_line():
    log = "loading model\n" + bar(20_000) + "\nTraceback (most recent call last):\n  File \"train.py\", line 9\n" + AMPERE + "\n"
    found = ids(log)
    assert found and found[0][1] == 5, found  # line 1, the bar on 2, the traceback on 3, the frame on 4


def test_an_error_printed_after_the_bars_last_carriage_return_is_read():
    """tqdm leaves the cursor on the bar's line: an error printed next starts after its last carriage return."""
    log = "loading model\n" + bar(500) + "\r" + UNDEFINED + "\nnext line\n"
    found = ids(log)
    assert found and found[0][1] == 2, found


def test_the_bars_earlier_states_are_not_read_as_text():
    """Only the last state counts, as on a terminal: an error word in an overwritten state (here a dataloader's
    description that named flash_attn while it loaded) is not the line's text any more."""
    states = ["loading flash_attn_2_cuda: undefined symbol: _ZN3c104cuda9SetDeviceEi", "Steps: 100%|██████████| 10/10"]
    assert ids("start\n" + "\r".join(states) + "\ndone\n") == []
    assert ids("start\n" + "\r".join(reversed(states)) + "\ndone\n")  # the same words as the last state are read


def test_windows_line_ends_and_stray_carriage_returns_keep_the_line():
    assert ids(f"start\r\n{UNDEFINED}\r\r\nend\r\n") and ids(f"start\n{UNDEFINED}\r\nend\n")
    assert ids(f"start\n{UNDEFINED}\r\nend\n")[0][1] == 2


@pytest.mark.parametrize("first", ["x" * (M.HEAD_LINE_BYTES + 1), "{'loss': 0.1}, " * 2_000])
def test_a_long_first_line_is_no_report_title(first):
    """The title patterns (prose.toml, `head`) read the first lines of a pasted report; a line longer than
    HEAD_LINE_BYTES is no title, and the lines after it are not read as one either."""
    title = "pip install xformers keeps failing"  # read on an input's first lines only
    assert ids(title + "\n") == [("prose.build", 1)]
    assert ids(first + " " + title + "\n" + title + "\n") == []


def test_a_short_line_before_a_long_one_is_still_a_title():
    title = "pip install xformers keeps failing"
    assert ("prose.build", 1) in ids(title + "\n" + "y" * (M.HEAD_LINE_BYTES + 10) + "\n")


def test_a_head_ends_at_a_line_longer_than_a_title():
    """A report's head ends at a line longer than HEAD_TITLE_BYTES (1 KB; no training text has a head line over 1 KB): a
    build log's 2 KB nvcc command on its first lines is no title and costs the head's prose patterns nothing (helper ex162).
    A sentence of 900 bytes is still read as the head's."""
    title = "pip install xformers keeps failing"
    nvcc = "/usr/local/cuda/bin/nvcc -c csrc/flash_attn/src/flash_fwd_hdim128_fp16_sm80.cu " + "-I/venv/include " * 120
    assert len(nvcc) > M.HEAD_TITLE_BYTES
    assert "prose.build" not in [i for i, _ in ids(nvcc + " " + title + "\n")]  # (a body's sentence may still say it)
    assert "prose.build" not in [i for i, _ in ids(nvcc + "\n" + title + "\n")]
    said = "We tried every wheel we could find, " * 24 + "and " + title
    assert M.HEAD_TITLE_BYTES - 200 < len(said) <= M.HEAD_TITLE_BYTES
    assert ids(said + "\n") == [("prose.build", 1)]


def test_a_key_set_to_sdpa_is_said_on_one_line():
    r"""sdpa.backward-nan's `attn_implementation: sdpa ... leads to NaN loss` reads the key and its value on one line (`[ \t]`
    around the `=`; `\s` let it span lines, so the pattern read every long line of a log whole, helper ex162)."""
    assert ids('attn_implementation: "sdpa" leads to NaN loss after 40 steps') == [("sdpa.backward-nan", 1)]
    assert ids('attn_implementation =\n"sdpa" leads to NaN loss after 40 steps') == []


@pytest.mark.parametrize("lib, entry_id", [("flash_attn", "triage.raised-in-fa2"), ("xformers", "triage.raised-in-xformers")])
def test_a_frames_line_ends_within_its_functions_name(lib, entry_id):
    """The frame patterns look for a frame line's end within 256 characters of `, in ` (Python prints the function's name
    there and nothing more): a traceback joined onto one line of megabytes had each `File "` read 4 KB for an end that is
    not there (helper ex162). A frame of a long name is still one; `in ` and 300 characters more is no frame's line."""
    def trace(name: str) -> str:
        return (f'Traceback (most recent call last):\n  File "/venv/lib/python3.11/site-packages/{lib}/ops.py", line 90, in '
                f'{name}\n    out = fwd(q, k, v)\nRuntimeError: something the rules do not know\n')
    assert (entry_id, 4) in ids(trace("forward_" + "x" * 200))  # (the exception's line)
    assert entry_id not in [i for i, _ in ids(trace("forward " + "x" * 300))]


def test_no_head_pattern_reads_to_its_lines_end_once_per_name():
    """A head pattern that asks for a backend's name on a line and then for the next line (`[^\\n]*?(?:<B>)[^\\n]*(?=\\n...)`)
    read the line to its end and the next line's looks once per name on it (0.08 s on a 2 KB nvcc line); it asks for the name
    with a look first (`(?=[^\\n]*?(?:<B>))[^\\n]*(?=\\n`), the same match (helper ex162)."""
    from attn_doctor.knowledge import toml_data
    raw = [p for e in toml_data("prose.toml")["entry"] for p in e.get("patterns", [])]
    assert raw and not [p[:60] for p in raw if "[^\\n]*?(?:<B>)[^\\n]*(?=\\n" in p]


@pytest.mark.parametrize("data, shown", [
    (b"a\rb\n" + b"z" * 3_000 + b"\n", b"b\n" + b"z" * 3_000 + b"\n"),
    (b"one\ntwo\r\rthree\r\nfour\r", b"one\nthree\nfour"),
    (b"\r\r\n\rx", b"\nx"),
    (b"no return at all\n", b"no return at all\n"),
])
def test_last_states_keep_every_line_end(data, shown):
    assert M.last_states(data) == shown


@pytest.mark.parametrize("filler", [b"bad ab", b"bad \xff\xfe"])
def test_the_lines_kept_around_a_hit_are_its_own_after_invalid_utf8(filler):
    """attribution/ reads the lines around each hit; they are kept by byte offset. An invalid UTF-8 byte decodes to
    U+FFFD (three bytes), so an offset taken by re-encoding the decoded text drifted past the hit's line (here by four
    lines: the error line's own text was lost) whenever such bytes stood before it in the same search window."""
    data = (b"start\n" + filler * 800 + b"\nTraceback (most recent call last):\n  File \"/w/train.py\", line 3, in <module>\n"
            b"    import flash_attn\n" + UNDEFINED.encode() + b"\nafter 1\n")
    s = M.scan(data)
    assert [(m.entry.id, m.line) for m in s.found] == [("import.undefined-symbol", 6)]
    assert s.lines[5].startswith("ImportError: /venv/") and s.lines[4] == "    import flash_attn"  # 0-based: line 6, 5
    assert s.lines[6] == "after 1"


# ---- the matcher's work on logs made of long lines, counted, not timed (helper ex160, session 28) ---------------------------
# benchmarks/explain_longlines.py's shapes at 1 MB (5 MB there): an nvcc build's command lines of 2-64 KB, JSON records, a
# minified stack, a tqdm bar's redraws, one long line. work(): the characters the patterns are given per character of the
# log. At session 28's start a pattern that names a backend read every such line whole (nvcc-64k 28, json-records 23,
# minified-stack 81 per character: 3-12 s of CPU at 5 MB); read where its literals are (knowledge/match.py text_gate), by the
# kinds of the lines (KIND_CHARS) and a sentence's pattern on sentences only (_sentence_runs), 10-17. A new pattern that reads
# every long line naming a backend adds about 1 per character; this bound leaves room for a few, not for the old reading.
# Session 31: work() counts the steady state (each shape read once first): cold, the count depended on the shapes read
# before it in the process, and this test failed alone and passed in the suite. Steady, at 76ed532c json-records 17.0,
# minified-stack 16.1 (over the old bound of 16, which only the order had kept), after ex178's rules 17.8 and 16.3.
# Session 41 (helper ci41a): the steady state is reached by explaining ONE line of each shape first (shapes(0, one_line_mb=0):
# each line kind and the shape's error, ~0.3 MB in all), not each megabyte shape whole (bench.work explains its text twice):
# what the matcher learns is per pattern, and a pattern is asked by a line's kind, not by how many such lines follow. At
# 94c0551c every pattern's count on every shape was the same both ways (nvcc-2k 9.41, nvcc-16k 12.07, nvcc-64k 12.23,
# json-records 16.40, minified-stack 16.74, cr-bar 0.02, one line 0.91), for 3.8 s of CPU instead of 6.1.
WORK_PER_CHAR = 20


def _longline_shapes():
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
    import explain_longlines

    return explain_longlines, explain_longlines.shapes(1, one_line_mb=2)


def test_the_matchers_work_on_long_lines_is_bounded():
    bench, logs = _longline_shapes()
    for text, _ in bench.shapes(0, one_line_mb=0).values():  # the steady state: each shape's kind of line read once
        examine(text)
    over = {}
    for name, (text, _) in logs.items():
        rows, n = bench._measured(text)  # (bench.work(text) less its warm-up: that was the shape whole, explained once)
        w = sum(chars for _, chars, _, _ in rows) / max(1, n)
        if w > WORK_PER_CHAR:
            over[name] = round(w, 1)
    assert not over, f"characters read by the patterns per character of the log, over {WORK_PER_CHAR}: {over}"


def test_a_quoted_errors_lead_is_looked_for_within_its_reach():
    """_quoted_error_leads looks for the start of each `Error: `'s line; on a line of megabytes that repeats an exception
    (a minified stack) it read back to the line's start once per hit (7 s of a 20 MB line). Each look now reads at most
    LEAD_REACH + 1 bytes; what it cuts is the same."""

    class Counted(bytes):
        read = 0

        def rfind(self, sub, start=0, end=None):
            end = len(self) if end is None else end
            Counted.read += end - start
            return bytes.rfind(self, sub, start, end)

    line = b"x RuntimeError: boom " * 5_000
    data = Counted(b"head\n" + line + b"\nIt fails with 'ValueError: bad value'\n")
    out = M._quoted_error_leads(data)
    assert out.endswith(b"\nValueError: bad value'\n")  # the lead cut, as before
    assert Counted.read <= (line.count(b"Error: ") + 2) * (M.LEAD_REACH + 1)


REPORT = ("Generation stops at the first step\n\nUbuntu 22.04, driver 550, a 4090.\nThe default workflow.\nNo custom nodes.\n\n"
          "It works with sdpa, but when I select xformers I get a CUDA error every time")


@pytest.mark.parametrize("tail, said", [(".", True), (", and again" * 500 + ".", False)])
def test_a_sentence_is_no_longer_than_a_head_line(tail, said):
    """prose.said reads a report's sentences past its head (a `body` entry); a line longer than HEAD_LINE_BYTES is no
    sentence (an nvcc command, a JSON record: each of its line-wide looks read such a line whole, 1 s of a 5 MB build log of
    16 KB lines), as it is no title (test_a_long_first_line_is_no_report_title)."""
    assert (len(REPORT + tail) - REPORT.rfind("\n") > M.HEAD_LINE_BYTES) is not said
    assert (("prose.said", 7) in ids(REPORT + tail + "\n")) is said


@pytest.fixture(scope="module")
def matcher_forms():
    """knowledge.matcher_form and knowledge.bounded with each pattern's form computed once for the module, and what it
    gives: `re.compile(text, re.I | re.M)` (the matcher's flags), each text compiled once. test_a_pattern_behind_its_first_
    characters_look_matches_the_same, test_a_looked_pattern_is_parsed_once_when_compiled and test_no_pattern_backtracks_
    more_than_linearly_on_a_long_line (benchmarks/explain_backtracking's knowledge_patterns) each asked for every entry
    pattern's form, and the first two each parsed and compiled every looked form again (~2,600 patterns; session 39: ~20 s
    of CPU of the module's ~36). Pure functions of the pattern's text: what each test compares is the same."""
    import functools
    import re

    from attn_doctor import knowledge as K

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(K, "matcher_form", functools.lru_cache(maxsize=None)(K.matcher_form))
        mp.setattr(K, "bounded", functools.lru_cache(maxsize=None)(K.bounded))
        yield functools.lru_cache(maxsize=None)(lambda text: re.compile(text, re.I | re.M))


def test_a_pattern_behind_its_first_characters_look_matches_the_same(matcher_forms):
    """knowledge.first_look puts a pattern with no literal first behind a look at the characters its match can begin with
    (the GPU lists: ~30-50 ns per character of a log tried whole, ~5 behind the look; helper ex162). The look only skips
    places where no match begins: every rewritten pattern finds the same spans in its entry's examples and a long-line
    log, and the GPU list is one of them.

    How (session 41, helper ci41a): the rewritten pattern is `flags (?=[C])(?:rest)` where the bounded one is `flags rest`
    (checked as text, for each), so its matches are the bounded one's that begin at a character of C: finditer tries the
    same places in the same order, the look fails where no character of C begins, and where one does the rest matches as
    the bounded pattern does. The spans are then the same exactly where every match of the bounded pattern begins at a
    character of C, at no position the look skips: that is what is checked, the bounded pattern run once per text and
    the look (one character class) at each of its matches' starts, not the rewritten pattern run over the text again (two
    runs of ~1,600 patterns over ~30 KB each: 3.3 of the test's 8.8 s of CPU). The GPU lists are also run both ways and
    their spans compared, as before."""
    import re
    import sys
    from pathlib import Path

    from attn_doctor import knowledge as K
    from attn_doctor.knowledge import bounded, entries, first_look

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
    import explain_longlines

    log = explain_longlines.stack_line(20_000) + "\n" + explain_longlines.json_record(3, 8_000) + "\n"
    gpu = entries()["backend.unsupported-gpu"].patterns
    assert any(first_look(bounded(p)).startswith("(?=[") and "RTX" in p for p in gpu)
    differ, shaped, compared = [], [], 0
    for e in entries().values():
        text = "\n".join(e.examples) + "\n" + log
        for p in e.patterns:
            b = K.bounded(p)
            looked = K.matcher_form(p)  # first_look(bounded(p)), computed once for the module (matcher_forms)
            if looked == b:
                continue
            flags = K._GLOBAL_FLAGS.match(b)
            at = flags.end() if flags else 0
            rest = "(?:" + b[at:] + ")"
            look = looked[at:len(looked) - len(rest)]
            if not (looked.startswith(b[:at]) and looked.endswith(rest) and re.fullmatch(r"\(\?=\[[^\n]+\]\)", look)):
                shaped.append((e.id, p[:60]))  # not `flags (?=[C])(?:rest)`: what is checked below says nothing of it
                continue
            starts_in = matcher_forms(b[:at] + look)  # the look alone, with the pattern's global flags and the matcher's
            found = [m.span() for m in matcher_forms(b).finditer(text)]
            if any(starts_in.match(text, a) is None for a, _ in found):
                differ.append((e.id, p[:60]))
            if e.id == "backend.unsupported-gpu":  # the GPU lists run both ways too, their spans compared
                compared += 1
                if found != [m.span() for m in matcher_forms(looked).finditer(text)]:
                    differ.append((e.id, p[:60]))
    assert not shaped, shaped
    assert not differ
    assert compared


def test_a_looked_pattern_is_parsed_once_when_compiled(tmp_path, monkeypatch, matcher_forms):
    """The matcher compiles a look-guarded pattern from its one parse, the look put into the tree (knowledge.first_look_tree):
    the same code as compiling first_look's text, for every entry pattern, and the long ones (the GPU lists: 372 KB of the
    79 patterns a short explain compiles) are not parsed a second time for the look (~0.4 s of a cold explain; helper ex163).
    The look guards every branch of a top-level alternation, not its first only."""
    import re
    from re import _compiler, _parser

    from attn_doctor import knowledge as K
    from attn_doctor.knowledge import index_cache

    # an int, as index_cache.compiled hands the flags on (`int(flags)`: the matcher's own call): a RegexFlag is tested by
    # re's compiler through enum's Python-level `&` at each item, ~1.6x the compile's CPU (session 42, helper ci42c)
    flags = int(re.I | re.M)
    differ = []
    for p in sorted({p for e in K.entries().values() for p in e.patterns}):
        b = K.bounded(p)
        # compiled as the matcher compiles it (index_cache._engine_compile: parsed once, the look put into the tree,
        # knowledge.first_look_tree), against first_look's text compiled by re.compile (matcher_forms: once for the module).
        # Two patterns are equal where their text, flags and engine code are (CPython compares them).
        rx, made = index_cache._engine_compile(b, flags, K.first_look_tree)
        if made is None or rx.pattern != K.matcher_form(p) or rx != matcher_forms(rx.pattern):
            differ.append(p[:60])
    assert not differ
    assert K.first_look(r"\bBlackwell\b|\bB200\b") == r"(?=[Bb])(?:\bBlackwell\b|\bB200\b)"

    gpu = max((p for p in K.entries()["backend.unsupported-gpu"].patterns if K.first_look(K.bounded(p)) != K.bounded(p)),
              key=len)
    monkeypatch.setenv(index_cache.ENV, str(tmp_path))
    parsed = []
    init = _parser.Tokenizer.__init__

    def counting(self, string):
        parsed.append(len(string))
        init(self, string)

    monkeypatch.setattr(_parser.Tokenizer, "__init__", counting)
    K.compile_pattern.cache_clear()
    rx = K.compile_pattern(gpu)
    assert sum(n >= len(gpu) for n in parsed) == 1, parsed
    assert rx.pattern == K.matcher_form(gpu)


# Helper ex167 (session 29): a log that repeats a line (a minified stack joined onto 155 lines of 32 KB) is read once per
# distinct line where only the lines' presence counts: the literal gate, the lines' kinds, attribution's window tests.

STACK = ('File "/venv/lib/python3.11/site-packages/flash_attn/flash_attn_interface.py", line 831, in flash_attn_func  '
         'RuntimeError: CUDA error: out of memory  at torch.nn.functional.scaled_dot_product_attention (bridge.min.js:1:884) ')


def test_the_gate_folds_a_repeated_line_once():
    """_Scanner._gated looks for a pattern's literals in the region's distinct lines; a literal across a line end (none in
    today's knowledge) in the region as it is, where lines the distinct text drops may be the ones around the line end."""
    from types import SimpleNamespace

    folded = []
    fold = M._fold

    def counted(text):
        folded.append(len(text))
        return fold(text)

    scanner = SimpleNamespace(index=SimpleNamespace(text_gate=lambda p: (p,), _head_group_list=[("flash_attn",), ("b\na",),
                                                                                             ("bf16",)]))
    text = "\n".join([STACK] * 100) + "\nb\na\nb\na"
    gate = [{}, None, None]
    try:
        M._fold = counted
        assert M._Scanner._gated(scanner, gate, text, 0)
        assert sum(folded) < 2 * len(STACK), folded  # the repeated line folded once
        assert M._Scanner._gated(scanner, gate, text, 1)  # "b\na" holds in the text, not in its distinct lines ("b\na" once)
        assert not M._Scanner._gated(scanner, gate, text, 2)
    finally:
        M._fold = fold
    assert M._distinct_text("x\ny\nx\ny\n") == "x\ny\n" and M._distinct_text("x\ny") == "x\ny"


def test_a_repeated_lines_kind_is_made_once():
    """_kinds writes each distinct line's digits once where the region repeats its lines (its keys the same as of the whole
    region written at once)."""

    class Counted(bytes):
        translated = 0

        def translate(self, *a):
            Counted.translated += len(self)
            return bytes.translate(self, *a)

    table = bytes.maketrans(b"123456789", b"000000000")
    data = "\n".join([STACK.replace("831", str(800 + k % 3)) for k in range(90)])
    nl = [i for i, c in enumerate(data) if c == "\n"]
    kinds = M._kinds(Counted(data.encode()), data, nl, table)
    assert Counted.translated == 0  # (the region itself not translated whole)
    assert kinds[0] == data.encode().translate(table).split(b"\n") and len(kinds[1]) == 1


def test_attribution_reads_a_repeated_line_once():
    """refusals._exonerated reads each distinct line of the window once (per whether it is the failing line), _shadowed
    searches an input's first lines once for both of its askers, and a window's lines are tested once each (window_lines)."""
    from attn_doctor.knowledge.attribution import decide, refusals, shapes

    lines = [STACK] * 300 + [AMPERE]
    read = []
    reasons = refusals._reasons

    def counted(text):
        read.append(text)
        return reasons(text)

    refusals._reasons = counted
    try:
        assert not refusals._exonerated("xformers", lines, len(lines))
    finally:
        refusals._reasons = reasons
    assert len(read) == 2, len(read)  # STACK once, AMPERE once
    refusals._shadows_in.cache_clear()
    assert not refusals._shadowed("fa2", lines) and not refusals._shadowed("sdpa", lines)
    assert refusals._shadows_in.cache_info().misses == 1
    assert shapes.window_lines(lines, len(lines)) == [STACK, AMPERE]
    assert not decide._torch_flash_subject(lines, len(lines), len(lines))


# ---- backtracking, read from the patterns' parse trees, not timed (helper ex167, session 29) --------------------------------
# The work guard above counts the characters handed to the patterns, not what the engine does with them: a pattern whose cost
# per character grows with a line's length passes it behind the literal gate. benchmarks/explain_backtracking.py names three such
# shapes (nested, adjacent, look: its docstring) in every pattern explain runs (entries, frames, probes), as compiled.

def _backtracking():
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
    import explain_backtracking

    return explain_backtracking


def test_no_pattern_backtracks_more_than_linearly_on_a_long_line(matcher_forms):
    bt = _backtracking()
    rows = bt.flagged()
    assert not rows, "patterns whose backtracking grows faster than a line's length (benchmarks/explain_backtracking.py; " \
        "mend: a literal or a class the first repeat cannot read between two repeats, a whole run (`[\\w-]+(?![\\w-])`, " \
        "`\\w*\\b`), the repeat bounded under BIG):\n" + "\n".join(
            f"  {eid}: {shape} ({bt.WHY[shape]}): {part}\n      in {p[:200]}" for eid, shape, part, p in rows)


@pytest.mark.parametrize("pattern, shape", [
    (r"\bflash_attn\b(?:[ \t][^\n]*){0,4}x", "nested"),  # each blank may start an iteration: 4096^4 ways on a line of blanks
    (r"error:(\w+\s?)*$", "nested"),  # the classic: a word split into iterations every way
    (r"(?:[^()]|\([^()]*\))*x", None),  # balanced parentheses: each way of the alternation reads its own characters
    (r"(?:[ \t][^\n]*\n){0,4}x", None),  # each iteration ends at a line end the inner repeat cannot read
    (r"(?:[ \t]*[\w-]+(?![\w-])){0,2}x", None),  # each word read whole
    (r"flash_attn[^\n]*\S*error", "adjacent"),  # two gaps over the same characters, nothing between
    (r"flash_attn[^\n]*?(?:warn|[^\n]*error)", "adjacent"),  # an alternation that restarts the gap
    (r"flash_attn(?:: [^\n]*)?[^\n]*?(?:, [^\n]*)?error", "adjacent"),  # a lazy gap between two optional parts
    (r"flash_attn[^\n]*,[^\n]*error", None),  # a literal between: the first gap ends at one of its occurrences
    (r'File "[^"\n]*", line \d+', None),  # a character the first cannot read
    (r"\S*[/\\]\S*:\d+ in\b", "adjacent"),  # a separator both may read
    (r"\S*[/\\][^\s/\\]*:\d+ in\b", None),  # a separator the second cannot read: the reads do not overlap
    (r"[\s\S]{0,2000}?^[^\n]*KeyError", None),  # the second starts at a line's start: once per line
    (r"(?:(?![^\n]*done).){0,4096}error", "look"),  # each step of the repeat reads the look's reach
    (r"(?:(?!done).){0,4096}error", None),  # a short look
    # review rev29: a repeat whose body ends and begins with repeats over one character (the blanks after a comma)
    (r"such as (?:[^,\n]{1,40}?,[ \t]*)+etc", "wrap"),
    (r"(?:[ \t]*,[ \t]*)+x", "wrap"),
    (r"such as (?:[^,\n \t][^,\n]{0,39}?,[ \t]*)+etc", None),  # an item that cannot begin with a blank
    (r"(?:(?![ \t]+when\b)[^\n]){0,4096}x", None),  # a long look over blanks only: a blank run is short in a log
])
def test_the_backtracking_guard_names_badly_written_patterns(pattern, shape):
    found = [s for s, _ in _backtracking().findings(pattern)]
    assert (found[:1] or [None])[0] == shape, found
