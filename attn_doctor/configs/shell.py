"""Saved command lines and launch scripts read the way the shell and the trainer's own argparse read them.

A launch script (bash, a Windows .bat/.cmd, PowerShell .ps1, a notebook's `!cmd` lines) becomes a list of
Commands, in order:

- lines: comments dropped first (a `#`-comment ending in a backslash does not continue), then continuations
  joined (`\\` in POSIX shells, `^` in .bat, a backtick in .ps1); a top-level `exit` ends the script;
- variables as the shell expands them, in order: `NAME=value` / `export` / `declare`, `set NAME=value`
  (.bat), `$env:NAME = "value"` (.ps1); `$NAME`, `${NAME}`, `${NAME:-default}`, `${NAME-default}`,
  `${NAME:=default}`, `%NAME%`, bash arrays `NAME=(...)` and `"${NAME[@]}"`. A variable the script never sets
  stays as written (`$MODEL`), and so does a command substitution `$(...)`: readers treat such values as
  unknown, never as a setting;
- `VAR=value cmd` prefixes become the command's environment; what each command's program gets in its environment
  (exported before it, or assigned in front of it) is kept as the script runs (configs/shell_exports.py,
  Command.exported / Command.environment);
- the shell's variables and exports step by step, as bash keeps them (GNU Bash Reference Manual, 3.7.3 "Command
  Execution Environment": commands grouped with parentheses and asynchronous commands run in a subshell environment,
  and "Changes made to the subshell environment cannot affect the shell's execution environment"; 3.2.3 "Pipelines":
  each command of a multi-command pipeline runs in its own subshell; 3.2.5.3 "Grouping Commands": `{ list; }` runs in
  the current shell; 3.7.4 "Environment": a program gets the exported variables and its own prefix assignments
  only): what `( A=1; ... )`, a loop or `{ }` group piped into `tee` or fed by a pipe (`cat runs | while read ...`), or
  one ended by `&`, sets or exports is gone after it (_enter, _piped_block); a loop body's and a group's own assignments
  persist after it; a variable assigned or exported after the launch line is not the launch's. bash's `lastpipe`
  option (the last part of a pipeline in the shell itself) is not modelled;
- a command inside a `for` loop runs once per word of the list, the variable set to each in turn (3.2.5.1 "Looping
  Constructs"): the words of each run are kept (Script.maybe), and loop_runs / pinned let a reader read each run on
  its own (configs._loop_launches: one job when the runs agree, "N launches differ in X" when they do not);
- wrappers and launchers are taken apart: `sudo`, `nohup`, `time`, `env`, `srun`, `conda run`, `uv run`,
  `python [-u] [-m module] script.py`, `accelerate launch [opts] script.py`, `python -m
  accelerate.commands.launch`, `torchrun [opts]`, `python -m torch.distributed.run`, `deepspeed [opts]`;
  what is left is the program (a script, or a CLI such as `swift sft`, `tune run`, `litgpt finetune`) and the
  words its own parser sees.

parse_options() then reads those words as argparse does: `--name=value`, `--name value`, flags, and
unique-prefix abbreviations (argparse's allow_abbrev, on by default) when the trainer's option table is known
(configs/options.py); an option no release of the trainer has is reported, as argparse would stop on it.
Nothing is executed.
"""

from __future__ import annotations

import os
import re
import shlex
from dataclasses import dataclass, field
from functools import lru_cache

from .shell_conditions import Frames, _bat_guarded, _guarded, _ps_guarded
from .shell_exports import Exports
from .shell_words import (_DELAYED, _assignment, _logical_lines, _strip_comment, arithmetic, commands_of, expand, known,  # noqa: F401,E501
                          logical_lines, package_file, unquoted, words_of)  # known, expand, logical_lines, words_of: read by the readers too
from ..textutil import parse_python

# Programs that run a training script or a trainer's CLI, and the words in front of them that only wrap them.
PYTHON = re.compile(r"^(.*[/\\])?(python|python3|python3\.\d+|py|pythonw)(\.exe)?$", re.IGNORECASE)
WRAPPERS = {"sudo", "nohup", "time", "exec", "command", "call", "nice", "stdbuf", "caffeinate", "!", "&", "@",
            "xargs", "unbuffer", "timeout", "ionice", "taskset", "numactl", "setsid"}  # (setsid: util-linux, cfg80)
# A wrapper's own options before the command it runs, those of them that take a value as the next word (coreutils'
# nice -n N, stdbuf -o MODE, timeout -s SIG -k DURATION, sudo -u USER, ionice -c N -n N, taskset -c LIST, numactl's
# long options written --opt=value or --opt value), and the wrappers that take one word more before the command
# (timeout DURATION, taskset MASK unless -c / --cpu-list gave the list): `nice -n 10 accelerate launch ...`
WRAPPER_VALUED = {"nice": {"-n", "--adjustment"}, "stdbuf": {"-i", "-o", "-e", "--input", "--output", "--error"},
                  "timeout": {"-s", "--signal", "-k", "--kill-after"},
                  "sudo": {"-u", "--user", "-g", "--group", "-h", "--host", "-p", "--prompt", "-C", "--close-from",
                           "-D", "--chdir", "-r", "--role", "-t", "--type", "-U", "--other-user", "-T",
                           "--command-timeout"},
                  "ionice": {"-c", "--class", "-n", "--classdata", "-p", "--pid", "-P", "--pgid", "-u", "--uid"},
                  "taskset": {"-c", "--cpu-list"}, "setsid": set(),  # (setsid -f / -w / -c: flags only)
                  "numactl": {"-C", "--physcpubind", "-N", "--cpunodebind", "-m", "--membind", "-i", "--interleave",
                              "-p", "--preferred"}}
WRAPPER_POSITIONAL = {"timeout": 1, "taskset": 1}


def _after_wrapper(name: str, w: list[str]) -> list[str]:
    """The words after a wrapper's own options (and the positional words it takes) before the command it runs."""
    valued = WRAPPER_VALUED.get(name, set())
    given = set()
    while w and w[0].startswith("-") and w[0] != "--":
        opt = w[0].split("=", 1)[0]
        given.add(opt)
        w = w[2:] if opt in valued and "=" not in w[0] and len(w) > 1 else w[1:]
    if w[:1] == ["--"]:
        w = w[1:]
    skip = WRAPPER_POSITIONAL.get(name, 0)
    if name == "taskset" and given & {"-c", "--cpu-list"}:
        skip = 0
    return w[skip:] if len(w) > skip else w
# A PowerShell started from a script (powershell.exe / pwsh) and its options that take a value (-File runs a script)
POWERSHELLS = {"powershell", "pwsh", "powershell.exe", "pwsh.exe"}
POWERSHELL_VALUED = {"-executionpolicy", "-ep", "-windowstyle", "-configurationname", "-inputformat", "-outputformat",
                     "-workingdirectory", "-wd", "-encodedcommand", "-e", "-psconsolefile", "-version", "-v"}
# Launcher options that take no value (everything else of theirs takes one when not written --k=v).
ACCELERATE_FLAGS = {"cpu", "multi_gpu", "tpu", "ipex", "mps", "use_deepspeed", "use_fsdp", "use_megatron_lm", "use_xpu",
                    "quiet", "q", "m", "module", "no_python", "same_network", "debug", "enable_cpu_affinity",
                    "downcast_bf16", "tpu_use_cluster", "tpu_use_sudo", "deepspeed_moe_layer_cls_names",
                    "fsdp_cpu_ram_efficient_loading", "fsdp_sync_module_states", "fsdp_use_orig_params",
                    "zero3_save_16bit_model", "offload_optimizer_device"}
# (`--tee` / `-t` take a value: torch/distributed/run.py `--tee {0,1,2,3}`)
TORCHRUN_FLAGS = {"standalone", "no_python", "no-python", "module", "m", "run_path", "run-path"}
DEEPSPEED_FLAGS = {"no_python", "no_local_rank", "force_multi", "no_ssh_check", "bind_cores_to_rank", "module", "m",
                   "enable_each_rank_log", "no_ssh", "save_pid", "autotuning"}
SRUN_FLAGS = {"exclusive", "u", "unbuffered", "l", "label", "overlap", "kill-on-bad-exit", "K"}
# CLIs whose subcommand trains (the reader decides what it claims; this only splits program from arguments).
CLI_SUBCOMMANDS = {"swift": 1, "megatron": 1, "llamafactory-cli": 1, "lmf": 1, "tune": 1, "litgpt": 1, "axolotl": 1,
                   "trl": 1, "simpletuner": 1, "accelerate": 1, "huggingface-cli": 1, "hf": 1}
LAUNCHERS = {"accelerate", "torchrun", "deepspeed"}
TRAINING_WORDS = re.compile(r"train|finetune|fine_tune|sft|pretrain|lora|dreambooth", re.IGNORECASE)
# a shell function (or a helper program) the script does not define whose name says it runs something and whose first
# word is a Python script: `run_training_script "$SD_REPO/$SD_SCRIPT" "${args[@]}"` of a function from a sourced helper
# file that is not in the repository (round 141m: a zsh launcher of sd-scripts), `launch_job train.py --lr 1e-4`. Such a
# wrapper exists to start that script with those words (as `exec "$@"` or `python "$@"` would in its body); a function
# the script defines itself is read through its body instead (parse's funcs)
RUNNER_FUNCTION = re.compile(r"^[A-Za-z][A-Za-z0-9]*(?:[_-][A-Za-z0-9]+)*$")
RUNNER_VERBS = re.compile(r"(?:^|[_-])(?:run|launch|exec|execute|start|train|training)(?:[_-]|$)", re.IGNORECASE)


@dataclass
class Command:
    """One command of a script, taken apart."""
    words: list                    # every word after variable expansion, wrappers and launchers included
    program: str                   # python | accelerate | torchrun | deepspeed | swift | tune | ... (basename)
    script: str | None = None      # basename of the .py it runs (or of `-m module`: its last part + .py)
    module: str | None = None      # `python -m module`
    sub: list = field(default_factory=list)      # a CLI's subcommand words (["sft"], ["run", "recipe"])
    args: list = field(default_factory=list)     # the words the trainer's own parser sees
    launcher: list = field(default_factory=list)  # the launcher's words (accelerate launch --num_processes 2 ...)
    launcher_args: dict = field(default_factory=dict)
    env: dict = field(default_factory=dict)      # the environment the command sees (prefix assignments on top)
    line: int = 0
    # the names of env the program gets in its environment: exported before it, or assigned in front of it
    # (configs/shell_exports.py); the others are the shell's own variables, which the program never sees
    exported: frozenset = frozenset()
    # `env -i` / `env -u NAME` in front of the program: what env takes out of the environment the shell hands it (every
    # name: cleared; those: withheld), before env's own NAME=v (env(1): "-i: start with an empty environment")
    cleared: bool = False
    withheld: frozenset = frozenset()
    # words a condition the script cannot settle may add: [(condition as written, words)] (`[[ $x == true ]] &&
    # args+=(--sdpa)` with $x unset here); they are not in `words`/`args`, readers report them as possible
    maybe: list = field(default_factory=list)
    image: str | None = None  # the container image it runs in (`apptainer exec IMAGE ...`, `docker run IMAGE ...`)
    code: str | None = None  # `python -c CODE`: the Python text it runs

    @property
    def head(self) -> list:
        """The words before the trainer's own arguments: wrappers, the launcher and its options, the interpreter and the
        script or module as written (`srun --ntasks=1 --gres=gpu:2 python finetune/lora.py`), however many they are."""
        return self.words[:len(self.words) - len(self.args)] if self.args else list(self.words)

    @property
    def name(self) -> str:
        """What the command runs, as a user reads it: the script, or the CLI and its subcommand."""
        return self.script or " ".join([self.program] + self.sub[:1])

    def environment(self) -> dict:
        """The variables the program gets in its environment (os.environ in a Python script it runs): env's values of
        the names exported at it."""
        return {k: v for k, v in self.env.items() if k in self.exported}


@dataclass
class Script:
    commands: list
    env: dict            # every variable's last value
    dialect: str         # posix | bat | ps1
    files: dict = field(default_factory=dict)  # path -> text the script writes with `cat > path <<EOF ... EOF`
    maybe: dict = field(default_factory=dict)  # variable -> [(condition, words)] appended under an unsettled condition
    called: set = field(default_factory=set)  # the functions it calls (and those calls call), read where called
    # the here-documents it only shows (`cat <<EOF ... EOF` to the terminal: a usage note, an installer's "now run:
    # python wan_generate_video.py ..."), whose command lines no shell runs
    printed: list = field(default_factory=list)


def dialect_of(name: str, text: str) -> str:
    low = name.lower()
    if low.endswith((".bat", ".cmd")):
        return "bat"
    if low.endswith(".ps1"):
        return "ps1"
    lines = text.splitlines()
    if sum(1 for ln in lines if ln.rstrip().endswith("^")) >= 2 or re.search(r"%[A-Za-z_]\w*%", text) and \
            any(re.match(r"^\s*@?(set\s+\"?[A-Za-z_]\w*=|rem\b|call\b|echo off)", ln, re.IGNORECASE) for ln in lines):
        return "bat"
    if sum(1 for ln in lines if ln.rstrip().endswith(" `")) >= 2 or re.search(r"^\s*\$env:\w+\s*=", text, re.MULTILINE):
        return "ps1"
    return "posix"


# ---------------------------------------------------------------------------------------------------
# Lines, expansion and words: configs/shell_words.py; the conditions scripts test: configs/shell_conditions.py; what
# the programs it starts get in their environment: configs/shell_exports.py
# ---------------------------------------------------------------------------------------------------

# ---------------------------------------------------------------------------------------------------
# Scripts
# ---------------------------------------------------------------------------------------------------

# `if` conditions that ask the machine rather than the script: whether a package imports or is installed, whether a
# program or GPU is there (`python -c "import flash_attn" 2>/dev/null`, `pip show xformers`, `command -v nvcc`,
# `nvidia-smi --query-gpu=...`); the guard text as _guarded writes it, its `else` being `not (...)`
_MACHINE_PROBE = re.compile(r"^(?:not \()?\s*(?:!\s*)?(?:\S*/)?(?:python[0-9.]*\s+-c\s+['\"]\s*(?:import|from)\s|"
                            r"pip[0-9.]*\s+(?:show|list)\b|(?:python[0-9.]*\s+-m\s+pip\s+show)\b|nvidia-smi\b|"
                            r"command\s+-v\s|which\s|hash\s)")


# the end of a command line that ends the command there: a background `&` (not `&&`) or `;` last, or an output
# redirection (`> log`, `2>&1`, `&> log`, `>> log`); quoted text is taken out first (_QUOTED)
_TERMINATED = re.compile(r"(?<![&|>])&\s*(?:wait\b.*)?$|;\s*$|(?:^|\s)(?:\d?>>?|&>>?)\s*\S")
_QUOTED = re.compile(r"\"(?:\\.|[^\"\\])*\"|'[^']*'")


