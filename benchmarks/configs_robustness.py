#!/usr/bin/env python3
"""How `check --config` holds up when a config it reads is saved the way other users save the same thing (issue 24).

Takes every training config (fixtures/configs/real and the training rounds; never the held-out or measure-only sets),
reads it as `check --config FILE` does, then rewrites it in ways that leave what the trainer reads unchanged and reads
it again: a reading that changes (another trainer, other required backends, dtype or compile, a refusal, a crash) is a
reader that keyed on how one user happened to write the file. Each rewritten file sits beside copies of its original
neighbours, so a launch script still finds the config it names. Measures only; no test asserts these figures.

Rewrites (each applied alone, only where the file type has it):
  crlf       Windows line ends (a file saved on Windows; any type)
  bom        a UTF-8 byte-order mark first (Notepad's "UTF-8 with BOM"; any type)
  comment    a comment line first (# for YAML, TOML, shell, Python; REM for .bat; none for JSON)
  trailing   two spaces after every line (not after a shell line's continuation backslash, which they would break)
  reorder    YAML's and JSON's top-level keys in reverse order (comments dropped; the same mapping)
  reindent   JSON written out again with four-space indents, then on one line
  python3    a shell script's `python ` command words as `python3 ` and back
  joined     a shell script's continued lines joined into one (the same command to the shell)
  tabs       a shell script's continued lines indented with a tab instead of spaces

    python benchmarks/configs_robustness.py                   # table on stdout
    python benchmarks/configs_robustness.py --show joined     # also list the files a rewrite changes
    python benchmarks/configs_robustness.py --out benchmarks/results/configs-robustness-$(date +%F).json --note "..."
"""

from __future__ import annotations

import argparse
import datetime
import json
import re
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import yaml  # noqa: E402

from configs_heldout import corpus, read  # noqa: E402

CONFIGS = ROOT / "fixtures" / "configs"
NOT_TRAINING = ("heldout", "round41m")  # held out; round41m measure-only (cfg41m, session 10) until the lead measures it; rounds 10m and 16m, measure-only until the lead measured them, are training material since (2026-11-28)
SHELL = {".sh", ".bash", ".zsh", ".slurm"}
HASH_COMMENT = SHELL | {".yaml", ".yml", ".toml", ".py", ".env", ".ps1"}


def _suffix(path: Path) -> str:
    return path.suffix.lower()


def _comment(path: Path, text: str) -> str | None:
    s = _suffix(path)
    if s == ".bat" or s == ".cmd":
        return "REM saved by hand\r\n" + text if "\r\n" in text else "REM saved by hand\n" + text
    if s not in HASH_COMMENT:
        return None
    if text.startswith("\ufeff"):  # after a byte-order mark, which must stay first
        new = _comment(path, text[1:])
        return None if new is None else "\ufeff" + new
    if text.startswith("#!"):  # after the shebang, which must stay first
        head, _, rest = text.partition("\n")
        return head + "\n# saved by hand\n" + rest
    return "# saved by hand\n" + text


def _trailing(path: Path, text: str) -> str | None:
    if _suffix(path) in (".json", ".ipynb", ".jsonl"):
        return None
    # before a line's end (CR LF or LF), after anything but a continuation (\\, ^, `) or a blank line
    return re.sub(r"(?m)([^\s\\^`])(\r?)$", r"\1  \2", text)


def _reorder(path: Path, text: str) -> str | None:
    s = _suffix(path)
    try:
        if s in (".yaml", ".yml"):
            data = yaml.safe_load(text)
            if not isinstance(data, dict) or len(data) < 2:
                return None
            return yaml.safe_dump(dict(reversed(list(data.items()))), sort_keys=False, allow_unicode=True)
        if s == ".json":
            data = json.loads(text)
            if not isinstance(data, dict) or len(data) < 2:
                return None
            return json.dumps(dict(reversed(list(data.items()))), indent=2)
    except (yaml.YAMLError, ValueError, RecursionError):
        return None
    return None


def _reindent(path: Path, text: str) -> str | None:
    if _suffix(path) != ".json":
        return None
    try:
        data = json.loads(text)
    except ValueError:
        return None
    return json.dumps(data, indent=4) + "\n"


def _oneline_json(path: Path, text: str) -> str | None:
    if _suffix(path) != ".json":
        return None
    try:
        return json.dumps(json.loads(text))
    except ValueError:
        return None


