"""The files a launcher names, found where the launcher's own run would find them (issue 24: `check --config run.sh`).

A launch script hands its trainer a config (`--config_file configs/sdxl.toml`, `llamafactory-cli train ${YAML}`,
`tune run ... --config ./my.yaml`) or runs a training script of the repository (`python src/train_sft.py`). The path is
relative to the directory the command runs in: the one the script `cd`s to (`cd "$(dirname "$0")/.."`, `cd sd-scripts`
then `../configs/x.toml`, `cd /d %~dp0`), else the one the user starts it from: its own folder, or the repository root
above it (`bash scripts/train.sh` with paths written from the root). The launcher's own folder is spelt
`$(dirname "$0")`, `${BASH_SOURCE[0]}`'s dirname, `$(cd "$(dirname "$0")" && pwd)`, `${0%/*}`, `%~dp0` (.bat),
`$PSScriptRoot` (.ps1), directly or through a variable holding it.

Everything is read, nothing is run. A referenced file that is not there is never guessed at: its path, as the launcher
writes it after the variables it settles (or the variable it leaves to the caller: `$1`), is noted in doc["unread"],
which load() hands on as the reading's `unread`.
"""

from __future__ import annotations

import os
import re

# the launcher's own path, as bash and PowerShell spell it
_SELF = re.compile(r"^(?:\$0|\$\{0\}|\$\{BASH_SOURCE(?:\[0\])?\}|\$BASH_SOURCE|\$PSCommandPath|"
                   r"\$MyInvocation\.MyCommand\.(?:Path|Definition))", re.IGNORECASE)
# the launcher's folder itself: `${0%/*}`, `${BASH_SOURCE%/*}`, PowerShell's $PSScriptRoot
_SELF_DIR = re.compile(r"^(?:\$\{(?:0|BASH_SOURCE(?:\[0\])?)%/\*\}|\$PSScriptRoot\b|\$\{PSScriptRoot\})", re.IGNORECASE)
# commands that print (a folder of) a path given to them: dirname / Split-Path -Parent take the folder, realpath /
# readlink -f / cd X && pwd / Resolve-Path print the same place
_DIRNAME = re.compile(r"^(?:dirname|split-path)(?:\s+(?:--|-parent|-path))*\s+(.*)$", re.IGNORECASE | re.DOTALL)
_SAME = re.compile(r"^(?:realpath(?:\s+-[a-z]+)*|readlink\s+-[fem]+|resolve-path|cd(?:\s+--)?)\s+(.*?)"
                   r"(?:\s*(?:&&|;)\s*pwd(?:\s+-[PL])?)?$", re.IGNORECASE | re.DOTALL)
_VAR_REF = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)")
# a redirection inside a substitution (`cd -- "$(dirname -- "$0")" &> /dev/null && pwd`) prints nothing to the path
_REDIRECTION = re.compile(r"\s*(?:\d?>>?|&>>?)\s*(?:&\d+|[^\s;&)]+)")
# the working directory spelt out at the start of a path word: `$(pwd)/`, `` `pwd`/ ``, `$PWD/`, `${PWD}/`
_CWD = re.compile(r"^(?:\$\(\s*pwd(?:\s+-[PL])?\s*\)|`\s*pwd(?:\s+-[PL])?\s*`|\$PWD\b|\$\{PWD\})/+")
# commands that move the working directory: bash / cmd.exe / PowerShell
CD_PROGRAMS = {"cd", "pushd", "chdir", "set-location", "push-location", "sl"}


def launcher_dir(doc: dict) -> str:
    return os.path.dirname(os.path.abspath(doc["path"]))


def _substitution(word: str) -> tuple[str, int] | None:
    """(inside, end) of the `$( ... )` (or PowerShell `( ... )`) the word starts with, nesting counted."""
    if word.startswith("$("):
        i = 2
    elif word.startswith("("):
        i = 1
    else:
        return None
    depth, j = 1, i
    while j < len(word) and depth:
        depth += {"(": 1, ")": -1}.get(word[j], 0)
        j += 1
    return (word[i:j - 1].strip(), j) if depth == 0 else None