def parse(text: str, name: str = "", _depth: int = 0, where: str | None = None, _funcs: dict | None = None,
          _exports: Exports | None = None) -> Script:
    """The script's commands and variables. where: the folder the script is in, where a file it sources
    (`source ./env.sh`, `. config.env`) is read from. _funcs: the functions defined before a function body read here
    (bash functions are global: `main` calls `start_training`, both defined at the top level). _exports: what the
    caller has exported (Exports.inner), kept up to date here in the order the script runs."""
    dialect = dialect_of(name, text)
    exports = _exports if _exports is not None else Exports()
    env: dict = {}
    commands: list[Command] = []
    heredocs: dict = {}
    files: dict = {}
    broken: set = set()  # logical lines whose continuation character is followed by spaces: the command ends there
    lines = _logical_lines(text, dialect, heredocs, broken)
    ends: dict = {}  # a command's first line -> the last line it spans
    maybe: dict = {}  # variable -> [(condition, words)] appended under a condition the script cannot settle
    conds = Frames()  # the enclosing `if` blocks (_guarded, _ps_guarded)
    bat_blocks: list = []  # cmd.exe's enclosing `if (...)` blocks (_bat_guarded)
    unsure: set = set()  # variables assigned under a condition the script does not settle
    probed: dict = {}  # variable -> (machine probe, value) assigned where the probe holds (_MACHINE_PROBE)
    funcs: dict = dict(_funcs or {})  # bash functions: name -> body (read when a later command calls it)
    called: set = set()
    printed: list = []  # the here-documents a `cat` only shows
    subshells: list = []  # [(id, Exports.held())] of the subshells of its line the command read now runs in (_enter)
    lined: list = []  # Exports.held() at each `(` line still open: its lines up to the `)` line run in a subshell
    scoped: list = []  # [(last line, Exports.held())] of the loops and `{ }` groups open now that run in a subshell
    left: list = []  # [(last line, name, value)]: a `for` loop's variable after its `done` holds the loop's last value
    lastpipe = False  # `shopt -s lastpipe`: a pipeline's last command runs in the script's own shell
    i = 0
    while i < len(lines):
        n, line, end = lines[i]
        while left and n > left[-1][0]:
            _, var, val = left.pop()
            env[var] = val  # (before a subshell the loop ran in ends below, which takes it back with the rest)
            if var in maybe:  # (no later command is a run of the loop)
                maybe[var] = [e for e in maybe[var] if not e[0].startswith(f"each run of for {var} in ")]
                if not maybe[var]:
                    del maybe[var]
        while scoped and n > scoped[-1][0]:
            exports.restore(scoped.pop()[1], env)  # (the loop's subshell ends: what its body set goes with it)
        ends[n] = end
        i += 1
        if dialect == "posix":
            m = re.match(r"^\s*shopt\s+-([su])\s+(?:\w+\s+)*lastpipe\b", line)
            if m:
                # bash(1), shopt lastpipe: "If set, and job control is not active, the shell runs the last command of
                # a pipeline not executed in the background in the current shell environment" (a script has no job
                # control): `cat runs.txt | while read lr; do ... done` keeps what its body sets
                lastpipe = m.group(1) == "s"
            m = re.match(r"^(\s*)\{\s+(.+?);\s*\}" + _BLOCK_TAIL + r"\s*$", line)
            if m and m.group(3):
                # a one-line `{ list; } &` or `{ list; } | cmd`: bash runs the group in a subshell (3.2.4 Lists, 3.2.3
                # Pipelines), as it does `( list )`, which is how it is read
                line = f"{m.group(1)}( {m.group(2)} ) {m.group(3)}"
            last = _piped_block(lines, i, line, lastpipe)
            if last is not None:
                scoped.append((last, exports.held(env)))
            # `train() { ... }` / `function train { ... }`: the body runs where the script calls `train ARGS`, its
            # "$@" / $1 ... being those arguments (a definition alone runs nothing)
            m = re.match(r"^\s*(?:function\s+([A-Za-z_][\w-]*)\s*(?:\(\))?|([A-Za-z_][\w-]*)\s*\(\))\s*\{\s+(.+?);\s*\}\s*$",
                         line)
            if m:
                # a one-line definition, `f() { export A=1; }`: the same, its body the list between the braces
                funcs[m.group(1) or m.group(2)] = m.group(3)
                continue
            m = re.match(r"^\s*(?:function\s+([A-Za-z_][\w-]*)\s*(?:\(\))?|([A-Za-z_][\w-]*)\s*\(\))\s*\{?\s*$", line)
            if m:
                body, depth = [], 1 if line.rstrip().endswith("{") else 0
                spans = []  # (first, last) line numbers of the body's logical lines
                while i < len(lines) and (depth > 0 or not body):
                    t = lines[i][1]
                    span = (lines[i][0], lines[i][2])
                    i += 1
                    st = t.strip()
                    if not depth and st == "{":
                        depth = 1
                        continue
                    depth += st.endswith("{") - (st == "}" or st.startswith("}"))
                    if depth > 0:
                        body.append(t)
                        spans.append(span)
                    if depth <= 0 and body:
                        spans.append((span[0], span[0] - 1))  # the closing brace's line: the body ends above it
                        break
                funcs[m.group(1) or m.group(2)] = _body_text(text, spans) or "\n".join(body)
                continue
            m = re.match(r"^\s*case\s+(.+?)\s+in\s*$", line)
            if m:
                # `case "$MODE" in a) ...;; b) ...;; esac` on a value the script settles (`MODE="${MODE:-bundled}"`):
                # bash runs the first arm whose pattern matches and no other, so the others' assignments and
                # commands are not the run's (round 55: a Megatron-SWIFT launcher's COMMAND=(...) set in two arms).
                # A value the script does not settle reads every arm, as before
                arm = _case_arm(lines, i, expand(m.group(1), env, dialect))
                if arm is not None:
                    stop, body = arm
                    lines[i:stop] = body
                    continue
            m = _READ_LOOP.match(line)
            if m:
                read = _read_loop_lines(lines, i, line, heredocs, env, dialect, where)
                fed, partial = read if read is not None else (None, None)
                names = m.group(3).split()
                if fed is not None and (len(fed) <= 1 or len(names) == 1):
                    # `while read -r mp; do ... done <<EOF` (or `done < runs.txt`, a file here): one run per line,
                    # each field its variable (bash(1), read: "the first word is assigned to the first name ... the
                    # last name gets the remaining words"), as a `for` loop's runs; at the end of the input read
                    # returns false having set them empty, so after `done` they are empty
                    sep = m.group(2)
                    runs = [_split_fields(ln, sep) for ln in fed]
                    if len(fed) == 1:
                        _read_fields(env, names, runs[0], sep)
                    elif fed:
                        cond = f"each run of for {names[0]} in <<input"
                        vals = [_joined_fields(f, sep) for f in runs]
                        if _PINNED.get(names[0]) in vals:
                            env[names[0]] = _PINNED[names[0]]
                        else:
                            maybe.setdefault(names[0], []).extend((cond, [v]) for v in vals)
                    stop = _loop_end(lines, i, line)
                    after: dict = {}  # (bash: read's false return on a partial last line has set the names to its fields)
                    _read_fields(after, names, _split_fields(partial, sep) if partial else [], sep)
                    for var in names:
                        left.append((lines[stop - 1][0] if stop > i else n, var, after[var]))
                    left.sort(key=lambda e: -e[0])
                    continue
            if _argument_loop(line) and not env.get("@"):
                # `while [[ $# -gt 0 ]]; do case $1 in --config) CONFIG_FILE="$2"; shift 2;; ... esac; done` (and
                # `while [ -n "$1" ]`, `while (( $# ))`, `while getopts ...`): the script run without arguments, as
                # `${1:-default}` is read, never enters the loop, so its assignments from "$2" are not the run's
                # (round 55: a user's train_axolotl.sh read CONFIG_FILE as "$2", not its default YAML)
                stop = _loop_end(lines, i, line)
                for k in range(i, stop):
                    # a variable only the loop sets (empty or unset before it: `DATASET=""` ... `--dataset)
                    # DATASET="$2"`) is the caller's to give, unknown here, not empty
                    for name in re.findall(r"(?:^|[;)]|\bthen|\bdo)\s*([A-Za-z_]\w*)=", lines[k][1]):
                        if not env.get(name):
                            env[name] = "${" + name + "}"
                i = stop
                continue
            # `if COND; then ... fi` blocks and `[[ COND ]] && NAME+=(...)`: an array or string append under a
            # condition is applied when the script itself settles the condition (`sdpa=true` ... `[[ "$sdpa" ==
            # true ]]`), skipped when it settles it false, and kept apart (Script.maybe) when it cannot be settled
            # here (a variable the caller sets): bash runs one branch, the file alone does not say which
            # one-line forms become two guarded statements: `if C; then A; else B; fi` and `C && A || B` run A when C
            # holds and B when it does not (for `C && A || B`, also when A fails: not modelled)
            m = re.match(r"^(\s*)for\s+([A-Za-z_]\w*)\s+in\s+(.+?)\s*;\s*do\s+(.+?)\s*;?\s*done\b" + _BLOCK_TAIL + r"\s*$", line)
            one_line = bool(m)
            if m:  # one line `for A in X Y; do CMD $A; done [| tee log]`: the loop line, then its body
                lines.insert(i, (n, f"{m.group(1)}    {m.group(4)}", end))
                line = f"{m.group(1)}for {m.group(2)} in {m.group(3)}; do"
            m = re.match(r"^\s*for\s+([A-Za-z_]\w*)\s+in\s+(.+?)\s*(?:;\s*do)?\s*$", line)
            if m:
                # `for ATTN in --sdpa --xformers; do accelerate launch ... $ATTN ...; done`: every value is a run of the
                # body. A setting that differs between runs has no one value (the variable stays unset, as before:
                # `--mixed_precision $P` is unknown), but each value's words are kept (Script.maybe) as what some run
                # passes, so every run's attention flag is read (a glob, a $(command), a caller's variable: not
                # settled here)
                listed = words_of(expand(m.group(2), env, dialect), dialect)
                vals = [w for ws in listed for w in ws]
                if vals and not any(re.search(r"[$*?`\[]", v) for v in vals):
                    # after `done` the variable holds the last value (bash(1), for: "name is set to each element of
                    # this list in turn"; nothing sets it back): `for mp in fp16 bf16; do ...; done` then `python
                    # train.py --mixed_precision $mp` is bf16, one launch, not a run per value. Not where the body may
                    # `break` (the value is then the one it broke on), nor where the line goes on past `done` with
                    # more commands (`done; A=0`: its words are no values; helper rev28)
                    stop = i if one_line else _loop_end(lines, i, line)
                    body = [lines[i][1]] if one_line else [t for _, t, _ in lines[i:stop]]
                    if len(listed) == 1 and not any(_BREAK.search(t) for t in body):
                        left.append((lines[stop - 1][0] if stop > i else n, m.group(1), vals[-1]))
                        left.sort(key=lambda e: -e[0])
                    if _PINNED.get(m.group(1)) in vals:
                        env[m.group(1)] = _PINNED[m.group(1)]  # (one run read on its own: loop_runs)
                        continue
                    for v in vals:
                        maybe.setdefault(m.group(1), []).append((f"each run of for {m.group(1)} in {m.group(2)}", [v]))
                    continue
            m = re.match(r"^(\s*)if\s+(.+?)\s*;\s*then\s+(.+?)\s*;\s*else\s+(.+?)\s*;?\s*fi\s*$", line) or \
                re.match(r"^(\s*)((?:\[\[\s.*?\s\]\]|\[\s.*?\s\]))\s*&&\s*(.+?)\s+\|\|\s+(.+)$", line)
            if m:
                lines.insert(i, (n, f"{m.group(1)}! {m.group(2)} && {m.group(4)}", end))
                line = f"{m.group(1)}{m.group(2)} && {m.group(3)}"
            line, guard = _guarded(line, env, conds, unsure)
            if line is None:
                continue
            plain = words_of(line, dialect)
            if guard[0] is not True and len(plain) == 1 and plain[0] and all(_assignment(w) for w in plain[0]):
                # NAME=value in a branch: skipped when the script settles the branch false; when it cannot, the
                # last value stays for the commands (as before) but conditions on NAME are no longer settled
                if guard[0] is False:
                    continue
                exports.note(plain[0], n)  # (under allexport, as the paths below that end here without a command)
                unsure.update(_assignment(w)[0] for w in plain[0])
                a = _assignment(plain[0][0]) if len(plain[0]) == 1 else None
                if a is not None and guard[0] is None and a[1] == "=" and _MACHINE_PROBE.match(guard[1]):
                    # `if python -c "import flash_attn"; then ATTN_IMPL=flash_attn; else ATTN_IMPL=sdpa; fi`: the
                    # machine the script runs on picks the value (what is installed, which GPU), the file alone has
                    # no one value for it: unknown at the commands, as the caller's variable is (cfg67: round 64m's
                    # luckyIITR train_1_5b.sh, `swift sft --attn_impl "${ATTN_IMPL}"`)
                    first = probed.get(a[0])
                    if first is not None and guard[1] == f"not ({first[0]})" and first[1] != a[2]:
                        env[a[0]] = "${" + a[0] + "}"
                        continue
                    before = env.get(a[0])
                    if first is None and isinstance(before, str) and before and known(before) and \
                            before != expand(a[2], env, dialect).strip("\"'"):
                        # `ATTN=sdpa` then `if python -c "import flash_attn"; then ATTN=flash_attn; fi`: the same,
                        # the value before the `if` being the other branch
                        env[a[0]] = "${" + a[0] + "}"
                        continue
                    probed[a[0]] = (guard[1], a[2])
                if a is not None and guard[0] is None and a[1] == "=" and not env.get(a[0]):
                    # `FLAGS=""; if [[ $USE_XF == 1 ]]; then FLAGS="--enable_xformers_memory_efficient_attention"; fi`
                    # then `... $FLAGS`: options given to a variable that held none, under a condition the caller
                    # settles, are the words some run appends, as `FLAGS+=" --x"` there is (round 50), not the
                    # variable's value for every run
                    new = [w for ws in words_of(expand(a[2], env, dialect), dialect) for w in ws]
                    paired = [e for e in maybe.get(a[0], []) if guard[1] == f"not ({e[0]})"]
                    if paired:
                        # the `else` of such an `if` (ATTN="--sdpa" / else ATTN="--xformers"): one of the two values
                        # is every run's, and the variable keeps the last as before (cfg22's shell-cond variants)
                        maybe[a[0]] = [e for e in maybe[a[0]] if e not in paired]
                        if not maybe[a[0]]:
                            del maybe[a[0]]
                    elif new and all(w.startswith("-") for w in new[:1]) and any(w.startswith("--") for w in new):
                        _append(env, maybe, a[0], new, guard, as_list=False)
                        continue
            m = re.match(r"^\s*([A-Za-z_]\w*)\+=\((.*)$", line)
            if m:
                new, i = _array_words(m.group(2), lines, i, env, dialect)
                _append(env, maybe, m.group(1), new, guard, as_list=True)
                continue
            m = re.match(r"^\s*([A-Za-z_]\w*)(\+?=)(\S.*)?$", line)
            if m and guard[0] is not True and m.group(3) is not None:
                # NAME="$NAME --flag" / NAME+=" --flag" under a condition: the words it adds
                name, op, raw = m.group(1), m.group(2), m.group(3)
                ws = words_of(raw, dialect)
                val = " ".join(ws[0]) if ws else ""
                own = re.compile(r"\$\{?" + re.escape(name) + r"\}?")
                if op == "+=" or own.search(val):
                    added = own.sub("", val) if op == "=" else val
                    new = [w for ws in words_of(expand(added, env, dialect), dialect) for w in ws]
                    _append(env, maybe, name, new, guard, as_list=False)
                    continue
            # NAME=( ... ) arrays may span lines: gather until the closing parenthesis
            m = re.match(r"^\s*(?:(?:export|local|declare|typeset|readonly)\s+(?:-\w+\s+)*)?([A-Za-z_]\w*)=\((.*)$", line)
            if m:
                words, i = _array_words(m.group(2), lines, i, env, dialect)
                if guard[0] is not False:
                    # (an array assigned in a branch the script settles false is never assigned, as NAME=value there:
                    # `if [ "${USE_BF16_MP}" = "true" ]; then BF16_FLAGS=(--bf16 true) else BF16_FLAGS=(--bf16 false)`
                    # after USE_BF16_MP=true, round 65's sft_fsdp.sh)
                    env[m.group(1)] = words
                continue
            m = re.match(r"^\s*set\s+--(?:\s+(.*))?$", line)
            if m and guard[0] is not False:
                # `set -- --xformers --mixed_precision=fp16 "$@"`: the script's positional parameters, which a later
                # "$@" passes on (the caller's own arguments, a "$@" inside, are unknown here and stay as written)
                env["@"] = [w for ws in words_of(expand(m.group(1) or "", env, dialect), dialect) for w in ws]
                continue
            if re.match(r"^exit(\s+\d+)?\s*$", line):  # a top-level exit (not indented): nothing after it runs
                break
            if guard[0] is False:
                # a command in a branch the script settles false never runs: bash takes the `if`/`elif`/`else` branch
                # whose test the script's own variables decide (`export trainer_backend=pl` ... `if [[
                # "${trainer_backend}" == "pl" ]]; then python ../train.py; elif ...; then colossalai run ...`: round
                # 86m's chenghaoYang train_lora.sh runs the python branch), as its assignments and appends were skipped
                continue
            m = re.match(r"^\s*read\b(?:\s+-\S+(?:\s+''|\s+\"\")?)*\s+([A-Za-z_]\w*)\s*<<", line)
            if m and n in heredocs:
                # `read -r -d '' VAR <<EOF ... EOF` (OpenRLHF's scripts): the variable holds the here-document, its
                # continuations joined, and a later `deepspeed --module $VAR` runs it
                body, quoted = heredocs[n]
                body = re.sub(r"\\\n", " ", body)
                env[m.group(1)] = " ".join(body.split()) if quoted else " ".join(expand(body, env, dialect).split())
                continue
            if n in heredocs and _depth < 2 and _runs_stdin(line, dialect):
                # `sbatch <<EOT ... EOT`, `bash <<'EOF' ... EOF`, `sed -e ... <<'EOF' | sbatch`: the here-document is the
                # job script that runs (read with the variables set so far, as a job inherits them)
                body = heredocs[n][0]
                pre = _preamble(env)
                commands.extend(parse(pre + body, name, _depth + 1, _exports=exports.inner(pre, child=True)).commands)
                continue
            if re.match(r"^\s*\(\s*$", line):
                lined.append(exports.held(env))
            elif lined and re.match(r"^\s*\)", line):
                exports.restore(lined.pop(), env)  # (what the subshell exported and set goes with it)
            # `cat > "$CONFIG" <<EOF`, or `tee FILE <<EOF` / `sudo tee FILE > /dev/null <<EOF` (tee copies its input
            # to FILE: a Dockerfile's `tee /huggingface/accelerate/default_config.yaml <<EOT`)
            m = (re.search(r"\btee\s+(?:-a\s+|--append\s+)?(\"[^\"]+\"|'[^']+'|[^\s;&|<>-][^\s;&|<>]*)", line)
                 or re.search(r"(?<![<>])>\s*(\"[^\"]+\"|'[^']+'|[^\s;&|<>]+)", line)) if n in heredocs else None
            if m:
                # the script writes a file (a trainer YAML) it runs next
                body, quoted = heredocs[n]
                files[expand(m.group(1), env, dialect).strip("\"'")] = body if quoted else \
                    _function_values(expand(body, env, dialect), funcs, env)
            elif line.strip() in ("{", "("):
                # `{ echo "stage: sft"; ...; echo "flash_attn: $FLASH_ATTN"; } > "$TRAIN_YAML"`: the group's echo
                # lines are the file it writes (round 54m's PshySimon LLaMA-Factory launcher), read as a here-document
                written = _echo_group(lines, i, env, dialect, funcs)
                if written is not None:
                    path, text, append = written
                    files[path] = files.get(path, "") + text if append and path in files else text
            elif n in heredocs and _shows_only(line, dialect):
                printed.append(heredocs[n][0])
        if dialect == "bat":
            # cmd.exe's `if [/i] [not] "%A%"=="B" (` ... `) else (` ... `)` blocks and one-line `if COND STATEMENT` /
            # `if COND (A) else (B)`: a branch the script itself settles false is skipped (both `set ATTN=` lines of an
            # if/else otherwise leave the else branch's value), one it cannot settle (`if exist`, `%1`) reads as written
            line = _bat_guarded(line, env, bat_blocks, lines, i, n, end)
            if line is None:
                continue
            m = re.match(r"^\s*@?setlocal\b(.*)$", line, re.IGNORECASE)
            if m and re.search(r"\benabledelayedexpansion\b", m.group(1), re.IGNORECASE):
                env[_DELAYED] = "1"
                continue
            m = re.match(r'^\s*@?set\s+/a\s+"?([A-Za-z_]\w*)\s*=\s*(.*?)"?\s*$', line, re.IGNORECASE)
            if m:
                # `set /a BS=2*2`: cmd.exe's integer arithmetic (bare names are variables, as in bash's $((...)))
                got = arithmetic(expand(m.group(2), env, dialect), env)
                exports.mark(m.group(1))  # (cmd.exe's variables are its environment: every program gets them)
                if got is None:
                    env.pop(m.group(1), None)  # the caller's or unknown here
                else:
                    env[m.group(1)] = got
                continue
            m = re.match(r'^\s*@?set\s+(?!/[ap]\b)"?([A-Za-z_]\w*)=(.*?)"?\s*$', line, re.IGNORECASE)
            if m:
                env[m.group(1)] = expand(m.group(2), env, dialect)
                exports.mark(m.group(1))
                continue
            if re.match(r"^\s*@?(echo|setlocal|endlocal|pause|goto|:\w|if\s+errorlevel|title|chcp|cd|pushd|popd)\b",
                        line, re.IGNORECASE):
                continue
        if dialect == "ps1":
            # PowerShell launchers (lora-scripts' and musubi-tuner GUIs' train.ps1): `$ext_args =
            # [System.Collections.ArrayList]::new()`, `if ($sdpa) { [void]$ext_args.Add("--sdpa") }`, `$args +=
            # "--x"`: the same settle-or-keep-apart reading as bash's conditional appends
            m = re.match(r"^(\s*)if\s*\((.+)\)\s*\{\s*(.+?)\s*\}\s*else\s*\{\s*(.+?)\s*\}\s*$", line, re.I)
            if m:
                lines.insert(i, (n, f"{m.group(1)}if (-not ({m.group(2)})) {{ {m.group(4)} }}", end))
                line = f"{m.group(1)}if ({m.group(2)}) {{ {m.group(3)} }}"
            m = re.match(r"^\s*param\s*\((.*)$", line, re.I)
            if m and not conds:
                # `param( [string] $Python = "python", [Parameter(Mandatory)] [string] $Config )`: the script's
                # parameters. Run without arguments (as bash's `${1:-default}` is read) one with a default literal
                # has that value; one without stays the caller's, unknown (round 55: `& $Python $trainer
                # --config_file $Config`)
                body, i = _balanced(m.group(1), lines, i)
                for name, val in _ps_params(body):
                    if val is not None:
                        env[name] = val
                continue
            line, guard = _ps_guarded(line, env, conds, unsure)
            if line is None:
                continue
            m = re.match(r"^\s*\$([A-Za-z_]\w*)\s*=\s*@\((.*)$", line)
            if m and m.group(2).strip() != ")":
                # `$args_list = @(` "--a", "--b" ... `)`: an array literal (one line or several), later splatted
                body = m.group(2)
                while ")" not in body and i < len(lines):
                    body += " " + lines[i][1]
                    i += 1
                body = body[:body.rfind(")")] if ")" in body else body
                env[m.group(1)] = [w for ws in words_of(expand(body.replace(",", " "), env, dialect), dialect)
                                   for w in ws]
                continue
            if re.match(r"^\s*\$[A-Za-z_]\w*\s*=\s*(?:\[System\.Collections\.(?:ArrayList|Generic\.List\[\w+\])\]::new\(\)"
                        r"|New-Object\s+System\.Collections\.ArrayList|@\(\s*\))\s*;?\s*$", line, re.I):
                env[re.match(r"^\s*\$(\w+)", line).group(1)] = []
                continue
            m = re.match(r"^\s*(?:\[void\]\s*)?\$([A-Za-z_]\w*)\.(?:Add|AddRange)\(\s*(.+?)\s*\)\s*(?:\|\s*Out-Null)?\s*;?\s*$",
                         line, re.I) or re.match(r"^\s*\$([A-Za-z_]\w*)\s*\+=\s*(.+?)\s*;?\s*$", line)
            if m and (isinstance(env.get(m.group(1)), (list, str)) or ".add" in line.lower() or guard[0] is not True):
                # (a string variable grown with `+=` as well: `$run_parameters = "--a"` ... `$run_parameters += " --b"`,
                # splatted into the launch line as `train_network.py $run_parameters`)
                if isinstance(env.get(m.group(1)), str) and ".add" not in line.lower():
                    # text appended to a string: the quotes go, the words are split where the string is used (a child
                    # `powershell accelerate launch ... $run_parameters` parses it again)
                    text = expand(m.group(2).strip(), env, dialect)
                    text = unquoted(text)
                    if guard[0] is True:
                        env[m.group(1)] += " " + text
                    else:
                        _append(env, maybe, m.group(1), [w for ws in words_of(text, dialect) for w in ws], guard,
                                as_list=False)
                    continue
                body = re.sub(r"^@\((.*)\)$", r"\1", m.group(2).strip()).replace(",", " ")
                new = [w for ws in words_of(expand(body, env, dialect), dialect) for w in ws]
                _append(env, maybe, m.group(1), new, guard, as_list=True)
                continue
            if guard[0] is False:
                continue
            m = re.match(r'^\s*\$(?:env:)?([A-Za-z_]\w*)\s*=\s*(.*?)\s*$', line)
            if m:
                if re.match(r"^\s*\$env:", line):
                    exports.mark(m.group(1))  # `$env:NAME = v`: the process's environment, not a script variable
                if guard[0] is None:
                    # set in a branch the script does not settle (`if ($TestRun -ge 1) { $test_run = 1 }`, TestRun a
                    # parameter): the value stays as before for the commands, as bash's, but tests on it are unsettled
                    unsure.add(m.group(1))
                    if m.group(1) in env:
                        continue
                val = m.group(2).strip()
                joined = _ps_concat(val, env)
                if joined is None:
                    joined = _ps_join_path(val, env)
                if joined is not None:  # `$laungh_script = "flux_" + $laungh_script`, `Join-Path $Root "x.py"`
                    env[m.group(1)] = joined
                    continue
                env[m.group(1)] = unquoted(val)
                continue
        if dialect == "posix" and _depth < 3:
            # `cat "$BASE" | sed "s|output_dir:.*|output_dir: $OUT|" | sed ... > "$TEMP_CONFIG"` and `sed EXPR BASE >
            # COPY`: the file written is the base file with those substitutions, as `cp BASE COPY` then `sed -i EXPR
            # COPY` makes it (configs/copies.py reads that pair; round 55: a user's RunPod launcher trains on such a
            # copy of its LLaMA-Factory YAML)
            for ws in _piped_copy(expand(line, env, dialect), dialect, {k: env[k] for k in exports.at() if k in env}):
                cmd = _command(ws, env, n, exports)
                if cmd is not None:
                    commands.append(cmd)
        if dialect == "posix" and where and _plain_assignment(line):
            got = _settings_assignment(line, env, funcs, os.path.join(where, os.path.basename(name or "x.sh")))
            if got is not None:
                # `MIXED_PRECISION="$(yaml_get training.mixed_precision)"` of a getter function of the script's own, or
                # `MP=$(yq -r '.training.mixed_precision' "$CONFIG")`: the value the settings file here holds
                env[got[0]] = got[1]
                exports.note([f"{got[0]}="], n)
                continue
        if dialect == "posix" and _TERMINATED.search(_QUOTED.sub("", line)):
            # `nohup swift sft ... > train.log 2>&1 &`, `python train.py --a 1 & wait`, `... ;`: the command ends on
            # its line (backgrounded, or its output sent to a file): a line of options under it is a command of its
            # own to bash, never more of this one (the docs-snippet rule below)
            broken.add(n)
        for words, path in commands_of(expand(line, env, dialect), dialect):
            _enter(exports, subshells, path, env)
            if words[0].startswith("-") and commands and commands[-1].line < n and \
                    ends.get(commands[-1].line, -1) + 1 == n and commands[-1].line not in broken:
                # a line of options alone, right under a command, continues it: a docs snippet that lost its
                # continuation characters (one option per line, as READMEs print them)
                prev = commands.pop()
                cmd = take_apart(prev.words + words, prev.env, prev.line)
                cmd.exported = prev.exported
                ends[prev.line] = end
            else:
                cmd = _command(words, env, n, exports)
            if cmd is not None and maybe:
                cmd.maybe = [e for var, es in maybe.items()
                             if re.search(r"\$\{?" + re.escape(var) + r"\b", line) for e in es]
            if cmd is not None and funcs and words and words[0] in funcs and _depth < 2:
                args = " ".join(shlex.quote(w) for w in words[1:])
                body = funcs[words[0]]
                if words[1:] not in (["$@"], ["$*"]):
                    # (`main "$@"`: the function gets the script's own arguments, which its $1 ... and "$@" already
                    # are; writing the words in would also rewrite the $1 of the functions it defines, round 54m's
                    # yaml_bool inside a main())
                    body = body.replace('"$@"', args).replace("$@", args).replace('"$*"', args)
                    for k, w in enumerate(words[1:10], start=1):
                        body = re.sub(r"\$\{?" + str(k) + r"\}?(?![\d:])", lambda _m, w=w: shlex.quote(w), body)
                # (the script's arrays too: a function that appends to one, `CMD+=("$flag_name")` of round 54m's
                # skywong14 add_bool_flag, leaves the whole array global, not its own append alone)
                pre = _preamble(env, arrays=True)
                within = exports.inner(pre, function=True)
                inner = parse(pre + body, name, _depth + 1, _funcs=funcs, _exports=within)
                exports.take(within)  # (a function runs in the script's own shell: what it exports stays exported)
                commands.extend(c for c in inner.commands)
                # the files the body writes (`cat > $CONFIG <<EOF` inside `main`) are the script's, as a top-level
                # here-document's are: a later command, or the reader of the command that runs them, finds them
                files.update(inner.files)
                called.add(words[0])
                called.update(inner.called)
                _returned_globals(env, inner.env, body)
                continue
            inner_text = _command_string(cmd) if cmd is not None and _depth < 2 else None
            if inner_text:
                # `bash -c "cd x && torchrun train.py ..."`, `sbatch --wrap "..."`, a cluster CLI's `--command "$cmd"`:
                # the string is a script of its own, run where the job lands
                commands.append(cmd)
                pre = _preamble(env)
                commands.extend(parse(pre + inner_text, name, _depth + 1,
                                      _exports=exports.inner(pre, child=True, given=cmd.exported)).commands)
                continue
            if cmd is not None:
                ran = _written_script(cmd, files)
                if ran is not None and _depth < 2:
                    # `cat > job.sh <<EOF ... EOF; sbatch job.sh`: the here-document is the script that runs
                    inner = parse(files[ran], ran, _depth + 1, _exports=exports.inner("", child=True, given=cmd.exported))
                    commands.extend(inner.commands)
                    for k, v in inner.env.items():
                        env.setdefault(k, v)
                    continue
                src = _sourced_file(cmd, where) if dialect == "posix" and _depth < 2 else None
                if src is not None and guard[0] is not False:
                    # `source ./env.sh` / `. config.env`: the file runs in this shell, so what it sets and exports is
                    # this script's from here on (a file that is not here: its variables stay as written, unknown)
                    pre = _preamble(env)
                    within = exports.inner(pre)
                    inner = parse(pre + src[1], os.path.basename(src[0]), _depth + 1, os.path.dirname(src[0]),
                                  _exports=within)
                    exports.take(within)  # (sourced: it runs in this shell, its exports are this script's)
                    for k, v in inner.env.items():
                        if k != _DELAYED:
                            env[k] = v
                            if guard[0] is None:
                                unsure.add(k)
                commands.append(cmd)
        _enter(exports, subshells, (), env)  # (the line's subshells end with it)
    while scoped:
        exports.restore(scoped.pop()[1], env)
    for fname, body in funcs.items():
        if fname not in called and fname not in (_funcs or {}) and _depth < 2:
            # called some way not read here ("$1" dispatch ...): as written (a function of the caller's is the caller's)
            pre = _preamble(env)
            commands.extend(parse(pre + body, name, _depth + 1, _exports=exports.inner(pre)).commands)
    env.pop(_DELAYED, None)
    return Script(commands, env, dialect, files, maybe, called, printed)


