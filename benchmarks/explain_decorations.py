#!/usr/bin/env python3
"""Does `attn-doctor explain` read an error through the dress an unseen log brings it in (issue 23; helper ex131, session 22)?

A rule's pattern is written from a text as one tracker printed it. The same error reaches explain behind a launcher's
prefix, a logger's time, a test runner's `E   `, a web page's escapes, a translated sentence, a notebook's colours, a
JSON field. This takes the first example of every knowledge entry (the text the entry was written for), reads it as it
is, and then dressed in each decoration below, alone: an example is kept where its first finding is the same entry as
undressed. Over every training round's unrelated/ logs (compare_matches.ROUNDS, measure-only and held-out sets never
read) it counts the logs a decoration makes explain claim that it did not claim undressed (must stay 0).

Deterministic: no randomness, every decoration a fixed rewrite. Measures only; tests/test_explain_decorations.py holds
examples of each decoration the matcher reads through.

    python benchmarks/explain_decorations.py                  # table on stdout (examples and unrelated logs)
    python benchmarks/explain_decorations.py --show wrap80    # also list what one decoration loses
    python benchmarks/explain_decorations.py --no-unrelated   # the examples only (seconds, not minutes)
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from compare_matches import MEASURE_ONLY, ROUNDS  # noqa: E402
from explain_heldout import load  # noqa: E402
from explain_robustness import REWRITES  # noqa: E402

_ERROR_LINE = re.compile(r"^[ \t]*(\w[\w.]*(?:Error|Exception|Exit|Interrupt))(?:: (.*))?$", re.M)


def _each(prefix: str):
    return lambda text: "\n".join(prefix + line for line in text.splitlines())


def _wrap(width: int):
    """Every line cut into pieces of `width` characters (a console's hard wrap: mid-word, mid-path)."""
    return lambda t: "\n".join(line[i:i + width] for line in t.splitlines() for i in range(0, max(len(line), 1), width))


def _rich_box(text: str) -> str:
    """rich's panel (a traceback or a log in a box): `│ ` before every line, padding and ` │` after it."""
    lines = text.splitlines()
    width = max(map(len, lines), default=0)
    return "\n".join(["╭" + "─" * (width + 2) + "╮"] + ["│ " + line.ljust(width) + " │" for line in lines]
                     + ["╰" + "─" * (width + 2) + "╯"])


_UNIX_PATH = re.compile(r"(?<![\w:/.\\-])/(?:[\w.+-]+/)+[\w.+-]*")


def _windows_paths(text: str) -> str:
    """The same failure on Windows: every absolute POSIX path as a drive's path with backslashes, CRLF line ends."""
    text = _UNIX_PATH.sub(lambda m: "C:\\" + m.group()[1:].replace("/", "\\"), text)
    return text.replace("\n", "\r\n")


def _html_numeric(text: str) -> str:
    """A web page's source or an API's JSON: quotes and brackets as `&#39;`, `&quot;`, `&lt;`, `&gt;` (`&amp;` first)."""
    return (text.replace("&", "&amp;").replace("'", "&#39;").replace('"', "&quot;").replace("<", "&lt;")
            .replace(">", "&gt;"))


def _md_escape(text: str) -> str:
    """Markdown source as a web editor saves it: `_`, `*` and `[`, `]` behind a backslash (`flash\\_attn`)."""
    return re.sub(r"([_*\[\]])", r"\\\1", text)


def _backticks(text: str) -> str:
    """Every line as inline code (`...`), as people quote a log line by line in a comment."""
    return "\n".join(f"`{line}`" if line.strip() else line for line in text.splitlines())


def _fenced(text: str) -> str:
    """A Markdown code block with a language under a sentence, and a thanks after it."""
    return "I get this error when I start training:\n\n```python\n" + text + "\n```\n\nAny idea? Thanks."


_PROSE = {
    "zh": ("我在运行训练脚本的时候遇到了下面的错误，请问该怎么解决？", "谢谢！"),
    "ja": ("学習スクリプトを実行すると次のエラーが出ます。どうすればよいでしょうか。", "よろしくお願いします。"),
    "ko": ("학습 스크립트를 실행하면 아래와 같은 오류가 발생합니다. 어떻게 해결하나요?", "감사합니다."),
    "ru": ("При запуске обучения получаю следующую ошибку, подскажите, как исправить?", "Спасибо!"),
}
# a sentence's lead on the error's own line (`报错：RuntimeError: ...`): the line stays English after it
_LEAD = {"zh": "运行时报错：", "ja": "エラーが出ます：", "ko": "오류 발생: ", "ru": "Ошибка: "}


def _translated(lang: str):
    before, after = _PROSE[lang]
    return lambda t: f"{before}\n\n{t}\n\n{after}"


def _lead(lang: str):
    def rewrite(text: str) -> str | None:
        lines = text.splitlines()
        at = next((i for i, line in enumerate(lines) if _ERROR_LINE.match(line)), 0 if lines else None)
        if at is None:
            return None
        lines[at] = _LEAD[lang] + lines[at].lstrip()
        return "\n".join(lines)
    return rewrite


def _last_error(text: str) -> tuple[str, str] | None:
    found = list(_ERROR_LINE.finditer(text))
    if not found:
        return None
    m = found[-1]
    return m.group(1), m.group(2) or ""


def _comfyui(text: str) -> str:
    """ComfyUI's execution log: `!!! Exception during processing !!! <the exception's message>` before the traceback, and
    `Prompt executed in` after it."""
    err = _last_error(text)
    msg = err[1] if err else text.strip().splitlines()[0] if text.strip() else ""
    return f"got prompt\n!!! Exception during processing !!! {msg}\n{text}\n\nPrompt executed in 3.21 seconds"


def _json_field(text: str) -> str:
    """The text as a JSON API or a job's status file holds it: one line, `\\n` and quotes escaped."""
    return json.dumps({"status": "failed", "error": text, "exit_code": 1})


def _dict_repr(text: str) -> str:
    """A Python dict printed with the exception's repr in it (`'error': "RuntimeError('...')"`) and the traceback as a
    string's repr (`'Traceback ...\\n  File ...'`), on one line."""
    err = _last_error(text)
    exc = f"{err[0]}({err[1]!r})" if err else repr(text.strip().splitlines()[0] if text.strip() else "")
    return repr({"status": "error", "error": exc, "traceback": text})


# Session 23 (helper ex140): decorations seen in real logs that ex131's set did not try.
def _gha(text: str) -> str:
    """GitHub Actions' raw log: a 7-digit ISO time before every line, `##[error]` before the error's line."""
    lines = text.splitlines()
    at = next((i for i in range(len(lines) - 1, -1, -1) if _ERROR_LINE.match(lines[i])), None)
    return "\n".join("2026-01-01T00:00:00.1234567Z " + ("##[error]" if i == at else "") + line
                      for i, line in enumerate(lines))


def _slurm(text: str) -> str:
    """srun --label's task prefix on every line, and srun's own report of the task's end after them."""
    return _each("0: ")(text) + "\nsrun: error: gpu-node01: task 0: Exited with exit code 1\nsrun: Terminating StepId=4242.0"


_BAR = "  5%|\u258c         | 10/200 [00:05<01:35,  2.00it/s]"


def _tqdm_glued(text: str) -> str:
    """A tqdm bar's redraws (carriage returns) before the text, its first line glued to the bar's last state (tqdm writes no
    line end before an exception's traceback)."""
    return "\r  0%|          | 0/200 [00:00<?, ?it/s]\r" + _BAR + text


def _tqdm_lines(text: str) -> str:
    """A progress bar (another rank's, a wandb sync's) redrawn on lines of its own between the text's lines, every 3rd."""
    lines = text.splitlines()
    out = []
    for i, line in enumerate(lines):
        out.append(line)
        if i % 3 == 2 and i + 1 < len(lines):
            out.append("\r  0%|          | 0/200 [00:00<?, ?it/s]\r" + _BAR)
    return "\n".join(out)


def _html_pre(text: str) -> str:
    """A web page's source of a code block: `<pre><code>` around it, `&lt;`, `&gt;`, `&quot;`, `&#39;`, `&amp;`."""
    return "<pre><code>" + _html_numeric(text) + "</code></pre>"


def _numbered(form: str):
    """A paste with line numbers (a pastebin's or an editor's view): `form` holds the number's field."""
    return lambda t: "\n".join(form.format(i) + line for i, line in enumerate(t.splitlines(), 1))


def _cp1252(text: str) -> str:
    """The text's UTF-8 read as Windows' cp1252 (a console or an editor on a Western Windows): `│` as `â”‚`; a byte cp1252
    leaves undefined as the control character of its value, as Windows' MultiByteToWideChar gives it."""
    raw = text.encode("utf-8")
    return "".join(bytes([b]).decode("cp1252", "ignore") or chr(b) for b in raw)


def _rich_cp1252(text: str) -> str:
    return _cp1252(_rich_box(text))


DECORATIONS = {
    "rank": REWRITES["rank"],
    "default": _each("[default0]:"),
    "srun": _each("0: "),
    "logging": _each("2026-01-03 12:00:01,123 - ERROR - "),
    "pytest": _each("E       "),
    "bar": _each("| "),
    "compose": _each("service-1  | "),
    "rich": _rich_box,
    "ansi": REWRITES["ansi"],
    "crlf": REWRITES["crlf"],
    "winpath": _windows_paths,
    "winrepr": REWRITES["winrepr"],
    "wrap80": _wrap(80),
    "wrap120": _wrap(120),
    "html": _html_numeric,
    "mdescape": _md_escape,
    "backticks": _backticks,
    "fence": _fenced,
    "quote": REWRITES["quote"],
    **{lang: _translated(lang) for lang in _PROSE},
    **{f"{lang}-lead": _lead(lang) for lang in _LEAD},
    "jupyter": REWRITES["jupyter"],
    "ipython": REWRITES["ipython"],
    "comfyui": _comfyui,
    "json": _json_field,
    "dictrepr": _dict_repr,
    "gha": _gha,
    "ray": _each("(RayWorkerWrapper pid=123, ip=10.0.0.1) "),
    "enginecore": _each("(EngineCore_DP0 pid=4242) "),
    "slurm": _slurm,
    "tqdm": _tqdm_glued,
    "tqdm-lines": _tqdm_lines,
    "htmlpre": _html_pre,
    "lineno-bar": _numbered("{:>3} | "),
    "lineno": _numbered("{:>4}  "),
    "cp1252": _cp1252,
    "rich-cp1252": _rich_cp1252,
}


def _first(found) -> str | None:
    return found[0].entry.id if found else None


def measure_examples(names: list[str], show: set[str]) -> dict:
    from attn_doctor.explain import match
    from attn_doctor.knowledge import entries

    read = [(e.id, e.examples[0]) for e in entries().values() if e.examples]
    base = {eid: _first(match(text)) for eid, text in read}
    own = [(eid, text) for eid, text in read if base[eid] == eid]
    out = {}
    for name in names:
        dress = DECORATIONS[name]
        n, kept, lost = 0, 0, []
        for eid, text in own:
            new = dress(text)
            if new is None or new == text:
                continue
            n += 1
            got = _first(match(new))
            if got == eid:
                kept += 1
            else:
                lost.append([eid, got])
                if name in show:
                    print(f"  {name}: {eid} -> {got}")
        out[name] = {"examples": n, "kept": kept, "lost": lost}
    return {"entries_with_examples": len(read), "read_as_own": len(own), "decorations": out}


def unrelated_files() -> list[Path]:
    files = []
    for r in ROUNDS:
        if "heldout" in r or r in MEASURE_ONLY:
            continue
        files += sorted((ROOT / "fixtures" / "errors" / r / "unrelated").glob("*.txt"))
    return files


def measure_unrelated(names: list[str], show: set[str]) -> dict:
    from attn_doctor.explain import match

    files = unrelated_files()
    bodies = [(str(p.relative_to(ROOT / "fixtures" / "errors")), load(p)[1]) for p in files]
    base = {f: {m.entry.id for m in match(body)} for f, body in bodies}
    out = {}
    for name in names:
        dress = DECORATIONS[name]
        new_claims = []
        for f, body in bodies:
            text = dress(body)
            if text is None or text == body:
                continue
            got = {m.entry.id for m in match(text)}
            if got - base[f]:
                new_claims.append([f, sorted(got - base[f])])
                if name in show:
                    print(f"  {name}: unrelated {f} now claimed: {sorted(got - base[f])}")
        out[name] = {"new_claims": new_claims}
    return {"logs": len(bodies), "claimed_undressed": sum(bool(v) for v in base.values()), "decorations": out}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", action="append", default=[], choices=sorted(DECORATIONS), help="run only this decoration")
    ap.add_argument("--show", action="append", default=[], choices=sorted(DECORATIONS), help="list what it loses")
    ap.add_argument("--no-unrelated", action="store_true", help="skip the unrelated logs")
    ap.add_argument("--out", help="write every figure and every lost example as JSON")
    ap.add_argument("--tree", help="measure the attn_doctor of this checkout (another worktree: a before figure)")
    args = ap.parse_args(argv)
    if args.tree:
        sys.path.insert(0, str(Path(args.tree).resolve()))
    names = [k for k in DECORATIONS if not args.only or k in args.only]
    show = set(args.show)
    ex = measure_examples(names, show)
    import attn_doctor
    print(f"the code measured: {attn_doctor.__file__}")
    un = None if args.no_unrelated else measure_unrelated(names, show)
    print(f"{ex['entries_with_examples']} entries with examples, {ex['read_as_own']} whose first example explain reads as "
          f"that entry undressed" + (f"; {un['logs']} unrelated logs of the training rounds, {un['claimed_undressed']} "
                                     f"claimed undressed" if un else ""))
    print(f"{'decoration':<12}{'examples':>9}{'kept':>6}{'lost':>6}" + ("  new unrelated claims" if un else ""))
    for name in names:
        d = ex["decorations"][name]
        row = f"{name:<12}{d['examples']:>9}{d['kept']:>6}{d['examples'] - d['kept']:>6}"
        if un:
            row += f"  {len(un['decorations'][name]['new_claims']):>5}"
        print(row)
    if args.out:
        Path(args.out).write_text(json.dumps({"examples": ex, "unrelated": un}, indent=1, ensure_ascii=False) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
