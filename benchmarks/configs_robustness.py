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
Added in session 10 (cfg45), what other tools and users save (each function's docstring says how):
  notebook   a notebook saved by another Jupyter: nbformat 4.4 <-> 4.5 (cell ids), outputs stripped, one-space indents
  nbsource   the same with every cell's source one string instead of a list of lines
  merge      YAML with `<<: &anchor` merge keys (half of every mapping's keys merged in)
  aliases    YAML with every repeated string value written once with &anchor, then as *alias
  inline     TOML tables and arrays of tables as inline tables
  dotted     TOML tables as dotted keys at the top
  tables     TOML inline tables as [tables] / [[arrays of tables]]
  strict     `set -euo pipefail` after a shell script's shebang and leading comments
  function   a shell script's body in `main() { ... }` run as `main "$@"` (with set -euo pipefail)
  dotenv     a shell script's `export NAME=value` lines in a .env beside it, which the script sources
  dotenvplain  the same as `NAME=value` lines, sourced with `set -a; . ./.env; set +a`
  bat        a simple shell launch (assignments and commands) as a .bat: set, %NAME%, `^` continuations
  ps1        the same as a .ps1: $env:NAME / $NAME, backtick continuations
  winjoined  a .bat's `^` / a .ps1's backtick continuations joined into one line
  pylist     a simple shell launch as a Python launcher: subprocess.run([...]) with an argument list
  pystring   the same with one command string and shell=True
  subprocess a Python launcher's subprocess call with a literal list as a string with shell=True, and back
  bashcell   a notebook cell of `!` shell lines as one `%%bash` cell (no cd, assignment or interpolation in it)
  envmagic   a notebook's `%env NAME=value` as `os.environ["NAME"] = "value"`, and back
  pyexec     pylist with each `python` command's interpreter as sys.executable (only launches that start with python)
  ossystem   pystring with os.system(STRING)
  equals     a launch's `--name=value` options as `--name value`
  module     `accelerate launch` as `python -m accelerate.commands.launch`, `torchrun` as `python -m torch.distributed.run`
  yamlflow   YAML in flow style ({key: value, list: [...]})
  docstart   YAML with a `---` document start first and `...` last

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

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

from configs_heldout import corpus, read  # noqa: E402
from configs_refusals import MEASURE_ONLY  # noqa: E402

CONFIGS = ROOT / "fixtures" / "configs"
# held out and measure-only: configs_refusals.MEASURE_ONLY is the one list (rounds 10m, 16m, 41m, 47m, 49m, 54m, 57m and
# 61m were measure-only until the lead measured them and are training material since)
NOT_TRAINING = tuple(sorted(MEASURE_ONLY))
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


# ---------------------------------------------------------------------------------------------------------------------
# Rewrites of session 10 (cfg45): how other tools and other users save the same launch. Each returns the new text, or a
# Moved (the same launch saved under another name, and the files it sources beside it), or None where it does not apply.
# ---------------------------------------------------------------------------------------------------------------------


class Moved:
    """The rewritten launch saved as `suffix` (".bat", ".py": the file's name with that suffix) with `extra` files
    (name -> text) beside it, as a user who moves the launch into another file type saves it."""

    def __init__(self, text: str, suffix: str | None = None, extra: dict | None = None):
        self.text, self.suffix, self.extra = text, suffix, extra or {}


def _notebook(path: Path, text: str, source_string: bool = False) -> str | None:
    """A notebook saved by another Jupyter: nbformat 4.5 <-> 4.4 (cell ids added or dropped: nbformat 4.5's schema
    requires them, 4.4's has none), outputs and execution counts stripped (nbstripout, "Clear All Outputs"), one-space
    indents (Jupyter's writer); with source_string, every cell's source as one string instead of a list of lines (the
    schema's multiline_string is either)."""
    if _suffix(path) != ".ipynb":
        return None
    try:
        nb = json.loads(text)
    except ValueError:
        return None
    if not isinstance(nb, dict) or not isinstance(nb.get("cells"), list) or nb.get("nbformat") != 4:
        return None
    minor = nb.get("nbformat_minor", 0)
    nb["nbformat_minor"] = 4 if isinstance(minor, int) and minor >= 5 else 5
    for i, cell in enumerate(nb["cells"]):
        if not isinstance(cell, dict):
            return None
        if nb["nbformat_minor"] >= 5:
            cell.setdefault("id", f"c{i:04x}")
        else:
            cell.pop("id", None)
        if cell.get("cell_type") == "code":
            cell["outputs"], cell["execution_count"] = [], None
        src = cell.get("source")
        if isinstance(src, list):
            src = "".join(src)
        if isinstance(src, str):
            cell["source"] = src if source_string else src.splitlines(keepends=True)
    return json.dumps(nb, indent=1, ensure_ascii=False) + "\n"


def _yaml_scalar(v) -> str:
    out = yaml.safe_dump([v], default_flow_style=True, width=10 ** 9, allow_unicode=True).strip()
    return out[1:-1]


def _yaml_block(data: dict, indent: int, merge: bool, anchors: dict, counter: list, depth: int = 0) -> list[str]:
    pad = " " * indent
    items = list(data.items())
    lines: list[str] = []
    if merge and len(items) >= 2:
        k = len(items) // 2
        counter[0] += 1
        lines.append(f"{pad}<<: &base{counter[0]}")
        lines += _yaml_block(dict(items[:k]), indent + 2, merge, anchors, counter, depth + 1)
        items = items[k:]
    for key, value in items:
        head = f"{pad}{_yaml_scalar(key)}:"
        if isinstance(value, dict) and value:
            lines.append(head)
            lines += _yaml_block(value, indent + 2, merge, anchors, counter, depth + 1)
        elif isinstance(value, str) and value in anchors:
            name, seen = anchors[value]
            lines.append(f"{head} *{name}" if seen else f"{head} &{name} {_yaml_scalar(value)}")
            anchors[value] = (name, True)
        else:
            lines.append(f"{head} {_yaml_scalar(value)}")
    return lines


def _strings(data, out: list) -> list:
    if isinstance(data, dict):
        for v in data.values():
            if isinstance(v, str):
                out.append(v)
            elif isinstance(v, dict):
                _strings(v, out)
    return out


def _yaml_anchored(path: Path, text: str, merge: bool) -> str | None:
    """YAML with `<<:` merge keys (merge: half of every mapping's keys merged from an anchored mapping, YAML 1.1's
    merge key, which PyYAML, ruamel and OmegaConf resolve) or with aliases (every string value a mapping repeats written
    once with an anchor, then as *alias). Loads to the same mapping; None where it would not."""
    if _suffix(path) not in (".yaml", ".yml"):
        return None
    try:
        data = yaml.safe_load(text)
    except (yaml.YAMLError, RecursionError):
        return None
    if not isinstance(data, dict) or len(data) < 2 or not all(isinstance(k, str) for k in data):
        return None
    anchors: dict = {}
    if not merge:
        from collections import Counter

        seen = Counter(s for s in _strings(data, []) if len(s) >= 2)
        anchors = {s: (f"v{i}", False) for i, s in enumerate(s for s, n in seen.items() if n >= 2)}
        if not anchors:
            return None
    out = "\n".join(_yaml_block(data, 0, merge, anchors, [0])) + "\n"
    try:
        again = yaml.safe_load(out)
    except (yaml.YAMLError, RecursionError):
        return None
    return out if again == data and list(again) == list(data) else None


_BARE_KEY = re.compile(r"^[A-Za-z0-9_-]+$")


def _toml_key(k: str) -> str:
    return k if _BARE_KEY.match(k) else json.dumps(k, ensure_ascii=False)


def _toml_value(v) -> str:
    import datetime as dt

    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return repr(v)
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)
    if isinstance(v, (dt.datetime, dt.date, dt.time)):
        return v.isoformat()
    if isinstance(v, list):
        return "[" + ", ".join(_toml_value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{_toml_key(k)} = {_toml_value(x)}" for k, x in v.items()) + " }"
    raise TypeError(type(v))


def _toml_tables(data: dict, prefix: list[str], lines: list[str], dotted: bool) -> None:
    scalars = [(k, v) for k, v in data.items() if not isinstance(v, dict) and not _table_array(v)]
    for k, v in scalars:
        lines.append(f"{_toml_key(k)} = {_toml_value(v)}")
    for k, v in data.items():
        if isinstance(v, dict):
            if dotted:
                for dk, dv in _dotted(v, [k]):
                    lines.append(f"{dk} = {_toml_value(dv)}")
            else:
                lines.append("")
                lines.append("[" + ".".join(_toml_key(x) for x in prefix + [k]) + "]")
                _toml_tables(v, prefix + [k], lines, dotted)
    for k, v in data.items():
        if _table_array(v):
            for item in v:
                lines.append("")
                lines.append("[[" + ".".join(_toml_key(x) for x in prefix + [k]) + "]]")
                _toml_tables(item, prefix + [k], lines, False)


def _table_array(v) -> bool:
    return isinstance(v, list) and bool(v) and all(isinstance(x, dict) for x in v)


def _dotted(data: dict, prefix: list[str]):
    for k, v in data.items():
        if isinstance(v, dict) and v:
            yield from _dotted(v, prefix + [k])
        else:
            yield ".".join(_toml_key(x) for x in prefix + [k]), v


def _toml(path: Path, text: str, how: str) -> str | None:
    """TOML's other layouts of the same tables: `inline` (every table and array of tables an inline value:
    `model = { name = "x" }`, `datasets = [{ ... }]`), `dotted` (`model.name = "x"` at the top), `tables` (every table a
    [section] and every array of tables [[section]]). TOML 1.0 reads them to the same document."""
    if _suffix(path) != ".toml":
        return None
    try:
        data = tomllib.loads(text)
    except (tomllib.TOMLDecodeError, RecursionError):
        return None
    if not any(isinstance(v, dict) or _table_array(v) for v in data.values()):
        return None
    try:
        if how == "inline":
            out = "\n".join(f"{_toml_key(k)} = {_toml_value(v)}" for k, v in data.items()) + "\n"
        else:
            lines: list[str] = []
            _toml_tables(data, [], lines, how == "dotted")
            out = "\n".join(lines).lstrip("\n") + "\n"
        return out if tomllib.loads(out) == data else None
    except (TypeError, tomllib.TOMLDecodeError):
        return None


def _lines_of(text: str) -> tuple[str, list[str], list[str]]:
    """(shebang line or "", the leading comment block after it, the rest) of a shell script."""
    lines = text.split("\n")
    head = lines.pop(0) if lines and lines[0].startswith("#!") else ""
    lead: list[str] = []
    while lines and (lines[0].lstrip().startswith("#") or not lines[0].strip()):
        lead.append(lines.pop(0))
    return head, lead, lines


def _strict(path: Path, text: str) -> str | None:
    """`set -euo pipefail` after the shebang and the leading comments (#SBATCH lines must stay first)."""
    if _suffix(path) not in SHELL or "pipefail" in text:
        return None
    head, lead, rest = _lines_of(text)
    if not rest:
        return None
    return "\n".join(([head] if head else []) + lead + ["set -euo pipefail", ""] + rest)


def _function(path: Path, text: str) -> str | None:
    """The script's body inside `main() { ... }`, run as `main "$@"` (the layout of a script that took `set -euo
    pipefail` and functions from a style guide): the same commands, with the script's own arguments."""
    if _suffix(path) not in SHELL:
        return None
    head, lead, rest = _lines_of(text)
    body = "\n".join(rest).rstrip("\n")
    if not body.strip() or re.search(r"(?m)(^|[;&|{]|\bthen|\bdo|\belse)\s*(return|local|declare)\b", body):
        return None  # a top-level return / local is an error outside a function and means something else inside one
    return "\n".join(([head] if head else []) + lead + ["set -euo pipefail", "", "main() {", body, "}", "", 'main "$@"', ""])


_ENV_EXPORT = re.compile(r"^export\s+([A-Za-z_][A-Za-z0-9_]*)=(\S*)\s*$")


def _dotenv(path: Path, text: str, plain: bool = False) -> Moved | None:
    """The script's top-level `export NAME=value` lines moved into a `.env` beside it, which the script sources where
    the first one stood (`source .env`, bash's and zsh's way to run a file in this shell). Only a value with no
    command substitution, and only where the folder has no .env of its own. plain: the .env in dotenv's own layout
    (`NAME=value`, as docker compose and python-dotenv read it), sourced between `set -a` and `set +a` (bash exports
    every variable assigned while -a is on) with POSIX's `. ./.env`."""
    if _suffix(path) not in SHELL or (path.parent / ".env").exists():
        return None
    lines = text.split("\n")
    moved, out, placed = [], [], False
    for line in lines:
        m = _ENV_EXPORT.match(line)
        if m and "$(" not in line and "`" not in line:
            moved.append(f"{m.group(1)}={m.group(2)}" if plain else line)
            if not placed:
                out.append("set -a; . ./.env; set +a" if plain else "source .env")
                placed = True
            continue
        out.append(line)
    if not moved:
        return None
    return Moved("\n".join(out), extra={".env": "\n".join(moved) + "\n"})


# A launch script the Windows and Python translations take: assignments and commands only, one command per line
_UNSAFE = re.compile(r"\$\(|`|\$\{[^}]*[:#%/]|[;|&<>]|\b(if|then|fi|for|while|do|done|case|esac|function|source|eval|"
                     r"exec|read|shift|set|trap|wait|cd|pushd)\b|[()]|\[\[|\$[0-9@*#?!]|~")
_ASSIGN = re.compile(r"^(export\s+)?([A-Za-z_][A-Za-z0-9_]*)=(.*)$")
_VAR = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)")


