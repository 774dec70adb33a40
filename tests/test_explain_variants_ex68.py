"""Variants for helper ex68 (session 10, issue 23): texts pasted the way logs arrive (benchmarks/explain_robustness.py).

Every case was written by hand (2026-11-28): other programs, paths, widths and failures than the fixtures. The near misses
assert what must NOT be read through.

Mechanisms (attn_doctor/knowledge/match.py):
  hard wrap   _console_unwrapped (HARD_WRAP_MIN..HARD_WRAP_MAX): a console's hard wrap at its width joined back, the joined
              line where the last piece stood (every line keeps its number); not where the next line starts as a new one,
              not a table's rows, not repeated lines, not lines that start alike (a log's lines of one length)
  chat        LINE_PREFIX: a chat's `[12:03 PM] ` before every line (Slack, Discord)
  details     LINE_PREFIX: a quote's empty line `>` and GitHub's `<details>` / `<summary>..</summary>` / `</details>` tags
  winrepr     _DOUBLED_SEP: a Windows path with its backslashes doubled (a Python repr) read as the path
"""

from __future__ import annotations

import pytest

from attn_doctor.knowledge.match import LINE_PREFIX, _console_unwrapped
from explain_top import first_cause, tb


def wrap(text: str, width: int) -> str:
    """`text` as a console `width` columns wide shows it, copied."""
    return "\n".join(line[i:i + width] for line in text.splitlines() for i in range(0, max(len(line), 1), width))


OOM = ("[2026-11-02 10:14:33] worker-3 step=1200: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.50 GiB. "
       "GPU 0 has a total capacity of 23.64 GiB of which 1.02 GiB is free. Including non-PyTorch memory, this process has "
       "22.61 GiB memory in use. flash_attn varlen forward")
SYMBOL = ("ImportError: /opt/conda/envs/vlm-eval/lib/python3.10/site-packages/flash_attn_2_cuda.cpython-310-x86_64-linux-gnu."
          "so: undefined symbol: _ZNK3c1010TensorImpl27throw_data_ptr_access_errorEv")


# hard wrap: a message cut where the entries read it, at several consoles' widths
@pytest.mark.parametrize("text,width,want", [
    (OOM, 80, ("train.oom", "fa2")),
    (OOM, 100, ("train.oom", "fa2")),
    (SYMBOL, 120, ("import.undefined-symbol", "fa2")),
    (SYMBOL, 132, ("import.undefined-symbol", "fa2")),
])
def test_hard_wrapped_message_is_read_joined(text, width, want):
    assert first_cause(text) == want
    assert first_cause(wrap(text, width)) == want


def test_hard_wrap_joined_where_the_last_piece_stood():
    line = "x" * 30 + " RuntimeError: FlashAttention only supports Ampere GPUs or newer, and this card is a Tesla T4 " + "y" * 60
    frame = '  File "/opt/app/main.py", line 3, in <module>'
    text = wrap(frame + "\n" + line + "\n    model(x)", 100).encode()
    rows = text.split(b"\n")
    joined = _console_unwrapped(text).split(b"\n")
    assert len(joined) == len(rows)  # every line keeps its number
    assert joined[0] == frame.encode() and joined[1] == b"" and joined[2] == line.encode()
    assert joined[3] == b"    model(x)"


# hard wrap: near misses (a line of the width that is followed by a new line)
@pytest.mark.parametrize("after", [
    '  File "/usr/lib/python3/dist-packages/torch/nn/functional.py", line 5209, in scaled_dot_product_attention',
    "Traceback (most recent call last):",
    "RuntimeError: CUDA error: no kernel image is available for execution on the device",
    "2026-11-02 10:14:34,002 - trainer - INFO - saving checkpoint",
    "[rank1]: step 12 done",
    "    indented code line",
    "",
])
def test_hard_wrap_not_joined_before_a_new_line(after):
    first = "W" + "a" * 118 + "Z"  # exactly 120 columns, a usual console's width
    assert _console_unwrapped(f"{first}\n{after}\nend".encode()) is None


