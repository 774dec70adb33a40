"""`explain` on whole inputs (issue 23): any size read to its end in blocks, real line numbers, every
problem found, root causes ranked before their symptoms, a file path as TARGET, and the prefilter's
guarantees (every shipped pattern has needles, no pattern reaches further across lines than the
window the matcher searches). The logs are built here from lines written in the shape of real ones
(a training run's progress and loss lines, a pip/ninja build); the error lines are the fixtures'
real texts. Speed is benchmarks/explain_50mb.py's business, not a test's."""

from __future__ import annotations

import io
import json
import re
import sys
from pathlib import Path

import pytest
from each_case import each

from attn_doctor.cli import main
from attn_doctor.explain import classify, examine, match
from attn_doctor.explain import probes as explain_probes
from attn_doctor.knowledge import entries, regex_parser
from attn_doctor.knowledge import match as M
from attn_doctor.model import UsageError

ERRORS = Path(__file__).resolve().parents[1] / "fixtures" / "errors"

UNDEFINED_SYMBOL = ("ImportError: /venv/lib/python3.11/site-packages/flash_attn_2_cuda.cpython-311-x86_64-linux-gnu.so: "
                    "undefined symbol: _ZN3c104cuda9SetDeviceEi")
NO_KERNEL = "RuntimeError: CUDA error: no kernel image is available for execution on the device"


def training_lines(n: int, start: int = 0) -> str:
    """n lines of an ordinary run: loss dicts, tqdm bars, a logger line, a wandb line with a hex id."""
    out = []
    for i in range(start, start + n):
        k = i % 10
        if k < 6:
            out.append(f"{{'loss': {1 + (i % 97) / 97:.4f}, 'grad_norm': {i % 13 / 3:.3f}, 'learning_rate': 1e-05, "
                       f"'epoch': {i / 1000:.2f}}}")
        elif k < 9:
            p = i % 100
            out.append(f" {p}%|{'█' * (p // 10)}{' ' * (10 - p // 10)}| {i}/100000 [01:{i % 60:02d}<12:00, 3.{k}1it/s]")
        else:
            out.append(f"wandb: logging run {i * 2654435761 % 2**32:08x} step={i}")
    return "\n".join(out) + "\n"


@pytest.fixture
def cli(monkeypatch, capsys):
    monkeypatch.setenv("NO_COLOR", "1")

    def run(*args, stdin: bytes | str | None = None):
        if stdin is not None:
            data = stdin.encode("utf-8") if isinstance(stdin, str) else stdin
            monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"))
        code = main(list(args))
        out = capsys.readouterr()
        return code, out.out, out.err
    return run


# ---- whole inputs, real line numbers ---------------------------------------------------------------

def test_a_3_mb_log_with_the_error_at_the_top(tmp_path, cli):
    """The report's case: the error on line 3, then 3 MB of training (the old matcher searched the
    last 2 MB only and said nothing)."""
    log = "Traceback (most recent call last):\n  File \"train.py\", line 3, in <module>\n" + UNDEFINED_SYMBOL + "\n"
    body = training_lines(46_000)
    assert len(body) > 3_000_000
    path = tmp_path / "train.log"
    path.write_text(log + body, encoding="utf-8")
    code, out, err = cli("explain", "--json", str(path))
    doc = json.loads(out)
    assert code == 0, err
    assert doc["matches"][0]["id"] == "import.undefined-symbol" and doc["matches"][0]["line"] == 3
    assert doc["matches"][0]["backend"] == "fa2"
    assert doc["read"]["lines"] == 3 + 46_000 and doc["read"]["bytes"] == path.stat().st_size


def test_a_50_mb_log_with_two_errors_finds_both_on_their_real_lines(tmp_path, cli):
    """Written block by block into tmp_path (about 50 MB); both errors are found with the line numbers
    grep would give, however far apart."""
    path = tmp_path / "big.log"
    chunk = training_lines(20_000)
    per = chunk.count("\n")
    with open(path, "w", encoding="utf-8") as fh:
        lines = 0
        for i in range(38):
            if i == 3:
                fh.write(UNDEFINED_SYMBOL + "\n")
                first = lines + 1
                lines += 1
            if i == 35:
                fh.write(NO_KERNEL + "\n")
                second = lines + 1
                lines += 1
            fh.write(chunk)
            lines += per
    assert path.stat().st_size > 50_000_000
    code, out, err = cli("explain", "--json", str(path))
    doc = json.loads(out)
    found = {m["id"]: m["line"] for m in doc["matches"]}
    assert code == 0, err
    assert found == {"import.undefined-symbol": first, "gpu.arch-not-in-torch": second}
    assert [m["id"] for m in doc["matches"]] == ["import.undefined-symbol", "gpu.arch-not-in-torch"]
    assert doc["read"]["lines"] == lines