def _place(expr: str, launcher: str, depth: int = 0) -> str | None:
    """The absolute path a leading expression of the launcher's own place names (`$0`, `$(dirname "$0")`,
    `$(dirname $(dirname $(realpath $0)))`, `$(cd "$(dirname "$0")/.." && pwd)`, `${0%/*}`, `$PSScriptRoot`,
    `(Split-Path -Parent $MyInvocation.MyCommand.Path)`), then what follows it; None when it names no such place."""
    if depth > 6 or not expr:
        return None
    here = os.path.dirname(launcher)
    m = _SELF.match(expr) or _SELF_DIR.match(expr)
    if m:
        base = launcher if _SELF.match(expr) else here
        rest = expr[m.end():]
    else:
        sub = _substitution(expr)
        if sub is None:
            return None
        inside, end = _REDIRECTION.sub("", sub[0]).strip(), sub[1]
        rest = expr[end:]
        d = _DIRNAME.match(inside)
        same = _SAME.match(inside) if d is None else None
        if d is not None:
            inner = _place(d.group(1).strip(), launcher, depth + 1)
            base = os.path.dirname(inner) if inner is not None else None
        elif same is not None:
            base = _place(same.group(1).strip(), launcher, depth + 1)
        else:
            base = None
        if base is None:
            return None
    rest = rest.replace("\\", "/")
    if rest and not rest.startswith("/"):
        return None  # `$0.log`, `${0%/*}x`: not the place followed by a path
    return os.path.normpath(os.path.join(base, rest.lstrip("/"))) if rest.strip("/") else base


# PowerShell assigns a command's output without parentheses: `$here = Split-Path -Parent $MyInvocation.MyCommand.Path`
_PS_SPLIT = re.compile(r"^split-path(?:\s+-parent)?(?:\s+-path)?\s+(?=\$)", re.IGNORECASE)


def _from_launcher(word: str, launcher: str) -> str | None:
    """`word` with a leading spelling of the launcher's place replaced by that place; None when it has none."""
    m = _PS_SPLIT.match(word)
    if m:
        self_ = _SELF.match(word[m.end():])
        return _place("(Split-Path " + self_.group(0) + ")" + word[m.end() + self_.end():], launcher) if self_ else None
    return _place(word, launcher) if word[:1] in "$(" else None


def spelt(doc: dict, word: str) -> str:
    """A path word with the launcher's folder put in where the script spells it, directly or through a variable the
    script sets to it (`SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)`, `PROJECT_DIR=$(... /..)`), and
    Windows separators as this machine's. Anything else stays as written."""
    if not isinstance(word, str):
        return word
    launcher = os.path.abspath(doc["path"])
    env = doc.get("env") or {}
    out = _from_launcher(word, launcher)
    if out is None:
        m = _VAR_REF.match(word)
        if m:
            value = env.get(m.group(1) or m.group(2))
            base = _from_launcher(value, launcher) if isinstance(value, str) else None
            if base is not None:
                out = os.path.join(base, word[m.end():].lstrip("/\\"))
    word = out if out is not None else word
    cwd = _CWD.match(word)
    if cwd and word[cwd.end():].strip("/"):
        # `$(pwd)/configs/x.yaml` (`PROJECT_DIR=$(pwd)` ... `$PROJECT_DIR/configs/x.yaml`): the directory the command
        # runs in, as a relative path is taken from (round 86m: YuxuanJiang1's run_all.sh)
        word = word[cwd.end():]
    if "\\" in word and os.sep == "/":
        word = word.replace("\\", "/")  # a .bat's / .ps1's configs\x.toml
    return word


def _command_of(doc: dict, path: str):
    """The command whose words name `path` (a word that ends with it: `x.yaml`, `--config=x.yaml`): the training command
    when it does (not a `cp x.yaml` before it), else the first that does, else the training command."""
    main = doc.get("command")
    for c in ([main] if main is not None else []) + list(doc.get("commands") or []):
        if any(_names(w, path) for w in c.words):
            return c
    return main


def _names(word: str, path: str) -> bool:
    """The word is `path`, or ends with it after a folder, an option's `=` or a quote (`cfg/x.yaml`, `--config=x.yaml`),
    not inside a longer name (`my_x.yaml` does not name `x.yaml`)."""
    return word == path or (word.endswith(path) and word[-len(path) - 1] in "/\\=:'\"")