def _simple_script(text: str) -> list | None:
    """[("set", name, words, exported) | ("run", words)] of a launch script made of assignments and commands, or None."""
    import shlex

    steps = []
    for line in _join(text).split("\n"):
        s = line.strip()
        if not s or s.startswith("#"):
            continue
        if _UNSAFE.search(s) or "'" in s and "$" in s or s.endswith("^"):  # (a cmd.exe continuation: not bash's)
            return None
        m = _ASSIGN.match(s)
        try:
            if m:
                words = shlex.split(m.group(3), comments=True)
                if len(words) > 1:
                    return None
                steps.append(("set", m.group(2), words[0] if words else "", bool(m.group(1))))
            else:
                words = shlex.split(s, comments=True)
                if words:
                    steps.append(("run", words))
        except ValueError:
            return None
    if not any(st[0] == "run" for st in steps):
        return None
    return steps


def _win_word(w: str, ref, ps: bool) -> str:
    w = _VAR.sub(lambda m: ref(m.group(1) or m.group(2)), w)
    special = " $@{}(),;#'" if ps else " "
    return '"' + w + '"' if not w or any(c in w for c in special) else w


def _windows(path: Path, text: str, shell: str) -> Moved | None:
    """The same launch as a .bat (`set NAME=value`, %NAME%, `^` continuations) or a .ps1 (`$env:NAME = "value"` for an
    exported variable, `$NAME = "value"` otherwise, backtick continuations): a shell script of assignments and
    commands only, each command's options one to a continued line as Windows users' launch scripts keep them."""
    if _suffix(path) not in SHELL:
        return None
    steps = _simple_script(text)
    if steps is None or '"' in text or "%" in text or "^" in text:
        return None
    exported = {st[1] for st in steps if st[0] == "set" and st[3]}
    if shell == "bat":
        ref = lambda n: f"%{n}%"  # noqa: E731
        out = ["@echo off", "REM the same launch on Windows"]
        for st in steps:
            if st[0] == "set":
                out.append(f"set {st[1]}={_VAR.sub(lambda m: ref(m.group(1) or m.group(2)), st[2])}")
            else:
                out.append(_continued([_win_word(w, ref, False) for w in st[1]], " ^"))
        return Moved("\r\n".join(out) + "\r\n", suffix=".bat")
    ref = lambda n: f"$env:{n}" if n in exported else f"${n}"  # noqa: E731
    out = ["# the same launch on Windows"]
    for st in steps:
        if st[0] == "set":
            value = _VAR.sub(lambda m: ref(m.group(1) or m.group(2)), st[2])
            out.append(f'{ref(st[1])} = "{value}"')
        else:
            words = st[1]
            first = words[0] if "$" not in words[0] else "& " + _win_word(words[0], ref, True)
            out.append(_continued([first] + [_win_word(w, ref, True) for w in words[1:]], " `"))
    return Moved("\n".join(out) + "\n", suffix=".ps1")