def test_line_numbers_count_from_the_start_of_stdin_too(cli):
    log = training_lines(70_000) + NO_KERNEL + "\n" + training_lines(10)
    code, out, _ = cli("explain", "--json", "-", stdin=log)
    assert json.loads(out)["matches"][0]["line"] == 70_001


def test_a_line_cut_across_blocks_keeps_its_number(monkeypatch):
    """The matcher reads in blocks; an error on the line where one block ends and the next begins is
    still found whole, on its own line."""
    monkeypatch.setattr(M, "BLOCK", 4096)
    head = training_lines(300)
    cut = 4096 - len(head.encode()) % 4096
    log = head + "x" * (cut - 10) + " " + NO_KERNEL + "\n" + training_lines(200)
    found = match(log)
    assert [(m.entry.id, m.line) for m in found] == [("gpu.arch-not-in-torch", 301)]


def test_windows_line_ends_colours_and_utf16_are_read_as_text(tmp_path):
    text = training_lines(50) + "\x1b[31m" + NO_KERNEL + "\x1b[0m\n" + training_lines(5)
    crlf = text.replace("\n", "\r\n").encode("utf-8")
    utf16 = text.encode("utf-16")  # with its BOM, as PowerShell's `>` writes it
    for data in (crlf, utf16):
        r = examine(io.BytesIO(data))
        assert [(m.entry.id, m.line) for m in r.found] == [("gpu.arch-not-in-torch", 51)]


def test_a_log_with_no_line_ends_at_all_is_read(monkeypatch):
    monkeypatch.setattr(M, "BLOCK", 1024)
    monkeypatch.setattr(M, "LONG_LINE", 4096)
    log = ("step 1 loss 0.5 " * 2000) + NO_KERNEL
    assert [m.entry.id for m in match(log)] == ["gpu.arch-not-in-torch"]


def test_attribution_looks_around_the_first_hit_in_a_big_log(tmp_path):
    """The backend comes from the lines around the error (its traceback), kept while streaming."""
    tb = ("Traceback (most recent call last):\n"
          "  File \"/venv/lib/python3.12/site-packages/sageattention/core.py\", line 47, in <module>\n"
          "    from . import _qattn_sm89\n"
          "ImportError: /venv/lib/python3.12/site-packages/sageattention/_qattn_sm89.cpython-312-x86_64-linux-gnu.so: "
          "undefined symbol: _ZN3c106detail14torchCheckFailEPKcS2_jRKSs\n")
    r = examine(training_lines(100_000) + tb + training_lines(100_000, 5))
    assert [(m.entry.id, m.backend, m.line) for m in r.found] == [("import.undefined-symbol", "sage", 100_004)]
    assert r.found[0].named_by.line == 100_004


# ---- ranking: the root cause before its symptoms --------------------------------------------------

BUILD_LOG = """\
Building wheel for flash-attn (setup.py) ... error
  running build_ext
  [1/73] /usr/local/cuda/bin/nvcc --generate-dependencies-with-compile -c /tmp/pip-install-q1/flash-attn_77/csrc/flash_attn/src/flash_fwd_hdim64_fp16_sm80.cu -o /tmp/pip-install-q1/flash-attn_77/build/temp.linux-x86_64-cpython-312/csrc/flash_attn/src/flash_fwd_hdim64_fp16_sm80.o
  FAILED: /tmp/pip-install-q1/flash-attn_77/build/temp.linux-x86_64-cpython-312/csrc/flash_attn/src/flash_fwd_hdim96_bf16_sm80.o
  /usr/local/cuda/bin/nvcc --generate-dependencies-with-compile -c /tmp/pip-install-q1/flash-attn_77/csrc/flash_attn/src/flash_fwd_hdim96_bf16_sm80.cu
  /tmp/pip-install-q1/flash-attn_77/csrc/flash_attn/src/flash_fwd_kernel.h(412): error: identifier "__hmax2" is undefined
  1 error detected in the compilation of "/tmp/pip-install-q1/flash-attn_77/csrc/flash_attn/src/flash_fwd_hdim96_bf16_sm80.cu".
  ninja: build stopped: subcommand failed.
""" + "".join(f"  [{i}/73] /usr/local/cuda/bin/nvcc -c csrc/flash_attn/src/flash_bwd_hdim{i}_fp16_sm80.cu\n" for i in range(2, 60)) + """\
  Traceback (most recent call last):
    File "/usr/lib/python3.12/site-packages/torch/utils/cpp_extension.py", line 2104, in _run_ninja_build
      subprocess.run(
  subprocess.CalledProcessError: Command '['ninja', '-v', '-j', '32']' returned non-zero exit status 1.
  ERROR: Failed building wheel for flash-attn
error: command '/usr/local/cuda/bin/nvcc' failed with exit code 1
"""


