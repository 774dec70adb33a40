"""rv7's review of explain's reader (session 7).

1. Logs whose line ends are carriage returns alone (an old Mac's file, a Windows tool's or a terminal capture's without
   LF) were read as one line, as a progress bar's redraws: only the text after the last `\\r` was searched, so every
   error before it was lost. Such an input (no `\\n` in its first block) is read as lines, numbered as an editor numbers
   them; an input with `\\n` keeps its `\\r`s as tqdm's redraws (tests/test_explain_long_lines.py).
Texts are built here in the shapes named; the error lines are the fixtures' (import.undefined-symbol, flash_attn's
Ampere check)."""

from __future__ import annotations

import io

import pytest

from attn_doctor.explain import examine
from attn_doctor.knowledge import match as M

UNDEFINED = ("ImportError: /venv/lib/python3.11/site-packages/flash_attn_2_cuda.cpython-311-x86_64-linux-gnu.so: "
             "undefined symbol: _ZN3c104cuda9SetDeviceEi")
AMPERE = "RuntimeError: FlashAttention only supports Ampere GPUs or newer."
TRACE = ["Traceback (most recent call last):", '  File "/workspace/train.py", line 14, in <module>',
         "    import flash_attn", UNDEFINED]


def ids(source) -> list[tuple[str, int]]:
    return [(m.entry.id, m.line) for m in examine(source).found]


@pytest.mark.parametrize("end", ["\r", "\r\r"])  # a Mac's line end; a capture's doubled return (blank lines between)
@pytest.mark.parametrize("as_", [str, lambda t: t.encode(), lambda t: io.BytesIO(t.encode())])
def test_carriage_returns_alone_are_line_ends(end, as_):
    text = end.join(["loading model", "step 1 loss 0.5"] + TRACE) + end
    line = (2 + len(TRACE)) * len(end) - (len(end) - 1)  # the error's line as an editor shows it
    assert ids(as_(text)) == [("import.undefined-symbol", line)]


def test_a_bar_alone_ended_by_one_line_feed_is_still_a_bar():
    """Near miss: tqdm's bar as the only line of a capture (its states joined by `\r`, one `\n` at its end) is one line
    showing its last state, not lines: the `\n` says the `\r`s are redraws."""
    states = ["loading flash_attn_2_cuda: undefined symbol: _ZN3c104cuda9SetDeviceEi", "Steps: 100%|##########| 10/10"]
    assert ids("\r".join(states) + "\n") == []
    assert ids("\r".join(reversed(states)) + "\n") == [("import.undefined-symbol", 1)]


def test_a_long_carriage_return_log_is_read_in_blocks_with_real_line_numbers(tmp_path, monkeypatch):
    """Longer than a block: the error after some 60,000 lines is found on its line, read from a file in blocks; a
    `\\r\\n` cut between two reads is one line end."""
    monkeypatch.setattr(M, "BLOCK", 1 << 16)
    filler = [f"{{'loss': 0.{i % 97:03d}, 'step': {i}}}" for i in range(60_000)]
    data = ("\r".join(filler + TRACE) + "\r").encode()
    path = tmp_path / "mac.log"
    path.write_bytes(data)
    with open(path, "rb") as fh:
        assert ids(fh) == [("import.undefined-symbol", 60_004)]
    # a first block of `\r`s alone, then `\r\n`s each cut between two pieces: each one line end
    pieces = [b"a\r" * (1 << 15), b"b\r", b"\nc\r" * 30_000, b"\n" + b"\r".join(t.encode() for t in TRACE)]
    assert ids(iter(pieces)) == [("import.undefined-symbol", (1 << 15) + 1 + 30_000 + 4)]


def test_an_input_with_line_feeds_keeps_its_returns_as_progress_redraws():
    """Near miss: a log with `\\n` whose overwritten tqdm state named the error is not read as lines (the bar's last
    state is what a terminal showed), nor does a lone `\\r` move the lines after it."""
    states = ["loading flash_attn_2_cuda: undefined symbol: _ZN3c104cuda9SetDeviceEi", "Steps: 100%|##########| 10/10"]
    assert ids("start\n" + "\r".join(states) + "\ndone\n") == []
    assert ids("start\n" + "\r".join(states) + "\n" + "\n".join(TRACE) + "\n") == [("import.undefined-symbol", 6)]