# the loop variables a reading of one run of a launch loop holds at one of their values (loop_runs, pinned)
_PINNED: dict = {}


def loop_runs(cmd: Command, limit: int = 16) -> list[dict]:
    """The runs of a command inside `for` loops whose variables its line uses (`for mp in fp16 bf16; do accelerate
    launch --mixed_precision $mp train.py; done`): each as {variable: value}, every combination of the loops' values
    (at most `limit`; none past it). bash runs the body once per value, in order (bash(1), Compound Commands: "for name
    [ [ in [ word ... ] ] ; ] do list ; done ... name is set to each element of this list in turn, and list is executed
    each time"), so each is one launch of the same command."""
    import itertools

    values: dict = {}
    for cond, words in cmd.maybe or []:
        m = re.match(r"^each run of for ([A-Za-z_]\w*) in ", cond)
        if m and words and words[0] not in values.setdefault(m.group(1), []):
            values[m.group(1)].append(words[0])
    names = list(values)
    total = 1
    for n in names:
        total *= len(values[n])
    if not names or total > limit:
        return []
    return [dict(zip(names, combo)) for combo in itertools.product(*(values[n] for n in names))]


class pinned:
    """`with pinned({"mp": "bf16"}):` shell.parse reads the `for` loops over those variables as the run where each
    holds that value (the variable set, no other run's words kept apart)."""

    def __init__(self, values: dict):
        self.values, self.before = dict(values), None

    def __enter__(self):
        self.before = dict(_PINNED)
        _PINNED.update(self.values)
        return self

    def __exit__(self, *exc):
        _PINNED.clear()
        _PINNED.update(self.before)
        return False


