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