def test_a_build_log_ending_in_the_generic_failure_ranks_the_first_compiler_error_first():
    found = match(BUILD_LOG)
    ids = [m.entry.id for m in found]
    assert ids[0] == "build.compiler-error", ids
    assert found[0].backend == "fa2" and "__hmax2" in found[0].evidence
    assert "build.compile-failed" in ids[1:]  # the generic failure is still said, after its cause


def test_a_compiler_error_of_a_library_that_is_no_attention_backend_is_not_claimed():
    log = ("/src/mylib/kernels.cu(12): error: identifier \"foo\" is undefined\n"
           "error: command '/usr/bin/nvcc' failed with exit code 1\n")
    assert [m.entry.id for m in match(log)] == []


def test_an_import_error_ranks_before_the_trainers_fallback_warning_printed_first():
    log = ("WARNING: flash_attn not installed, falling back to eager attention\n" + training_lines(30) +
           "Traceback (most recent call last):\n  File \"/venv/lib/python3.11/site-packages/flash_attn/"
           "flash_attn_interface.py\", line 10, in <module>\n    import flash_attn_2_cuda as flash_attn_cuda\n"
           + UNDEFINED_SYMBOL + "\n")
    ids = [m.entry.id for m in match(log)]
    assert ids == ["import.undefined-symbol", "fa2.not-available-fallback"]


def test_a_fallback_warning_alone_is_still_reported():
    assert [m.entry.id for m in match("WARNING: flash_attn not installed, falling back to eager attention\n")] == [
        "fa2.not-available-fallback"]


# ---- --limit, TARGET as a path ---------------------------------------------------------------------

def test_limit_says_how_many_were_found(cli):
    log = UNDEFINED_SYMBOL + "\n" + training_lines(10) + NO_KERNEL + "\n" + BUILD_LOG
    code, out, _ = cli("explain", "--limit", "1", "-", stdin=log)
    total = len(match(log))
    assert code == 0 and total >= 3
    assert out.splitlines()[0] == f"{total} known problems found, showing 1 (--limit), most likely cause first:"
    code, out, _ = cli("explain", "--json", "--limit", "1", "-", stdin=log)
    doc = json.loads(out)
    assert len(doc["matches"]) == 1 and doc["found"] == total


def test_target_is_an_id_a_file_or_a_message(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "train.log").write_text(NO_KERNEL + "\n")
    (tmp_path / "sdpa.no-kernel").write_text(NO_KERNEL + "\n")  # a file named like an id
    assert classify("-") == "stdin"
    assert classify("sdpa.no-kernel") == "id"  # the id wins ...
    assert classify("./sdpa.no-kernel") == "path"  # ... ./ makes it the file
    assert classify("train.log") == "path"
    assert classify(str(tmp_path / "train.log")) == "path"
    assert classify(NO_KERNEL) == "text"
    assert classify("cudaErrorNoKernelImageForDevice") == "text"  # one word, not path-like: a message
    for missing in ("missing.log", "logs/run1/out.txt", "C:\\runs\\train.err"):
        with pytest.raises(UsageError, match="no such file"):
            classify(missing)
    with pytest.raises(UsageError, match="is a directory"):
        classify(str(tmp_path))


def test_explain_a_file_path_end_to_end(tmp_path, cli):
    path = tmp_path / "run.log"
    path.write_text(training_lines(5) + NO_KERNEL + "\n")
    code, out, err = cli("explain", str(path))
    assert code == 0 and err == ""
    assert "gpu.arch-not-in-torch" in out and "(line 6)" in out
    code, _, err = cli("explain", str(tmp_path / "nope.log"))
    assert code == 2 and "no such file" in err and err.count("\n") == 1
    empty = tmp_path / "empty.log"
    empty.write_text("\n\n")
    code, _, err = cli("explain", str(empty))
    assert code == 2 and "has no text" in err