# 2. A 2 MB line without `\r` (a minified JSON log, a traceback flattened onto one line) took 6-16 s: every pattern
#    read every byte of it, and those with an unbounded gap (`[^\n]*`) read to the line's end again from every
#    occurrence of their first part (triage.raised-in-fa2's frame, build.oom's `pip install\b[^\n]*`). Now an in-line
#    repeat reads at most LINE_GAP characters (knowledge.bounded, at compile time), and of a line longer than
#    2 * LINE_READ bytes the patterns read its first and last LINE_READ bytes (benchmarks/explain_long_lines.py,
#    benchmarks/explain_pattern_cost.py time it; nothing here is timed).

from attn_doctor.knowledge import LINE_GAP, bounded, can_match_newline, entries  # noqa: E402
from attn_doctor.knowledge import regex_parser as _sre  # noqa: E402


def _unbounded_in_line(sub) -> list[str]:
    """The unbounded repeats of one in-line character (`[^\\n]*`, `.+`) in a parsed pattern."""
    found = []
    for op, av in sub:
        name = str(op)
        if name in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"):
            lo, hi, item = av
            item = list(item)
            if hi == _sre.MAXREPEAT and len(item) == 1 and str(item[0][0]) in ("IN", "NOT_LITERAL", "ANY", "CATEGORY") \
                    and not can_match_newline(*item[0]):
                found.append(str(item[0]))
            found += _unbounded_in_line(av[2])
        elif name == "SUBPATTERN":
            found += _unbounded_in_line(av[-1])
        elif name == "BRANCH":
            for b in av[1]:
                found += _unbounded_in_line(b)
        elif name in ("ASSERT", "ASSERT_NOT"):
            found += _unbounded_in_line(av[1])
        elif name == "ATOMIC_GROUP":
            found += _unbounded_in_line(av)
    return found


def test_no_compiled_pattern_reads_to_a_lines_end_unbounded():
    """Every shipped pattern's in-line gaps are bounded when compiled (attn.nan-output's `flash_attn[^\\n]*?loss=nan`,
    build.oom's, cache.shared-fs's, cache.low-space's lookahead, triage.raised-in-fa2's `in [^\\n]*\\n`...)."""
    slow = {e.id: _unbounded_in_line(_sre.parse(rx.pattern)) for e in entries().values() for rx in e.compiled}
    assert not {k: v for k, v in slow.items() if v}


@pytest.mark.parametrize("pattern, written", [
    (r"(triton|inductor)[^\n]*Stale file handle", r"(triton|inductor)[^\n]{0,%d}Stale file handle" % LINE_GAP),
    (r"loss=nan\b(?=[^\n]*xformers)", r"loss=nan\b(?=[^\n]{0,%d}xformers)" % LINE_GAP),
    (r'in [^"\n]+?x\.*y', r'in [^"\n]{1,%d}?x\.*y' % LINE_GAP),  # lazy kept; an escaped dot is a literal
    (r"a[\s\S]*b(?:\n[^\n]*){0,2}", r"a[\s\S]*b(?:\n[^\n]{0,%d}){0,2}" % LINE_GAP),  # `[\s\S]` crosses lines: kept
    (r"[\]x]*y[^\n]{0,40}", r"[\]x]{0,%d}y[^\n]{0,40}" % LINE_GAP),
    (r"[^'\n]{120,}'", r"[^'\n]{120,%d}'" % LINE_GAP),  # build.windows-path-too-long's open end
])
def test_bounded_rewrites_only_in_line_repeats(pattern, written):
    assert bounded(pattern) == written