def working_dir(doc: dict, path: str) -> str | None:
    """The directory the command that names `path` runs in after the script's `cd`s, started from the launcher's
    folder; None when the script moves nowhere, or somewhere this machine does not have (`cd "$KOHYA_DIR"`,
    `cd /workspace/repo`)."""
    from .shell import known

    cmds = list(doc.get("commands") or [])
    target = _command_of(doc, path)
    if target is None or target not in cmds:
        return None
    cur, moved = launcher_dir(doc), False
    for c in cmds[: cmds.index(target)]:
        if c.program.lower() not in CD_PROGRAMS:
            if c.program.lower() == "popd":
                return None  # a directory stack: not followed
            continue
        args = [w for w in c.words[1:] if w not in ("/d", "/D", "--", "-P", "-L") and not w.startswith("-Path")]
        if not args:
            return None  # `cd` alone: the home directory
        dest = spelt(doc, args[0])
        if not known(dest) or dest == "-":
            return None
        if os.path.isabs(dest):
            if not os.path.isdir(dest):
                return None
            cur = dest
        else:
            cur = os.path.normpath(os.path.join(cur, dest))
        moved = True
    return cur if moved else None


# a batch scheduler's variable for the directory the job was submitted from (Slurm, PBS / Torque, LSF, SGE)
_SUBMIT_DIRS = {"SLURM_SUBMIT_DIR", "PBS_O_WORKDIR", "LS_SUBCWD", "SGE_O_WORKDIR"}


def _commands_before(doc: dict, path: str) -> list | None:
    """The script's commands before the one that names `path`, in order; None when no command of the script names it."""
    cmds = list(doc.get("commands") or [])
    target = _command_of(doc, path)
    if target is None or target not in cmds:
        return None
    return cmds[: cmds.index(target)]


def submitted_from(doc: dict, path: str) -> bool:
    """The command that names `path` runs after the job `cd`s to the directory it was submitted from (`cd
    "$SLURM_SUBMIT_DIR"`, `cd $PBS_O_WORKDIR`), which this machine does not know: the user's `sbatch` ran from the
    job file's own folder or from the repository root above it (`sbatch scripts/train.slurm`)."""
    before = _commands_before(doc, path)
    if before is None:
        return False
    last = None
    for c in before:
        if c.program.lower() in CD_PROGRAMS:
            last = c
    if last is None or len(last.words) < 2:
        return False
    m = _VAR_REF.fullmatch(last.words[-1].strip('"'))
    return bool(m) and (m.group(1) or m.group(2)) in _SUBMIT_DIRS


def _run_from_above(doc: dict, path: str, ups: tuple) -> str | None:
    """The folder above the launcher its commands run from, told by the other relative files they name: none of them
    is beside the launcher and one is in that folder (round 41m: notebooks/run_in_colab.ipynb's `!pip install -r
    requirements.txt` then `!python train_dpo.py ...`, both files at the repository root: the notebook is run from
    there), or, for a shell launcher with no `cd` before the command when nothing else it names says so, the nearest
    one that holds the Python script `path` itself. None when one of the other files is beside it, or nothing says."""
    names = []
    for c in doc.get("commands") or []:
        for w in c.words[1:]:
            w = w.strip("'\"")
            if w == path or not w or w.startswith(("-", "$", "~")) or os.path.isabs(w) or "://" in w or \
                    "=" in w or not re.fullmatch(r"[\w./-]+\.[A-Za-z][A-Za-z0-9]{0,5}", w) or w.startswith("../"):
                continue
            names.append(w)
    if any(os.path.exists(os.path.join(ups[0], n)) for n in names):
        return None
    found = next((up for up in ups[1:] if any(os.path.isfile(os.path.join(up, n)) for n in names)), None) \
        if names else None
    before = _commands_before(doc, path)
    if found is None and path.endswith(".py") and doc["fmt"] == "text" and before is not None and \
            not any(c.program.lower() in CD_PROGRAMS for c in before):
        # a shell launcher's Python script run by its bare name that is not beside the launcher, with nothing else
        # named that says where the run is and no `cd` before it (round 68m: frankyaoxiao/unsloth-qwen4b's
        # scripts/sft_qwen4b_toxic.sh, `uv run python train_sft.py`, the repository root's script): run from the
        # repository, the nearest folder above that holds it (cfg71). A notebook runs where its kernel starts (Colab's
        # /content: cfg46), and a `cd` elsewhere moves the run (cfg38): not looked above for them
        found = next((up for up in ups[1:] if os.path.isfile(os.path.join(up, path))), None)
    return found


