#!/usr/bin/env python3
"""How `attn-doctor explain` holds up when a text it reads right is pasted the way real logs arrive (issue 23).

Takes every training-round text explain already gets right (right backend) and rewrites it as launchers, loggers,
terminals and web pages deliver logs, then counts how many stay right. A rule written for a clean paste that loses
its text under a prefix or another traceback format is a rule that will miss real logs. Measures only: nothing here
is tuned, and no test asserts these figures. The held-out and measure-only corpora are never read. The rank, docker, logging, quote, html and ipython rewrites are the
forms knowledge/match.py was written to read through, so they measure that it does; loginfo and kubectl are not (the default
folders are the training rounds; --corpus adds others).

Rewrites (each applied alone):
  rank       torchrun's `[rank0]:` before every line
  docker     docker compose's `trainer-1  | ` before every line
  logging    Python logging's `2026-03-01 12:00:01,123 - ERROR - ` before every line
  loginfo    the same at INFO level (a wrapper that logs its child's output as INFO; kept, not stripped, by design)
  kubectl    a pod log's `[pod/train-0/trainer] ` before every line (a prefix no rule was written for)
  journald   journalctl's `Nov 28 07:20:34 host python[123]: ` (a job run as a systemd service)
  srun       Slurm's `srun --label` task number `3: `
  quote      a Markdown quote `> ` before every line
  ansi       a colour escape around every line
  crlf       Windows line ends
  html       HTML's escapes of quotes and brackets
  ipython    a Python traceback as IPython prints it (old form: `path in func`, `----> N code`)
  ipython8   the same in IPython 8's form (`File path:N, in func`)
  wrap120    every line hard-wrapped at 120 columns (a console copy)

Content rewrites (the same failure on another machine; no rule was written for these when they were added):
  patch      every x.y.z version's last number raised by one (2.5.8 -> 2.5.9)
  minor      every x.y version's second number raised by one (2.5.8 -> 2.6.8; cu121 and sm_80 are not versions here)
  pyver      another Python (python3.10 -> python3.12, cp310 -> cp312, py3.10 -> py3.12)
  paths      another user's paths (/home/NAME, /root, C:\\Users\\NAME, conda and venv roots, dist-packages)
  squote     a forum's curly single quotes around quoted names ('flash_attn' -> ‘flash_attn’)
  nbsp       leading spaces copied from a web page as no-break spaces
  indent4    every line after the first five indented by four spaces (a log as a Markdown code block under a report's
             title and first sentences, which stay as they were)
  tail30     only the last 30 lines (the end of a log, which is what people paste)

Rewrites added in session 10 (helper ex68), measured before any rule was written for them:
  chat       a chat's time `[12:03 PM] ` before every line (a log pasted line by line into Slack or Discord, or their export)
  details    a reply quoting an issue on GitHub: `> ` before every line, the log after the first five lines in a
             `<details>` block with ``` fences
  jupyter    a Jupyter cell's output: a tqdm bar's states joined by carriage returns before the failure, IPython 8's
             traceback form, IPython's colours
  winrepr    Windows paths as a Python repr prints them, every backslash doubled

    python benchmarks/explain_robustness.py            # table on stdout
    python benchmarks/explain_robustness.py --show ipython   # also list the texts a rewrite loses
"""

from __future__ import annotations

import argparse
import html
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from explain_heldout import load, verdict  # noqa: E402

# every training round of explain (in-sample), kept as a list the way explain_generic.py's ROUNDS is, so that a
# measure-only set added under fixtures/errors/ stays out until it has been measured (rounds 4a-17 until session 10)
TRAINING = ("round30m round36m round41m round44 round46 round47 round4a round4b round5a round5b round6a round6b round7a "
            "round7b round8 round9 round10 round10b round11 round12 round13a round13b round14 round15 round16 round17 "
            "round21m round22 round23 round24m round25 round26 round27 round31 round32 round33 round38 round49m "
            "round54m round60m round63m").split()
_FRAME = re.compile(r'^[ \t]*File "([^"]+)", line (\d+), in (\S+)[ \t]*\n(?:[ \t]+(\S[^\n]*)\n)?', re.M)
_ERROR = re.compile(r"^(\w[\w.]*(?:Error|Exception))\b", re.M)


def _each(prefix: str):
    return lambda text: "\n".join(prefix + line for line in text.splitlines())