def _continued(words: list[str], mark: str) -> str:
    """A command with each option (and its value) on a continued line."""
    lines, cur = [], [words[0]]
    for w in words[1:]:
        if w.startswith("-") and len(cur) > 0 and (len(lines) > 0 or len(cur) > 1):
            lines.append(" ".join(cur))
            cur = [w]
        else:
            cur.append(w)
    lines.append(" ".join(cur))
    return (mark + "\n  ").join(lines)


def _python_launcher(path: Path, text: str, as_string: bool, how: str = "") -> Moved | None:
    """The same launch as a Python launcher: assignments as Python variables (os.environ[...] for exported ones) and
    each command run by subprocess.run with an argument list, or (as_string) with one command string and shell=True.
    how="sys.executable": a command's `python` / `python3` as sys.executable (the interpreter running the launcher);
    how="os.system": the string run by os.system (what subprocess.run(..., shell=True) does: /bin/sh -c STRING)."""
    import shlex

    if _suffix(path) not in SHELL:
        return None
    steps = _simple_script(text)
    if steps is None:
        return None
    names = {st[1] for st in steps if st[0] == "set"}

    def fword(w: str) -> str:
        if not _VAR.search(w):
            return repr(w)
        if any((m.group(1) or m.group(2)) not in names for m in _VAR.finditer(w)):
            return None
        body = _VAR.sub(lambda m: "\0" + (m.group(1) or m.group(2)) + "\1", w)
        body = body.replace("{", "{{").replace("}", "}}").replace("\0", "{").replace("\1", "}")
        return "f" + repr(body)

    out = ["import os", "import subprocess", "import sys", ""]
    for st in steps:
        if st[0] == "set":
            value = fword(st[2])
            if value is None:
                return None
            out.append(f"{st[1]} = {value}")
            if st[3]:
                out.append(f"os.environ[{st[1]!r}] = {st[1]}")
        else:
            words = [fword(w) for w in st[1]]
            if None in words:
                return None
            if as_string:
                parts = []
                for w in st[1]:
                    q = shlex.quote(w) if not _VAR.search(w) else '"' + w + '"'
                    parts.append(q)
                line = " ".join(parts)
                used = [m.group(1) or m.group(2) for m in _VAR.finditer(line)]
                line = _VAR.sub(lambda m: "\0" + (m.group(1) or m.group(2)) + "\1", line)
                line = line.replace("{", "{{").replace("}", "}}").replace("\0", "{").replace("\1", "}")
                if how == "os.system":
                    out.append(f"os.system({'f' if used else ''}{line!r})")
                else:
                    out.append(f"subprocess.run({'f' if used else ''}{line!r}, shell=True, check=True)")
            else:
                if how == "sys.executable" and st[1][0] in ("python", "python3"):
                    words[0] = "sys.executable"
                out.append("subprocess.run([" + ",\n                ".join(words) + "], check=True)")
    if how == "sys.executable" and "sys.executable" not in "\n".join(out[4:]):
        return None  # no command run by python: the same as pylist
    return Moved("\n".join(out) + "\n", suffix=".py")


