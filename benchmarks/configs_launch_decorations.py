#!/usr/bin/env python3
"""Launch scripts as users dress them (issue 24): every training launch file read right today, its launch lines rewritten
the ways users' scripts run the same training, read again.

benchmarks/configs_robustness.py rewrites how a file is saved (line ends, a BOM, a shell script as a .bat); this one
rewrites the launch command itself: the line that runs `python SCRIPT ...`, `accelerate launch ...`, `torchrun ...` or
`deepspeed ...` in a .sh / .bash / .zsh / .slurm / .sbatch / Makefile, .bat / .cmd or .ps1 file. Each decoration leaves
what the trainer runs unchanged (the same script, the same options; at most more processes), so the reading must not
change: a reading that changes is a place where launch lines are parsed too narrowly.

  kept      files read right today (claimed trainer, all four fields as the expect file says): the reading after the
            decoration is the same (trainer, required backends, dtype, compile), another one, or a refusal
  refused   files refused today (unclaimed trainers, not a trainer's file at all): the same decorations must never make
            one of them read as a trainer (issue 24 wants 0 read)

Folders: fixtures/configs/real and the training rounds (benchmarks/configs_refusals.py MEASURE_ONLY, the held-out set
and this session's blind round are never read). Each decorated file is read among copies of its neighbours, as
configs_robustness.py does. Measures only; tests/test_configs_cfg96.py pins the forms fixed.

    python benchmarks/configs_launch_decorations.py --jobs 2               # table (~25 000 readings: long)
    python benchmarks/configs_launch_decorations.py --every 3 6 --jobs 3   # a deterministic sample (a loaded machine)
    python benchmarks/configs_launch_decorations.py --show nohup           # the files a decoration changes
    python benchmarks/configs_launch_decorations.py --tree /work/wt/s23start --out /tmp/before.json   # main's readers

The decorations (each a rewrite of every launch line of the file where it applies; `joined` is the control, the launch
on one line, which every other decoration also does): env prefixes, nohup ... > log 2>&1 &, time, exec (the last
launch), srun, sbatch --wrap "...", deepspeed --num_gpus / torchrun --nproc_per_node --master_port / python -m
torch.distributed.run / accelerate launch --config_file --num_processes in place of `python`, python -u, python3.11,
uv run, poetry run, conda run -n, ${PY:-python}, the script through $ROOT / ${WORKDIR}, options one to a continued line
(`\\`, `^`, backtick), options in a bash array with comments between, CRLF, a for loop, a function, set -x, set -euo
pipefail, tmux send-keys "..." C-m / Enter, and for .bat / .ps1 an activate line and a CUDA_VISIBLE_DEVICES line.
A comment line between `\\`-continued lines is left out on purpose: bash ends the command at it (the options after it
are a command of their own), so it does not run the same training.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if "--tree" in sys.argv[:-1]:  # another checkout's readers (main's, for the figures before a change), this one's files
    sys.path.insert(0, str(Path(sys.argv[sys.argv.index("--tree") + 1]).resolve()))
    import attn_doctor.configs  # noqa: E402,F401  (imported first from there: configs_heldout puts this checkout first)
sys.path.insert(0, str(ROOT / "benchmarks"))
sys.path.insert(0, str(ROOT))

from configs_heldout import corpus, score  # noqa: E402
from configs_robustness import NOT_TRAINING, Moved, _continued, _join, _key, _lines_of, read_moved  # noqa: E402
from configs_snapshot import measure_only  # noqa: E402

CONFIGS = ROOT / "fixtures" / "configs"
SKIP = set(NOT_TRAINING) | measure_only()  # held-out and the measure-only rounds (benchmarks/configs_refusals.py)
POSIX = {".sh", ".bash", ".zsh", ".slurm", ".sbatch"}
WINDOWS = {".bat", ".cmd", ".ps1"}

# a launch: leading indentation, `NAME=value ` prefixes, then the program (python's own -u / -O / -B flags after it)
_LAUNCH = re.compile(r"^(?P<indent>[ \t]*)(?P<env>(?:[A-Za-z_]\w*=(?:\"[^\"]*\"|'[^']*'|[^\s\"']*)[ \t]+)*)"
                     r"(?P<prog>(?:python(?:3(?:\.\d+)?)?|py)(?:\.exe)?(?P<pyflags>(?:[ \t]+-[uOBsE]+)*)"
                     r"|accelerate[ \t]+launch|torchrun|deepspeed|(?:swift|megatron|llamafactory-cli|lmf|tune|litgpt|axolotl"
                     r"|trl|simpletuner)[ \t]+[a-z]\w*)(?=[ \t]|$)(?P<rest>.*)$", re.DOTALL)
_NOT_LAUNCH = re.compile(r"^[ \t]+(?:-c\b|-m[ \t]+(?:pip|venv|ensurepip|site|json\.tool|http\.server)\b|--version\b|-V\b)")
_WORD = re.compile(r"(?:\"(?:\\.|[^\"\\])*\"|'[^']*'|[^\s\"'])+")
_SCRIPT = re.compile(r"(?<=[ \t])(?:\./)?(?P<path>[\w][\w./-]*\.py)(?=[ \t]|$)")


def kind(path: Path, text: str = "") -> str | None:
    """The launch file's dialect as the reader takes it (shell.dialect_of: a .sh of `^`-continued lines is cmd.exe's), or
    None for a file that is no launch script."""
    from attn_doctor.configs.shell import dialect_of

    s = path.suffix.lower()
    if s in POSIX or path.name.endswith("Makefile") or s in WINDOWS:
        return dialect_of(path.name, text)
    return None


def _mark(k: str) -> str:
    return {"posix": "\\", "bat": "^", "ps1": "`"}[k]


def spans(text: str, k: str) -> list[tuple[int, int, re.Match]]:
    """(first line, last line, match of the joined command) of every launch in the text: physical lines joined over
    the dialect's continuations; comment lines and `python -c` / `python -m pip` probes are not launches."""
    lines, out, i, mark = text.split("\n"), [], 0, _mark(k)
    in_array = False
    while i < len(lines):
        start = i
        if in_array or re.search(r"=\(\s*$", lines[i]):  # (`CMD=(` ... `)`: words of an array, not a command line)
            in_array = not lines[i].strip().startswith(")")
            i += 1
            continue
        while i + 1 < len(lines) and (lines[i].rstrip("\r").endswith(mark) and not lines[i].lstrip().startswith("#")
                                      or not lines[i].rstrip().endswith(mark) and lines[i + 1].lstrip().startswith("-")):
            i += 1  # (a line of options alone under a command continues it, as the reader takes a docs snippet)
        # (the last line keeps its trailing blanks: `--x 0 \\  ` is an escaped blank that ends the command there)
        joined = " ".join(ln.rstrip("\r")[:-1].strip() if n < i and ln.rstrip("\r").endswith(mark)
                          else ln.rstrip("\r").strip() if n < i else ln.rstrip("\r").lstrip()
                          for n, ln in enumerate(lines[start:i + 1], start))
        first = lines[start].rstrip("\r")
        indent = first[:len(first) - len(first.lstrip())]
        m = _LAUNCH.match(indent + joined)
        if m and not _NOT_LAUNCH.match(m.group("rest")) and m.group("rest").strip() and "<<" not in m.group("rest"):
            out.append((start, i, m))
        i += 1
    return out


