"""Log decorations explain reads through (helper ex131, session 22; benchmarks/explain_decorations.py measures every entry's
first example under each, results in benchmarks/results/explain-decorations-s22.md): pytest's `E       `, a bare `| ` before
each line, a web page's Markdown escapes and inline code, a lead in another script before an English exception on its line,
and an error inside a JSON or repr string. Each text here was read wrong (or not at all) before knowledge/match.py's change;
the guards below keep the same normalisation off a Markdown table, a Windows path and a quote in prose."""

from __future__ import annotations

import json

import pytest

from attn_doctor.explain import match
from attn_doctor.knowledge import match as M

FA2_FRAME = (
    'Traceback (most recent call last):\n'
    '  File "/home/ci/venv/lib/python3.10/site-packages/flash_attn/flash_attn_interface.py", line 96, in _flash_attn_forward\n'
    '    out, q, k, v, out_padded, softmax_lse, S_dmask, rng_state = flash_attn_cuda.fwd(\n'
    'RuntimeError: an error no entry names'
)
SAGE_IMPORT = (
    '  File "/opt/app/nodes/attention.py", line 12, in <module>\n'
    '    from sageattention import sageattn\n'
    'OSError: libgomp-b1c2d3e4.so.1: failed to map segment from shared object'
)
MPS = "RuntimeError: derivative for aten::_scaled_dot_product_attention_math_for_mps is not implemented"


def first(text: str) -> str | None:
    found = match(text)
    return found[0].entry.id if found else None


def each(prefix: str, text: str) -> str:
    return "\n".join(prefix + line for line in text.splitlines())


@pytest.mark.parametrize("text, entry", [
    (FA2_FRAME, "triage.raised-in-fa2"),
    (SAGE_IMPORT, "import.failed"),
])
def test_undressed(text, entry):
    assert first(text) == entry  # (the texts below are these, dressed)


@pytest.mark.parametrize("prefix", ["E       ", "| "])
@pytest.mark.parametrize("text, entry", [(FA2_FRAME, "triage.raised-in-fa2"), (SAGE_IMPORT, "import.failed")])
def test_pytest_and_bar_prefixes(prefix, text, entry):
    assert first(each(prefix, text)) == entry


def test_pytest_short_form():
    # `--tb=short`: `E   ` before the exception's lines (its long form's 7 spaces would take a 4-space indent with it)
    assert M.LINE_PREFIX.match(b"E   RuntimeError: x").group() == b"E   "
    assert M.LINE_PREFIX.match(b"E       RuntimeError: x").group() == b"E       "
    assert first("tests/test_attn.py:41: in test_backward\n    out.sum().backward()\n" + each("E   ", MPS)) \
        == "sdpa.mps-no-backward"


def test_bar_prefix_is_not_a_table_row():
    assert M.LINE_PREFIX.match(b"| flash_attn | 2.7.4 |\n| xformers | 0.0.29 |") is None
    assert M.LINE_PREFIX.match(b"| name | version\n") is None
    # the next line's bar is no column of this one's (a bar prefix on every line)
    assert M.LINE_PREFIX.match(b"| Traceback (most recent call last):\n|   File").group() == b"| "


def test_markdown_escapes():
    escaped = MPS.replace("_", "\\_")
    assert first(escaped) == "sdpa.mps-no-backward"
    assert first(each("", FA2_FRAME).replace("_", "\\_")) == "triage.raised-in-fa2"


@pytest.mark.parametrize("line", [
    rb'OSError: [WinError 126] Error loading "C:\Users\me\torch\lib\_C.dll"',  # a backslash before a letter: a path
    rb"cp C:\_build\x .",
    rb"a\_b and c_d",  # a bare underscore beside it: not an editor's escaping
])
def test_markdown_escapes_leave_paths_alone(line):
    assert M._markdown_source(line) == line


def test_inline_code_lines():
    assert first(each("", SAGE_IMPORT).replace("\n", "`\n`").join("``")) == "import.failed"
    assert M._markdown_source(b"use `flash_attn` or `sdpa`") == b"use `flash_attn` or `sdpa`"


@pytest.mark.parametrize("lead", ["运行时报错：", "エラーが出ます：", "오류 발생: ", "Ошибка: ", "報錯 "])
def test_lead_in_another_script(lead):
    lines = SAGE_IMPORT.splitlines()
    lines[-1] = lead + lines[-1]
    assert first("\n".join(lines)) == "import.failed"


def test_lead_with_ascii_words_is_not_cut():
    # a lead in another script that names a backend in ASCII is a sentence prose reads, not a lead (as _QUOTED_LEAD)
    data = "在flash_attn里报错：RuntimeError: x".encode()
    assert M._quoted_error_leads(data) == data


def test_traceback_in_a_json_string():
    text = json.dumps({"status": "failed", "error": FA2_FRAME, "exit_code": 1})
    assert "\n" not in text
    assert first(text) == "triage.raised-in-fa2"
    assert first(json.dumps({"job": 7, "error": SAGE_IMPORT}, ensure_ascii=True)) == "import.failed"


def test_exception_repr_in_a_dict():
    assert first(repr({"status": "error", "error": repr(RuntimeError(MPS.split(": ", 1)[1]))})) == "sdpa.mps-no-backward"
    assert first(repr({"traceback": SAGE_IMPORT})) == "import.failed"


def test_escaped_texts_leave_prose_quotes_and_plain_lines():
    prose = b'he said "RuntimeError: x" and left\n'
    assert M._escaped_texts(prose) == prose
    plain = b'{"loss": 0.25, "msg": "step done\\nnext"}\n'
    assert M._escaped_texts(plain) == plain
    assert M._escaped_texts(b'{"error": "ValueError(\'bad\')"}') == b'{"error": \nValueError: bad\n}'