def _enter(exports: Exports, subshells: list, path: tuple, env: dict) -> None:
    """Leave the subshells of the line that a command of `path` (shell_words.commands_of) is not in, putting back what
    the script exported and the values its variables had before each (bash(1), COMMAND EXECUTION ENVIRONMENT:
    "Changes made to the subshell environment cannot affect the shell's execution environment": `(A=1; python x.py)`
    leaves no A), and enter those it is newly in."""
    same = 0
    while same < min(len(subshells), len(path)) and subshells[same][0] == path[same]:
        same += 1
    while len(subshells) > same:
        exports.restore(subshells.pop()[1], env)
    subshells.extend((sid, exports.held(env)) for sid in path[same:])


# what may follow a loop's `done` or a group's `}`: redirections, then a pipe or `&` that runs the whole compound command
# in a subshell (group 1), or nothing more
_BLOCK_TAIL = r"(?:\s*(?:\d*>>?&?|&>>?|<)\s*\S+)*\s*((?:\|(?!\|)|&(?!&)).*)?"
_PIPED_INTO = re.compile(r"(?<![|>])\|&?\s*(?:for|while|until|select)\b")


def _piped_block(lines: list, i: int, first: str, lastpipe: bool = False) -> int | None:
    """The last line number of a loop, an `if` / `case` block or a `{ ... }` group opened on `first` (lines[i] is the
    line after it) that bash runs in a subshell, None for one it runs in the script's own shell. A compound command is
    a pipeline's part as a simple command is (bash(1), Pipelines: "Each command in a multi-command pipeline ... is
    executed in its own subshell": `cat runs.txt | while read lr; do ...; done`, `for lr in ...; do ...; done | tee
    log`, `if ...; fi | cat`), and one ended by `&` runs asynchronously in a subshell (Lists); `done < runs.txt` and
    `done > log` do not: the body's assignments persist after the loop there, as a `{ }` group's do (Compound
    Commands). lastpipe (`shopt -s lastpipe`): a loop that is a pipeline's last command runs in the shell itself."""
    st = first.strip()
    opener = re.match(r"^(if|case)\b", st)
    if opener and not re.search(r"\b(fi|esac)\b", st):
        # (a one-line `if ...; fi | cat` is one line: commands_of's pipeline reading holds it)
        close = "fi" if opener.group(1) == "if" else "esac"
        depth, k = 1, i
        while depth > 0 and k < len(lines):
            t = lines[k][1].strip()
            # (a one-line `if ...; fi` inside opens and closes on its line)
            depth += bool(re.match(r"^" + opener.group(1) + r"\b", t) and not re.search(r"\b" + close + r"\b", t)) - \
                bool(re.match(r"^" + close + r"\b", t))
            k += 1
        closing = lines[k - 1][1].strip() if depth == 0 and k > i else ""
        tail = re.match(r"^" + close + r"\b" + _BLOCK_TAIL, closing) if closing else None
        return lines[k - 1][0] if tail and tail.group(1) else None
    if st == "{":
        depth, k = 1, i
        while depth > 0 and k < len(lines):
            t = lines[k][1].strip()
            depth += (t == "{" or t.endswith(" {")) - t.startswith("}")
            k += 1
        closing = lines[k - 1][1].strip() if depth == 0 else ""
        return lines[k - 1][0] if re.match(r"^\}" + _BLOCK_TAIL, closing).group(1) else None
    if not _LOOP_OPEN.match(st) and not _PIPED_INTO.search(st):
        return None
    stop = _loop_end(lines, i, st)
    closing = st if stop == i else lines[stop - 1][1].strip() if stop > i else ""
    tail = _LOOP_CLOSE.split(closing)[-1] if _LOOP_CLOSE.search(closing) else None
    if tail is None:
        return None
    if (_PIPED_INTO.search(st) and not lastpipe) or re.match(_BLOCK_TAIL, tail).group(1):
        return lines[stop - 1][0] if stop > i else lines[i - 1][0]
    return None


_ARG_LOOP = re.compile(
    r"^\s*while\s+(?:"
    r"(?:\[\[?|test)\s+\"?\$\{?#\}?\"?\s+-(?:gt\s+0|ge\s+1|ne\s+0)\s*(?:\]\]?)?"  # [[ $# -gt 0 ]], test $# -ne 0
    r"|\(\(\s*\"?\$\{?#\}?\"?\s*(?:>\s*0\s*)?\)\)"  # (( $# )), (( $# > 0 ))
    r"|(?:\[\[?|test)\s+-n\s+\"?\$\{?1\}?\"?\s*(?:\]\]?)?"  # [ -n "$1" ]
    r"|(?:\[\[?|test)\s+\"?\$\{?1\}?\"?\s+!=\s+(?:\"\"|'')\s*(?:\]\]?)?"  # [ "$1" != "" ]
    r"|getopts\s+\S+\s+\w+"  # getopts "c:e:" flag
    r")\s*(?:;\s*do\b.*)?$")
_LOOP_OPEN = re.compile(r"(?:^|[;&|(]\s*|\bthen\s+|\bdo\s+|\belse\s+)(?:for|while|until|select)\b")
_LOOP_CLOSE = re.compile(r"(?:^|[;&|]\s*)done\b")


# `break` as a command of a loop's body (helper rev28: the loop's variable after `done` is then the value it broke on)
_BREAK = re.compile(r"(?:^\s*|[;&|({]\s*|\b(?:then|do|else)\s+)break\b")
# `while read -r A B; do` / `while IFS=, read -r A B`: group 2 the IFS it sets, group 3 the names
_READ_LOOP = re.compile(r"^\s*while\s+(IFS=(\S*)\s+)?read\b(?:\s+-[rs]+)*\s+((?:[A-Za-z_]\w*\s*)+?)\s*(?:;\s*do\s*)?$")
MAX_READ_LINES = 16


def _read_fields(env: dict, names: list, fields: list, sep: str | None) -> None:
    """The names `read` sets from one line's fields: each its field, the last name the remaining ones (bash(1), read)."""
    for k, var in enumerate(names):
        got = fields[k:] if k == len(names) - 1 else fields[k:k + 1]
        env[var] = _joined_fields(got, sep)


def _split_fields(line: str, sep: str | None) -> list[str]:
    """A line's fields as `read` splits them: at the IFS a loop sets (not blank), else at blanks."""
    return line.split(sep) if sep and sep.strip() else line.split()


def _joined_fields(fields: list[str], sep: str | None) -> str:
    """Fields joined back as `read` leaves the remaining ones in its last name."""
    return (sep if sep and sep.strip() else " ").join(fields)


def _read_loop_lines(lines: list, i: int, first: str, heredocs: dict, env: dict, dialect: str,
                     where: str | None) -> list | None:
    """The lines a `while read` loop opened on `first` reads (_read_runs: the runs, the partial last line): its `done <<EOF`
    here-document's (expanded unless its delimiter is quoted), or its `done < FILE`'s, FILE a small file beside the script;
    None where the input is not here (a pipe, a file elsewhere, a variable's file) or has more than MAX_READ_LINES lines."""
    stop = _loop_end(lines, i, first)
    if stop <= i:
        return None
    last, closing = lines[stop - 1][0], lines[stop - 1][1].strip()
    if re.match(r"^done\s*<<-?", closing) and last in heredocs:
        body, quoted = heredocs[last]
        text = body if quoted else expand(body, env, dialect)
    else:
        m = re.match(r"^done\s*<\s*(\"[^\"]+\"|'[^']+'|[^\s;&|<>]+)\s*$", closing)
        if not m or not where:
            return None
        path = expand(m.group(1), env, dialect).strip("\"'")
        if "$" in path:
            return None
        path = os.path.join(where, path)
        try:
            if os.path.getsize(path) > MAX_SOURCED:
                return None
            with open(path, encoding="utf-8", errors="replace") as f:
                text = f.read()
        except OSError:
            return None
    return _read_runs(text, from_file=not re.match(r"^done\s*<<-?", closing))


def _read_runs(text: str, from_file: bool) -> tuple[list, str | None] | None:
    """(the lines `while read` runs its body for, the partial last line it reads without running it) as bash does: a blank
    line is a run with empty fields; a file's last line without its newline makes `read` return false, the loop ends and
    the names keep that line's fields after `done` (a here-document's lines always end in one); None past MAX_READ_LINES
    runs, or where nothing is read (helper rev28b)."""
    fed = text.split("\n") if text else []  # (a here-document's body is stored without its last newline)
    partial = (fed.pop() or None) if from_file and fed else None
    return (fed, partial) if (fed or partial) and len(fed) <= MAX_READ_LINES else None


def _argument_loop(line: str) -> bool:
    """A `while` loop over the script's own arguments (`while [[ $# -gt 0 ]]`, `while getopts ...`)."""
    return bool(_ARG_LOOP.match(line))


def _loop_end(lines: list, i: int, first: str) -> int:
    """The index of the logical line after the `done` that closes the loop opened on `first` (lines[i] is the line
    after it); loops nested inside are skipped with it."""
    depth = len(_LOOP_OPEN.findall(first)) - len(_LOOP_CLOSE.findall(first))
    while depth > 0 and i < len(lines):
        t = lines[i][1]
        depth += len(_LOOP_OPEN.findall(t.strip())) - len(_LOOP_CLOSE.findall(t.strip()))
        i += 1
    return i


def _balanced(rest: str, lines: list, i: int) -> tuple[str, int]:
    """The text up to the parenthesis that closes the one before `rest` (gathering the next logical lines), and the
    index of the line after it."""
    body = rest
    while body.count("(") + 1 > body.count(")") and i < len(lines):
        body += "\n" + lines[i][1]
        i += 1
    depth, out = 1, []
    for ch in body:
        depth += (ch == "(") - (ch == ")")
        if depth == 0:
            break
        out.append(ch)
    return "".join(out), i


def _ps_params(body: str) -> list[tuple[str, str | None]]:
    """(name, default or None) of each parameter of a PowerShell `param(...)` block: attributes and types
    (`[Parameter(Mandatory = $true)]`, `[string]`) set nothing; a default is kept when it is a literal (a quoted
    string, a number, $true / $false)."""
    text = body
    while True:
        stripped = re.sub(r"\[[^\[\]]*\]", " ", text)
        if stripped == text:
            break
        text = stripped
    out = []
    for part in re.split(r",(?=(?:[^\"']|\"[^\"]*\"|'[^']*')*$)", text):
        m = re.match(r"^\s*\$([A-Za-z_]\w*)\s*(?:=\s*(.+?))?\s*$", part.strip().replace("\n", " "))
        if not m:
            continue
        val = m.group(2)
        if val is not None:
            val = val.strip()
            if len(val) > 1 and val[0] == val[-1] and val[0] in "'\"":
                val = val[1:-1]
            elif not re.fullmatch(r"-?\d+(\.\d+)?|\$(?:true|false)", val, re.I):
                val = None  # an expression ($env:X, (Get-Location)): not settled here
        out.append((m.group(1), val))
    return out


_CASE_PATTERN = re.compile(r"^\s*\(?\s*((?:[^()\s|]+|\"[^\"]*\"|'[^']*')(?:\s*\|\s*(?:[^()\s|]+|\"[^\"]*\"|'[^']*'))*)"
                           r"\s*\)\s*(.*)$")


def _case_arm(lines: list, i: int, word: str) -> tuple[int, list] | None:
    """For a `case WORD in` whose word the script settles (lines[i] is the line after it): (the index of the line
    after its `esac`, the logical lines of the first arm whose pattern matches, without the pattern and its `;;`);
    None when the word is not settled or the block is not read here (no `esac`, an arm not written one per line)."""
    import fnmatch

    word = unquoted(word.strip())
    if not known(word) or "`" in word:
        return None
    depth, j, arms, cur = 0, i, [], None
    while j < len(lines):
        n, t, end = lines[j]
        st = t.strip()
        j += 1
        if depth == 0 and re.match(r"^esac\b", st):
            if cur is not None:
                arms.append(cur)
            break
        if re.match(r"^case\s+.+\s+in$", st):
            depth += 1
        elif re.match(r"^esac\b", st):
            depth -= 1
        if depth == 0 and cur is None:
            m = _CASE_PATTERN.match(t)
            if not m:
                if st:
                    return None
                continue
            pats = [p.strip().strip("'\"") for p in m.group(1).split("|")]
            cur = (pats, [])
            rest = m.group(2)
            if rest.strip():
                done = re.search(r";;\s*$", rest)
                rest = rest[:done.start()] if done else rest
                if rest.strip():
                    cur[1].append((n, rest, end))
                if done:
                    arms.append(cur)
                    cur = None
            continue
        if depth == 0 and cur is not None:
            done = re.search(r"(?:^|\s);;\s*$", t) or (st == ";;")
            if done:
                body = t[:done.start()] if not isinstance(done, bool) else ""
                if body.strip():
                    cur[1].append((n, body, end))
                arms.append(cur)
                cur = None
                continue
        if cur is not None:
            cur[1].append((n, t, end))
    else:
        return None
    for pats, body in arms:
        if any(fnmatch.fnmatchcase(word, p) for p in pats):
            return j, body
    return j, []


def _plain_assignment(line: str) -> bool:
    """A line that is one plain assignment (no command after it, no `&&` / `;` chain)."""
    return bool(re.match(r"^\s*(?:(?:export|local|readonly)\s+)?[A-Za-z_]\w*=", line)) and "&&" not in line.split("$(", 1)[0]