def _python(m: re.Match) -> bool:
    return m.group("prog").startswith(("python", "py"))


def _apply(text: str, k: str, change, only_last: bool = False) -> str | None:
    """The text with every launch (only the last one: only_last) replaced by change(match) -> new lines (a string) or
    None (this launch left as it is); None when no launch changed."""
    lines = text.split("\n")
    found = spans(text, k)
    if only_last:
        found = found[-1:]
    done = False
    for start, end, m in reversed(found):
        new = change(m)
        if new is None:
            continue
        cr = "\r" if lines[end].endswith("\r") else ""
        lines[start:end + 1] = [ln + cr for ln in new.split("\n")]
        done = True
    return "\n".join(lines) if done else None


def _line(m: re.Match) -> str:
    return m.group(0)


def _head(m: re.Match) -> str:
    return m.group("indent") + m.group("env")


def _cmd(m: re.Match) -> str:
    return m.group(0)[len(_head(m)):]


def _trailing_ok(m: re.Match) -> bool:
    """No comment, redirection, pipe, list or background mark on the launch (a suffix added after them would change
    what it applies to)."""
    return not re.search(r"(?<![\w\"'])#|[|&;<>]", re.sub(r"\"(?:\\.|[^\"\\])*\"|'[^']*'", "", m.group("rest")))