def test_nothing_found_says_how_much_was_read(tmp_path, cli):
    path = tmp_path / "clean.log"
    path.write_text(training_lines(1234))
    code, out, err = cli("explain", str(path))
    assert code == 1 and out == "" and "1,234 line(s) read" in err


# ---- the prefilter's guarantees --------------------------------------------------------------------

# `head` entries' patterns (knowledge/prose.toml) are run once, on the input's first lines, never through the
# prefilter: they need no needles
ALL_PATTERNS = [(e.id, p) for e in entries().values() if not e.head for p in e.patterns + e.frames]
# and the probes explain searches in the same pass (facts it wants from the input: the platform's evidence, the installed
# releases, SDPA's reasons), run through the prefilter as the entries are (session 17: two Apple-chip probes without needles
# ran on every line, a 50 MB log in 15 s instead of 1.3 s)
ALL_PATTERNS += list(explain_probes())
# (entry id:index, (entry id, pattern)): each failing pattern named as its pytest item was (one test over the ~2,600
# patterns, not an item each: tests/each_case.py says why)
PATTERN_CASES = [(f"{e}:{i}", (e, p)) for i, (e, p) in enumerate(ALL_PATTERNS)]


def test_every_pattern_has_needles():
    """Without needles a pattern would be run on every line of every log (slow, not wrong)."""
    each(PATTERN_CASES, _pattern_has_needles)


def _pattern_has_needles(eid, pattern):
    assert M.needles(pattern), f"{eid}: {pattern!r} has no literal of {M.MIN_NEEDLE}+ characters (CJK counting two) every match holds"


def _can_match_newline(op, av) -> bool:
    name = str(op)
    if name == "LITERAL":
        return av == 10
    if name == "NOT_LITERAL":
        return av != 10
    if name == "ANY":
        return False  # no DOTALL in the knowledge
    if name == "IN":
        items = [(str(o), a) for o, a in av]
        negate = items and items[0][0] == "NEGATE"
        hit = any((o == "LITERAL" and a == 10) or (o == "CATEGORY" and "SPACE" in str(a) and "NOT" not in str(a))
                  or (o == "CATEGORY" and "NOT" in str(a) and "SPACE" not in str(a))
                  or (o == "RANGE" and a[0] <= 10 <= a[1]) for o, a in items)
        return (not hit) if negate else hit
    return False


def _white(sub) -> bool:
    """Is `sub` one character class of white space only (\\s, a space, a tab, a line end)?"""
    items = list(sub)
    if len(items) != 1:
        return False
    op, av = items[0]
    if str(op) == "LITERAL":
        return chr(av) in " \t\n\r"
    if str(op) == "IN":
        return all((str(o) == "CATEGORY" and str(a).endswith("CATEGORY_SPACE")) or
                   (str(o) == "LITERAL" and chr(a) in " \t\n\r") for o, a in av)
    return False


def _reach(sub) -> tuple[float, float]:
    """(characters of a match that may lie on other lines than the needle's, newlines it may span):
    an upper bound; a newline-free repeat counts only inside a repeat that also spans lines."""
    chars = lines = 0.0
    for op, av in sub:
        name = str(op)
        if name in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"):
            if _white(av[2]):
                continue  # a run of white space crosses only blank lines
            c, n = _reach(av[2])
            hi = float("inf") if av[1] == regex_parser.MAXREPEAT else av[1]
            if n:
                chars += hi * (c if c else float("inf"))
                lines += hi * n
        elif name == "SUBPATTERN":
            c, n = _reach(av[-1])
            chars, lines = chars + c, lines + n
        elif name == "BRANCH":
            rs = [_reach(b) for b in av[1]]
            chars += max(c for c, _ in rs)
            lines += max(n for _, n in rs)
        elif _can_match_newline(op, av):
            chars += 1
            lines += 1
    return chars, lines


def test_no_pattern_reaches_past_the_search_window():
    """The matcher runs a pattern on SPAN bytes and SPAN_LINES lines either side of a line holding
    its needle: a match must fit in that."""
    each(PATTERN_CASES, _pattern_fits_the_search_window)


def _pattern_fits_the_search_window(eid, pattern):
    chars, lines = _reach(regex_parser.parse(pattern))
    assert lines <= M.SPAN_LINES or chars <= M.SPAN - 1024, (eid, pattern, chars, lines)