_PY_WORD = re.compile(r"(?m)(^|[\s;&|(=])python(3?)(?=\s)")


def _python3(path: Path, text: str) -> str | None:
    if _suffix(path) not in SHELL | {".bat", ".ps1"}:
        return None
    return _PY_WORD.sub(lambda m: m.group(1) + ("python" if m.group(2) else "python3"), text)


def _joined(path: Path, text: str) -> str | None:
    if _suffix(path) not in SHELL:
        return None
    # a comment's last backslash continues nothing (the shell ends a comment at its line's end): those stay
    return _join(text)


def _join(text: str) -> str:
    out: list[str] = []
    carry = ""
    for line in text.split("\n"):
        if carry:
            line = carry + line.lstrip(" \t")
            carry = ""
        if line.endswith("\\") and not line.lstrip().startswith("#"):
            carry = line[:-1].rstrip(" \t") + " "
            continue
        out.append(line)
    if carry:
        out.append(carry.rstrip())
    return "\n".join(out)


def _tabs(path: Path, text: str) -> str | None:
    if _suffix(path) not in SHELL:
        return None
    return re.sub(r"\\\n[ \t]+", "\\\n\t", text)


REWRITES = {
    "crlf": lambda p, t: t.replace("\r\n", "\n").replace("\n", "\r\n"),
    "bom": lambda p, t: None if t.startswith("\ufeff") else "\ufeff" + t,
    "comment": _comment,
    "trailing": _trailing,
    "reorder": _reorder,
    "reindent": _reindent,
    "oneline": _oneline_json,
    "python3": _python3,
    "joined": _joined,
    "tabs": _tabs,
}


def _key(r: dict) -> tuple:
    if r["outcome"] != "read":
        return (r["outcome"],)
    return ("read", r["trainer"], tuple(sorted(r["required"])), r["dtype"], r["compile_mode"] or "none")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--show", action="append", default=[], choices=sorted(REWRITES), help="list what this rewrite changes")
    ap.add_argument("--out", help="write the counts and every changed reading to this JSON file")
    ap.add_argument("--note", default="", help="a line about the machine and the code measured, kept in --out")
    args = ap.parse_args(argv)
    changed: list[dict] = []
    folders = sorted(p for p in CONFIGS.iterdir() if p.is_dir() and p.name not in NOT_TRAINING)
    files = [f for d in folders for f in corpus(d)]
    counts = {k: [0, 0] for k in REWRITES}
    with tempfile.TemporaryDirectory(prefix="cfgrob-") as tmp:
        copies: dict[Path, Path] = {}
        for path in files:
            try:
                text = path.read_bytes().decode("utf-8")
            except UnicodeDecodeError:
                continue
            before = _key(read(path))
            if before == ("crashed",):
                continue
            parent = path.parent
            if parent not in copies:  # the file's neighbours, once per folder
                copies[parent] = Path(tmp) / str(len(copies))
                shutil.copytree(parent, copies[parent])
            where = copies[parent] / path.name
            for name, rewrite in REWRITES.items():
                new = rewrite(path, text)
                if new is None or new == text:
                    continue
                where.write_bytes(new.encode("utf-8"))
                after = _key(read(where))
                counts[name][0] += 1
                counts[name][1] += after == before
                if after != before:
                    changed.append({"rewrite": name, "file": str(path.relative_to(ROOT)),
                                    "before": list(before), "after": list(after)})
                if after != before and name in args.show:
                    print(f"  {name}: {path.relative_to(ROOT)}: {before} -> {after}")
            where.write_bytes(path.read_bytes())
    print(f"{len(files)} training configs (fixtures/configs, not {', '.join(NOT_TRAINING)})")
    print(f"{'rewrite':<10}{'files':>7}{'same':>7}")
    for name, (n, same) in counts.items():
        print(f"{name:<10}{n:>7}{same:>7}   {100.0 * same / n if n else 0:5.1f}%")
    if args.out:
        Path(args.out).write_text(json.dumps({
            "date": datetime.date.today().isoformat(), "note": args.note, "configs": len(files),
            "excluded": list(NOT_TRAINING), "rewrites": {k: {"files": n, "same": same} for k, (n, same) in counts.items()},
            "changed": changed}, indent=1, default=str) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