def _python_rest(m: re.Match) -> str | None:
    """What follows the interpreter of a `python SCRIPT ...` / `python -m MODULE ...` launch, or None."""
    if not _python(m):
        return None
    return m.group("rest").strip()


def _relaunch(m: re.Match, launcher: str, module_ok: bool = True) -> str | None:
    """`python SCRIPT ...` run by another launcher: the training script only (a helper, `python prepare_dataset.py`, is
    not run on two GPUs), and never a launcher run as a module (`python -m torch.distributed.run`)."""
    from attn_doctor.configs.shell import HELPER_WORDS

    rest = _python_rest(m)
    if rest is None or not module_ok and rest.startswith("-m") or \
            re.match(r"-m\s+(torch\.distributed|accelerate|deepspeed)", rest):
        return None
    script = _SCRIPT.search(" " + rest)
    if script is not None and HELPER_WORDS.search(Path(script.group("path")).stem):
        return None
    return _head(m) + launcher + " " + rest


def _interpreter(m: re.Match, new: str) -> str | None:
    if not _python(m):
        return None
    return _head(m) + new + m.group("pyflags") + m.group("rest")


def _split_options(m: re.Match, mark: str, comments: bool = False) -> str | None:
    """The launch with each option (and its value) on its own continued line."""
    words = _WORD.findall(_cmd(m))
    if len(words) < 3 or not _trailing_ok(m):
        return None
    body = _continued(words, " " + mark)
    return _head(m) + body.replace("\n  ", "\n" + m.group("indent") + "  ")


def _args_array(m: re.Match) -> str | None:
    """The options after the script in a bash array, one to a line, with comments between them (valid inside `( )`,
    unlike between `\\`-continued lines, where bash ends the command at the comment), run as "${ARGS[@]}"."""
    words = _WORD.findall(_cmd(m))
    opts = next((n for n, w in enumerate(words) if w.startswith("--") and n > 0), None)
    if opts is None or not _trailing_ok(m) or any(w.startswith("ARGS") for w in words):
        return None
    lines: list[str] = []  # each option with its value
    for w in words[opts:]:
        lines.append(w) if w.startswith("-") or not lines else lines.__setitem__(-1, lines[-1] + " " + w)
    ind = m.group("indent")
    body = [f"{ind}ARGS=(", f"{ind}  # the run's options"]
    for n, ln in enumerate(lines):
        body.append(f"{ind}  {ln.strip()}" + ("  # (set by hand)" if n == 0 else ""))
        if n == 0:
            body.append(f"{ind}  # --report_to wandb")
    body.append(f"{ind})")
    body.append(_head(m) + " ".join(words[:opts]) + ' "${ARGS[@]}"')
    return "\n".join(body)


def _script_var(m: re.Match, var: str, setting: str) -> str | None:
    s = _SCRIPT.search(m.group(0), len(_head(m)))
    if s is None:
        return None
    line = m.group(0)
    return m.group("indent") + setting + "\n" + line[:s.start()] + var + "/" + s.group("path") + line[s.end():]