_ASSIGNED_SUBST = re.compile(r"^\s*(?:(?:export|local|readonly)\s+)?([A-Za-z_]\w*)=(\"?)\$\((.*)\)\2\s*$", re.DOTALL)
_SETTINGS_EXT = re.compile(r"\.(ya?ml|json|toml)$", re.IGNORECASE)
MAX_SETTINGS_BYTES = 2_000_000


def _settings_assignment(line: str, env: dict, funcs: dict, launcher: str) -> tuple[str, str] | None:
    """(name, value) of `NAME="$(CMD)"` where CMD prints one key of a settings file that is here: `yq [-r] [e|eval]
    '.a.b' FILE`, or a function of the script's own that is such a getter (_getter_file: an embedded python that loads
    the YAML / JSON a variable names and walks a dotted key given as $1), or that only prints its path argument resolved
    (`resolve_path() { python3 - "$1" <<'PY' ... print(Path(sys.argv[1]).expanduser().resolve()) ... }`, `realpath
    "$1"`): that argument. None for anything else, or when the file or the key is not here (the value stays as
    written, unknown)."""
    m = _ASSIGNED_SUBST.match(line)
    if not m or m.group(3).count("(") != m.group(3).count(")") or "`" in m.group(3):
        return None
    ws = words_of(m.group(3), "posix")
    if len(ws) != 1 or not ws[0]:
        return None
    words = ws[0]
    if words[0] == "yq":
        rest = [w for w in words[1:] if not w.startswith("-") and w not in ("e", "eval")]
        if len(rest) != 2 or not re.fullmatch(r"(?:\.[A-Za-z_][\w-]*)+", rest[0]):
            return None
        got = _settings_key(rest[1], rest[0][1:], env, launcher)
        return (m.group(1), got) if got is not None else None
    body = funcs.get(words[0])
    if body is None or len(words) != 2:
        return None
    arg = unquoted(expand(words[1], env, "posix"))
    if _prints_path_of_argument(body):
        return m.group(1), arg
    path = _getter_file(body)
    if path is None or not re.fullmatch(r"[\w-]+(?:\.[\w-]+)*", arg):
        return None
    got = _settings_key(path, arg, env, launcher)
    return (m.group(1), got) if got is not None else None


def _prints_path_of_argument(body: str) -> bool:
    """The function only prints its first argument as a resolved path: `realpath "$1"`, `readlink -f "$1"`, or an
    embedded python given "$1" alone that prints Path(sys.argv[1]).resolve() / os.path.abspath / realpath of it."""
    lines = [ln.strip() for ln in body.splitlines() if ln.strip() and not ln.strip().startswith("#")]
    if len(lines) == 1 and re.fullmatch(r"(?:realpath(?:\s+-[a-z]+)*|readlink\s+-[fem]+)\s+\"?\$\{?1\}?\"?", lines[0]):
        return True
    if not lines or not re.match(r"^python3?\s+-\s+\"?\$\{?1\}?\"?\s*<<", lines[0]):
        return False
    code = "\n".join(lines[1:])
    return bool(re.search(r"\.resolve\(\)|os\.path\.(?:abspath|realpath)\(", code)) and \
        not re.search(r"\b(?:yaml|json|toml|tomllib)\b", code) and code.count("print(") == 1


def _getter_file(body: str) -> str | None:
    """The file word (`"$CONFIG_PATH"`) of a function that prints one key of a settings file: an embedded python
    `python3 - FILE "$1" <<'PY'` whose code loads YAML / JSON from sys.argv[1] and walks sys.argv[2] split on dots;
    None for any other body."""
    lines = [ln.strip() for ln in body.splitlines() if ln.strip() and not ln.strip().startswith("#")]
    if not lines:
        return None
    m = re.match(r"^python3?\s+-\s+(\"[^\"]+\"|\S+)\s+\"?\$\{?1\}?\"?\s*<<", lines[0])
    code = "\n".join(lines[1:])
    if not m or not re.search(r"\b(?:yaml\.(?:safe_)?load|json\.load)\(", code) or \
            not re.search(r"\.split\(\s*[\"']\.[\"']\s*\)", code) or "sys.argv" not in code:
        return None
    return m.group(1)


def _settings_key(word: str, key: str, env: dict, launcher: str) -> str | None:
    """The value of dotted `key` in the settings file `word` names (its variables and the launcher's own place put in:
    references._place), printed as the getters print it (true / false, "" for null); None when the file is not here,
    is no YAML / JSON, or lacks the key."""
    from .references import _place

    path = unquoted(expand(word, env, "posix"))
    for _ in range(4):  # `$(cd $SCRIPT_DIR/.. && pwd)`: a variable inside a substitution, as bash expands it
        new = re.sub(r"\$\{([A-Za-z_]\w*)\}|\$([A-Za-z_]\w*)",
                     lambda v: env[v.group(1) or v.group(2)] if isinstance(env.get(v.group(1) or v.group(2)), str)
                     else v.group(0), path)
        if new == path:
            break
        path = new
    path = path.replace('"', "")
    if path.startswith("$("):
        path = _place(path, launcher) or ""
    elif path and not os.path.isabs(path):
        here = os.path.dirname(launcher)
        path = next((c for c in (os.path.join(here, path), os.path.join(os.path.dirname(here), path))
                     if os.path.isfile(c)), "")
    if not path or not _SETTINGS_EXT.search(path) or not os.path.isfile(path) or \
            os.path.getsize(path) > MAX_SETTINGS_BYTES:
        return None
    from . import make_doc, read_text  # (the package imports this module)
    from ..model import UsageError

    try:
        sub = make_doc(path, read_text(path))
    except UsageError:  # a file that does not parse holds no value here
        return None
    if sub["fmt"] not in ("yaml", "json", "toml"):
        return None
    data = sub.get("data")
    for part in key.split("."):
        if not isinstance(data, dict) or part not in data:
            return None
        data = data[part]
    if data is None:
        return ""
    if isinstance(data, bool):
        return "true" if data else "false"
    if isinstance(data, (str, int, float)):
        return str(data)
    return None


_GROUP_END = re.compile(r"^\s*[})]\s*(>>?)\s*(\"[^\"]+\"|'[^']+'|[^\s;&|<>]+)\s*$")
MAX_GROUP_LINES = 400


def _echo_group(lines: list, i: int, env: dict, dialect: str, funcs: dict) -> tuple[str, str, bool] | None:
    """(path, text, appended) of the file a `{ ... } > FILE` (or `( ... ) >> FILE`) group writes with its echo lines
    (lines[i] is the line after the group's opening brace): each `echo WORDS` at the group's own level is a line of
    the file, the words as bash expands them (the script's variables, a `$(fn ARG)` of a function of its own that
    echoes one value: _function_values). Lines under an `if` inside the group are left out (their condition is not
    settled here: the keys they add stay unknown, not guessed). None when the group ends without redirecting to a
    file, runs anything but echo / if-blocks, or is not closed."""
    out, depth = [], 0
    for j in range(i, min(len(lines), i + MAX_GROUP_LINES)):
        t = lines[j][1]
        st = t.strip()
        if not st:
            continue
        if depth == 0:
            m = _GROUP_END.match(t)
            if m:
                path = unquoted(expand(m.group(2), env, dialect))
                return (path, "\n".join(out) + "\n", m.group(1) == ">>") if out and path else None
        if re.match(r"^if\b", st):
            depth += 1
            continue
        if re.match(r"^fi\b", st):
            depth -= 1
            if depth < 0:
                return None
            continue
        if depth:
            continue
        ws = words_of(expand(t, env, dialect), dialect)
        if len(ws) != 1 or not ws[0] or ws[0][0] != "echo":
            return None
        args = ws[0][1:]
        while args and args[0] in ("-e", "-E"):
            args = args[1:]
        out.append(_function_values(" ".join(args), funcs, env))
    return None


_FUNCTION_CALL = re.compile(r"\$\(\s*([A-Za-z_][\w-]*)((?:\s+(?:[^()`$]|\$(?!\())*)?)\)")


def _function_values(text: str, funcs: dict, env: dict) -> str:
    """`text` with each `$(fn ARG ...)` of a function of the script's own that echoes one value (_echoed) replaced by
    that value (`bf16: $(yaml_bool true)` of `yaml_bool() { case "$1" in true|1|yes) echo "true" ;; *) echo "false"
    ;; esac; }` -> `bf16: true`); any other substitution stays as written (unknown)."""
    if not funcs or "$(" not in text:
        return text

    def one(m):
        body = funcs.get(m.group(1))
        if body is None:
            return m.group(0)
        args = [w for ws in words_of(expand(m.group(2), env, "posix"), "posix") for w in ws]
        got = _echoed(body, args)
        return got if got is not None else m.group(0)

    return _FUNCTION_CALL.sub(one, text)


def _echoed(body: str, args: list) -> str | None:
    """The one value a function body prints for `args`, when the body is a single `case "$1" in` whose arms each
    `echo` one word (a script's own yes/no normaliser): the arm bash runs for the argument; None otherwise."""
    for k, w in enumerate(args[:9], start=1):
        body = re.sub(r"\$\{?" + str(k) + r"\}?(?![\d:])", lambda _m, w=w: shlex.quote(w), body)
    lines = [ln for ln in _logical_lines(body, "posix") if ln[1].strip()]
    if not lines:
        return None
    m = re.match(r"^\s*case\s+(.+?)\s+in\s*$", lines[0][1])
    if not m:
        return None
    arm = _case_arm(lines, 1, m.group(1))
    if arm is None or arm[0] != len(lines):
        return None  # (a word not settled, or more after the esac)
    said = [ln[1] for ln in arm[1] if ln[1].strip()]
    if len(said) != 1:
        return None
    ws = words_of(said[0], "posix")
    if len(ws) != 1 or len(ws[0]) != 2 or ws[0][0] != "echo" or not known(ws[0][1]):
        return None
    return ws[0][1]


_WRITES_TO = re.compile(r"(?<![\d&>])>\s*(\"[^\"]+\"|'[^']+'|[^\s;&|<>]+)\s*$")


_READS_FROM = re.compile(r"(?<![<\d&])<\s*(\"[^\"]+\"|'[^']+'|[^\s;&|<>]+)")


def _envsubst_edits(words: list[str], exported: dict) -> list[str] | None:
    """The `sed -i` words standing for an `envsubst [SHELL-FORMAT]` filter (GNU gettext envsubst(1): each `$NAME` /
    `${NAME}` of its input replaced by that environment variable's value, or only those SHELL-FORMAT names): the
    values of the variables the script exports with a value known here; a reference to any other variable is the
    user's environment's, left as written (a value unknown here, never guessed). None for an option (-v prints the
    names, no copy) or more words."""
    if len(words) > 2 or any(w.startswith("-") for w in words[1:]):
        return None
    only = set(re.findall(r"\$\{?([A-Za-z_]\w*)", words[1])) if len(words) == 2 else None
    exprs = []
    for name, val in exported.items():
        if (only is None or name in only) and known(val) and "\x01" not in val:
            v = val.replace("\\", "\\\\").replace("&", "\\&")
            exprs += [f"s\x01\\${{{name}}}\x01{v}\x01g", f"s\x01\\${name}\\b\x01{v}\x01g"]
    return [x for e in exprs for x in ("-e", e)]


def _piped_copy(line: str, dialect: str, exported: dict | None = None) -> list[list[str]]:
    """`cp SRC DST` and `sed -i EXPRS DST` words standing for a line that writes DST as SRC through seds: `cat SRC |
    sed E | sed E2 > DST` or `sed [-E] [-e] E SRC > DST` (nothing else in the line); and through envsubst (`envsubst
    < SRC > DST`, `cat SRC | envsubst > DST`: a LLaMA-Factory YAML template rendered with the variables the script
    exports, round 145m's joliang17 launcher), its substitutions those of the variables in `exported` (the script's
    exported names and their values: _envsubst_edits); [] for any other line."""
    m = _WRITES_TO.search(line)
    if not m or ">>" in line:
        return []
    dst = m.group(1).strip("\"'")
    head = line[:m.start()]
    parts = words_of(head, dialect)
    if not parts or any(not p for p in parts):
        return []
    seds, src = [], None
    fed = _READS_FROM.search(head)
    if os.path.basename(parts[0][0]) == "cat" and len(parts[0]) == 2:
        src, rest = parts[0][1], parts[1:]  # (`cat SRC > DST` alone: a plain copy)
    elif os.path.basename(parts[0][0]) == "envsubst" and len(parts) == 1 and fed and head.count("<") == 1:
        src, rest = fed.group(1).strip("\"'"), parts  # `envsubst < SRC > DST`
    else:
        rest = parts
    for k, p in enumerate(rest):
        if os.path.basename(p[0]) == "envsubst" and src is not None:
            edits = _envsubst_edits(p, exported or {})
            if edits is None:
                return []
            if edits:
                seds.append(["sed", "-i", *edits, dst])
            continue
        if os.path.basename(p[0]) != "sed":
            return []
        opts, exprs, files, j = [], [], [], 1
        while j < len(p):
            w = p[j]
            if w in ("-E", "-r", "--regexp-extended"):
                opts.append("-E")
            elif w in ("-e", "--expression") and j + 1 < len(p):
                j += 1
                exprs.append(p[j])
            elif w.startswith("-"):
                return []  # -n, -f script, -i ...: not a plain filter
            elif not exprs:
                exprs.append(w)
            else:
                files.append(w)
            j += 1
        if not exprs or (files and (src is not None or k > 0 or len(files) != 1)):
            return []
        if files:
            src = files[0]
        seds.append(["sed", "-i", *opts, *[x for e in exprs for x in ("-e", e)], dst])
    if src is None or not dst or dst.startswith("/dev/"):
        return []
    return [["cp", src, dst], *seds]


def _body_text(text: str, spans: list) -> str | None:
    """A function body as the script has it, from its first line to its last: the here-documents, continuations and
    comments inside are the body's too (a body made of the logical lines alone loses a here-document's text, and the
    `python3 <<'EOF'` left without it would swallow every line after it: `main() { ...; python3 <<'EOF' ... EOF;
    accelerate launch ...; }` / `main "$@"`, the layout of a script written to `set -euo pipefail` style guides)."""
    if len(spans) < 2 or spans[-1][1] != spans[-1][0] - 1:
        return None  # no closing brace read (a body that runs to the script's end): the logical lines, as before
    raws = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    first, last = spans[0][0], spans[-1][1]
    if not 1 <= first <= last <= len(raws) or any(e > last for _, e in spans[:-1]):
        return None
    return "\n".join(raws[first - 1:last])


_LOCAL = re.compile(r"^\s*(?:local|declare|typeset)\b((?:\s+-\w+)*)\s+(.*)$", re.MULTILINE)


def _returned_globals(env: dict, inner: dict, body: str) -> None:
    """What a bash function the script calls leaves set for the commands after the call: every variable it assigns that
    it does not declare `local` (or `declare` / `typeset` without -g), as bash keeps a function's assignments global
    (round 20m: `create_dynamic_config` sets TEMP_CONFIG_FILE, `start_training` later passes `--config_file
    $TEMP_CONFIG_FILE`; `main` sets PYTHON_PATH before calling the function that runs `$PYTHON_PATH -m ...`)."""
    local = set()
    for m in _LOCAL.finditer(body):
        if "g" in m.group(1):
            continue
        local.update(w.split("=", 1)[0] for w in m.group(2).split() if re.match(r"^[A-Za-z_]\w*(=|$)", w))
    for k, v in inner.items():
        if k != _DELAYED and k != "@" and k not in local and re.match(r"^[A-Za-z_]\w*$", k) and env.get(k) != v:
            env[k] = v


MAX_SOURCED = 256 * 1024  # a sourced settings file is a few lines; anything this big is not one