@pytest.mark.parametrize("text", [
    # nvidia-smi's table: rows of one width, the longest lines of the text
    "+" + "-" * 89 + "+\n| NVIDIA-SMI 550.54.14" + " " * 69 + "|\n|" + " " * 89 + "|\n+" + "-" * 89 + "+\ndone",
    # rich's traceback box (Hugging Face's and diffusers' console): rows drawn to the console's width
    ("\u256d" + "\u2500" * 78 + "\u256e\n\u2502 /usr/lib/python3/dist-packages/diffusers/models/attention_processor.py:301 in\u2502\n"
     "\u2502 set_use_memory_efficient_attention_xformers" + " " * 34 + "\u2502\n\u2570" + "\u2500" * 78 + "\u256f"),
    # a warning repeated: the same line, not a wrapped one
    ("UserWarning: flash attention is not available on this GPU, falling back to the math kernel (sm_75, " + "q" * 20 + ")\n") * 3,
    # a training log whose lines happen to have one length: they start alike
    "\n".join(f"epoch {e} step {s:05d} loss 0.{s:04d} lr 1.0e-04 grad_norm 0.{s:03d} tokens/s 12{s:03d} mem 21.4GiB attn=flash "
              f"ok" for e, s in ((1, 100), (1, 200), (2, 300), (2, 400))),
    # a text whose only long line has a width no console has: a line of its own
    "Setting up the environment for the run\n" + "z" * 97 + "\nnext line",
])
def test_hard_wrap_not_read_in_text_that_is_not_wrapped(text):
    assert _console_unwrapped(text.encode()) is None


def test_word_wrapped_paragraph_is_not_a_hard_wrap():
    # an author's own line breaks (a pull request's description wrapped at 90 columns): lines end at words, several of them
    # a few columns short of the width
    import textwrap
    words = ("The xformers build for this wheel lacks the flash operator on sm_120, so memory efficient attention falls back "
             "to cutlass; we measured the fallback against SDPA's flash kernel and PyTorch's cuDNN attention on a 5090 and an "
             "H100 with head dimensions 64, 80 and 128, sequence lengths from 512 to 32768, in bf16 and fp16, over ten runs "
             "each; every variant ran in a fresh process so that the allocator's cache did not carry over between them.")
    for width in (90, 96):
        text = textwrap.fill(words, width)
        cols = [len(line) for line in text.splitlines()]
        assert max(cols) <= width
        if cols.count(max(cols)) >= 2 or max(cols) in (80, 100, 120):
            assert _console_unwrapped(text.encode()) is None
    text = "short-sequence penalty on either architecture, so one threshold works and it can be 0; on Hopper\n" \
           "FA4 matches or beats FA3 everywhere so nothing is lost by replacing it; and on Blackwell the win\n" \
           "comes entirely from the head_dim-16 feature-attention stages, because cuDNN attention already\n" \
           "runs the head_dim-64 ICL calls at FA4 speed there, so no threshold is needed on either machine."
    assert _console_unwrapped(text.encode()) is None


# chat: a chat's time before every line
CHAT_CASES = [
    (tb(("/home/li/ComfyUI/main.py", 10, "<module>", "import comfy.model_management"),
        ("/home/li/ComfyUI/comfy/ldm/modules/attention.py", 22, "<module>", "import xformers.ops")),
     ("import.cut-at-backend-import", "xformers")),
    (SYMBOL, ("import.undefined-symbol", "fa2")),
]


@pytest.mark.parametrize("stamp", ["[12:03 PM] ", "[9:41 am] ", "[11:59:02 P.M.] "])
@pytest.mark.parametrize("text,want", CHAT_CASES)
def test_chat_time_before_every_line(stamp, text, want):
    assert first_cause(text) == want
    assert first_cause("\n".join(stamp + line for line in text.splitlines())) == want


@pytest.mark.parametrize("line", [
    b"[12:03] a time without AM/PM is a log's, kept",
    b"meeting at [12:03 PM] tomorrow",  # not at the line's start: part of the message
    b"[12:03 PM]no space after it",
    b"see <details> below",
    b"<summary>Log</summary> and more text after it",
    b">>> import flash_attn",  # a Python prompt, not a quote
])
def test_prefixes_that_are_part_of_the_message_stay(line):
    m = LINE_PREFIX.match(line)
    assert m is None or not m.group().strip().startswith((b"[1", b"[9", b"<", b">"))