def _quoted_whole(m: re.Match, before: str, after: str) -> str | None:
    """The launch as one double-quoted string inside another command (sbatch --wrap, tmux send-keys)."""
    line = m.group(0)
    if '"' in line or "`" in line or "\\" in line:
        return None
    return m.group("indent") + before + '"' + line.strip() + '"' + after


def _wrapped(m: re.Match, before: str, after: str = "") -> str:
    return m.group("indent") + before + m.group(0).strip() + after


def _prefix(m: re.Match, word: str) -> str:
    """A wrapper between the environment prefix and the program (`VAR=x nohup python ...`)."""
    return _head(m) + word + _cmd(m)


def _set_line(text: str, line: str) -> str | None:
    head, lead, rest = _lines_of(text)
    if not rest or line.split()[0] + " " + line.split()[1] in text:
        return None
    return "\n".join(([head] if head else []) + lead + [line] + rest)


ACCELERATE_YAML = "compute_environment: LOCAL_MACHINE\ndistributed_type: MULTI_GPU\nnum_machines: 1\nnum_processes: 2\n"


def _accelerate(text: str, k: str) -> Moved | None:
    new = _apply(text, k, lambda m: _relaunch(m, "accelerate launch --config_file accel_2gpu.yaml --num_processes 2"))
    return None if new is None else Moved(new, extra={"accel_2gpu.yaml": ACCELERATE_YAML})


# name -> (dialects, rewrite(text, dialect) -> new text | Moved | None)
def _each(change, only_last: bool = False):
    return lambda text, k: _apply(text, k, change, only_last)