def _ipython(new: bool):
    def rewrite(text: str) -> str | None:
        if "Traceback (most recent call last):" not in text:
            return None
        err = _ERROR.search(text)
        head = "-" * 75 + "\n" + (err.group(1) if err else "Exception").ljust(42) + "Traceback (most recent call last)"
        text = text.replace("Traceback (most recent call last):", head)

        def frame(m: re.Match) -> str:
            path, line, func, code = m.groups()
            where = f"File {path}:{line}, in {func}\n" if new else f"{path} in {func}\n"
            return where + (f"----> {line} {code}\n\n" if code else "\n")
        return _FRAME.sub(frame, text)
    return rewrite


_VER3 = re.compile(r"(?<![\w.])(\d+)\.(\d+)\.(\d+)(?![\d])")
_VER2 = re.compile(r"(?<![\w.])(\d+)\.(\d+)(?=[.\w+-]|\b)")
_PY = re.compile(r"(python|py|cp|Python)(3)(\.?)(\d{1,2})(?!\d)")
_PATHS = [
    (re.compile(r"/home/[^/\s]+/"), "/mnt/data/jdoe/"),
    (re.compile(r"/root/"), "/workspace/jdoe/"),
    (re.compile(r"(?i)([A-Z]):\\Users\\[^\\\s]+\\"), r"E:\\Users\\Jane Doe\\"),
    (re.compile(r"/(?:opt/)?(?:mini|ana)?conda3?/envs/[^/\s]+/"), "/opt/venvs/trainer/"),
    (re.compile(r"/usr/local/lib/(python3\.\d+)/dist-packages/"), r"/opt/venvs/trainer/lib/\1/site-packages/"),
    (re.compile(r"/usr/lib/(python3\.\d+)/site-packages/"), r"/srv/py/lib/\1/site-packages/"),
]


def _patch(text: str) -> str:
    return _VER3.sub(lambda m: f"{m.group(1)}.{m.group(2)}.{int(m.group(3)) + 1}", text)


def _minor(text: str) -> str:
    return _VER2.sub(lambda m: f"{m.group(1)}.{int(m.group(2)) + 1}", text)


def _pyver(text: str) -> str:
    return _PY.sub(lambda m: m.group(1) + m.group(2) + m.group(3) + ("12" if m.group(4) != "12" else "11"), text)


def _paths(text: str) -> str:
    for pat, new in _PATHS:
        text = pat.sub(new, text)
    return text


def _nbsp(text: str) -> str:
    return re.sub(r"(?m)^( +)", lambda m: "\u00a0" * len(m.group(1)), text)


def _details(text: str) -> str:
    """A reply quoting an issue on GitHub: every line behind `> `, the log after the report's first five lines folded in a
    `<details>` block with its ``` fences (what GitHub's issue forms and people do with a long log)."""
    lines = text.splitlines()
    lines = lines[:5] + ["", "<details><summary>Full log</summary>", "", "```"] + lines[5:] + ["```", "", "</details>"]
    return "\n".join("> " + line if line else ">" for line in lines)


_BAR = ("Loading checkpoint shards:   0%|          | 0/4 [00:00<?, ?it/s]\r"
        "Loading checkpoint shards:  25%|\u2588\u2588\u258c       | 1/4 [00:02<00:07,  2.51s/it]\r"
        "Loading checkpoint shards: 100%|\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588| 4/4 [00:09<00:00,  2.31s/it]")
_ERROR_LINE = re.compile(r"^(\w[\w.]*(?:Error|Exception|Warning))(?=: |$| {2,}Traceback)", re.M)
_IPY8_FRAME = re.compile(r"^File (\S[^\n]*?:\d+), in (\S+)$", re.M)


def _jupyter(text: str) -> str:
    """A Jupyter cell's output as a notebook's JSON or a terminal keeps it: a tqdm bar's states joined by carriage
    returns on the line before the failure, IPython 8's traceback form, and IPython's colours (error names red, frames'
    files green, functions cyan)."""
    text = _ipython(True)(text) or text
    lines = text.splitlines()
    at = next((i for i, line in enumerate(lines) if i >= 5 and (line.startswith("-" * 20) or _ERROR_LINE.match(line)
                                                                 or line.startswith("Traceback"))), min(5, len(lines)))
    text = "\n".join(lines[:at] + [_BAR] + lines[at:])
    text = _ERROR_LINE.sub("\x1b[0;31m\\1\x1b[0m", text)
    return _IPY8_FRAME.sub("File \x1b[0;32m\\1\x1b[0m, in \x1b[0;36m\\2\x1b[0m", text)


_WINPATH = re.compile(r"(?<![\w\\])[A-Za-z]:\\[^\s\"'<>|]*")