# details: a reply quoting an issue, its log folded in GitHub's collapsed block
def details(text: str, quoted: bool = True) -> str:
    lines = ["The import fails on a clean install.", "", "<details>", "<summary>Full log</summary>", "", "```"]
    lines += text.splitlines() + ["```", "", "</details>"]
    return "\n".join(("> " + line if line else ">") if quoted else line for line in lines)


DETAILS_CASES = [
    (tb(("/srv/app/run_inference.py", 14, "<module>", "from pipeline import build"),
        ("/srv/app/pipeline.py", 3, "<module>", "from sageattention import sageattn")), ("import.cut-at-backend-import", "sage")),
    (tb(("D:\\tools\\webui\\launch.py", 40, "<module>", "import modules.sd_hijack"),
        ("D:\\tools\\webui\\modules\\sd_hijack.py", 7, "<module>", "import xformers.ops")),
     ("import.cut-at-backend-import", "xformers")),
]


@pytest.mark.parametrize("quoted", [True, False])
@pytest.mark.parametrize("text,want", DETAILS_CASES)
def test_log_in_a_collapsed_block(text, want, quoted):
    assert first_cause(text) == want
    assert first_cause(details(text, quoted)) == want


def test_collapsed_block_with_a_working_log_is_no_failure():
    log = "flash_attn 2.7.4.post1\nxformers 0.0.29\nsageattention 2.1.1\nAll attention backends imported fine."
    assert first_cause(details(log)) == (None, None)


# winrepr: a Windows path with its backslashes doubled
@pytest.mark.parametrize("text,want", [
    ("The procedure entry point ?sizes@TensorImpl@c10@@UEBA?AV?$ArrayRef@_J@2@XZ could not be located in the dynamic link "
     "library D:\\\\sd\\\\venv\\\\lib\\\\site-packages\\\\xformers\\\\_C.pyd.", ("xformers.built-for-other-torch", "xformers")),
    ("OSError: The procedure entry point ?dtype@Tensor@at@@QEBA?AVScalarType@c10@@XZ could not be located in the dynamic link "
     "library 'C:\\\\Users\\\\Li Wei\\\\stable-diffusion\\\\.venv\\\\Lib\\\\site-packages\\\\xformers\\\\_C.pyd'",
     ("xformers.built-for-other-torch", "xformers")),
])
def test_windows_path_with_doubled_backslashes(text, want):
    assert first_cause(text.replace("\\\\", "\\")) == want
    assert first_cause(text) == want


def test_doubled_backslash_outside_a_path_stays():
    from attn_doctor.knowledge.match import _DOUBLED_SEP
    assert _DOUBLED_SEP.sub(rb"\\", b'print("a\\\\nb", "\\\\\\\\server\\\\share")') == b'print("a\\nb", "\\\\\\\\server\\share")'
    assert _DOUBLED_SEP.sub(rb"\\", b"regex r' \\\\d+ '") == b"regex r' \\\\d+ '"


# (the lead, session 10) a console's copy is a screen's scrollback: a block over HARD_WRAP_BYTES is a log file, not looked at for
# a hard wrap (the look cost 15% of benchmarks/explain_50mb.py's scan); the same wrapped message in a small paste is still read
def test_hard_wrap_not_looked_for_in_a_log_file_sized_block(monkeypatch):
    from attn_doctor.knowledge import match as m
    small = wrap(SYMBOL, 120)
    assert first_cause(small) == ("import.undefined-symbol", "fa2")
    looked = []
    real = m._console_unwrapped
    monkeypatch.setattr(m, "_console_unwrapped", lambda data: looked.append(len(data)) or real(data))
    filler = "".join(f"step {i:07d} loss 0.{i % 9973:04d} lr 1e-4 tokens/s 51234\n" for i in range(m.HARD_WRAP_BYTES // 40 + 10))
    assert len(filler) > m.HARD_WRAP_BYTES
    first_cause(filler + small)
    assert all(n <= m.HARD_WRAP_BYTES for n in looked), looked
    looked.clear()
    first_cause(small)
    assert looked  # a paste's block is looked at
