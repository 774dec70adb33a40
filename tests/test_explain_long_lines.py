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
