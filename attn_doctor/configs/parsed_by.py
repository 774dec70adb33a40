"""Which program of a user's repository parses a YAML / JSON settings file (session 18, cfg77).

A YAML of TrainingArguments / TRL field names is read on its keys alone (hf_transformers.fields_evidence: 0.9 of them
decides), yet the repository itself says who parses it: a script that names the file (its path, its folder beside its
name, an argparse `--config` default, a glob of its folder) or a usage line that runs a script of the repository with it
(a launch script's, a README's, the script's own docstring or comment: `python main.py --config configs/x/sft.yaml`).
How that script parses it decides:
- TRL's `TrlParser(...)`, the alignment-handbook's `H4ArgumentParser(...)`, `HfArgumentParser(...).parse_yaml_file` /
  `.parse_json_file` / `.parse_dict`, `parser.parse_args_and_config()`, given a class of TRL / transformers / the
  handbook (SFTConfig, ModelConfig, TrainingArguments; the user's own dataclasses beside it or not): the file's keys
  are the trainer's dataclasses' fields ("trainer": transformers, whatever share of them the user's own class adds);
- `yaml.safe_load` / `OmegaConf.load` / `json.load` / `tomllib.load`, the values then taken by name (`cfg["lr"]`,
  `cfg.get("bf16", True)`), whether or not a trainer runs after: the script's own schema ("own"; refused, as the
  rounds label such files unclaimed:user-script, naming the script, which is what to read instead);
- the values handed whole to a class (`SFTConfig(**cfg)`, `setattr` in a loop), a parser of the repository's own
  classes alone, or scripts that disagree: None.
Nothing found (a file read alone, no script of the repository naming it): None, and the keys decide as before.

Only paths that resolve to this very file (or its folder) count, so a script of another repository, or one naming
another `config.yaml`, never does. Everything is read, nothing is run or imported.
"""

from __future__ import annotations

import ast
import fnmatch
import os
import re
import stat

from .pyscript.settings_files import _PARSES, _PATH_PARSES
from ..textutil import walk_nodes

# the parsers that fill a trainer's dataclasses from a YAML / JSON file
_TRAINER_PARSE = re.compile(r"\bTrlParser\s*\(|\bH4ArgumentParser\s*\(|\.parse_yaml_file\s*\(|\.parse_json_file\s*\(|"
                            r"\.parse_args_and_config\s*\(|\.parse_dict\s*\(")
# the loaded values handed on whole to a trainer's (or any) config class: `SFTConfig(**cfg)`,
# `TrainingArguments(**cfg["training"])`, `GRPOTrainer(**kw)`, or copied key by key (`setattr(args, k, v)`): then the
# keys are that class's fields, and the keys decide as before
_HANDED_WHOLE = re.compile(r"(?:Config|Arguments|Args|Trainer)\s*\(\s*\*\*|\bsetattr\s*\(")
# the calls that read a settings file into plain Python values, from a stream, its text or its path (`json.loads(f.read())`:
# round 75m's sarelWeinberger train.py, cfg78): pyscript.settings_files' parsers, and YAML's *_all for a file of documents
_PLAIN_PARSE = re.compile(r"\b(?:%s)\s*\(" % "|".join(
    re.escape(p) for p in sorted(_PARSES | _PATH_PARSES | {p + "_all" for p in _PARSES if p.startswith("yaml.")},
                                 key=lambda p: (-len(p), p))))
_MARKERS = re.compile(r"^(\.git|pyproject\.toml|setup\.py|setup\.cfg|requirements[\w.-]*\.txt|README(\.\w+)?)$",
                      re.IGNORECASE)
_SKIP_DIRS = {"node_modules", "site-packages", "__pycache__", "venv", "env", "build", "dist", "wandb", "outputs"}
_MAX_FILES, _MAX_BYTES, _MAX_DEPTH = 400, 300_000, 5
# a launch line that runs a Python script: the script's word
_PY_WORD = re.compile(r"(?<![\w/.-])([\w./-]+\.py)\b")


def _scope(path: str) -> str:
    """The folder whose files are the repository's: the nearest of the file's folder and the three above it that holds
    a repository's marker (.git, pyproject.toml, setup.py, requirements*.txt, a README), else the folder above the
    file's (configs/x.yaml's repository root)."""
    base = os.path.dirname(os.path.abspath(path))
    up = base
    for _ in range(4):
        try:
            if any(_MARKERS.match(n) for n in os.listdir(up)):
                return up
        except OSError:
            pass
        nxt = os.path.dirname(up)
        if nxt == up:
            break
        up = nxt
    return os.path.dirname(base)


_CACHE: dict = {}  # (path, size, mtime) -> (text, its strings, how it parses): a round's files are read once
_HELD = [0]  # the bytes of the files the cache holds
_CACHE_BYTES = 64_000_000  # what the cache may hold in all (400 files of 300 KB a repository; a benchmark reads many)