def test_one_line_exception_string_only_under_an_error_key():
    # a status's field naming an optional package's absence is no failure (round 97's unrelated Comfy-Org/ComfyUI#12162)
    status = b"""Found backend triton: {'available': False, 'unavailable_reason': "ImportError: No module named 'triton'"}"""
    assert M._escaped_texts(status) == status
    assert M._escaped_texts(b"""{"error": "ImportError: No module named 'triton'"}""") \
        == b"""{"error": \nImportError: No module named 'triton'\n}"""
    assert first(json.dumps({"detail": MPS})) == "sdpa.mps-no-backward"


# helper ex140 (session 23; benchmarks/results/explain-decorations-s23.md): decorations real logs bring that ex131's set did
# not try. Each dressed text below is read as its undressed entry only with knowledge/match.py's _pasted_dress and the two
# LINE_PREFIX ways (`##[error]`, `<pre><code>`).

def boxed(text: str, title: str = "") -> str:
    lines = text.splitlines()
    width = max(map(len, lines))
    top = "╭" + (f" {title} ".center(width + 2, "─") if title else "─" * (width + 2)) + "╮"
    return "\n".join([top] + ["│ " + line.ljust(width) + " │" for line in lines] + ["╰" + "─" * (width + 2) + "╯"])


def cp1252(text: str) -> str:
    return "".join(bytes([b]).decode("cp1252", "ignore") or chr(b) for b in text.encode("utf-8"))


@pytest.mark.parametrize("text, entry", [(FA2_FRAME, "triage.raised-in-fa2"), (SAGE_IMPORT, "import.failed")])
def test_rich_panel_around_a_plain_log(text, entry):
    assert first(boxed(text)) == entry
    assert first(boxed(text, "stderr")) == entry
    assert first(cp1252(boxed(text))) == entry  # `â”‚` on a Western Windows console


def test_rich_traceback_panel_stays_whole():
    rich = ("╭──────── Traceback (most recent call last) ────────╮\n"
            "│ /srv/venv/lib/python3.11/site-packages/flash_attn/flash_attn_interface.py:91 in _flash_attn_forward │\n"
            "│ ❱  91 │   out, lse, S, rng = flash_attn_gpu.fwd(        │\n"
            "╰──────────────────────────────────────────────────╯\n"
            "RuntimeError: a check the rules do not know")
    assert M._unboxed(rich.encode()) == rich.encode()
    # its title alone keeps it whole too (a panel of frames cut off above)
    assert M._unboxed(boxed("x = 1\ny = 2", "Traceback (most recent call last)").encode()).startswith("╭".encode())
    table = "│ flash_attn │ 2.7.4 │\n│ xformers   │ 0.0.29 │"
    assert M._unboxed(table.encode()) == table.encode()
    assert first(rich) == "ex91.raised-beneath-fa2"


def test_cp1252_mojibake_only_where_it_reads_back():
    assert M._MOJIBAKE_LINE.sub(M._unmojibaked, cp1252("“RuntimeError: x” │ y").encode()) == "“RuntimeError: x” │ y".encode()
    for line in ("café Ã© naïve", "Ã alone", "流 build"):
        assert M._MOJIBAKE_LINE.sub(M._unmojibaked, line.encode()) == line.encode()


@pytest.mark.parametrize("form", ["{:>3} | ", "{:>4}  ", "{}\t", "{:>2} │ "])
@pytest.mark.parametrize("text, entry", [(FA2_FRAME, "triage.raised-in-fa2"), (SAGE_IMPORT, "import.failed")])
def test_line_numbered_paste(form, text, entry):
    numbered = "\n".join(form.format(i) + line for i, line in enumerate(text.splitlines(), 12))
    assert first(numbered) == entry


def test_numbers_not_in_sequence_stay():
    data = b"  3  a\n  7  b\n 12 | c\n"
    assert M._unnumbered(data) == data


def test_github_actions_raw_log():
    lines = FA2_FRAME.splitlines()
    lines[-1] = "##[error]" + lines[-1]
    assert first("\n".join("2026-01-01T00:00:00.1234567Z " + line for line in lines)) == "triage.raised-in-fa2"


def test_traceback_glued_to_a_progress_bar():
    bar = "\r  0%|          | 0/200 [00:00<?, ?it/s]\rEpoch 0:   5%|▌         | 10/200 [00:05<01:35,  2.00it/s, loss=0.5]"
    assert first(bar + FA2_FRAME) == "triage.raised-in-fa2"
    assert first("Loading:  50%|█████     | 1/2 [00:03<00:03,  3.10s/it]" + SAGE_IMPORT) == "import.failed"
    # a bar alone on its line is left as it is
    plain = b"  5%|x | 10/200 [00:05<01:35,  2.00it/s]\n"
    assert M._bars_unglued(plain) == plain


def test_web_page_source_of_a_code_block():
    html = FA2_FRAME.replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;").replace(">", "&gt;")
    assert first('<pre><code class="language-python">' + html + "</code></pre>") == "triage.raised-in-fa2"
    assert first("<pre>" + SAGE_IMPORT + "</pre>") == "import.failed"
    # an error on the block's first line and last (the tags on its own line: the pattern reads it from its start to its end)
    assert first("<pre><code>RuntimeError: FlashAttention-3 only supports sm90 and sm100 GPUs. Got sm120</code></pre>") \
        == "triage.error-names-backend"