POSIX_ONLY = ("posix",)
ALL = ("posix", "bat", "ps1")
DECORATIONS = {
    "joined": (ALL, _each(_line)),  # the control: each launch on one line (every decoration below joins it too)
    "env": (POSIX_ONLY, _each(lambda m: m.group("indent") + "CUDA_VISIBLE_DEVICES=0,1 NCCL_P2P_DISABLE=1 "
                                     + m.group(0).lstrip())),
    "nohup": (POSIX_ONLY, _each(lambda m: _prefix(m, "nohup ") + " > train.log 2>&1 &" if _trailing_ok(m) else None)),
    "time": (POSIX_ONLY, _each(lambda m: _prefix(m, "time "))),
    "exec": (POSIX_ONLY, _each(lambda m: _prefix(m, "exec "), only_last=True)),
    "srun": (POSIX_ONLY, _each(lambda m: _prefix(m, "srun --ntasks=1 --gres=gpu:2 "))),
    "sbatchwrap": (POSIX_ONLY, _each(lambda m: _quoted_whole(m, "sbatch --gres=gpu:2 --wrap ", ""))),
    "deepspeed": (POSIX_ONLY, _each(lambda m: _relaunch(m, "deepspeed --num_gpus 2", module_ok=False))),
    "torchrun": (POSIX_ONLY, _each(lambda m: _relaunch(m, "torchrun --nproc_per_node=2 --master_port 29501"))),
    "torchrun_m": (POSIX_ONLY, _each(lambda m: _relaunch(m, "python -m torch.distributed.run --nproc_per_node=2"))),
    "accelerate": (POSIX_ONLY, _accelerate),
    "python_u": (ALL, _each(lambda m: _interpreter(m, m.group("prog").split()[0].split("-")[0].rstrip() + " -u")
                            if _python(m) and "-u" not in m.group("pyflags") else None)),
    "python311": (POSIX_ONLY, _each(lambda m: _interpreter(m, "python3.11"))),
    "uv": (POSIX_ONLY, _each(lambda m: _prefix(m, "uv run "))),
    "poetry": (POSIX_ONLY, _each(lambda m: _prefix(m, "poetry run "))),
    "conda": (POSIX_ONLY, _each(lambda m: _prefix(m, "conda run -n train --no-capture-output "))),
    "pyvar": (POSIX_ONLY, _each(lambda m: _interpreter(m, "${PY:-python}"))),
    "rootvar": (POSIX_ONLY, _each(lambda m: _script_var(m, "$ROOT", "ROOT=$(pwd)"))),
    "workdir": (POSIX_ONLY, _each(lambda m: _script_var(m, "${WORKDIR}", 'WORKDIR="${WORKDIR:-$PWD}"'))),
    "continued": (ALL, lambda text, k: _apply(text, k, lambda m: _split_options(m, _mark(k)))),
    "argsarray": (POSIX_ONLY, _each(_args_array)),
    "crlf": (ALL, lambda text, k: None if "\r\n" in text else text.replace("\n", "\r\n")),
    "loop": (POSIX_ONLY, _each(lambda m: m.group("indent") + "for seed in 1 2 3; do\n" + m.group("indent") + "  "
                               + m.group(0).lstrip() + "\n" + m.group("indent") + "done")),
    "function": (POSIX_ONLY, _each(lambda m: m.group("indent") + "run_training() {\n" + m.group("indent") + "  "
                                   + m.group(0).lstrip() + "\n" + m.group("indent") + "}\n" + m.group("indent")
                                   + "run_training")),
    "setx": (POSIX_ONLY, lambda text, k: _set_line(text, "set -x") if spans(text, k) else None),
    "pipefail": (POSIX_ONLY, lambda text, k: _set_line(text, "set -euo pipefail") if spans(text, k) else None),
    "tmux_cm": (POSIX_ONLY, _each(lambda m: _quoted_whole(m, "tmux send-keys -t train ", " C-m"))),
    "tmux_enter": (POSIX_ONLY, _each(lambda m: _quoted_whole(m, "tmux send-keys -t train:0 ", " Enter"))),
    "activate": (("bat", "ps1"), lambda text, k: _apply(text, k, lambda m: (
        m.group("indent") + ("call venv\\Scripts\\activate" if k == "bat" else "& .\\venv\\Scripts\\Activate.ps1")
        + "\n" + m.group(0)), only_last=False)),
    "winenv": (("bat", "ps1"), lambda text, k: _apply(text, k, lambda m: (
        m.group("indent") + ("set CUDA_VISIBLE_DEVICES=0" if k == "bat" else '$env:CUDA_VISIBLE_DEVICES = "0"')
        + "\n" + m.group(0)))),
}


def decorate(name: str, path: Path, text: str) -> Moved | None:
    k = kind(path, text)
    dialects, rewrite = DECORATIONS[name]
    if k not in dialects:
        return None
    new = rewrite(text, k)
    if new is None or isinstance(new, str) and new == text:
        return None
    return new if isinstance(new, Moved) else Moved(new)


def files() -> list[tuple[Path, Path]]:
    """(file, its folder) of every launch file of the training folders."""
    folders = sorted(p for p in CONFIGS.iterdir() if p.is_dir() and p.name not in SKIP)
    return [(f, d) for d in folders for f in corpus(d)
            if kind(f, "") and f.with_name(f.name + ".expect.toml").is_file()]


_COPIES: dict = {}  # folder -> its copy under this process's temporary folder


def _decorated_readings(item) -> list[tuple[str, tuple, str]]:
    """(decoration, reading key, refusal message) of one file under each decoration that applies: the decorated text
    read in a copy of the file's whole folder (a launch finds what it runs where the set keeps it)."""
    path, folder, _, _, names, base = item
    if folder not in _COPIES:
        _COPIES[folder] = Path(base) / str(os.getpid()) / folder.name
        shutil.copytree(folder, _COPIES[folder])
    where = _COPIES[folder] / path.relative_to(folder)
    text = path.read_bytes().decode("utf-8", errors="replace")
    out = []
    for name in names:
        moved = decorate(name, path, text)
        if moved is None:
            continue
        got = read_moved(where, moved)
        where.write_bytes(path.read_bytes())
        if got is not None:
            out.append((name, _key(got), got.get("message", "")[:200]))
    return out