def _read(p: str):
    st = os.stat(p)
    key = (p, st.st_size, st.st_mtime_ns)
    if key not in _CACHE:
        if _HELD[0] + st.st_size > _CACHE_BYTES:
            _CACHE.clear()
            _HELD[0] = 0
        _HELD[0] += st.st_size
        with open(p, encoding="utf-8", errors="replace") as fh:
            text = fh.read()
        _CACHE[key] = [text, None, None]
    return _CACHE[key]


def _files(root: str):
    """(path, entry) of the repository's .py and shell launch files under `root`, bounded in count, size and depth."""
    seen = 0
    for here, dirs, names in os.walk(root):
        depth = os.path.relpath(here, root).count(os.sep)
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in _SKIP_DIRS and depth < _MAX_DEPTH)
        for n in sorted(names):
            if not n.endswith((".py", ".sh", ".bash", ".slurm", ".sbatch", ".md", ".rst", ".txt")) or \
                    (n.endswith((".md", ".rst", ".txt")) and not n.upper().startswith(("README", "USAGE"))):
                continue
            seen += 1
            if seen > _MAX_FILES:
                return
            p = os.path.join(here, n)
            try:
                if os.path.getsize(p) > _MAX_BYTES:
                    continue
                got = _read(p)
            except OSError:
                continue
            yield p, got


def _stat(p: str):
    """os.stat of `p` (links followed, as os.path.exists and os.path.samefile follow them), or None where it fails."""
    try:
        return os.stat(p)
    except (OSError, ValueError):
        return None


def _names(word: str, bases, target: str, folder: str, stats: tuple | None = None) -> str | None:
    """'file' when `word` (a path as the script or launcher writes it) resolves, from one of `bases`, to `target`;
    'folder' when to its folder, or a glob of its folder matching it; None otherwise. stats: _stat of target and of
    folder, when the caller has them (parsed_by asks this of thousands of words about one file: each word's path is
    asked the file system once, not once for existing, again for each samefile and for isdir)."""
    word = word.strip().strip("\"'").rstrip(";&|\\").strip("\"'")
    if not word or len(word) > 300 or word in (".", "./"):
        return None
    target_st, folder_st = stats if stats is not None else (_stat(target), _stat(folder))
    for b in bases:
        p = os.path.normpath(os.path.join(b, word))
        if any(c in word for c in "*?["):
            # a glob of one folder's settings files (`configs/*.yaml`): the folder spelt out, the file's extension in the
            # pattern; a bare `*.yaml` (every file beside the script), `**/*` or `data/*/*.json` names no file of its own
            folder_part, _, name_part = word.rstrip("/").rpartition("/")
            if not folder_part or any(c in folder_part for c in "*?[") or \
                    os.path.splitext(target)[1].lower() not in name_part.lower():
                continue
            if fnmatch.fnmatch(os.path.abspath(target), os.path.abspath(p)):
                return "file"
            continue
        st = _stat(p)
        if st is None:
            continue
        if target_st is not None and os.path.samestat(st, target_st):
            return "file"
        if folder_st is not None and os.path.samestat(st, folder_st) and stat.S_ISDIR(st.st_mode):
            return "folder"
    return None


def _bases(script: str, root: str) -> list:
    d = os.path.dirname(script)
    out = [d, os.path.dirname(d), root]
    return list(dict.fromkeys(out))


def _strings(src: str) -> list:
    try:
        t = ast.parse(src)
    except (SyntaxError, ValueError):
        return re.findall(r"[\"']([^\"'\n]{1,300})[\"']", src)
    return [n.value for n in walk_nodes(t) if isinstance(n, ast.Constant) and isinstance(n.value, str)
            and "\n" not in n.value and len(n.value) <= 300]


_PARSERS = {"TrlParser", "HfArgumentParser", "H4ArgumentParser"}
_LIBRARIES = {"trl", "transformers", "alignment", "open_r1"}


def _library_classes_parsed(src: str) -> bool:
    """A TrlParser / HfArgumentParser / H4ArgumentParser of the script is given a class imported from TRL, transformers
    or the alignment-handbook (by name, or as `trl.SFTConfig`), not one the script defines itself."""
    try:
        t = ast.parse(src)
    except (SyntaxError, ValueError):
        return False
    imported = {a.asname or a.name for n in ast.walk(t) if isinstance(n, ast.ImportFrom) and n.level == 0 and
                (n.module or "").split(".")[0] in _LIBRARIES for a in n.names}
    imported -= {n.name for n in ast.walk(t) if isinstance(n, ast.ClassDef)}
    for n in ast.walk(t):
        if not (isinstance(n, ast.Call) and (n.func.id if isinstance(n.func, ast.Name) else
                                             n.func.attr if isinstance(n.func, ast.Attribute) else "") in _PARSERS):
            continue
        for a in ast.walk(ast.Tuple(elts=list(n.args) + [k.value for k in n.keywords], ctx=ast.Load())):
            if isinstance(a, ast.Name) and a.id in imported and a.id not in _PARSERS:
                return True
            if isinstance(a, ast.Attribute) and isinstance(a.value, ast.Name) and a.value.id in _LIBRARIES:
                return True
    return False