def _json_line(n: int, inside: str = "") -> str:
    record = '{"name": "flash_attn", "event": "loaded kernel", "ms": 12}, '
    half = record * (n // len(record) // 2)
    return "[" + half + inside + half + "]"


AMPERE_TB = 'Traceback (most recent call last):\n  File "/workspace/train.py", line 14, in <module>\n' + AMPERE + "\n"


@pytest.mark.parametrize("where", ["head", "tail", "after"])
def test_an_error_at_either_end_of_a_long_line_or_after_it_is_found_on_its_line(where):
    long = _json_line(2_000_000)
    text = {"head": "start\n" + AMPERE + " " + long + "\n",
            "tail": "start\n" + long + " " + AMPERE + "\n",
            "after": "start\n" + long + "\n" + AMPERE_TB}[where]
    found = ids(text)
    assert found and found[0] == ("backend.unsupported-gpu", 5 if where == "after" else 2), found


def test_the_middle_of_a_long_line_is_not_read():
    """The trade of LINE_READ: an error in the middle of a 2 MB line is not read (a probe of the scanner sees it
    before the change); the same text on its own line is."""
    probe = (("mark", r"FlashAttention only supports Ampere"),)
    middle = "start\n" + _json_line(2_000_000, " " + AMPERE + " ") + "\n"
    assert M.scan(middle, probes=probe).probed == {}
    assert M.scan("start\n" + AMPERE + "\n", probes=probe).probed == {"mark": [(2, {})]}


def test_the_read_ends_of_a_long_line_are_not_joined_into_one_match():
    """Near miss: a long line that opens with `xformers` and ends with `not installed, using sdpa`: the two ends are
    far apart in the line and stay so when its middle is left out (LINE_GAP + 1 NULs between them)."""
    text = "xformers " + "x" * 200_000 + " not installed, falling back to sdpa\n"
    assert ids(text) == []
    assert M._read_of_long_lines(text.encode()).count(b"\0") == LINE_GAP + 1


# 3. One rule in one place. attribution.toml's [optional_probe] (xformers' optional `import triton` probe, a notice)
#    was applied twice: match dropped a candidate seen only inside the probe, and explain moved one first seen there to
#    its next line. Both now live in match (scan), so match.best / match.cause read the same line explain shows.

import inspect  # noqa: E402

from attn_doctor import explain as X  # noqa: E402
from explain_top import tb  # noqa: E402

PROBE = ("A matching Triton is not available, some optimizations will not be enabled\n"
         "ModuleNotFoundError: No module named 'triton'\n")


@pytest.mark.parametrize("after", [
    tb(("/venv/lib/python3.11/site-packages/torch/_inductor/runtime/triton_heuristics.py", 40, "<module>", "import triton"),
       error="ModuleNotFoundError: No module named 'triton'"),
    tb(("D:\\sd\\venv\\Lib\\site-packages\\torch\\_inductor\\runtime\\triton_heuristics.py", 40, "<module>",
        "import triton"), error="ModuleNotFoundError: No module named 'triton'"),
])
def test_a_match_first_seen_in_an_optional_probe_is_read_on_its_next_line_by_match_itself(after):
    text = PROBE + "\n".join(f"step {i}: loading weights" for i in range(12)) + "\n" + after + "\n"
    where = {m.entry.id: m.line for m in M.scan(text).found}
    shown = {m.entry.id: m.line for m in examine(text).found}
    assert where.get("flex.no-triton") == shown.get("flex.no-triton") == text.count("\n")  # its last line, not line 2
    assert "in_optional_probe" not in inspect.getsource(X)  # the rule is match's alone


def test_near_miss_the_probe_alone_is_no_match():
    assert "flex.no-triton" not in {m.entry.id for m in M.scan(PROBE + "step 1: loading weights\n").found}


# 4. A log whose failure is no attention library's, with only notes (start-up notices, advisories) found in it: the
#    headline said "no known cause of a failure in the input; 1 note(s) on what it printed:" — it now says first, on
#    its own line, that no attention problem was found, then that the notes are not why the run failed.

@pytest.mark.parametrize("log, notes", [
    # round 9's unrelated FramePack log's shape: the start-up probe lines, then a failure no entry knows
    ("Xformers is not installed!\nFlash Attn is not installed!\nSage Attn is not installed!\n"
     "FileNotFoundError: [Errno 2] No such file or directory: 'hf_download/hub/models--x/config.json'\n", 1),
    ("You are attempting to use Flash Attention 2.0 with a model not initialized on GPU. Make sure to move the model to "
     "GPU after initializing it on CPU with `model.to('cuda')`.\nXformers is not installed!\nFlash Attn is not installed!\n"
     "Sage Attn is not installed!\nKeyError: 'qwen3_vl'\n", 1),  # 2 until ex35u (session 35): the xformers note beside
    # another program's KeyError is dropped (attribution.toml [note_beside_failure]); the first line's advisory is the title
])
def test_notes_alone_say_first_that_no_attention_problem_was_found(log, notes):
    found = examine(log).found
    assert len(found) == notes and all(m.entry.severity == "info" for m in found), [m.entry.id for m in found]
    head = X.headline(notes, notes, notes_only=True)
    first, second = head.split("\n")
    assert first == "no attention problem found: nothing in the input is a known cause of failure."
    assert second.startswith(f"{notes} {'note' if notes == 1 else 'notes'} on what it printed, none of them why")
    assert len(first) < 80  # one line on an 80-column terminal


def test_near_miss_a_real_cause_keeps_the_problems_headline():
    assert X.headline(2, 2) == "2 known problem(s) in the input, most likely cause first:"