def _sourced_file(cmd, where: str | None):
    """(path, text) of the file a `source FILE` / `. FILE` command reads, when it is on this machine: as written
    (absolute), relative to the script's folder, or its name beside the script; None otherwise (a path the caller
    gives, `source $CONFIG`, stays unknown)."""
    if where is None or cmd.program not in ("source", ".") or not cmd.args or not known(cmd.args[0]):
        return None
    path = cmd.args[0]
    for cand in (path if os.path.isabs(path) else os.path.join(where, path),
                 os.path.join(where, os.path.basename(path))):
        try:
            if os.path.isfile(cand) and os.path.getsize(cand) <= MAX_SOURCED:
                with open(cand, encoding="utf-8") as fh:
                    return cand, fh.read()
        except (OSError, UnicodeDecodeError):
            return None
    return None


# what runs the text it is given on standard input as a script (a shell, or a job scheduler's submit command)
STDIN_RUNNERS = {"bash", "sh", "zsh", "ksh", "dash", "sbatch", "qsub", "bsub"}
SHELLS = {"bash", "sh", "zsh", "ksh", "dash"}
# Container runtimes that run a command in an image: program -> (its subcommands that do, its options that take no value,
# the short options that may be combined into one word). apptainer / singularity exec|run [options] IMAGE COMMAND
# (apptainer's `--nv`, `--writable-tmpfs`, `-e` = --cleanenv ...), docker / podman run [options] IMAGE COMMAND
# (`--rm`, `-it`, `--privileged` ...); every other option takes a value (`--bind a:b`, `-v a:b`, `--gpus all`)
_APPTAINER = ({"exec", "run"}, {"nv", "nvccli", "rocm", "writable-tmpfs", "writable", "cleanenv", "containall", "contain",
                                "no-home", "fakeroot", "userns", "compat", "no-init", "no-privs", "keep-privs", "no-https",
                                "disable-cache", "allow-setuid", "pid", "ipc", "net", "boot", "no-eval", "unsquash"},
              set("ewcCfupin"))
_DOCKER = ({"run"}, {"rm", "detach", "privileged", "init", "interactive", "tty", "read-only", "no-healthcheck",
                     "oom-kill-disable", "publish-all", "sig-proxy"}, set("itdP"))
CONTAINER_RUNTIMES = {"apptainer": _APPTAINER, "singularity": _APPTAINER, "docker": _DOCKER, "podman": _DOCKER,
                      "nvidia-docker": _DOCKER}


def _in_container(w: list[str]) -> tuple[str, list[str]] | None:
    """(image, the command it runs there) of `apptainer exec --nv --bind a:b IMAGE python x.py` and the like. docker /
    podman's `--entrypoint PROGRAM` runs PROGRAM with the words after the image as its arguments (round 61m: `docker
    run ... --entrypoint python3 IMAGE -m recipe.dapo.main_dapo ...`)."""
    subs, flags, shorts = CONTAINER_RUNTIMES[os.path.basename(w[0])]
    if len(w) < 3 or w[1] not in subs:
        return None
    i, rest, entry = 0, w[2:], None
    while i < len(rest) and rest[i].startswith("-"):
        key = rest[i].lstrip("-")
        if rest[i].startswith("--entrypoint=") and subs is _DOCKER[0]:
            entry = rest[i].split("=", 1)[1]
        elif rest[i] == "--entrypoint" and subs is _DOCKER[0] and i + 1 < len(rest):
            entry = rest[i + 1]
        if "=" in rest[i] or key in flags or not rest[i].startswith("--") and key and all(ch in shorts for ch in key):
            i += 1
        else:
            i += 2
    if i >= len(rest):
        return None
    return rest[i], ([entry] if entry else []) + rest[i + 1:]


# the options of job launchers that hold the command line the job runs (`sbatch --wrap`, a cluster CLI's --command)
COMMAND_OPTIONS = ("--command", "--wrap", "--cmd")


def _preamble(env: dict, arrays: bool = False) -> str:
    """The script's string variables as assignments, for a script text it runs (a here-document, a `bash -c` string, a
    function's body); arrays: its arrays too (`NAME=(...)`, after the strings), for a function, which shares them."""
    lines = [f"{k}={shlex.quote(v)}" for k, v in env.items() if isinstance(v, str) and k != _DELAYED]
    if arrays:
        lines += [f"{k}=(" + " ".join(shlex.quote(w) for w in v) + ")" for k, v in env.items()
                  if isinstance(v, list) and k != "@" and re.match(r"^[A-Za-z_]\w*$", k)]
    return "\n".join(lines) + "\n"


def _shows_only(line: str, dialect: str) -> bool:
    """A line whose here-document goes to the terminal and nowhere else: `cat <<EOF`, `cat << 'EOF'` (a usage note,
    the command an installer tells its user to run next), with no pipe on to another program and no redirection into
    a file (which _runs_stdin and the `cat > FILE <<EOF` files read instead)."""
    pipeline = words_of(line, dialect)
    if len(pipeline) != 1:
        return False
    w = [x for x in pipeline[0] if not _assignment(x)]
    return bool(w) and os.path.basename(w[0]) == "cat" and not any(x.startswith(">") or x == "-" for x in w[1:])


def _runs_stdin(line: str, dialect: str) -> bool:
    """A line whose here-document a shell or a job scheduler runs: one of its pipeline's commands is `bash` / `sh` /
    `sbatch` / `qsub` / `bsub` given no script file of its own (`sbatch <<EOT`, `... <<'EOF' | sbatch`, `bash -s`)."""
    for words in words_of(line, dialect):
        w = [x for x in words if not _assignment(x)]
        while w and (w[0] in WRAPPERS or os.path.basename(w[0]) in WRAPPERS):
            w = w[1:]
        if not w or os.path.basename(w[0]) not in STDIN_RUNNERS:
            continue
        rest = w[1:]
        if any(re.match(r"^-[a-z]*c$", a) for a in rest) or any(re.search(r"\.(sh|bash|slurm|sbatch|pbs|job)$", a)
                                                              for a in rest):
            continue  # `bash -c ...` / `sbatch job.sh`: the here-document is that program's input, not the script
        return True
    return False


def _command_string(cmd: Command) -> str | None:
    """The command line a command hands over as one string: `bash -c STRING` (also behind srun / docker / ssh),
    `sbatch --wrap STRING`, a cluster CLI's `--command STRING` (Alibaba PAI's `dlc create job --command "$cmd"`)."""
    w = cmd.words
    for i, x in enumerate(w[:-2]):
        if os.path.basename(x) in SHELLS and re.match(r"^-[a-z]*c$", w[i + 1]) and w[i + 2].strip():
            # a `\$` / `\`` the script escaped inside double quotes is a plain `$` / backquote in the string the shell
            # gets (round 65: `--role \$(hostname -s|tr -dc '0-9'):` in a LAUNCHER run by `srun bash -c "$CMD"`, a
            # substitution of the child shell, one word there)
            return re.sub(r"\\([$`])", r"\1", w[i + 2])
    typed = _tmux_command(w)
    if typed:
        return typed
    for i, x in enumerate(w):
        if x in COMMAND_OPTIONS and i + 1 < len(w) and " " in w[i + 1].strip():
            return w[i + 1]
        if x.startswith(tuple(o + "=" for o in COMMAND_OPTIONS)) and " " in x.split("=", 1)[1].strip():
            return x.split("=", 1)[1]
    return None


# tmux(1): `send-keys [-FHKlMRX] [-c target-client] [-N repeat-count] [-t target-pane] key ...` types its keys into the
# pane's shell (a word that is not a key name is sent as its characters), and a newline or one of the keys below
# submits the line; `new-session` / `new-window` / `split-window [options] [shell-command]` run the command in the new
# pane. The options of each that take a value:
_TMUX_VALUED = {"send-keys": {"-c", "-N", "-t"}, "new-session": {"-c", "-e", "-f", "-F", "-n", "-s", "-t", "-x", "-y"},
                "new-window": {"-c", "-e", "-F", "-n", "-t"}, "split-window": {"-c", "-e", "-F", "-l", "-p", "-t"}}
_TMUX_VALUED.update({alias: _TMUX_VALUED[full] for alias, full in
                     (("send", "send-keys"), ("new", "new-session"), ("neww", "new-window"), ("splitw", "split-window"))})
# The keys that submit the typed line: tmux looks key names up case-insensitively (Enter, enter, KPEnter: key-string.c's
# key_string_search_table, strcasecmp), takes `C-` / `c-` and a leading `^` as Control, and Control of m / M or j / J
# is carriage return or newline (key_string_lookup_string; tmux/tmux@031d4864): C-m, c-m, C-M, ^M, C-j, ENTER.
_TMUX_ENTER = re.compile(r"(?:[Cc]-|\^)[MmJj]|(?i:(?:KP)?Enter)")


def _tmux_command(w: list[str]) -> str | None:
    """The command line a `tmux send-keys ... "CMD" C-m` types and submits in a pane (round 86m: YuxuanJiang1's
    run_all.sh, `llamafactory-cli train` sent to a session that way), or the shell-command of a `tmux new-session -d
    "CMD"` / new-window / split-window; None for keys never submitted, and for anything else."""
    if not w or os.path.basename(w[0]) != "tmux" or len(w) < 3 or w[1] not in _TMUX_VALUED:
        return None
    i, valued = 2, _TMUX_VALUED[w[1]]
    while i < len(w) and w[i].startswith("-") and len(w[i]) > 1:
        i += 2 if w[i] in valued else 1
    rest = w[i:]
    if w[1] not in ("send-keys", "send"):
        return " ".join(rest) if rest else None
    text = "".join("\n" if _TMUX_ENTER.fullmatch(k) else k for k in rest)
    # (a line typed but not submitted does not run: what follows the last newline)
    return text[:text.rfind("\n")] if "\n" in text and text.strip() else None


def _ps_concat(val: str, env: dict) -> str | None:
    """A PowerShell string joined with `+` from quoted strings and variables the script sets (`"flux_" +
    $laungh_script`), or None when it is anything else."""
    parts = [p.strip() for p in re.split(r"\s\+\s", val)]
    if len(parts) < 2:
        return None
    out = []
    for p in parts:
        m = re.fullmatch(r"\$([A-Za-z_]\w*)", p)
        if m and isinstance(env.get(m.group(1)), str):
            out.append(env[m.group(1)])
        elif len(p) > 1 and p[0] == p[-1] and p[0] in "'\"":
            out.append(expand(p[1:-1], env, "ps1") if p[0] == '"' else p[1:-1])
        else:
            return None
    return "".join(out)


def _ps_join_path(val: str, env: dict) -> str | None:
    """The path a PowerShell `Join-Path A B [C ...]` (or `Join-Path -Path A -ChildPath B`, in parentheses or not) or
    `[System.IO.Path]::Combine(A, B, ...)` builds from quoted strings and variables (`$KohyaRoot = "C:\\kohya"` ...
    `$Accelerate = Join-Path $KohyaRoot "venv\\Scripts\\accelerate.exe"`), joined with the separator the parts use (a
    backslash unless they only use slashes). A variable the script does not set (a parameter) stays as written; None
    when it is anything else, when its last part is not a literal, or when it asks for -Resolve (a look at the disk)."""
    v = val.strip()
    v = v[1:-1].strip() if v.startswith("(") and v.endswith(")") else v
    m = re.fullmatch(r"Join-Path\s+(.+)", v, re.IGNORECASE)
    c = re.fullmatch(r"\[(?:System\.)?IO\.Path\]::Combine\((.+)\)", v, re.IGNORECASE)
    if not (m or c):
        return None
    try:
        words = shlex.split((m or c).group(1).replace(",", " "), posix=False)
    except ValueError:
        return None
    parts = []
    for w in words:
        if m and w.lower() in ("-path", "-childpath", "-additionalchildpath", "-resolve"):
            if w.lower() == "-resolve":
                return None
            continue
        vm = re.fullmatch(r"\$(?:env:)?([A-Za-z_]\w*)", w)
        if vm:
            # a part the script does not set (a parameter, an environment variable) stays as the variable: the
            # program's file name, which says what runs, is the literal part after it
            parts.append(env[vm.group(1)] if isinstance(env.get(vm.group(1)), str) else w)
        elif len(w) > 1 and w[0] == w[-1] and w[0] in "'\"":
            parts.append(expand(w[1:-1], env, "ps1") if w[0] == '"' else w[1:-1])
        elif re.fullmatch(r"[\w.\\/:-]+", w):
            parts.append(w)
        else:
            return None
    if len(parts) < 2 or "$" in parts[-1] or any(" " in p for p in parts):
        return None
    sep = "/" if all("\\" not in p for p in parts) and any("/" in p for p in parts) else "\\"
    out = parts[0].rstrip("\\/")
    for p in parts[1:]:
        out += sep + p.strip("\\/")
    return out


def _array_words(body: str, lines: list, i: int, env: dict, dialect: str) -> tuple[list, int]:
    """The words of a bash array whose `(` opens the line, `body` being what follows it (`NAME=(`, `NAME+=(`): the
    lines from lines[i] on joined to it up to the line with its closing parenthesis outside a comment (an array may
    span lines), the script's variables expanded. Returns (words, the index of the line after the array)."""
    parts, depth = [body], 0
    while True:
        # the array's own `)`, not one of a `$(expr 64 / $N)` / `$((64 / N))` or quoted text among its words
        at, depth = _closing_paren(_strip_comment(parts[-1]), depth)
        if at is not None or i >= len(lines):
            break
        parts.append(lines[i][1])
        i += 1
    if at is not None:
        parts[-1] = parts[-1][:at]
    return [w for ws in words_of(expand(" ".join(parts), env, dialect), dialect) for w in ws], i


def _closing_paren(text: str, depth: int) -> tuple:
    """(the index in `text` of the `)` that closes a parenthesis `depth` levels out, or None; the depth after `text`),
    quoted text and backslash escapes skipped (a line of a bash array: `--steps $(expr 64 / 4)` opens and closes one)."""
    quote, k = None, 0
    while k < len(text):
        ch = text[k]
        if ch == "\\" and quote != "'":
            k += 2
            continue
        if quote:
            quote = None if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch == "(":
            depth += 1
        elif ch == ")":
            if depth == 0:
                return k, 0
            depth -= 1
        k += 1
    return None, depth


def _append(env: dict, maybe: dict, name: str, words: list, guard: tuple, as_list: bool) -> None:
    """`NAME+=(words)` (as_list) or a string append under `guard`: applied, skipped, or kept apart in `maybe`."""
    settled, cond = guard
    if settled is False:
        return
    if settled is None:
        maybe.setdefault(name, []).append((cond, list(words)))
        return
    old = env.get(name)
    if isinstance(old, list) or (as_list and old is None):
        env[name] = (old or []) + list(words)
    else:
        env[name] = " ".join(x for x in ((old or "").strip(), " ".join(shlex.quote(w) for w in words)) if x)


def _written_script(cmd: Command, files: dict) -> str | None:
    """The file of `files` a command runs as a script (sbatch F, bash F, sh F, source F, ./F), if any."""
    if not files:
        return None
    if cmd.program in ("sbatch", "bash", "sh", "zsh", "source", ".", "srun") and cmd.args:
        target = next((a for a in cmd.args if not a.startswith("-")), None)
    else:
        target = cmd.words[0] if cmd.words else None
    if target is None:
        return None
    for path in files:
        if target == path or target.lstrip("./") == path.lstrip("./"):
            return path
    return None


_KEYWORDS = {"if", "then", "else", "elif", "fi", "do", "done", "while", "until", "for", "case", "esac", "{", "}", "(",
             ")", "function", "select", "in", "!", "[[", "]]", "["}