def _today(item) -> tuple:
    """("kept" | "refused" | None, reading key) of one file as it is read today: kept when read right (claimed trainer,
    all four fields), refused when refused, None otherwise (not decorated)."""
    rec = score(*item)
    if rec["kind"] == "claimed" and rec["all_right"]:
        return "kept", _key(rec["got"])
    return ("refused" if rec["got"]["outcome"] == "refused" else None), _key(rec["got"])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", action="append", default=[], choices=sorted(DECORATIONS))
    ap.add_argument("--show", action="append", default=[], choices=sorted(DECORATIONS))
    ap.add_argument("--out", help="write the counts and every changed reading here (JSON)")
    ap.add_argument("--tree", help="the checkout whose readers are run (this one's by default)")
    ap.add_argument("--jobs", type=int, default=1, help="files read in this many processes")
    ap.add_argument("--every", type=int, nargs=2, default=(1, 1), metavar=("KEPT", "REFUSED"),
                    help="a deterministic sample: every KEPT-th file read right and every REFUSED-th refused one, in "
                         "path order (on a loaded machine; 1 1, the default, is every file)")
    args = ap.parse_args(argv)
    names = [n for n in DECORATIONS if not args.only or n in args.only]
    counts = {n: {"kept": [0, 0, 0, 0], "refused": [0, 0]} for n in names}  # kept: files, same, changed, refused
    changed = []
    chosen = []
    base = tempfile.mkdtemp(prefix="cfg-launch-")
    pool = None
    if args.jobs > 1:
        import multiprocessing

        pool = multiprocessing.Pool(args.jobs)
    each = pool.imap if pool is not None else map
    try:
        # today's reading of every file (the larger part of a sampled run's time) in the same processes
        for (f, d), (group, key) in zip(files(), each(_today, files(), *([8] if pool is not None else []))):
            if group is not None:
                chosen.append((f, d, group, key, names, base))
        kept_all = [c for c in chosen if c[2] == "kept"]
        refused_all = [c for c in chosen if c[2] == "refused"]
        chosen = kept_all[::args.every[0]] + refused_all[::args.every[1]]
        # (imap in path order, small chunks: one folder's files stay together, so each process copies few folders)
        results = list(each(_decorated_readings, chosen, *([2] if pool is not None else [])))
    finally:
        if pool is not None:
            pool.close()
            pool.join()
        shutil.rmtree(base, ignore_errors=True)
    for (path, _, group, before, _, _), rows in zip(chosen, results):
        for name, after, message in rows:
            c = counts[name][group]
            c[0] += 1
            if group == "kept":
                c[1 if after == before else 3 if after[0] != "read" else 2] += 1
            else:
                c[1] += after[0] == "read"
            if after != before and (group == "kept" or after[0] == "read"):
                changed.append({"decoration": name, "group": group, "file": path.relative_to(ROOT).as_posix(),
                                "before": list(before), "after": list(after), "message": message})
                if name in args.show:
                    print(f"  {name}: {path.relative_to(ROOT)}: {before} -> {after} {message[:160]}")
    print(f"{len(kept_all)} launch files read right today, {len(refused_all)} refused today (fixtures/configs, not "
          f"{', '.join(sorted(SKIP))}); decorated: every {args.every[0]} / every {args.every[1]} of them")
    print(f"{'decoration':<12}{'files':>7}{'same':>7}{'changed':>9}{'refused':>9}   {'refused files':>13}{'read':>6}")
    for n in names:
        k, r = counts[n]["kept"], counts[n]["refused"]
        print(f"{n:<12}{k[0]:>7}{k[1]:>7}{k[2]:>9}{k[3]:>9}   {r[0]:>13}{r[1]:>6}")
    if args.out:
        Path(args.out).write_text(json.dumps({"counts": counts, "changed": changed}, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