def _subprocess_flip(path: Path, text: str) -> str | None:
    """A Python launcher's subprocess call with its command as a list of literal words written as one string with
    shell=True, and one string with shell=True as a list (shlex.split / shlex.join: what /bin/sh makes of the string)."""
    import ast
    import shlex

    if _suffix(path) != ".py":
        return None
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError):
        return None
    edits = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and node.args and isinstance(node.func, ast.Attribute)
                and isinstance(node.func.value, ast.Name) and node.func.value.id == "subprocess"
                and node.func.attr in ("run", "call", "check_call", "check_output", "Popen")):
            continue
        arg = node.args[0]
        shell_kw = [k for k in node.keywords if k.arg == "shell"]
        if isinstance(arg, ast.List) and arg.elts and all(isinstance(e, ast.Constant) and isinstance(e.value, str)
                                                          for e in arg.elts) and not shell_kw:
            edits.append((arg, repr(shlex.join([e.value for e in arg.elts])) + ", shell=True"))
        elif (isinstance(arg, ast.Constant) and isinstance(arg.value, str) and len(shell_kw) == 1
              and isinstance(shell_kw[0].value, ast.Constant) and shell_kw[0].value.value is True):
            if _UNSAFE.search(arg.value.replace("cd ", "")) or "$" in arg.value:
                continue
            try:
                words = shlex.split(arg.value)
            except ValueError:
                continue
            edits.append((arg, "[" + ", ".join(repr(w) for w in words) + "]"))
            edits.append((shell_kw[0], "shell=False"))
    if not edits:
        return None
    lines = text.split("\n")
    offsets = [0]
    for ln in lines:
        offsets.append(offsets[-1] + len(ln.encode("utf-8")) + 1)
    data = text.encode("utf-8")
    for node, new in sorted(edits, key=lambda e: (e[0].lineno, e[0].col_offset), reverse=True):
        start = offsets[node.lineno - 1] + node.col_offset
        end = offsets[node.end_lineno - 1] + node.end_col_offset
        data = data[:start] + new.encode("utf-8") + data[end:]
    return data.decode("utf-8")