def locate(doc: dict, path: str, suffix: str = "") -> str | None:
    """Where the file a launcher names is on this machine, or None. Tried in order: relative to the directory the
    script `cd`s to; the launcher's folder; as written (absolute, or relative to where attn-doctor runs); its name
    beside the launcher (a line written for another machine); an absolute path's last parts under the launcher's
    folder or the two above it (the repository checked out elsewhere); a relative path with a folder in it under the
    two folders above the launcher (a script in scripts/ run from the repository root). `suffix`: what the trainer adds
    to a name without it (musubi-tuner's .toml)."""
    path = spelt(doc, path)
    if suffix and not path.endswith(suffix):
        path += suffix
    base = launcher_dir(doc)
    cands = []
    if not os.path.isabs(path):
        cwd = working_dir(doc, path)
        if cwd is not None:
            cands.append(os.path.join(cwd, path))
    cands += [path] if os.path.isabs(path) else [os.path.join(base, path), path]
    cands.append(os.path.join(base, os.path.basename(path)))
    ups = (base, os.path.dirname(base), os.path.dirname(os.path.dirname(base)))
    if os.path.isabs(path):
        # written for the machine the repository is checked out on (`$PROJECT_DIR/configs/kohya/x.toml` with
        # PROJECT_DIR=/workspace/<repo>, from a launcher in scripts/): its last two or more parts (round 16m)
        parts = [q for q in path.split("/") if q]
        for up in ups:
            cands += [os.path.join(up, *parts[i:]) for i in range(1, len(parts) - 1)]
    elif "/" in path.strip("/").lstrip("./") or submitted_from(doc, path):
        # (a job that runs from where it was submitted: its folder, above, or the repository root two above)
        cands += [os.path.join(up, path) for up in ups[1:]]
    elif working_dir(doc, path) is None:
        run_from = _run_from_above(doc, path, ups)
        if run_from is not None:
            cands.append(os.path.join(run_from, path))
    me = os.path.abspath(doc["path"])
    found = next((os.path.normpath(c) for c in cands if os.path.isfile(os.path.normpath(c))
                  and os.path.abspath(os.path.normpath(c)) != me), None)
    if found is None and "/" not in path.strip("/").lstrip("./") and _moved_away(doc, path):
        found = _in_a_sibling(base, path, me)
    return found


def _moved_away(doc: dict, path: str) -> bool:
    """The command that names `path` runs after the script `cd`s to an absolute folder this machine does not have
    (`cd /fsx/user02/axolotl`: the user's other checkout on the cluster), so where it finds `path` is not here."""
    before = _commands_before(doc, path)
    if before is None:
        return False
    away = False
    for c in before:
        if c.program.lower() in CD_PROGRAMS and len(c.words) > 1:
            dest = spelt(doc, c.words[-1])
            away = os.path.isabs(dest) and not os.path.isdir(dest)
    return away


def _in_a_sibling(base: str, name: str, me: str) -> str | None:
    """The one file called `name` in a folder beside the launcher's (the repository's train/ablations/lr-2e5.yaml for
    train/slurm/lr-2e5.slurm, which runs it by name in the cluster checkout it `cd`s to: round 65, shisa-ai/shisa-v2),
    or None when no sibling folder, or more than one, holds it."""
    up = os.path.dirname(base)
    try:
        dirs = sorted(d for d in os.listdir(up) if os.path.isdir(os.path.join(up, d)))
    except OSError:
        return None
    hits = [os.path.join(up, d, name) for d in dirs if os.path.join(up, d) != base
            and os.path.isfile(os.path.join(up, d, name)) and os.path.abspath(os.path.join(up, d, name)) != me]
    return hits[0] if len(hits) == 1 else None


def note_at_launch(doc: dict, named) -> None:
    """Remember that the training script loads its settings from a file only its command line names (`--config` with
    no default, `sys.argv[1]`: pyscript.settings_files._named_at_launch): what that file sets is not known here. The
    latest reading of the script says (one made with the launch's words settles what one without them could not)."""
    if named:
        doc["at_launch"] = list(dict.fromkeys(named))
    else:
        doc.pop("at_launch", None)


def note_unread(doc: dict, path) -> None:
    """Remember that the launcher names `path` and it could not be read here (missing, or a value the caller gives)."""
    if isinstance(path, str) and path:
        unread = doc.setdefault("unread", [])
        if path not in unread:
            unread.append(path)