def _winrepr(text: str) -> str:
    """Windows paths as a Python repr prints them (a list of paths, an exception's args, a dict of settings): every
    backslash doubled (`C:\\Users\\x\\site-packages`)."""
    return _WINPATH.sub(lambda m: m.group().replace("\\", "\\\\"), text)


REWRITES = {
    "rank": _each("[rank0]:"),
    "docker": _each("trainer-1  | "),
    "logging": _each("2026-03-01 12:00:01,123 - ERROR - "),
    "loginfo": _each("2026-03-01 12:00:01,123 - INFO - "),
    "kubectl": _each("[pod/train-0/trainer] "),
    "quote": _each("> "),
    "ansi": lambda t: "\n".join("\x1b[31m" + line + "\x1b[0m" for line in t.splitlines()),
    "crlf": lambda t: t.replace("\n", "\r\n"),
    "html": html.escape,
    "ipython": _ipython(False),
    "ipython8": _ipython(True),
    "patch": _patch,
    "minor": _minor,
    "pyver": _pyver,
    "paths": _paths,
    "squote": lambda t: re.sub(r"'([\w.\-/]+)'", "\u2018\\1\u2019", t),
    "nbsp": _nbsp,
    "indent4": lambda t: "\n".join(line if i < 5 or not line else "    " + line for i, line in enumerate(t.splitlines())),
    "journald": _each("Nov 28 07:20:34 gpu-node-3 python[48211]: "),
    "srun": _each("3: "),
    "tail30": lambda t: "\n".join(t.splitlines()[-30:]),
    "chat": _each("[12:03 PM] "),
    "details": _details,
    "jupyter": _jupyter,
    "winrepr": _winrepr,
    "wrap120": lambda t: "\n".join(line[i:i + 120] for line in t.splitlines() for i in range(0, max(len(line), 1), 120)),
}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--corpus", action="append", default=[], help="another folder of texts (repeatable)")
    ap.add_argument("--out", help="write the counts and every lost text per rewrite as JSON")
    ap.add_argument("--only", action="append", default=[], choices=sorted(REWRITES), help="run only this rewrite")
    ap.add_argument("--show", action="append", default=[], choices=sorted(REWRITES), help="list what this rewrite loses")
    args = ap.parse_args(argv)
    from attn_doctor.explain import match

    folders = [ROOT / "fixtures" / "errors" / r for r in TRAINING] + [Path(c) for c in args.corpus]
    for f in folders:
        if "heldout" in f.parts:  # held out (round 63m, measure-only while it was gathered, is training material since ex70)
            print(f"explain_robustness: {f} is held out; measure it with explain_heldout.py", file=sys.stderr)
            return 2
    files = [p for f in folders for p in sorted(f.glob("*.txt"))]
    names = [k for k in REWRITES if not args.only or k in args.only]
    counts = {k: [0, 0] for k in names}
    lost: dict[str, list[str]] = {k: [] for k in names}
    right = 0
    for path in files:
        meta, body = load(path)
        if not verdict(meta, match(body))["right_backend"]:
            continue
        right += 1
        for name in names:
            text = REWRITES[name](body)
            if text is None or text == body:
                continue
            kept = verdict(meta, match(text))["right_backend"]
            counts[name][0] += 1
            counts[name][1] += kept
            if not kept:
                lost[name].append(str(path.relative_to(ROOT)))
                if name in args.show:
                    print(f"  {name}: {path.relative_to(ROOT)}")
    print(f"{len(files)} texts, {right} read right (right backend) before any rewrite")
    print(f"{'rewrite':<10}{'texts':>7}{'kept':>7}")
    for name, (n, kept) in counts.items():
        print(f"{name:<10}{n:>7}{kept:>7}   {100.0 * kept / n if n else 0:5.1f}%")
    if args.out:
        import datetime as _dt
        import json
        import subprocess
        commit = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], capture_output=True,
                                text=True).stdout.strip()
        dirty = bool(subprocess.run(["git", "-C", str(ROOT), "status", "--porcelain", "--", "attn_doctor"],
                                    capture_output=True, text=True).stdout.strip())
        Path(args.out).write_text(json.dumps({
            "benchmark": "explain_robustness", "date": _dt.date.today().isoformat(),
            "code": commit + ("+" if dirty else ""), "folders": [str(f.relative_to(ROOT)) if f.is_relative_to(ROOT)
                                                                 else str(f) for f in folders],
            "texts": len(files), "right_before_rewriting": right,
            "rewrites": {k: {"texts": n, "kept": kept, "lost": lost[k]} for k, (n, kept) in counts.items()},
        }, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