def _win_joined(path: Path, text: str) -> str | None:
    """A .bat's `^` and a .ps1's backtick continuations joined into one line: cmd.exe and PowerShell read the same
    command (the mark must be the line's last character; a comment line continues nothing)."""
    mark = {".bat": "^", ".cmd": "^", ".ps1": "`"}.get(_suffix(path))
    if mark is None:
        return None
    out: list[str] = []
    carry = ""
    for line in text.split("\n"):
        cr = "\r" if line.endswith("\r") else ""
        body = line[:-1] if cr else line
        if carry:
            body = carry + body.lstrip(" \t")
            carry = ""
        low = body.lstrip().lower()
        if body.endswith(mark) and not (low.startswith(("rem ", "::", "#")) or low == "rem"):
            carry = body[:-1].rstrip(" \t") + " "
            continue
        out.append(body + cr)
    if carry:
        out.append(carry.rstrip())
    return "\n".join(out)


_EQUALS = re.compile(r"(?<=[ \t])(--[A-Za-z][\w-]*)=(?=[^\s=])")


def _equals(path: Path, text: str) -> str | None:
    """A launch's `--name=value` options written `--name value` (argparse, click and accelerate's own parser read both
    alike: "--foo=bar" and "--foo bar" are one option with one value)."""
    if _suffix(path) not in SHELL | {".bat", ".ps1"}:
        return None
    return _EQUALS.sub(r"\1 ", text)