def _command(words: list[str], env: dict, line: int, exports: Exports | None = None) -> Command | None:
    """One simple command: assignments are applied (to env when alone, to the command when prefixes); what it exports
    is noted in `exports`, and the command holds the names exported at it (Command.exported)."""
    while words and (words[0] in _KEYWORDS or words[0] == "time"):
        # bash's `time [-p]` is a reserved word in front of a pipeline, as `!` is: the assignments after it are the
        # command's prefixes (`time CUDA_VISIBLE_DEVICES=$DEVICES ./train.py`, bash(1) "Pipelines"; round 65)
        words = words[2:] if words[0] == "time" and words[1:2] == ["-p"] else words[1:]
    if not words or words[0].startswith("-"):  # options with no command (bash: command not found)
        return None
    if exports is not None:
        exports.note(words, line)
    if words[0] in ("export", "local", "declare", "typeset", "readonly"):
        rest = [w for w in words[1:] if not w.startswith("-")]
        for w in rest:
            a = _assignment(w)
            if a:
                _assign(env, a)
        return None
    if words[0] == "unset":
        # rev23: `unset NAME` takes the variable away (bash(1) "unset": it expands to nothing and leaves the environment of
        # the commands after it: `export PYTHONPATH=src` ... `unset PYTHONPATH` ... `python train.py` imports nothing from
        # src/); `unset -f` names functions, not variables
        if "-f" not in words[1:]:
            for w in words[1:]:
                if not w.startswith("-") and re.fullmatch(r"[A-Za-z_]\w*", w):
                    env[w] = ""
        return None
    if words[0] == "eval" and len(words) > 1:
        # `eval "$CMD"`: bash splits the expanded string again and runs it
        inner = words_of(" ".join(words[1:]), "posix")
        if not inner:
            return None
        words = inner[0]
    prefix: dict = {}
    ops: list = []
    while words and _assignment(words[0]):
        a = _assignment(words[0])
        prefix[a[0]] = a[2]
        ops.append(a)
        words = words[1:]
    if not words:  # assignments alone: the script's variables (`+=` appends, as bash does)
        for a in ops:
            _assign(env, a)
        return None
    cenv = dict(env)
    cenv.update(prefix)
    cmd = take_apart(words, cenv, line)
    handed = exports.at(prefix) if exports is not None else frozenset(prefix)
    cmd.exported = (frozenset() if cmd.cleared else handed - cmd.withheld) | cmd.exported
    return cmd


def _assign(env: dict, a) -> None:
    name, op, value = a
    value = package_file(value) or value  # a file of an installed package, by the path Python prints for it
    if op == "+=":
        old = env.get(name)
        env[name] = (old + [value]) if isinstance(old, list) else ((old or "") + value)
    else:
        env[name] = value


# Start-Process's own parameters (Microsoft.PowerShell.Management): those that take a value, and the switches
_START_PROCESS_VALUED = {"-filepath", "-argumentlist", "-workingdirectory", "-windowstyle", "-verb", "-credential",
                         "-redirectstandardoutput", "-redirectstandarderror", "-redirectstandardinput"}
_START_PROCESS_SWITCHES = {"-nonewwindow", "-passthru", "-wait", "-usenewenvironment", "-loaduserprofile"}


def _start_process(w: list[str]) -> list[str]:
    """The command line Start-Process starts: its -FilePath (or first positional word) and its -ArgumentList (or
    second positional), a comma-separated list of words or one string; its other parameters dropped."""
    program, args, i, positional = None, [], 0, []
    while i < len(w):
        o = w[i].lower()
        if o in _START_PROCESS_SWITCHES or o.split(".", 1)[0] in _START_PROCESS_SWITCHES:
            i += 1
            continue
        if o in _START_PROCESS_VALUED and o != "-argumentlist":
            if o == "-filepath" and i + 1 < len(w):
                program = w[i + 1]
            i += 2
            continue
        if o == "-argumentlist":
            i += 1
            while i < len(w) and not (w[i].lower() in _START_PROCESS_VALUED | _START_PROCESS_SWITCHES or
                                      w[i].lower().split(".", 1)[0] in _START_PROCESS_SWITCHES):
                args.append(w[i])
                i += 1
            continue
        positional.append(w[i])
        i += 1
    if program is None and positional:
        program, positional = positional[0], positional[1:]
    args = args or positional
    words = [x.rstrip(",") for a in args for x in (shlex.split(a) if len(args) == 1 and " " in a else [a])]
    return [program, *[x for x in words if x]] if program else w


def take_apart(words: list[str], env: dict, line: int = 0) -> Command:
    """Wrappers, launchers and interpreters taken off a command: what it runs and the words its parser sees."""
    all_words = list(words)
    w = list(words)
    image = None
    given = set()  # `env NAME=v cmd`: in the program's environment (Command.exported)
    cleared, withheld = False, set()  # `env -i` / `env -u NAME` (Command.cleared / withheld)
    while w:
        head = os.path.basename(w[0].lstrip("!%&@"))
        if w[0] in WRAPPERS or head in WRAPPERS or w[0] == "!":
            w = _after_wrapper(head, w[1:]) if head in WRAPPER_VALUED or head in WRAPPER_POSITIONAL or head == "time" \
                else w[1:]
            continue
        if w[0].startswith("!") and len(w[0]) > 1:  # a notebook's !cmd
            w = [w[0][1:]] + w[1:]
            continue
        if head.lower() in POWERSHELLS:
            # `powershell accelerate launch ... train_network.py $run_parameters` (round 9: a .ps1 that starts its
            # launch in a child PowerShell): the words after its options are the command it runs (-Command's, the
            # default); `-File x.ps1` runs a script instead, which stays the command
            rest, i = w[1:], 0
            while i < len(rest) and rest[i].startswith("-") and rest[i].lower() not in ("-file", "-f"):
                o = rest[i].lower()
                i += 1
                if o in ("-command", "-c"):
                    break
                if o in POWERSHELL_VALUED and i < len(rest):
                    i += 1
            if i < len(rest) and not rest[i].lower() in ("-file", "-f"):
                w = rest[i:] if len(rest) - i > 1 or " " not in rest[i] else shlex.split(rest[i])
                continue
        if head.lower() in ("start-process", "saps") and len(w) > 1:
            # PowerShell's `Start-Process -FilePath python -ArgumentList "-m", "accelerate.commands.launch", ...,
            # "train_network.py", "--config_file=$config_file" -NoNewWindow -Wait` (round 28: a copy of lora-scripts'
            # train_by_toml.ps1): the program and its argument list, as the process it starts sees them
            w = _start_process(w[1:])
            continue
        if head == "env":
            # env(1): `-i` / `-` start the program with an empty environment, `-u NAME` takes NAME out of it, `-C DIR`
            # / `-P PATH` take a value; then its NAME=v are the program's
            w = w[1:]
            while w and (_assignment(w[0]) or w[0].startswith("-")):
                a = _assignment(w[0])
                if a:
                    env[a[0]] = a[2]
                    given.add(a[0])
                elif w[0] in ("-", "-i", "--ignore-environment"):
                    cleared, given = True, set()
                elif re.match(r"^(?:-u|--unset(?:=|$))", w[0]):
                    name = (w[0][2:] if w[0].startswith("-u") else w[0][8:]) or (w[1] if len(w) > 1 else "")
                    w = w if w[0] not in ("-u", "--unset") else w[1:]
                    withheld.add(name)
                    given.discard(name)
                elif w[0] in ("-C", "--chdir", "-P", "-S", "--split-string") and len(w) > 1:
                    w = w[1:]
                w = w[1:]
            continue
        if head in ("srun", "mpirun", "mpiexec", "salloc"):
            w = _skip_options(w[1:], SRUN_FLAGS)[1]
            continue
        if head in ("conda", "mamba", "micromamba") and len(w) > 1 and w[1] == "run":
            rest = w[2:]
            while rest and rest[0].startswith("-"):
                rest = rest[2:] if rest[0] in ("-n", "--name", "-p", "--prefix") else rest[1:]
            w = rest
            continue
        if head in ("uv", "poetry", "pipenv", "pdm", "rye", "pixi") and len(w) > 1 and w[1] == "run":
            # `uv run [OPTIONS] COMMAND` (uv's CLI reference; round 16m: `uv run --active python -m src.training.main`):
            # the runner's own options, with the value those that take one are given, come before the command
            runner, w = head, w[2:]
            while w and w[0].startswith("-"):
                if runner == "uv" and w[0] in ("-m", "--module"):
                    # `uv run -m MODULE ARGS` / `--module`: "Run a Python module. Equivalent to python -m <module>"
                    # (uv's CLI reference; round 32u: SkyRL's `uv run --isolated --extra fsdp -m examples.train...`)
                    w = ["python", "-m"] + w[1:]
                    break
                w = w[1:] if w[0] == "--" or "=" in w[0] or w[0] not in RUNNER_VALUED else w[2:]
                if w[:1] == ["--"]:
                    w = w[1:]
                    break
            continue
        if head in CONTAINER_RUNTIMES and _in_container(w) and _in_container(w)[1]:
            # (round 9m: a SLURM job that runs `apptainer exec --nv ... unsloth_latest.sif python finetune.py`)
            image, w = _in_container(w)
            continue
        break
    if not w:
        return Command(words=all_words, program="", env=env, line=line, exported=frozenset(given), cleared=cleared,
                       withheld=frozenset(withheld))
    m = re.match(r"^(?:\$\(|`)\s*(?:command\s+-v|which|type\s+-[pP])\s+([\w.+-]+)", w[0])
    if m:  # "$(command -v swift || true)" / `which torchrun`: the program found on PATH, by its name
        w = [m.group(1)] + w[1:]
    head = os.path.basename(re.split(r"[\\/]", w[0])[-1])
    if head.lower().endswith(".exe") and head[:-4].lower() in ("accelerate", "accelerate-launch", "torchrun", "deepspeed"):
        # a venv's Scripts\accelerate.exe (PowerShell's `Start-Process -FilePath $Accelerate -ArgumentList $Args`,
        # `& "$venv\Scripts\accelerate.exe" launch ...`): the launcher Windows runs by that file name
        head = head[:-4].lower()
    cmd = Command(words=all_words, program=head, env=env, line=line, image=image, exported=frozenset(given),
                  cleared=cleared, withheld=frozenset(withheld))
    if head in ("accelerate", "accelerate-launch") and (head == "accelerate-launch" or w[1:2] == ["launch"]):
        launcher, rest = _skip_options(w[2 if head == "accelerate" else 1:], ACCELERATE_FLAGS)
        cmd.program, cmd.launcher, cmd.launcher_args = "accelerate", w[:len(w) - len(rest)], _launcher_args(launcher)
        return _interpreted(cmd, rest)
    if head in ("torchrun",):
        launcher, rest = _skip_options(w[1:], TORCHRUN_FLAGS)
        cmd.launcher, cmd.launcher_args = w[:len(w) - len(rest)], _launcher_args(launcher)
        return _interpreted(cmd, rest)
    if head == "deepspeed":
        launcher, rest = _skip_options(w[1:], DEEPSPEED_FLAGS, short_values={"-H", "-i", "-e"})
        cmd.launcher, cmd.launcher_args = w[:len(w) - len(rest)], _launcher_args(launcher)
        return _interpreted(cmd, rest)
    if PYTHON.match(w[0]):
        return _python(cmd, w[1:])
    if head.endswith(".py"):
        cmd.script, cmd.args = head, w[1:]
        return cmd
    if head in CLI_SUBCOMMANDS:
        # an option is no subcommand (`simpletuner --config_path X`: argparse takes it as the top-level parser's)
        cmd.sub = w[1:2] if len(w) > 1 and not w[1].startswith("-") else []
        cmd.args = w[1 + len(cmd.sub):]
        if head == "tune" and cmd.sub == ["run"]:  # tune run [torchrun options] RECIPE --config X key=value ...
            launcher, rest = _skip_options(w[2:], TORCHRUN_FLAGS)
            cmd.launcher_args = _launcher_args(launcher)
            cmd.sub = ["run"] + rest[:1]
            cmd.args = rest[1:]
        return cmd
    if len(w) > 1 and ("_" in head or "-" in head) and RUNNER_FUNCTION.match(head) and RUNNER_VERBS.search(head) \
            and not w[1].startswith("-") and re.split(r"[\\/]", w[1])[-1].endswith(".py"):
        # a runner function from a file not read here, given the script and its words (RUNNER_FUNCTION)
        return _python(cmd, w[1:])
    cmd.args = w[1:]
    return cmd


# A trainer CLI's own entry module run with -m is that CLI (`torchrun ... -m llamafactory.cli train x.yaml`: LLaMA-Factory's
# src/llamafactory/cli.py main(); `python -m swift.cli.sft ...`: ms-swift's swift/cli/<command>.py; torchtune's
# torchtune/_cli/tune.py; `python -m litgpt finetune ...`): module -> (program, subcommand the module itself names)
CLI_MODULES = {"llamafactory.cli": ("llamafactory-cli", None), "swift.cli.main": ("swift", None),
               "torchtune._cli.tune": ("tune", None), "trl.cli": ("trl", None)}


def _cli_module(cmd: Command, mod: str, args: list[str]) -> bool:
    """Set `cmd` to the CLI whose entry module `mod` is (with its subcommand), if it is one."""
    base = mod.split(".")[0]
    if base in CLI_SUBCOMMANDS and mod == base:  # python -m litgpt finetune ...
        cmd.program, cmd.sub, cmd.args = base, args[:1], args[1:]
        return True
    program, sub = CLI_MODULES.get(mod, (None, None))
    if program is None and mod.startswith("swift.cli.") and mod.count(".") == 2:  # swift/cli/sft.py, rlhf.py, pt.py
        program, sub = "swift", mod.rsplit(".", 1)[-1]
    if program is None:
        return False
    cmd.program = program
    cmd.sub, cmd.args = ([sub], args) if sub else (args[:1], args[1:])
    return True


def _code_cli_module(code: str) -> str | None:
    """The CLI entry module (CLI_MODULES) whose main() a `python -c` string imports and calls with no arguments (so it
    reads sys.argv): `from llamafactory.cli import main; main()`, `import llamafactory.cli as c; c.main()`."""
    import ast

    try:
        t = parse_python(code)
    except (SyntaxError, ValueError):
        return None
    names: dict = {}  # the name a call uses -> the entry module it is that module's main() of
    for n in ast.walk(t):
        if isinstance(n, ast.ImportFrom) and n.module in CLI_MODULES:
            names.update({a.asname or a.name: n.module for a in n.names if a.name == "main"})
        elif isinstance(n, ast.Import):
            names.update({(a.asname or a.name) + ".main": a.name for a in n.names if a.name in CLI_MODULES})
    for n in ast.walk(t):
        if isinstance(n, ast.Call) and not n.args and not n.keywords and ast.unparse(n.func) in names:
            return names[ast.unparse(n.func)]
    return None