def test_needles_take_branches_and_skip_what_a_line_shape_cannot_hold():
    shapes = lambda *xs: tuple(sorted(M.shape(x) for x in xs))  # noqa: E731
    assert M.needles(r"(ImportError|ModuleNotFoundError|OSError): [^\n]*\bxformers\b") == shapes("xformers")
    assert M.needles(r"(ImportError|ModuleNotFoundError|OSError): ") == shapes("importerror", "modulenotfounderror",
                                                                             "oserror")
    assert M.needles(r"foo\nbarbaz") == shapes("barbaz")  # a line end breaks a needle
    assert M.needles(r"(?:solo|केवल|仅支持)\s*is_causal") == shapes("is_causal")
    assert M.needles(r"始终未切换到该后端") == ("始终未切换到该后端",)  # no case: kept whole
    assert M.needles(r"[a-z]+\d") == ()
    assert M.required_literal(r"No module named ['\"]torch['\"]") == "no module named "


def test_a_paste_on_a_terminal_is_read_until_ctrl_d():
    """REAL: a pseudo-terminal as stdin. A terminal hands over a paste line by line (short reads that
    are not its end); only Ctrl-D ends it."""
    import os
    import pty
    import subprocess
    import time

    root = Path(__file__).resolve().parents[1]
    master, slave = pty.openpty()
    env = dict(os.environ, PYTHONPATH=str(root), NO_COLOR="1")
    p = subprocess.Popen([sys.executable, "-m", "attn_doctor", "explain", "--json", "-"], stdin=slave,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=root)
    os.close(slave)
    try:
        os.write(master, b"step 1 loss 0.5\n")
        time.sleep(0.5)
        os.write(master, NO_KERNEL.encode() + b"\n")
        time.sleep(0.5)
        os.write(master, b"\x04")
        out, err = p.communicate(timeout=120)
    finally:
        os.close(master)
    assert p.returncode == 0, err
    assert [(m["id"], m["line"]) for m in json.loads(out)["matches"]] == [("gpu.arch-not-in-torch", 2)]


def test_no_pattern_that_spans_lines_is_keyed_on_a_common_log_line():
    """A pattern that may match across lines is run over a 16 KB window around every line holding one of
    its needles, and every pattern hot anywhere in that window runs over all of it: keyed on a word a
    training log prints on most lines ("output", "torch", "return"), it makes a 50 MB log 10x slower
    (2026-11-28: attn.wrong-output's `\\s*` between two words took benchmarks/explain_50mb.py from 0.8 s
    to 8.5 s). Every such pattern's needles stay off the lines a training log repeats at every step (a
    traceback's frames are not such lines: the triage entries key on them, and a log has few)."""
    from attn_doctor.knowledge import entries
    from attn_doctor.knowledge.match import spans_lines

    from log_lines import CHECKPOINT, INFO, LOSS, PROGRESS, WANDB, needles_on

    common = [LOSS, PROGRESS, INFO, CHECKPOINT, WANDB]
    bad = []
    for e in entries().values():
        for p in e.patterns + e.frames:
            if e.head or not spans_lines(p):
                continue
            hits = needles_on(p, common)
            if hits:
                bad.append((e.id, hits, p[:80]))
    assert bad == []


def test_head_patterns_run_on_the_first_lines_only_and_cost_nothing_after():
    """A `head` pattern without a needle (prose.toml's short names such as "FA 3") is not in the prefilter: a
    log whose first lines say nothing, then a million prose-like lines, is searched by it on no line."""
    idx = M._index(None)
    head = {k for k, (e, _p) in enumerate(idx.patterns) if e is not None and e.head}
    assert head and head == set(idx.head)
    assert not head & set(idx.always) and not any(head & set(v) for v in idx.needles.values())


def test_a_pattern_without_needles_costs_one_pass_not_one_per_line_pair(monkeypatch):
    """A pattern with no needles (index.always: a shipped one fails test_every_pattern_has_needles, but a probe added for one
    run may have none) is run on every line; the block's list of lines to read must be built in one pass (review rev27: it
    rebuilt the dict of hot lines once per line, 20,000 lines that each held a needle took 11 s instead of 0.1 s)."""
    built = []

    class Counted(dict):
        def __init__(self, *a, **k):
            built.append(1)
            super().__init__(*a, **k)

    monkeypatch.setattr(M, "dict", Counted, raising=False)
    text = "In file included from /src/flash_attn/csrc/flash_api.cpp:1,\n" * 3000
    M.scan(io.BytesIO(text.encode()), probes=(("rev27-needleless", r"[a-z]+\d{7}"),))
    assert len(built) < 300, f"{len(built)} dicts built for 3,000 lines"