_LAUNCHERS = {"accelerate launch": "python -m accelerate.commands.launch", "torchrun": "python -m torch.distributed.run"}


def _module_launch(path: Path, text: str) -> str | None:
    """`accelerate launch` as `python -m accelerate.commands.launch` and `torchrun` as `python -m torch.distributed.run`
    (the console scripts' own entry points: accelerate's setup.py maps `accelerate` to accelerate.commands.accelerate_cli
    whose `launch` is accelerate.commands.launch; torch's maps `torchrun` to torch.distributed.run:main)."""
    if _suffix(path) not in SHELL | {".bat", ".ps1"}:
        return None
    out = re.sub(r"(?m)(^|[\s;&|(])accelerate\s+launch(?=\s)", lambda m: m.group(1) + _LAUNCHERS["accelerate launch"], text)
    return re.sub(r"(?m)(^|[\s;&|(])torchrun(?=\s)", lambda m: m.group(1) + _LAUNCHERS["torchrun"], out)


def _yaml_flow(path: Path, text: str, start: bool) -> str | None:
    """YAML written in flow style (`{base_model: x, datasets: [{path: y}]}`: JSON-like, as yaml.dump's old default and
    OmegaConf's to_yaml of nested lists write it), or (start) with a `---` document start marker first and `...` last."""
    if _suffix(path) not in (".yaml", ".yml"):
        return None
    try:
        data = yaml.safe_load(text)
    except (yaml.YAMLError, RecursionError):
        return None
    if not isinstance(data, dict) or not data:
        return None
    if start:
        if re.search(r"(?m)^(---|\.\.\.)(\s|$)", text):
            return None  # a second start marker would begin a second (empty) document: yaml.safe_load refuses that
        out = "---\n" + text.lstrip("\ufeff").rstrip("\n") + "\n...\n"
        try:
            return out if yaml.safe_load(out) == data else None
        except yaml.YAMLError:
            return None
    out = yaml.safe_dump(data, default_flow_style=True, sort_keys=False, allow_unicode=True, width=10 ** 9)
    return out if yaml.safe_load(out) == data else None