def _python(cmd: Command, rest: list[str]) -> Command:
    """python [-u] [-X opt] (-m module | script.py) args."""
    i = 0
    while i < len(rest) and rest[i].startswith("-") and rest[i] not in ("-m", "-c"):
        i += 2 if rest[i] in ("-X", "-W") else 1
    rest = rest[i:]
    if rest[:1] == ["-c"]:
        # `python -c CODE args`: CODE runs with sys.argv = ["-c", *args] and no script (Python's command line); CODE
        # that calls a CLI's main() imported from its entry module (`from llamafactory.cli import main; main()`) runs
        # that CLI on args, as `python -m llamafactory.cli args` would
        mod = _code_cli_module(rest[1]) if len(rest) > 1 else None
        if mod is not None and _cli_module(cmd, mod, rest[2:]):
            cmd.module = mod
        elif len(rest) > 1:
            cmd.code, cmd.args = rest[1], rest[2:]  # (read as a script of its own: configs._code_run)
        return cmd
    if rest[:1] == ["-m"] and len(rest) > 1:
        mod = rest[1]
        cmd.module = mod
        # a launcher run as a module is the launcher (`accelerate launch`, `torchrun`): the module that trains is the one
        # it runs (`-m musubi_tuner.wan_train_network`), none when it runs a script (`python -m
        # accelerate.commands.launch --num_processes 1 examples/dreambooth/train_dreambooth_lora_flux.py ...`)
        if mod == "accelerate.commands.accelerate_cli" and rest[2:3] == ["launch"]:
            # accelerate's console script itself (setup.py entry point `accelerate=accelerate.commands.accelerate_cli:
            # main`, its `if __name__ == "__main__": main()`) given `launch`: `accelerate launch` (round 142's
            # lora-gym template: `[sys.executable, "-m", "accelerate.commands.accelerate_cli", "launch", ...]`)
            mod = "accelerate"
        if mod in ("accelerate.commands.launch", "accelerate"):
            launcher, r = _skip_options(rest[2:] if mod != "accelerate" else rest[3:], ACCELERATE_FLAGS)
            cmd.program, cmd.launcher_args, cmd.module = "accelerate", _launcher_args(launcher), None
            return _interpreted(cmd, r)
        if mod in ("torch.distributed.run", "torch.distributed.launch"):
            launcher, r = _skip_options(rest[2:], TORCHRUN_FLAGS)
            cmd.program, cmd.launcher_args, cmd.module = "torchrun", _launcher_args(launcher), None
            return _interpreted(cmd, r)
        if _cli_module(cmd, mod, rest[2:]):
            return cmd
        cmd.script = mod.rsplit(".", 1)[-1] + ".py"
        cmd.args = rest[2:]
        return cmd
    if rest:
        cmd.script = re.split(r"[\\/]", rest[0])[-1]
        cmd.args = rest[1:]
    return cmd


def _interpreted(cmd: Command, rest: list[str]) -> Command:
    """What a launcher runs: `script.py args`, `-m module args`, or (with --no_python) a program."""
    if rest[:1] in (["-m"], ["--module"]) and len(rest) > 1:
        cmd.module = rest[1]
        if _cli_module(cmd, rest[1], rest[2:]):
            return cmd
        cmd.script = rest[1].rsplit(".", 1)[-1] + ".py"
        cmd.args = rest[2:]
    elif rest and PYTHON.match(rest[0]):
        return _python(cmd, rest[1:])
    elif rest:
        cmd.script = re.split(r"[\\/]", rest[0])[-1]
        cmd.args = rest[1:]
    return cmd


# `uv run` / `pdm run` options that take a value (the next word unless written `--opt=value`)
RUNNER_VALUED = {"--with", "--with-editable", "--with-requirements", "--python", "-p", "--env-file", "--extra",
                 "--group", "--only-group", "--no-group", "--package", "--project", "--directory", "--index",
                 "--default-index", "--index-url", "--extra-index-url", "--find-links", "-f", "--config-file",
                 "--cache-dir", "--color", "--python-platform", "--no-binary-package", "--no-build-package",
                 "--reinstall-package", "--upgrade-package", "-P", "--exclude-newer", "--refresh-package", "--venv"}


def _skip_options(words: list[str], flags: set, short_values: set = frozenset()) -> tuple[list[str], list[str]]:
    """(the launcher's own words, the rest): options until the first word that is not one or its value. A launcher's
    -m / --module is a flag (accelerate commands/launch.py:351-355 `action="store_true"`, huggingface/accelerate@16cb6eb;
    torchrun's and deepspeed's alike) that may come before the launcher's other options (`accelerate launch -m
    --config_file x.yaml --main_process_port 23456 trainer.dpo ...`): the module is the first word after them, and the
    rest is given back as `-m MODULE ...`, as when the flag stands right before it."""
    words, i, module = list(words), 0, False
    while i < len(words):
        wd = words[i]
        if re.fullmatch(r"\$\{?[A-Za-z_]\w*(\[[@*]\])?\}?", wd) and any(x.endswith(".py") for x in words[i + 1:]):
            # a variable the script never set, before the script a launcher runs, holds launcher options (lora-scripts'
            # `python -m accelerate.commands.launch $launch_args --num_processes=1 "./train_x.py"`): unset, it is nothing
            i += 1
            continue
        if not wd.startswith("-") or wd in ("-m", "--module") and "m" not in flags:
            break
        if wd in ("-m", "--module"):
            if module or i + 1 >= len(words) or not words[i + 1].startswith("-") or words[i + 1] == "--":
                break
            module = True
            del words[i]
            continue
        key = wd.lstrip("-").split("=", 1)[0]
        if "=" in wd or key in flags or key.replace("-", "_") in flags:
            i += 1
        elif wd in short_values or wd.startswith("--") or len(wd) == 2:
            nxt = words[i + 1] if i + 1 < len(words) else ""
            i += 2 if nxt and not nxt.startswith("-") and not nxt.endswith(".py") else 1
        else:
            i += 1
    return words[:i], (["-m"] if module and i < len(words) else []) + words[i:]


def _launcher_args(words: list[str]) -> dict:
    out: dict = {}
    i = 0
    while i < len(words):
        wd = words[i]
        if wd.startswith("-"):
            key, eq, val = wd.lstrip("-").partition("=")
            key = key.replace("-", "_")
            if eq:
                out[key] = val
            elif i + 1 < len(words) and not words[i + 1].startswith("-"):
                out[key] = words[i + 1]
                i += 1
            else:
                out[key] = True
        i += 1
    return out


def is_training(cmd: Command) -> bool:
    """A command that plausibly trains: a training-sounding script or module, or a trainer CLI's train subcommand."""
    if cmd.program in CLI_SUBCOMMANDS and not cmd.script:
        sub = (cmd.sub or [""])[0]
        return sub in ("sft", "pt", "rlhf", "train", "run", "finetune", "finetune_lora", "finetune_full",
                       "finetune_adapter", "finetune_adapter_v2", "pretrain", "dpo", "grpo", "kto", "orpo")
    if cmd.script:
        return bool(TRAINING_WORDS.search(cmd.script)) or "--do_train" in cmd.args
    return False


HELPER_WORDS = re.compile(r"(^|[_-])(prepare|preprocess|prep|download|convert|merge|export|eval|evaluate|evaluation|"
                          r"infer|inference|predict|probe|profile|profiling|generate|tokeni[sz]e|upload|plot|"
                          r"analy[sz]e|test)([_-]|$)", re.IGNORECASE)


def _helper(cmd: Command) -> bool:
    """A script whose name says it is a step around training (data preparation, conversion, evaluation, a probe)."""
    name = cmd.script or (cmd.module or "").rsplit(".", 1)[-1]
    return bool(name) and bool(HELPER_WORDS.search(os.path.splitext(name)[0]))


def main_command(script: Script, claims=None) -> Command | None:
    """The command a trainer's reader should read: the first one `claims` accepts (default: the first training
    command), preferring one that says --do_train when several qualify."""
    pick = [c for c in script.commands if (claims(c) if claims else is_training(c))]
    if not pick and claims is None:
        # nothing says "train" by name: a script started through a distributed launcher (accelerate launch,
        # torchrun, deepspeed) is the job the file exists for (`accelerate launch cifar10_resnet18_base.py`,
        # `torchrun -m RL2.trainer.ppo ...`)
        pick = [c for c in script.commands if c.program in LAUNCHERS and (c.script or c.module)]
    if not pick:
        return None
    # a pipeline's data step or probe named like training (prepare_sft.py, pretrain_probe.py, eval_sft.py) is not
    # the training run when the file also runs one that is not such a helper (train_sft.py)
    pick = [c for c in pick if not _helper(c)] or pick
    train = [c for c in pick if "--do_train" in c.args or any(a.startswith("--do_train=") and a[11:].lower() in
                                                               ("true", "1") for a in c.args)]
    return (train or pick)[0]


# ---------------------------------------------------------------------------------------------------
# The trainer's own parser
# ---------------------------------------------------------------------------------------------------

@dataclass
class Parsed:
    values: dict                                        # option name (as the parser defines it) -> value
    given: dict = field(default_factory=dict)          # option name -> the spelling on the command line
    unknown: list = field(default_factory=list)        # options the parser does not have (as written)
    ambiguous: list = field(default_factory=list)      # (as written, [options it abbreviates])
    positionals: list = field(default_factory=list)


_NEGATIVE = re.compile(r"^-\d+(\.\d+)?(e-?\d+)?$")


def parse_options(words: list[str], table: dict | None = None) -> Parsed:
    """`words` read as argparse reads them. With `table` ({option: kind}, kind f | 1 | ? | *), abbreviations are
    resolved (a unique prefix of one option) and unknown or ambiguous options are reported; without it every
    `--x` is taken as written (a value follows unless the next word is another option)."""
    out = Parsed(values={})
    i = 0
    while i < len(words):
        wd = words[i]
        if not (wd.startswith("--") and len(wd) > 2):
            if not (wd.startswith("-") and not _NEGATIVE.match(wd)):
                out.positionals.append(wd)
            i += 1
            continue
        key, eq, value = wd[2:].partition("=")
        kind = None
        name = key
        if table is not None:
            if key in table:
                kind = table[key]
            else:
                cands = sorted(k for k in table if k.startswith(key))
                if len(cands) == 1:
                    name, kind = cands[0], table[cands[0]]
                elif len(cands) > 1:
                    out.ambiguous.append((f"--{key}", [f"--{c}" for c in cands]))
                    i += 1 if eq or i + 1 >= len(words) or words[i + 1].startswith("--") else 2
                    continue
                else:
                    out.unknown.append(f"--{key}")
        nxt = words[i + 1] if i + 1 < len(words) else None
        takes = nxt is not None and not (nxt.startswith("--") or nxt.startswith("-") and not _NEGATIVE.match(nxt))
        if eq:
            out.values[name] = value
            i += 1
        elif kind == "f":
            out.values[name] = True
            i += 1
        elif kind == "*":
            vals = []
            j = i + 1
            while j < len(words) and not (words[j].startswith("-") and not _NEGATIVE.match(words[j])):
                vals.append(words[j])
                j += 1
            out.values[name] = " ".join(vals) if vals else True
            i = j
        elif takes and kind != "f":
            out.values[name] = nxt
            i += 2
        else:
            out.values[name] = True
            i += 1
        out.given[name] = f"--{key}"
    return out


# the program of an argument list pasted with its command left off (headless)
HEADLESS = "(command left off)"


def headless(text: str) -> Command | None:
    """An argument list a user pasted with its command left off (an issue's reproduction block that starts at
    `--stage sft \\`): bash would say "command not found" (_command takes no command from options alone), but the
    options are the ones the user ran. The text's one command line taken apart as if a program stood before it, its
    program HEADLESS (what it is, only the options can say); None unless every line is options (a backslash's
    continuation, or one option a line as documents print them) and they make one command line, not several (`;`)."""
    lines = [ln.strip() for ln in re.sub(r"\\\r?\n", " ", text).splitlines()
             if ln.strip() and not ln.lstrip().startswith("#")]
    if not lines or not all(ln.startswith("-") for ln in lines) or not lines[0].startswith("--"):
        return None
    each = [parse("_ " + ln).commands for ln in lines]
    whole = parse("_ " + "\n".join(lines)).commands
    if any(len(c) != 1 for c in each) or len(whole) != 1 or whole[0].words[:1] != ["_"] or \
            len(whole[0].words) != 1 + sum(len(c[0].words) - 1 for c in each):
        return None
    words = whole[0].words[1:]
    return Command(words=words, program=HEADLESS, args=words, env=whole[0].env, line=whole[0].line)


def dataclass_options(words: list[str]) -> dict:
    """`words` as transformers' HfArgumentParser reads them ({field: value}): every dataclass field is an option under its
    own name and, since huggingface/transformers#33990 (2024-10), under its dashed spelling too
    (hf_argparser.py HfArgumentParser._parse_dataclass_field, transformers 5.24.0:151-153: `--torch-dtype` is
    `--torch_dtype`), the last one given winning, as argparse stores both under one dest. ms-swift's command lines
    (swift/utils/utils.py parse_args: HfArgumentParser([class_type]), modelscope/ms-swift@v3.0.1:138 and @3602360:179)
    and LLaMA-Factory's (hparams/parser.py _parse_args) are parsed so; under an older transformers the dashed option is
    a remaining argument and ms-swift stops before training (swift/llm/base.py _parse_args: "remaining_argv")."""
    return {k.replace("-", "_"): v for k, v in parse_options(words).values.items()}


@lru_cache(maxsize=None)
def every_option(trainer: str) -> frozenset:
    """Every option any of a trainer's scripts defines (configs/options.py), without its kind."""
    from .options import OPTIONS

    return frozenset(item.rpartition(":")[0] for packed in (OPTIONS.get(trainer) or {}).values() for item in packed.split())


def option_names(args) -> list[str]:
    """The names of a command's long options, in the order given (`--lr=1e-4` -> lr, `--bf16` -> bf16; a bare `--`
    names none): what argparse_takes is asked about."""
    return [w[2:].split("=", 1)[0] for w in args if w.startswith("--") and len(w) > 2]


def argparse_takes(name: str, known) -> bool:
    """argparse takes `--name` when a script defines it, or an option it abbreviates (allow_abbrev, the default)."""
    if name in known:
        return True
    if isinstance(known, frozenset):  # (every_option's tables, asked thousands of times a reading: _prefixes)
        return name in _prefixes(known)
    return any(k.startswith(name) for k in known)


@lru_cache(maxsize=256)
def _prefixes(known: frozenset) -> frozenset:
    """Every prefix of every option in `known`, the empty one and each whole name included: `name` abbreviates an
    option of `known` (argparse_takes) exactly when it is one of them. Kept per table: diffusers' _modified_copy asked
    argparse_takes of every example's table for each option of a command, a scan of the table each time (8% of the
    readers' CPU over the configs snapshot, session 38)."""
    return frozenset(k[:i] for k in known for i in range(len(k) + 1))


@lru_cache(maxsize=None)
def trainer_option_names(trainer: str, script: str | None) -> frozenset | None:
    """The names of trainer_options(trainer, script), as a frozenset kept per script (argparse_takes is quick on one);
    None where trainer_options is."""
    got = trainer_options(trainer, script)
    return None if got is None else frozenset(got)


def trainer_options(trainer: str, script: str | None) -> dict | None:
    """{option: kind} of a training script (configs/options.py), or None when the script is not one read there."""
    from .options import OPTIONS

    tables = OPTIONS.get(trainer) or {}
    stem = os.path.splitext(script or "")[0]
    if stem not in tables or not stem:
        return None
    out = {}
    for packed in (tables.get("", ""), tables[stem]):
        for item in packed.split():
            k, _, v = item.rpartition(":")
            out[k] = v
    return out


def nearest(name: str, options) -> str | None:
    import difflib

    bare = name.lstrip("-")
    # an option with words added after it (--sdpa_attn, --xformers_attention) is that option, not whichever other name
    # shares more letters (musubi's --sage_attn, which cannot train)
    heads = [o for o in options if len(o) >= 4 and bare.startswith(o) and bare[len(o):len(o) + 1] in ("_", "-")]
    if heads:
        return f"--{max(heads, key=len)}"
    got = difflib.get_close_matches(bare, list(options), n=1, cutoff=0.6)
    return f"--{got[0]}" if got else None


def check_options(trainer: str, cmd: Command) -> tuple[Parsed, list[dict]]:
    """A command's options read with its trainer's option table, and what that parser would stop on:
    [{kind: unknown | ambiguous, name, script, suggestion, candidates}] (no table known: nothing is reported)."""
    table = trainer_options(trainer, cmd.script)
    parsed = parse_options(cmd.args, table)
    errors = []
    for u in parsed.unknown:
        errors.append({"kind": "unknown", "name": u, "script": cmd.script, "suggestion": nearest(u, table or {}),
                       "candidates": []})
    for a, cands in parsed.ambiguous:
        errors.append({"kind": "ambiguous", "name": a, "script": cmd.script, "suggestion": None, "candidates": cands})
    return parsed, errors