def _kind(src: str) -> tuple[str, str] | None:
    """How a script parses a settings file: ("trainer", call) / ("own", call), or None (neither)."""
    m = _TRAINER_PARSE.search(src)
    if m:
        # the trainer's fields only where the parser is given a class of the trainers' libraries (TRL's SFTConfig /
        # ModelConfig, transformers' TrainingArguments, the handbook's), beside the user's own or not; a parser of the
        # repository's own classes alone (round 9's Hexixi926 sft.py: HfArgumentParser(SFTConfig) of its configs.py)
        # reads the repository's schema, and the keys decide as before
        return ("trainer", m.group(0).strip(".( ").strip()) if _library_classes_parsed(src) else None
    m = _PLAIN_PARSE.search(src)
    if not m:
        return None
    if _HANDED_WHOLE.search(src):
        return None  # the values go whole into a config class (SFTConfig(**cfg)): the keys decide, as before
    # the values taken one by one (`cfg["model_name_or_path"]`, `cfg.get("bf16", True)` into SFTConfig(bf16=...)): the
    # file is the script's own schema, whether or not a trainer then runs (round 68m's AounAbdullah train_sft.py)
    return "own", m.group(0).rstrip("( ")


def parsed_by(doc: dict) -> dict | None:
    """{"kind": "trainer" | "own", "script": the parsing script (relative to the repository), "how": the call} for a
    YAML / JSON file that a script of its repository names and parses; None when none does (or several disagree)."""
    if doc.get("fmt") not in ("yaml", "json") or not doc.get("path") or not os.path.isfile(doc["path"]):
        return None
    if "parsed_by" in doc:
        return doc["parsed_by"]
    target = os.path.abspath(doc["path"])
    folder = os.path.dirname(target)
    root = _scope(target)
    files = dict(_files(root))
    found = {}
    memo: dict = {}
    stats = (_stat(target), _stat(folder))

    def names(w: str, bases: tuple):
        # (_names asks the file system the same of a word each time: a word repeats over a repository's lines and
        # strings, and nothing on disk changes within one reading)
        key = (w, bases)
        if key not in memo:
            memo[key] = _names(w, bases, target, folder, stats)
        return memo[key]

    def kind(e):
        if e[2] is None:
            e[2] = (_kind(e[0]),)
        return e[2][0]

    for p, e in files.items():
        src = e[0]
        bases = tuple(_bases(p, root))  # (the file's own, asked once rather than for each of its words)
        if p.endswith(".py"):
            if e[1] is None:
                e[1] = _strings(src)
            named = [names(s, bases) for s in e[1]
                     if os.path.basename(target) in s or "/" in s or "*" in s or os.path.basename(folder) in s]
            base = os.path.basename(target)
            # its folder counts beside its own name (`os.path.join("configs", "x.yaml")`, `ROOT / "configs" / "x.yaml"`):
            # a folder's name alone ("transformers", "data") is a word of many scripts, not a reading of this file
            if "file" in named or ("folder" in named and any(x == base or x.endswith("/" + base) for x in e[1])):
                found.setdefault(p, kind(e))
        # a launch script, a README's or a docstring's usage line (`python scripts/train_sft.py --config
        # configs/qlora_7b.yaml`): a line that runs a script of the repository with this file
        for line in src.splitlines():
            if ".py" not in line or (line.lstrip().startswith("#") and not p.endswith((".py", ".md", ".rst", ".txt"))):
                # (a shell's commented-out command is not run; a script's comment or a README's line is its usage)
                continue
            words = re.split(r"[\s=,\[\]()`]+", line)
            if not any(names(w, bases) == "file" for w in words):
                continue
            for m in _PY_WORD.finditer(line):
                hit = next((os.path.normpath(os.path.join(b, m.group(1))) for b in bases
                            if os.path.normpath(os.path.join(b, m.group(1))) in files), None)
                if hit is not None:
                    found.setdefault(hit, kind(files[hit]))
    kinds = {k for k in found.values() if k is not None}
    out = None
    if kinds:
        trainer = sorted((p, k) for p, k in found.items() if k is not None and k[0] == "trainer")
        own = sorted((p, k) for p, k in found.items() if k is not None and k[0] == "own")
        pick = trainer[0] if trainer else own[0] if not any(k is None for k in found.values()) else None
        if pick is not None:
            out = {"kind": pick[1][0], "how": pick[1][1], "script": os.path.relpath(pick[0], root).replace(os.sep, "/")}
    doc["parsed_by"] = out
    return out