def _notebook_cells(path: Path, text: str, change) -> str | None:
    """The notebook with change(source) -> new source (or None: unchanged) applied to each code cell."""
    if _suffix(path) != ".ipynb":
        return None
    try:
        nb = json.loads(text)
    except ValueError:
        return None
    if not isinstance(nb, dict) or not isinstance(nb.get("cells"), list):
        return None
    changed = False
    for cell in nb["cells"]:
        if not isinstance(cell, dict) or cell.get("cell_type") != "code":
            continue
        src = cell.get("source")
        src = "".join(src) if isinstance(src, list) else src
        if not isinstance(src, str):
            continue
        new = change(src)
        if new is not None and new != src:
            cell["source"] = new.splitlines(keepends=True)
            changed = True
    return json.dumps(nb, indent=1, ensure_ascii=False) + "\n" if changed else None


def _bash_cell(src: str) -> str | None:
    """A cell of `!` shell lines only as one `%%bash` cell (IPython runs each `!` line in a shell of its own, %%bash the
    cell as one script: alike for lines that set no state and ask no Python value: no cd, no assignment, no `$` / `{}`
    interpolation, which `!` lines take from Python's namespace and %%bash does not)."""
    body, cont, bang = [], False, False
    for ln in src.split("\n"):
        if cont:  # a `!` line ending in a backslash goes on here (IPython joins the lines before running them)
            body.append(ln)
        elif ln.lstrip().startswith("!"):
            body.append(ln.lstrip()[1:])
            bang = True
        elif not ln.strip() or ln.lstrip().startswith("#"):
            body.append(ln)
        else:
            return None
        cont = ln.rstrip().endswith("\\") and not ln.lstrip().startswith("#")
    if not bang:
        return None
    joined = "\n".join(body)
    if re.search(r"[${}]|\bcd\b|^\s*[A-Za-z_]\w*=|\bexport\b|\bpip\b|\bconda\b", joined, re.M):
        return None
    return "%%bash\n" + joined


_ENV_MAGIC = re.compile(r'(?m)^(\s*)%env\s+([A-Za-z_]\w*)\s*=\s*(\S.*?)\s*$')
_ENV_SET = re.compile(r"""(?m)^(\s*)os\.environ\[(["'])([A-Za-z_]\w*)\2\]\s*=\s*(["'])([^"'\\{}$]*)\4\s*$""")


def _env_magic(src: str) -> str | None:
    """IPython's `%env NAME=value` as `os.environ["NAME"] = "value"` (what the magic does: it sets os.environ) and
    back; the other direction only for a plain literal (no quotes, braces or $ inside)."""
    if "%env" in src:
        if "import os" not in src and _ENV_MAGIC.search(src):
            src = "import os\n" + src
        return _ENV_MAGIC.sub(lambda m: f'{m.group(1)}os.environ[{m.group(2)!r}] = {m.group(3).strip(chr(34) + chr(39))!r}', src)
    return _ENV_SET.sub(lambda m: f"{m.group(1)}%env {m.group(3)}={m.group(5)}", src)


NEW_REWRITES = {
    "notebook": _notebook,
    "nbsource": lambda p, t: _notebook(p, t, source_string=True),
    "merge": lambda p, t: _yaml_anchored(p, t, merge=True),
    "aliases": lambda p, t: _yaml_anchored(p, t, merge=False),
    "inline": lambda p, t: _toml(p, t, "inline"),
    "dotted": lambda p, t: _toml(p, t, "dotted"),
    "tables": lambda p, t: _toml(p, t, "tables"),
    "strict": _strict,
    "function": _function,
    "dotenv": _dotenv,
    "dotenvplain": lambda p, t: _dotenv(p, t, plain=True),
    "bat": lambda p, t: _windows(p, t, "bat"),
    "ps1": lambda p, t: _windows(p, t, "ps1"),
    "winjoined": _win_joined,
    "pylist": lambda p, t: _python_launcher(p, t, as_string=False),
    "pystring": lambda p, t: _python_launcher(p, t, as_string=True),
    "subprocess": _subprocess_flip,
    "bashcell": lambda p, t: _notebook_cells(p, t, _bash_cell),
    "envmagic": lambda p, t: _notebook_cells(p, t, _env_magic),
    "pyexec": lambda p, t: _python_launcher(p, t, as_string=False, how="sys.executable"),
    "ossystem": lambda p, t: _python_launcher(p, t, as_string=True, how="os.system"),
    "equals": _equals,
    "module": _module_launch,
    "yamlflow": lambda p, t: _yaml_flow(p, t, start=False),
    "docstart": lambda p, t: _yaml_flow(p, t, start=True),
}


REWRITES.update(NEW_REWRITES)


def read_moved(where: Path, moved: Moved) -> dict | None:
    """configs_heldout.read() of `moved` saved at `where` (a copy of the original file among copies of its neighbours;
    under its own suffix and with its extra files beside it, all removed again), or None where a file of that name is
    there already. The caller puts the original text back at `where`."""
    target = where if moved.suffix is None else where.with_suffix(moved.suffix)
    extra = [where.parent / n for n in moved.extra]
    if target != where and target.exists() or any(e.exists() for e in extra):
        return None
    target.write_bytes(moved.text.encode("utf-8"))
    for e, body in zip(extra, moved.extra.values()):
        e.write_bytes(body.encode("utf-8"))
    try:
        return read(target)
    finally:
        for e in extra:
            e.unlink()
        if target != where:
            target.unlink()


def _key(r: dict) -> tuple:
    if r["outcome"] != "read":
        return (r["outcome"],)
    return ("read", r["trainer"], tuple(sorted(r["required"])), r["dtype"], r["compile_mode"] or "none")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--show", action="append", default=[], choices=sorted(REWRITES), help="list what this rewrite changes")
    ap.add_argument("--only", action="append", default=[], choices=sorted(REWRITES), help="run only these rewrites")
    ap.add_argument("--out", help="write the counts and every changed reading to this JSON file")
    ap.add_argument("--note", default="", help="a line about the machine and the code measured, kept in --out")
    args = ap.parse_args(argv)
    changed: list[dict] = []
    folders = sorted(p for p in CONFIGS.iterdir() if p.is_dir() and p.name not in NOT_TRAINING)
    files = [f for d in folders for f in corpus(d)]
    rewrites = {k: v for k, v in REWRITES.items() if not args.only or k in args.only}
    counts = {k: [0, 0] for k in rewrites}
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
            for name, rewrite in rewrites.items():
                new = rewrite(path, text)
                if new is None or new == text:
                    continue
                got = read_moved(where, new if isinstance(new, Moved) else Moved(new))
                if got is None:
                    continue
                after = _key(got)
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
