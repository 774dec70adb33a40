"""Where a training command is found in files that are not shell scripts: a Jupyter notebook (its `!cmd` lines,
`%%bash` cells and `%env`), a Python wrapper that starts the trainer (subprocess / os.system, and the config file it
writes first), a Dockerfile (RUN / CMD / ENTRYPOINT / ENV). Each is turned into the shell lines it runs, which
shell.py then reads like a launch script (configs/__init__.py make_doc). Nothing is run or imported."""

from __future__ import annotations

import json
import os
import re
import shlex

from .shell_words import unquoted
from ..textutil import children, kept, parents_of, parse_python, walked

NOTEBOOK = re.compile(r"\.ipynb$", re.IGNORECASE)


_SHELL_CELL = re.compile(r"^\s*%%(bash|sh|shell|script\s+(?:ba)?sh)\b[^\n]*\n?")


def _cells(data: dict) -> list[str]:
    cells = data.get("cells") if isinstance(data.get("cells"), list) else []
    out = []
    for c in cells:
        if isinstance(c, dict) and c.get("cell_type") == "code":
            src = c.get("source")
            out.append("".join(src) if isinstance(src, list) else str(src or ""))
    return out


def notebook_code(path: str, data: dict) -> str:
    """A Jupyter notebook's Python code cells as one script (its `!cmd` lines stay as written; `%%bash` cells are
    shell, see notebook_shell). A cell that cannot compile (an unclosed bracket or string: pyscript.compiles) is left
    out: IPython compiles each cell alone and runs none of one that raises SyntaxError, while the other cells run
    (round 30: a notebook whose inference cell has an unterminated string, `.get("cache_dir)`, after the cells that
    train); a cell magic's body (`%%writefile`) is kept as written."""
    from .pyscript import compiles

    return "\n\n".join(c for c in _cells(data) if not _SHELL_CELL.match(c) and not _data_file_cell(c) and
                        (c.lstrip().startswith("%%") or compiles(c)))


# `%%writefile [-a] PATH`: IPython writes the cell's body to PATH (IPython/core/magics/osm.py writefile), runs none of it
_WRITEFILE = re.compile(r"^\s*%%writefile(?P<append>\s+-a|\s+--append)?\s+(?P<path>\"[^\"]+\"|'[^']+'|\S+)[^\n]*\n?")


def _data_file_cell(cell: str) -> bool:
    """A `%%writefile` cell of a file that is not Python (a YAML / TOML / JSON config, a Modelfile): no code of the
    notebook's (a `.py` one stays read with the notebook's code, as before)."""
    m = _WRITEFILE.match(cell)
    return bool(m) and not m.group("path").strip("\"'").endswith(".py")


def notebook_written_files(data: dict) -> dict:
    """{path: text} of the files a notebook's `%%writefile` cells write (round 30's variants: `%%writefile config.yml`
    then `!axolotl train config.yml`); `-a` appends to what an earlier cell wrote. A launch line that names the path is
    read through that text (named_config)."""
    out: dict = {}
    for c in _cells(data):
        m = _WRITEFILE.match(c)
        if m:
            path = m.group("path").strip("\"'")
            body = c[m.end():]
            out[path] = (out.get(path, "") + body) if m.group("append") else body
    return out


def notebook_shell(data: dict) -> str:
    """The bodies of a notebook's `%%bash` / `%%sh` / `%%script bash` cells: shell scripts IPython hands to bash."""
    return "\n\n".join(_SHELL_CELL.sub("", c, count=1) for c in _cells(data) if _SHELL_CELL.match(c))


_LAUNCHERS = {"subprocess.run", "subprocess.call", "subprocess.Popen", "subprocess.check_call",
              "subprocess.check_output", "os.system", "run", "call", "Popen", "check_call", "check_output"}
# (asyncio.create_subprocess_shell(cmd) takes one string as os.system does; create_subprocess_exec and os.exec* the words)
_LAUNCHERS |= {"asyncio.create_subprocess_shell", "create_subprocess_shell"}
_EXEC_LAUNCHERS = {"asyncio.create_subprocess_exec", "create_subprocess_exec", "os.execv", "os.execvp", "os.execve",
                   "os.execvpe"}
# The command-line programs whose main() a script may call in-process after setting sys.argv itself, by the module
# it imports that main from: LLaMA-Factory's cli.py main() reads the subcommand and the YAML from sys.argv
# (hiyouga/LLaMA-Factory src/llamafactory/cli.py), ms-swift's cli_main, torchtune's tune, LitGPT's and axolotl's CLIs
# parse sys.argv the same way (argparse / jsonargparse / fire default to sys.argv[1:])
_CLI_MODULES = (("llamafactory", "llamafactory-cli"), ("llmtuner", "llamafactory-cli"), ("swift.cli", "swift"),
                ("torchtune._cli", "tune"), ("litgpt", "litgpt"), ("axolotl.cli", "axolotl"), ("trl.cli", "trl"))


def _argv_program(t) -> str | None:
    """The CLI whose entry point the script imports (`from llamafactory.cli import main`), if any."""
    import ast

    for n in walked(t):
        mods = [n.module or ""] if isinstance(n, ast.ImportFrom) else [a.name for a in n.names] \
            if isinstance(n, ast.Import) else []
        for mod in mods:
            for root, prog in _CLI_MODULES:
                if mod == root or mod.startswith(root + "."):
                    return prog
    return None


_NAMED_BANG = re.compile(r"^([ \t]*)!(?:\{\s*([A-Za-z_]\w*)\s*\}|\$([A-Za-z_]\w*))[ \t]*$", re.M)
_JOINED_BANG = re.compile(r"""^([ \t]*)!\{\s*(?:(['"]) \2\.join|shlex\.join)\(\s*([A-Za-z_]\w*)\s*\)\s*\}[ \t]*$""", re.M)


def _options_loop(loop, t) -> tuple[str, list] | None:
    """(list, words) for a loop that turns a dict of settings into options on a command list, as notebooks that
    drive a trainer's CLI write it: `for key, value in args.items():` appending f"--{key}" (and the value) to `cmd`.
    The dict is a literal the script writes (`args = {...}`), or what `json.load` reads back from the file the script
    `json.dump`ed one literal to. Values: a True bool is the bare flag and False none when the loop tests
    isinstance(value, bool), a list one option per item, a Python-computed value `$PY_VALUE`. None for any other
    loop."""
    import ast

    from .pyscript import _dict_items, constants, resolve

    tg, it = loop.target, loop.iter
    if not (isinstance(tg, ast.Tuple) and len(tg.elts) == 2 and all(isinstance(e, ast.Name) for e in tg.elts) and
            isinstance(it, ast.Call) and isinstance(it.func, ast.Attribute) and it.func.attr == "items" and
            isinstance(it.func.value, ast.Name)):
        return None
    key, val = tg.elts[0].id, tg.elts[1].id
    target = None
    for x in walked(loop):
        if isinstance(x, ast.Call) and isinstance(x.func, ast.Attribute) and x.func.attr in ("append", "extend") and \
                isinstance(x.func.value, ast.Name) and any(
                    isinstance(j, ast.JoinedStr) and any(isinstance(v, ast.FormattedValue) and isinstance(v.value, ast.Name)
                                                         and v.value.id == key for v in j.values) and
                    isinstance(j.values[0], ast.Constant) and str(j.values[0].value).startswith("--")
                    for j in walked(x)):
            target = x.func.value.id
            break
    if target is None:
        return None
    consts = constants(t)
    source = resolve(it.func.value, consts)
    if isinstance(source, ast.Call) and isinstance(source.func, ast.Attribute) and source.func.attr == "load" and \
            isinstance(source.func.value, ast.Name) and source.func.value.id == "json":
        dumped = [c.args[0] for c in walked(t) if isinstance(c, ast.Call) and isinstance(c.func, ast.Attribute) and
                  c.func.attr == "dump" and isinstance(c.func.value, ast.Name) and c.func.value.id == "json" and c.args]
        dicts = [d for d in dumped if isinstance(resolve(d, consts), ast.Dict)]
        if len(dicts) != 1:
            return None  # no literal, or several: which one it reads back is the script's business
        source = resolve(dicts[0], consts)
    items = _dict_items(source, consts)
    if not items:
        return None
    flags = any(isinstance(x, ast.Call) and isinstance(x.func, ast.Name) and x.func.id == "isinstance" and
                len(x.args) == 2 and isinstance(x.args[0], ast.Name) and x.args[0].id == val and
                isinstance(x.args[1], ast.Name) and x.args[1].id == "bool" for x in walked(loop))
    words: list = []
    for k, node in items:
        v = resolve(node, consts)
        if isinstance(v, ast.Constant) and isinstance(v.value, bool) and flags:
            words += [f"--{k}"] if v.value else []
        elif isinstance(v, ast.Constant) and v.value is not None:
            words += [f"--{k}", str(v.value)]
        elif isinstance(v, (ast.List, ast.Tuple)):
            for e in v.elts:
                e = resolve(e, consts)
                words += [f"--{k}", str(e.value) if isinstance(e, ast.Constant) else "$PY_VALUE"]
        else:
            words += [f"--{k}", "$PY_VALUE"]
    return target, words


def _argv_words(n, word) -> tuple[list, bool] | None:
    """`sys.argv = [...]` / `sys.argv = "prog a b".split()` (the whole argv: its first word is the program) or
    `sys.argv[1:] = [...]` (the arguments only): (words, whole)."""
    import ast

    if not (isinstance(n, ast.Assign) and len(n.targets) == 1):
        return None
    tgt, v = n.targets[0], n.value

    def is_argv(e):
        return isinstance(e, ast.Attribute) and e.attr == "argv" and isinstance(e.value, ast.Name) and e.value.id == "sys"

    whole = is_argv(tgt)
    if not whole and not (isinstance(tgt, ast.Subscript) and is_argv(tgt.value) and isinstance(tgt.slice, ast.Slice)
                          and isinstance(tgt.slice.lower, ast.Constant) and tgt.slice.lower.value == 1):
        return None
    if isinstance(v, (ast.List, ast.Tuple)):
        return [word(e) for e in v.elts], whole
    if isinstance(v, ast.Call) and isinstance(v.func, ast.Attribute) and v.func.attr == "split" and not v.args and \
            isinstance(v.func.value, ast.Constant) and isinstance(v.func.value.value, str):
        return v.func.value.value.split(), whole
    return None


def _script_folder(e, consts: dict, depth: int = 0) -> str | None:
    """The script's own folder, as a path relative to it: `Path(__file__).parent` (through .resolve() / .absolute()),
    `os.path.dirname(__file__)` (of abspath / realpath too) is ".", one more `.parent` / dirname ".." (a wrapper's
    `ROOT = Path(__file__).resolve().parent` then `str(ROOT / "lora.yml")`: the file beside it; cfg80). None otherwise."""
    import ast

    from .pyscript import resolve

    e = resolve(e, consts)
    if depth > 6:
        return None
    while isinstance(e, ast.Call) and isinstance(e.func, ast.Attribute) and e.func.attr in ("resolve", "absolute") \
            and not e.args:
        e = resolve(e.func.value, consts)
    if isinstance(e, ast.Call) and ast.unparse(e.func) in ("os.path.abspath", "os.path.realpath", "Path",
                                                           "pathlib.Path") and len(e.args) == 1:
        return _script_folder(e.args[0], consts, depth + 1)  # (the same path, made absolute or a Path)
    if isinstance(e, ast.Name) and e.id == "__file__":
        return "__file__"
    if isinstance(e, ast.Attribute) and e.attr == "parent" or \
            isinstance(e, ast.Call) and ast.unparse(e.func) == "os.path.dirname" and len(e.args) == 1:
        below = _script_folder(e.value if isinstance(e, ast.Attribute) else e.args[0], consts, depth + 1)
        if below is None:
            return None
        return "." if below == "__file__" else ".." if below == "." else below + "/.."
    return None


def literal_path(e, consts: dict, depth: int = 0):
    """A path a script spells out: `str(config_file)` / `os.fspath(p)` / `Path("a") / "b.toml"` /
    `os.path.join(d, "b.toml")` of literals (through names it assigns once: pyscript.resolve), else None."""
    import ast

    from .pyscript import ARGPARSE, _call_name, _parsed_args, resolve

    e = resolve(e, consts)
    if depth > 6:
        return None
    if isinstance(e, ast.Constant) and isinstance(e.value, str):
        return e.value
    here = _script_folder(e, consts)
    if here is not None and here != "__file__":  # (the script's own path is no config's)
        return here
    if isinstance(e, ast.Attribute) and e.attr in consts.get(ARGPARSE, {}) and _parsed_args(e.value, consts):
        # `str(args.config)` with `add_argument("--config", type=Path, default=Path("configs/x.yaml"))`: the option's
        # argparse default, as the script runs with no options (pyscript.value reads `bf16=args.bf16` the same way;
        # round 41m: a launcher's `subprocess.run(["llamafactory-cli", "train", str(args.config)])`)
        return literal_path(consts[ARGPARSE][e.attr], consts, depth + 1)
    if isinstance(e, ast.BinOp) and isinstance(e.op, ast.Div):
        parts = [literal_path(e.left, consts, depth + 1), literal_path(e.right, consts, depth + 1)]
    elif isinstance(e, ast.Call) and not e.keywords and e.args:
        name = _call_name(e)
        if name in ("str", "fspath", "Path", "PurePath", "PosixPath", "abspath") and len(e.args) == 1:
            return literal_path(e.args[0], consts, depth + 1)
        if name not in ("Path", "PurePath") and ast.unparse(e.func) != "os.path.join":
            return None
        parts = [literal_path(a, consts, depth + 1) for a in e.args]
    else:
        return None
    if None in parts:
        return None
    out = parts[0]
    for b in parts[1:]:  # a part that is absolute starts over, as pathlib and os.path.join do
        out = b if b.startswith("/") else out.rstrip("/") + "/" + b
    if out.endswith(".py") and _script_folder(e.left if isinstance(e, ast.BinOp) else e.args[0], consts) is not None:
        # a script the wrapper finds in its own folder is the repository's own file, whatever its name (round 16m:
        # BrennenFa's own train_text_to_image_lora.py, named like diffusers' example): left computed, as before (cfg80)
        return None
    return out


def _script_tails(e, consts: dict, depth: int = 0) -> list | None:
    """The script file names a path expression ends in whatever its computed folder is: `os.path.join(PREFIX,
    "wan_train_network.py")`, `Path(root) / "train.py"`, a literal, or a conditional expression of these on either side
    (round 142: nikhilash6/lora-gym's `train_script = os.path.join(SCRIPT_PREFIX, "wan_train_network.py") if
    SCRIPT_PREFIX else "wan_train_network.py"`); None for anything else, and for a script in the wrapper's own folder
    (the repository's own file, as literal_path leaves it)."""
    import ast

    from .pyscript import _call_name

    if depth > 4:
        return None
    if isinstance(e, ast.Constant) and isinstance(e.value, str):
        return [e.value] if e.value.endswith(".py") else None
    if isinstance(e, ast.IfExp):
        a, b = _script_tails(e.body, consts, depth + 1), _script_tails(e.orelse, consts, depth + 1)
        return a + b if a and b else None
    if isinstance(e, ast.BinOp) and isinstance(e.op, ast.Div):
        head, last = e.left, e.right
    elif isinstance(e, ast.Call) and not e.keywords and len(e.args) > 1 and \
            (_call_name(e) in ("Path", "PurePath") or ast.unparse(e.func) == "os.path.join"):
        head, last = e.args[0], e.args[-1]
    else:
        return None
    if not (isinstance(last, ast.Constant) and isinstance(last.value, str) and last.value.endswith(".py")) or \
            _script_folder(head, consts) is not None:
        return None
    return [last.value]


def _in_branches(t) -> frozenset:
    """id() of every node of `t` inside the body or else of an if, a conditional expression, a try or a loop (what
    python_commands leaves out of a list's growth unless settled), found once per tree (kept): the same script is read
    for its commands several times over in one reading."""
    import ast

    def build() -> frozenset:
        # one pass down the tree, each node marked when it is (or sits under) a body / else part of such a node: the
        # same set as walking each part of each such node, without walking a nested part once per enclosing one
        in_if: set = set()
        stack = [(t, False)]
        while stack:
            n, inside = stack.pop()
            if inside:
                in_if.add(id(n))
            if isinstance(n, (ast.If, ast.IfExp, ast.Try, ast.For, ast.While)):
                parts = {id(x) for x in ([n.body, n.orelse] if isinstance(n, ast.IfExp) else [*n.body, *n.orelse])}
                stack.extend((c, inside or id(c) in parts) for c in children(n))
            else:
                stack.extend((c, inside) for c in children(n))
        return frozenset(in_if)

    return kept(t, "_attn_doctor_in_branches", build)


def python_commands(code: str, argv: dict | None = None) -> str:
    """The command lines a Python script (or notebook cell) starts, as shell lines: with subprocess / os.system
    (`subprocess.run(["accelerate", "launch", "train_network.py", "--xformers", ...])`, a list held in a variable and
    grown with .append / .extend / += (in source order; growth inside an `if` is left out: that branch may not run),
    or a string for os.system / shell=True), or in-process, by setting sys.argv before calling a CLI's main()
    (`sys.argv = ["llamafactory-cli", "train", "x.yaml"]`, `sys.argv[1:] = [...]` after `from llamafactory.cli import
    main`). Values Python computes (f-string fields, str(x)) become `$PY_VALUE`, which
    readers treat as unknown. Nothing is run. argv: the values a launch file's options give the script's own argparse
    (configs._read_through, pyscript.argv_options), in place of their defaults."""
    import ast

    from .pyscript import constants, resolve, tree, value

    # IPython runs `!{" ".join(cmd)}` as the shell line its {expression} evaluates to (var_expand): the list `cmd`, run
    code = _JOINED_BANG.sub(lambda m: f"{m.group(1)}subprocess.run({m.group(3)})", code)
    # ... and `!{final_args}` / `!$cmd` as the string the name holds there (round 28: kohya-trainer notebooks build
    # final_args = f"accelerate launch {accelerate_args} sdxl_train_network.py {train_args}" and run `!{final_args}`)
    code = _NAMED_BANG.sub(lambda m: f"{m.group(1)}subprocess.run({m.group(2) or m.group(3)}, shell=True)", code)
    t = tree(code)
    if t is None:
        return ""
    in_if = _in_branches(t)

    launch_argv = argv  # (the loop below binds `argv` to each sys.argv it finds)
    consts = constants(t, launch_argv)
    parents = parents_of(t)
    try:
        dumped_to = {tgt[1] for tgt, _d in python_dumped_configs(code) if isinstance(tgt, tuple) and tgt[0] == "var"} \
            if _DUMP_CALL.search(code) else set()
    except RecursionError:
        dumped_to = set()

    def settled(n) -> bool:
        """Every `if` around n takes the branch n is in, by a test the script settles (pyscript.value); a loop, a try or
        a test decided at run time around it leaves it unsettled."""
        child, p = n, parents.get(id(n))
        while p is not None and not isinstance(p, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Module)):
            if isinstance(p, (ast.For, ast.While, ast.Try, ast.IfExp, ast.With)):
                return False
            if isinstance(p, ast.If):
                test = value(p.test, consts)
                if test == "?" or isinstance(test, str) and test.startswith("torch.") or \
                        bool(test) is not any(child is x for x in p.body):
                    return False
            child, p = p, parents.get(id(p))
        return True

    def known(e, depth=0):
        """A name's value when the script settles it: a literal it assigns once outside any branch, or the default of
        a parameter no call in the script passes (`def predict(backend: str = Input(default="no"))`: Cog, pydantic's
        Field, typer's Option and click give the function that default when the caller leaves it out); a conditional
        expression whose test the script settles (`"flux_train_network.py" if flux else "sdxl_train_network.py"` after
        `flux = 1`) and an f-string of such names are what Python evaluates them to."""
        e = resolve(e, consts)
        if depth > 6:
            return None
        if isinstance(e, ast.Call) and not e.args:
            e = next((k.value for k in e.keywords if k.arg == "default"), e)
        if isinstance(e, ast.IfExp):
            test = value(e.test, consts)
            return None if test == "?" or isinstance(test, str) and test.startswith("torch.") else \
                known(e.body if test else e.orelse, depth + 1)
        if isinstance(e, ast.JoinedStr):
            parts = [v.value if isinstance(v, ast.Constant) else
                     known(v.value, depth + 1) if isinstance(v, ast.FormattedValue) and v.conversion == -1 and
                     v.format_spec is None else None for v in e.values]
            return None if None in parts else "".join(str(p) for p in parts)
        if isinstance(e, ast.Attribute):
            # `cfg.precision` of the script's own parsed options: its argparse default, as the script runs with no
            # options (pyscript.value; round 31: `f"--mixed_precision={cfg.precision}"`, --precision default "bf16")
            try:
                v = value(e, consts)
            except RecursionError:  # a name defined through itself (`x = x or y`): not settled here
                return None
            return v if isinstance(v, (str, int, float)) and not isinstance(v, bool) and v != "?" and \
                not (isinstance(v, str) and v.startswith("torch.")) else None
        return e.value if isinstance(e, ast.Constant) and isinstance(e.value, (str, int, float)) and \
            not isinstance(e.value, bool) else None

    def path(e):
        return literal_path(e, consts)

    def one_file(name: str) -> str | None:
        """A script path a name holds whichever way the script sets it: every assignment a literal or a loop variable
        over a literal list, all of one file name (round 28: a RunPod handler's SD_SCRIPTS_PATH, reset to the first of
        several candidate folders' train_network.py that exists); one of those paths, else None."""
        values = []
        for a in walked(t):
            if not (isinstance(a, ast.Assign) and any(isinstance(x, ast.Name) and x.id == name for x in a.targets)):
                continue
            v = a.value
            if isinstance(v, ast.Constant) and isinstance(v.value, str):
                values.append(v.value)
                continue
            tails = _script_tails(v, consts) if literal_path(v, consts) is None else None
            if tails:
                # `os.path.join(PREFIX, "wan_train_network.py") if PREFIX else "wan_train_network.py"`: the folder is
                # computed, the file each side names is literal (round 142: a musubi-tuner template); a path spelled out
                # whole is word()'s own (path(), with its folder)
                values += tails
                continue
            loops = [f for f in walked(t) if isinstance(f, ast.For) and isinstance(v, ast.Name) and
                     isinstance(f.target, ast.Name) and f.target.id == v.id]
            items = [resolve(f.iter, consts) for f in loops]
            if len(items) != 1 or not isinstance(items[0], (ast.List, ast.Tuple)) or not items[0].elts or \
                    not all(isinstance(x, ast.Constant) and isinstance(x.value, str) for x in items[0].elts):
                return None
            values += [x.value for x in items[0].elts]
        names = {os.path.basename(x) for x in values}
        if len(names) > 1 and _one_family(names):
            # `script = "train_db.py"` / `"train_network.py"` / `"fine_tune.py"` in the branches of flags (round 31: a
            # user's wrapper of sd-scripts): scripts of one trainer that build the same model, so read the same way
            return values[0]
        return values[0] if len(names) == 1 and next(iter(names)).endswith(".py") else None

    def word(e):
        if isinstance(e, ast.Constant) and isinstance(e.value, (str, int, float)):
            return str(e.value)
        if isinstance(e, ast.Name) and e.id in dumped_to and known(e) is None and one_file(e.id) is None and \
                path(e) is None:
            # the path a config the script dumps is written to (python_dumped_configs target ("var", NAME)), computed
            # at run time (round 31: config_file = os.path.join(...) then toml.dump(cfg, f) and `"--config_file=" +
            # config_file`): `{NAME}`, which dumped_for reads as that config
            return "{" + e.id + "}"
        if isinstance(e, ast.Name) and known(e) is not None:
            return str(known(e))
        if isinstance(e, ast.Name) and one_file(e.id) is not None:
            return one_file(e.id)
        if ast.unparse(e) == "sys.executable":  # the interpreter running the script: `python`
            return "python"
        if isinstance(e, ast.JoinedStr):
            # a field the script settles (a name it assigns once, `{"--v2" if v2 else ""}` after v2 = False) is its
            # value; any other is computed at run time
            return "".join(str(v.value) if isinstance(v, ast.Constant) else
                           str(known(v.value)) if isinstance(v, ast.FormattedValue) and v.conversion == -1 and
                           v.format_spec is None and isinstance(v.value, (ast.Name, ast.IfExp, ast.Attribute)) and
                           known(v.value) is not None else "$PY_VALUE" for v in e.values)
        if isinstance(e, ast.BinOp) and isinstance(e.op, ast.Add) and _has_str(e):
            # "accelerate launch " + "train.py", "--lr=" + str(lr): a string built by concatenation
            return word(e.left) + word(e.right)
        if isinstance(e, (ast.Call, ast.Name, ast.BinOp, ast.Attribute)) and path(e) is not None:
            # `"--config_file", str(config_file)` where config_file = Path("/kaggle/.../x.toml") (round 10m); an option's
            # argparse default (`args.config`, round 41m)
            return path(e)
        return "$PY_VALUE"

    def text(e):
        """A command line the script holds as one string (`cmd = (f"swift sft " f"--model ..." ...)`,
        `cmd = "accelerate launch " + "train.py ..."`), else None."""
        if isinstance(e, ast.Constant) and isinstance(e.value, str) or isinstance(e, ast.JoinedStr):
            return word(e)
        if isinstance(e, ast.BinOp) and isinstance(e.op, ast.Add) and _has_str(e):
            return word(e)  # (a name in it is read through what the script assigns it: word)
        return None

    def split_string(e):
        """The command string `X.split()` / `shlex.split(X)` splits into an argv: X a string the script holds at this
        point (a name it assigned one) or writes there; None for anything else (a list's `" ".join(CMD).split()` is
        flattened_list's)."""
        if not isinstance(e, ast.Call) or e.keywords:
            return None
        if isinstance(e.func, ast.Attribute) and e.func.attr == "split" and not e.args:
            x = e.func.value
        elif ast.unparse(e.func) in ("shlex.split", "split") and len(e.args) == 1:
            x = e.args[0]
        else:
            return None
        if isinstance(x, ast.Name) and strings.get(x.id):
            return strings[x.id]
        return text(x)

    def _has_str(e):
        """A `+` of strings (a literal or an f-string among its terms), not of numbers."""
        return any(isinstance(x, ast.JoinedStr) or isinstance(x, ast.Constant) and isinstance(x.value, str)
                   for x in walked(e))

    def joined(e, depth=0):
        """The words of lists added together (`[a, b] + extra + ([c] if X else [])`): a list literal, a list the
        script holds, or a conditional one whose test the script settles (its taken side); None when a part is none of
        these (a call, a name held nowhere) or a string among them."""
        if depth > 8:
            return None
        if isinstance(e, ast.BinOp) and isinstance(e.op, ast.Add):
            left, right = joined(e.left, depth + 1), joined(e.right, depth + 1)
            return None if left is None or right is None else left + right
        if isinstance(e, (ast.List, ast.Tuple)):
            return [w for x in e.elts for w in (lists.get(x.value.id, ["$PY_VALUE"]) if isinstance(x, ast.Starred)
                                                and isinstance(x.value, ast.Name) else [word(x)])]
        if isinstance(e, ast.Name) and e.id in lists:
            return list(lists[e.id])
        if isinstance(e, ast.IfExp):
            test = value(e.test, consts)
            if test == "?" or isinstance(test, str) and test.startswith("torch."):
                # a part the script leaves to run time: the words it would add are not known, the others are
                return []
            return joined(e.body if test else e.orelse, depth + 1)
        return None

    lists: dict = {}
    events = []  # (line, col, kind, node): list assignments and growth, and launcher calls, in source order
    in_dir: dict = {}  # id(the argument a launcher is given) -> the folder its cwd= names
    runners, inner = _runner_functions(t)
    parsers = _script_parsers(t)
    flatteners = _flatten_functions(t)
    for n in walked(t):
        argv = _argv_words(n, word)
        if argv is not None:
            # a script that sets sys.argv and then calls a CLI's main() in-process runs that command line
            words, whole = argv
            prog = _argv_program(t)
            if whole and words and words[0].endswith(".py"):
                words = ["python", *words]
            elif whole and words and (words[0] in ("", "$PY_VALUE") or words[0].endswith(("__main__", "cli.py"))) \
                    and prog:
                words = [prog, *words[1:]]
            elif not whole and prog:
                words = [prog, *words]
            elif not whole:
                continue
            if words and "$PY_VALUE" not in words[:1]:
                events.append((n.lineno, n.col_offset, "argv", words))
            continue
        if isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name) and \
                isinstance(n.value, (ast.List, ast.Tuple)):
            events.append((n.lineno, n.col_offset, "set", n))
        elif isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name) and \
                flattened_list(n.value, flatteners) is not None:
            # an argv made by splitting each of a list's option strings (`cmd = build_cmd()`, round 29m)
            events.append((n.lineno, n.col_offset, "flat", (n.targets[0].id, flattened_list(n.value, flatteners))))
        elif isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name) and \
                text(n.value) is not None:
            # a command held as one string, run later by name (`run_command(cmd)` / `os.system(cmd)`): the value the
            # name holds where it runs is its last assignment before that call, in source order
            events.append((n.lineno, n.col_offset, "text", n))
        elif isinstance(n, ast.AugAssign) and isinstance(n.target, ast.Name) and isinstance(n.op, ast.Add) and \
                isinstance(n.value, (ast.List, ast.Tuple)):
            events.append((n.lineno, n.col_offset, "grow", n))
        elif isinstance(n, ast.AugAssign) and isinstance(n.target, ast.Name) and isinstance(n.op, ast.Add) and \
                isinstance(n.value, (ast.Constant, ast.JoinedStr)) and text(n.value) is not None:
            # `cmd_str += f' --xformers'`: a command string grown piece by piece (round 28: a Vertex AI wrapper)
            events.append((n.lineno, n.col_offset, "sgrow", n))
        elif isinstance(n, ast.Call):
            f = n.func
            name = f"{f.value.id}.{f.attr}" if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) else \
                f.id if isinstance(f, ast.Name) else ""
            if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.attr in ("append", "extend"):
                events.append((n.lineno, n.col_offset, f.attr, n))
            elif name in runners and len(n.args) > runners[name]:
                # a function of the script's own that runs the list it is given (`def _exec(cmd): subprocess.Popen(cmd,
                # ...)`, round 9m): its call with the list is the launch
                events.append((n.lineno, n.col_offset, "run", n.args[runners[name]]))
            elif name in _EXEC_LAUNCHERS and n.args and id(n) not in inner:
                # asyncio's create_subprocess_exec(program, *args) (a list of words as its arguments), os.execv /
                # os.execvp(file, argv) (the argv list second): the same command line (cfg80)
                argv = ast.List(elts=list(n.args), ctx=ast.Load()) if name.endswith("create_subprocess_exec") else \
                    n.args[1] if len(n.args) > 1 else None
                if argv is not None:
                    events.append((n.lineno, n.col_offset, "run", argv))
            elif name in _LAUNCHERS and n.args and id(n) not in inner:
                events.append((n.lineno, n.col_offset, "run", n.args[0]))
                cwd = next((known(k.value) for k in n.keywords if k.arg == "cwd"), None)
                if isinstance(cwd, str) and cwd and "$PY_VALUE" not in cwd:
                    # subprocess's cwd= runs the command in that folder, as `cd DIR && cmd` does (a wrapper starting
                    # `python run.py job.yaml` with cwd="/root/ai-toolkit": the checkout's own run.py; cfg80)
                    in_dir[id(n.args[0])] = cwd
            elif name in parsers:
                # a training script's own argument parser given a list in-process (`from train_dreambooth_lora_sdxl
                # import parse_args, main`, then `main(parse_args(input_args=[...]))`): that list is the script's
                # command line, as `python train_dreambooth_lora_sdxl.py ...` would give it
                a = next((k.value for k in n.keywords if k.arg in ("input_args", "args")), n.args[0] if n.args else None)
                if a is not None:
                    events.append((n.lineno, n.col_offset, "run", (parsers[name], a)))
            elif (f.attr if isinstance(f, ast.Attribute) else name) == "write_basic_config":
                events.append((n.lineno, n.col_offset, "config", _basic_config_words(n, word)))
        elif isinstance(n, ast.For) and id(n) not in in_if:
            grown = _options_loop(n, t)
            if grown:
                events.append((n.lineno, n.col_offset, "options", grown))
        elif isinstance(n, ast.With):
            # `with open("./train.sh", "w") as f: f.write(train_command)` (round 31: a kohya-trainer notebook's Python
            # export builds the command in an f-string and writes it as the shell script it then runs): the command
            # string written to a shell script is that script's command line
            for w in _script_writes(n):
                events.append((w.lineno, w.col_offset, "run", w.args[0]))
    out = []
    strings: dict = {}  # name -> the command string it holds at this point of the script
    written = set()  # the lines that stand for write_basic_config
    for _l, _c, kind, n in sorted(events, key=lambda e: (e[0], e[1])):
        if kind in ("argv", "config"):
            out.append(" ".join(shlex.quote(w) if w != "$PY_VALUE" else w for w in n))
            if kind == "config":
                written.add(len(out) - 1)
        elif kind == "set":
            # `[*launch_args, "--x", ...]`: a list the script holds at this point spreads its words there
            lists[n.targets[0].id] = [w for e in n.value.elts for w in (
                lists[e.value.id] if isinstance(e, ast.Starred) and isinstance(e.value, ast.Name) and
                e.value.id in lists else [word(e)])]
            strings.pop(n.targets[0].id, None)
        elif kind == "flat":
            if n[1] in lists:
                # each string is an option with its value ("--mixed_precision fp16"): its words, as str.split gives them
                lists[n[0]] = [x for w in lists[n[1]] for x in (w.split() if w != "$PY_VALUE" else [w])]
                strings.pop(n[0], None)
        elif kind == "text":
            strings[n.targets[0].id] = text(n.value)
            lists.pop(n.targets[0].id, None)
        elif kind == "sgrow" and n.target.id in strings and (id(n) not in in_if or settled(n)):
            # grown outside any branch, or in branches whose tests the script settles (an argparse default: `if
            # XFORMERS:` with XFORMERS = bool(args.xformers), default True), as Python runs it with no options given
            strings[n.target.id] = (strings[n.target.id] or "") + text(n.value)
        elif kind == "grow" and n.target.id in lists and (id(n) not in in_if or launch_argv and settled(n)):
            lists[n.target.id] += [word(e) for e in n.value.elts]
        elif kind in ("append", "extend") and n.func.value.id in lists and n.args and \
                (id(n) not in in_if or launch_argv and settled(n)):
            # (in a branch: only as a launch file's options settle its test, `if args.fp8: cmd.extend([...])` under
            # `--fp8`, configs._wrapper_argv; with the script's defaults alone it is left out, as before)
            a = n.args[0]
            lists[n.func.value.id] += [word(e) for e in a.elts] if kind == "extend" and \
                isinstance(a, (ast.List, ast.Tuple)) else [word(a)]
        elif kind == "options" and n[0] in lists:
            lists[n[0]] += n[1]
        elif kind == "run":
            a, prefix = n, []
            if isinstance(n, tuple):
                prefix, a = ["python", n[0]], n[1]
            if isinstance(a, ast.Name) and a.id in strings and not prefix:
                out.append(strings[a.id])
                continue
            said = split_string(a)
            if said is not None and not prefix:
                # `subprocess.run(shlex.split(cmd))`, `subprocess.run(cmd.split())`: the string's words (cfg80)
                out.append(said)
                continue
            if isinstance(a, ast.Name) and a.id in lists:
                ws = lists[a.id]
            elif flattened_list(a, flatteners) in lists:
                # `subprocess.run(build_cmd())`, `subprocess.run(" ".join(CMD).split())`: the list's strings split
                ws = [x for w in lists[flattened_list(a, flatteners)] for x in (w.split() if w != "$PY_VALUE" else [w])]
            elif isinstance(a, (ast.List, ast.Tuple)):
                # (the command string a shell's -c is given is the string the name holds there: `["bash", "-c", cmd]`
                # after cmd = f"cd {ROOT} && python train.py " + " ".join(args), round 31)
                ws = [w for i, e in enumerate(a.elts) for w in (
                    lists.get(e.value.id, ["$PY_VALUE"]) if isinstance(e, ast.Starred) and isinstance(e.value, ast.Name)
                    else [strings[e.id]] if isinstance(e, ast.Name) and strings.get(e.id) and known(e) is None and i
                    and isinstance(a.elts[i - 1], ast.Constant) and a.elts[i - 1].value in ("-c", "/c", "-Command")
                    else [word(e)])]
            elif isinstance(a, ast.BinOp) and isinstance(a.op, ast.Add) and joined(a) is not None:
                # `[...] + ([...] if USE_WANDB else [])` (round 31: a Modal app's DreamBooth launch): the lists added,
                # a conditional part only when the script settles its test
                ws = joined(a)
            elif isinstance(a, (ast.Constant, ast.JoinedStr)):
                out.append(word(a))
                continue
            else:
                continue
            line = " ".join(shlex.quote(w) if w != "$PY_VALUE" else w for w in prefix + ws)
            out.append(f"cd {shlex.quote(in_dir[id(a)])} && {line}" if id(a) in in_dir else line)
    if written and not any(re.match(r"accelerate(-launch| launch)\b", ln) for ln in out):
        # the accelerate config a script writes says something only of an `accelerate launch` it starts
        out = [ln for i, ln in enumerate(out) if i not in written]
    return "\n".join(out)


# the functions a training script builds its options with, which a runner may import and hand a list: diffusers'
# examples' `def parse_args(input_args=None)` (parser.parse_args(input_args) if input_args is not None), sd-scripts' and
# musubi's `setup_parser()` whose parser.parse_args / parse_known_args then takes the list
_PARSE_FUNCS = {"parse_args", "parse_arguments", "get_args"}
_PARSER_FUNCS = {"setup_parser", "get_parser", "create_parser", "make_parser", "build_parser"}


def _script_parsers(t) -> dict:
    """{name called with a command line: the script it is the command line of}: a function a script imports from a
    training script module (`from train_dreambooth_lora_sdxl import parse_args as parse_train_args`), and the
    `parse_args` / `parse_known_args` of a parser an imported `setup_parser()` returned (`parser = setup_parser()`)."""
    import ast

    imported = {}
    for n in walked(t):
        if isinstance(n, ast.ImportFrom) and n.module and not n.level:
            for a in n.names:
                if a.name in _PARSE_FUNCS | _PARSER_FUNCS:
                    imported[a.asname or a.name] = (a.name, n.module.replace(".", "/") + ".py")
    out = {k: v[1] for k, v in imported.items() if v[0] in _PARSE_FUNCS}
    for n in walked(t):
        if isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name) and \
                isinstance(n.value, ast.Call) and isinstance(n.value.func, ast.Name) and \
                imported.get(n.value.func.id, ("",))[0] in _PARSER_FUNCS:
            for m in ("parse_args", "parse_known_args"):
                out[f"{n.targets[0].id}.{m}"] = imported[n.value.func.id][1]
    return out


_SHELL_SCRIPT = re.compile(r"\.(sh|bash|bat|cmd|ps1)$", re.IGNORECASE)


def _one_family(names) -> bool:
    """Every name is an sd-scripts training script of one model family (sd_scripts.SCRIPTS: train_network.py,
    train_db.py and fine_tune.py all train the SD 1.x/2.x U-Net, whose attention they set up alike)."""
    from .sd_scripts import SCRIPTS

    stems = [n[:-3] for n in names if n.endswith(".py")]
    return len(stems) == len(names) and all(s in SCRIPTS for s in stems) and len({SCRIPTS[s] for s in stems}) == 1


def _script_writes(w) -> list:
    """The `.write(x)` calls of a `with open(PATH, "w") as f:` block whose PATH (a literal) is a shell script (.sh,
    .bat, .ps1 ...), each with its one argument."""
    import ast

    handles = set()
    for item in w.items:
        c = item.context_expr
        if isinstance(c, ast.Call) and isinstance(c.func, ast.Name) and c.func.id == "open" and c.args and \
                isinstance(c.args[0], ast.Constant) and isinstance(c.args[0].value, str) and \
                _SHELL_SCRIPT.search(c.args[0].value) and isinstance(item.optional_vars, ast.Name):
            mode = c.args[1] if len(c.args) > 1 else next((k.value for k in c.keywords if k.arg == "mode"), None)
            if isinstance(mode, ast.Constant) and isinstance(mode.value, str) and "w" in mode.value:
                handles.add(item.optional_vars.id)
    return [n for s in w.body for n in walked(s) if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
            and n.func.attr == "write" and isinstance(n.func.value, ast.Name) and n.func.value.id in handles and
            len(n.args) == 1] if handles else []


def _runner_functions(t) -> tuple[dict, set]:
    """The script's own functions that run a command they are given: {name: index of that parameter}, and the ids of
    the launcher calls inside them (the parameter itself is no list of the script's)."""
    import ast

    runners: dict = {}
    inner: set = set()
    for f in walked(t):
        if not isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        params = [a.arg for a in f.args.posonlyargs + f.args.args]
        for n in walked(f):
            if not (isinstance(n, ast.Call) and n.args and isinstance(n.args[0], ast.Name) and n.args[0].id in params):
                continue
            g = n.func
            name = f"{g.value.id}.{g.attr}" if isinstance(g, ast.Attribute) and isinstance(g.value, ast.Name) else \
                g.id if isinstance(g, ast.Name) else ""
            if name in _LAUNCHERS and f.name not in _LAUNCHERS:
                runners[f.name] = params.index(n.args[0].id)
                inner.add(id(n))
    return runners, inner


def _split_each(e) -> str | None:
    """`item.split()` / `shlex.split(item)` of a loop variable: that variable's name, else None."""
    import ast

    if isinstance(e, ast.Call) and isinstance(e.func, ast.Attribute) and e.func.attr == "split" and not e.args and \
            not e.keywords and isinstance(e.func.value, ast.Name):
        return e.func.value.id
    if isinstance(e, ast.Call) and ast.unparse(e.func) == "shlex.split" and len(e.args) == 1 and \
            isinstance(e.args[0], ast.Name):
        return e.args[0].id
    return None


def flattened_list(e, flatteners: dict | None = None) -> str | None:
    """The name of the list of option strings an expression splits into one argv (`CMD = ["accelerate launch
    --num_cpu_threads_per_process 1", "train.py", "--mixed_precision fp16", ...]`, each string holding an option and its
    value): `" ".join(CMD).split()`, `shlex.split(" ".join(CMD))`, `[w for item in CMD for w in item.split()]`, or a
    call of the script's own function that returns one of those, or a list it grows with each item's split words
    (flatteners: _flatten_functions; round 29m: `def build_cmd(): for item in CMD: result.extend(item.split())`).
    None for anything else."""
    import ast

    def joined(x):
        return x.args[0].id if isinstance(x, ast.Call) and isinstance(x.func, ast.Attribute) and \
            x.func.attr == "join" and isinstance(x.func.value, ast.Constant) and \
            isinstance(x.func.value.value, str) and not x.func.value.value.strip() and len(x.args) == 1 and \
            isinstance(x.args[0], ast.Name) else None

    if isinstance(e, ast.Call) and isinstance(e.func, ast.Attribute) and e.func.attr == "split" and not e.args and \
            not e.keywords:
        return joined(e.func.value)
    if isinstance(e, ast.Call) and ast.unparse(e.func) == "shlex.split" and len(e.args) == 1:
        return joined(e.args[0])
    if isinstance(e, ast.ListComp) and len(e.generators) == 2 and isinstance(e.elt, ast.Name):
        outer, inner = e.generators
        if isinstance(outer.target, ast.Name) and isinstance(outer.iter, ast.Name) and not outer.ifs and \
                not inner.ifs and isinstance(inner.target, ast.Name) and inner.target.id == e.elt.id and \
                _split_each(inner.iter) == outer.target.id:
            return outer.iter.id
    if isinstance(e, ast.Call) and isinstance(e.func, ast.Name) and not e.args and not e.keywords and flatteners:
        return flatteners.get(e.func.id)
    return None


def _flatten_functions(t) -> dict:
    """{function name: the module-level list it flattens} for the script's own functions that take no argument and
    return one argv made of a list's option strings split into words (flattened_list's shapes, or `result = []`, `for
    item in CMD: result.extend(item.split())` / `result += item.split()`, `return result`)."""
    import ast

    out = {}
    for f in t.body if isinstance(t, ast.Module) else []:
        if not isinstance(f, ast.FunctionDef) or f.args.args or f.args.posonlyargs or f.args.vararg:
            continue
        rets = [n for n in walked(f) if isinstance(n, ast.Return) and n.value is not None]
        if len(rets) != 1:
            continue
        src = flattened_list(rets[0].value)
        if src is None and isinstance(rets[0].value, ast.Name):
            res = rets[0].value.id
            for loop in f.body:
                if not (isinstance(loop, ast.For) and isinstance(loop.target, ast.Name) and
                        isinstance(loop.iter, ast.Name)):
                    continue
                for n in walked(loop):
                    grown = n.args[0] if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and \
                        n.func.attr == "extend" and isinstance(n.func.value, ast.Name) and n.func.value.id == res and \
                        len(n.args) == 1 else n.value if isinstance(n, ast.AugAssign) and isinstance(n.op, ast.Add) \
                        and isinstance(n.target, ast.Name) and n.target.id == res else None
                    if grown is not None and _split_each(grown) == loop.target.id:
                        src = loop.iter.id
        if src is not None:
            out[f.name] = src
    return out


def _basic_config_words(call, word) -> list:
    """accelerate's `write_basic_config(mixed_precision="no", save_location=default)` (huggingface/accelerate@16cb6eb
    src/accelerate/commands/config/default.py:37-65) as the shell command that does the same: `accelerate config
    default --mixed_precision X [--config_file P]` (default.py:142-170)."""
    kw = {k.arg: k.value for k in call.keywords if k.arg}
    mp = kw.get("mixed_precision", call.args[0] if call.args else None)
    loc = kw.get("save_location", call.args[1] if len(call.args) > 1 else None)
    words = ["accelerate", "config", "default", "--mixed_precision", word(mp) if mp is not None else "no"]
    return words + (["--config_file", word(loc)] if loc is not None else [])


_PY_TEXT = re.compile(r"^[ \t]*([A-Za-z_]\w*)\s*=\s*[rRfFuU]{0,2}(\"\"\"|\'\'\')(.*?)\2", re.M | re.S)
_PY_PATH = re.compile(r"^[ \t]*([A-Za-z_]\w*)\s*=\s*(?:Path\(\s*)?[rRfF]?([\"'])([^\"'\n]+)\2\s*\)?\s*$", re.M)
_PY_WRITES = (
    # Path("x.toml").write_text(config) / config_path.write_text(config)
    re.compile(r"(?:Path\(\s*[rRfF]?([\"'])(?P<lit>[^\"'\n]+)\1\s*\)|(?P<var>[A-Za-z_]\w*))\.write_text\(\s*(?P<text>[A-Za-z_]\w*)"),
    # with open("x.toml", "w") as f: f.write(config)
    re.compile(r"open\(\s*(?:[rRfF]?([\"'])(?P<lit>[^\"'\n]+)\1|(?P<var>[A-Za-z_]\w*))\s*,\s*[\"']w[tb]?[\"'][^)]*\)\s*as\s+"
               r"(?P<fh>\w+)\s*:\s*\n?\s*(?P=fh)\.write\(\s*(?P<text>[A-Za-z_]\w*)"),
)


def python_written_files(code: str) -> dict:
    """The files a notebook's (or script's) Python writes from a triple-quoted string it holds: `config = \"\"\"...\"\"\"`
    then `Path("/content/train_config.toml").write_text(config)` or `with open(path, "w") as f: f.write(config)`
    ({path: text}; an f-string's {placeholders} stay as written). A later launch line that names the path (`!python
    anima_train_network.py --config_file /content/train_config.toml`) is read through that text (named_config)."""
    texts = {m.group(1): m.group(3) for m in _PY_TEXT.finditer(code)}
    paths = {m.group(1): m.group(3) for m in _PY_PATH.finditer(code)}
    out = {}
    for rx in _PY_WRITES:
        for m in rx.finditer(code):
            path = m.group("lit") or paths.get(m.group("var") or "")
            if path and m.group("text") in texts:
                out[path] = texts[m.group("text")]
    return out


MIN_TEMPLATE_LINES = 4  # a config is several lines; a one-line string with a colon is a message or a path


def python_templates(code: str) -> list[str]:
    """The triple-quoted texts a Python module holds, plain or f-strings, as the text they make (round 141m: a Krea 2 kit's
    trainer/_configs.py whose build_training_config() returns `f\"\"\"---\\njob: extension\\nconfig: ...\"\"\"` for another
    script of the kit to write and run). An f-string's field is a value the module computes: a field alone on its line
    (`{_model_block(tier)}`, lines of its own) is left out, one inside a line becomes `"$PY_VALUE"` (bare inside quotes
    already there), so the text still parses as the YAML / TOML / JSON it makes, the field's value unknown."""
    import ast

    try:
        t = parse_python(code)
    except (SyntaxError, ValueError, RecursionError):
        return []
    out = []
    parents = parents_of(t)
    for n in walked(t):
        if isinstance(n, ast.Constant) and isinstance(n.value, str) and \
                not isinstance(parents.get(id(n)), (ast.JoinedStr, ast.FormattedValue, ast.Expr)):
            # (a docstring, or a bare string statement, is prose)
            text = n.value
        elif isinstance(n, ast.JoinedStr) and not isinstance(parents.get(id(n)), ast.FormattedValue):
            parts = []
            for v in n.values:
                if isinstance(v, ast.Constant) and isinstance(v.value, str):
                    parts.append(v.value)
                    continue
                before = "".join(parts)
                line = before[before.rfind("\n") + 1:]
                if not line.strip():
                    parts.append("\x00")  # (first on its line: the line goes when the field is all of it)
                else:
                    parts.append("$PY_VALUE" if line.rstrip()[-1:] in ("'", '"') else '"$PY_VALUE"')
            text = "\n".join(ln.replace("\x00", '"$PY_VALUE"') for ln in "".join(parts).split("\n")
                             if ln.strip() != "\x00")
        else:
            continue
        if text.count("\n") >= MIN_TEMPLATE_LINES and text not in out:
            out.append(text)
    return out


def notebook_command(doc: dict) -> bool:
    """A notebook whose `!cmd` lines, `%%bash` cells or subprocess calls run a training command: read like a launch
    script."""
    return doc["fmt"] == "python" and doc["name"].endswith((".ipynb", ".py")) and doc.get("command") is not None


_IPY_SYSTEM = re.compile(r"^(\s*)get_ipython\(\)\.(?:system|getoutput)\(\s*([rRuU]?(?:'[^'\n]*'|\"[^\"\n]*\"))\s*\)\s*$")
_IPY_CD = re.compile(r"^(\s*)get_ipython\(\)\.run_line_magic\(\s*['\"]cd['\"]\s*,\s*('[^'\n]*'|\"[^\"\n]*\")\s*\)\s*$")
_PERCENT_CELL = re.compile(r"^# %%", re.MULTILINE)


def exported_notebook(text: str) -> str:
    """The shell escapes of a notebook saved as a .py script, as the `!` lines bang_lines reads: nbconvert's
    `get_ipython().system('cmd')` (IPython's `!cmd`) and `get_ipython().run_line_magic('cd', 'dir')` (`%cd dir`, which
    changes the kernel's folder for the lines after it); the magics a jupytext percent script keeps commented out
    (`# !cmd`, `# %cd dir`, in a file with `# %%` cells); `!cmd` lines a notebook's download left as they are (not
    Python, so never run as Python). "" when the file has none of them (round 55: Colab cells exported to .py)."""
    import ast

    out, found, bare, going = [], False, None, False
    percent = bool(_PERCENT_CELL.search(text)) or "jupytext:" in text[:400]
    for ln in text.splitlines():
        m = _IPY_SYSTEM.match(ln)
        if m:
            try:
                cmd = ast.literal_eval(m.group(2))
            except (ValueError, SyntaxError):
                cmd = None
            if isinstance(cmd, str):
                out.append(f"{m.group(1)}!{cmd}")
                found = True
                continue
        m = _IPY_CD.match(ln)
        if m:
            out.append(f"{m.group(1)}!cd {m.group(2)}")
            found = True
            continue
        m = re.match(r"^# (!\S.*|%cd\s+\S.*)$", ln) if percent else None
        if m or (going and percent and ln.startswith("#")):
            # (a commented `!` line ending in a backslash goes on over the next commented line, as in the notebook)
            line = m.group(1) if m else ln[1:].lstrip(" ")
            out.append("!cd " + line[3:].strip() if m and line.startswith("%cd") else line)
            going = line.rstrip().endswith("\\")
            found = True
            continue
        going = False
        if ln.lstrip().startswith("!") and len(ln.lstrip()) > 1 and not ln.lstrip().startswith("!="):
            if bare is None:  # (a `!` line inside a string of a valid script is no shell escape)
                bare = _not_python(text)
            found = found or bare
        out.append(ln)
    return "\n".join(out) if found else ""


def _not_python(text: str) -> bool:
    try:
        parse_python(text)
    except (SyntaxError, ValueError):
        return True
    return False


def bang_lines(code: str) -> str:
    """A notebook's shell escapes (`!cmd ...`) as a script. A `!` line ending in a backslash goes on over the next
    lines, as IPython assembles it (IPython/core/inputtransformer2.py EscapedCommand: assemble_continued_line), so
    `!NCCL_P2P_DISABLE=1 \\` + `deepspeed train.py ...` is one command. `%env NAME=VALUE` (and os.environ[...] = "...")
    sets the environment the `!` commands run in, and a top-level Python literal a `!` line names as `{name}` or
    `$name` is expanded there (IPython's var_expand), so both become shell assignments ahead of the commands."""
    import shlex

    out: list[str] = []
    going = False
    names: set = set()
    literals: dict = {}  # top-level names of a literal value so far (a path joined from them included)
    bangs = "\n".join(ln for ln in code.splitlines() if ln.lstrip().startswith("!"))
    if not bangs:
        return ""
    for ln in code.splitlines():
        s = ln.lstrip()
        if going or s.startswith("!"):
            line = ln.lstrip()[1:] if not going else ln
            # IPython expands `{name}` (and `$name`) in a `!` line from the notebook's Python variables before the
            # shell runs it (IPython/core/interactiveshell.py var_expand): a variable a cell set to a literal is a
            # shell variable of that value here
            out.append(re.sub(r"(?<!\{)\{([A-Za-z_]\w*)\}(?!\})", lambda m: "${%s}" % m.group(1)
                              if m.group(1) in names else m.group(0), line))
            going = ln.rstrip().endswith("\\")
            continue
        m = re.match(r"^%env\s+([A-Za-z_]\w*)\s*[= ]\s*(\S.*?)\s*$", ln)  # %env NAME=VALUE: the kernel's environment
        m = m or re.match(r"^os\.environ\[\s*[\"']([A-Za-z_]\w*)[\"']\s*\]\s*=\s*(\"[^\"]*\"|'[^']*')\s*$", ln)
        if m:
            out.append(f"export {m.group(1)}={shlex.quote(m.group(2).strip(chr(34) + chr(39)))}")
            continue
        m = re.match(r"^([A-Za-z_]\w*)\s*=\s*(\"[^\"]*\"|'[^']*'|-?[\d.]+(?:e-?\d+)?|True|False)\s*(?:#.*)?$", ln)
        val = m.group(2).strip(chr(34) + chr(39)) if m else None
        if m is None:
            # `kohya_dir = os.path.join(trainer_dir, "sd_scripts")` of literals and names set so (round 16m: a Colab
            # trainer's `!{venv_python} {train_network} --config_file=...`, each an os.path.join of the one before)
            m = re.match(r"^([A-Za-z_]\w*)\s*=\s*os\.path\.join\(([^()]*)\)\s*(?:#.*)?$", ln)
            val = _joined(m.group(2), literals) if m else None
        if m and val is None:
            literals.pop(m.group(1), None)  # reassigned to what is not read here: unknown from now on
        elif m:
            literals[m.group(1)] = val
        if m and val is not None and re.search(r"\{%s\}|\$\{?%s\b" % (m.group(1), m.group(1)), bangs):
            # a Python literal at the top level of a cell that a `!` line uses
            names.add(m.group(1))
            out.append(f"{m.group(1)}={shlex.quote(val)}")
    return "\n".join(out)


def _joined(args: str, literals: dict) -> str | None:
    """os.path.join's result for arguments that are string literals or names of known literal values, else None."""
    out = None
    for a in (x.strip() for x in args.split(",")):
        m = re.fullmatch(r"\"([^\",]*)\"|'([^',]*)'", a)
        part = (m.group(1) if m.group(1) is not None else m.group(2)) if m else literals.get(a)
        if not isinstance(part, str):
            return None
        out = part if out is None or part.startswith("/") else out.rstrip("/") + "/" + part
    return out


QUOTES = ("\"", "'")


def dockerfile_script(text: str) -> str:
    """A Dockerfile as the shell script its build and container run: RUN lines and CMD / ENTRYPOINT (exec form
    `["accelerate", "launch", ...]` as words, shell form as written), ENV / ARG as assignments; other instructions
    (FROM, COPY, WORKDIR ...) run nothing. A BuildKit heredoc (`RUN <<EOF` ... `EOF`, `RUN --mount=... <<EOF`) runs
    its body's lines as a script (Dockerfile reference: "Here-Documents")."""
    out = []
    # Docker's parser trims each line's end of "\r\n" and continues a line that ends in its escape character followed
    # by blanks only (moby's builder/parser: trimNewline, the `\\[ \t]*$` continuation): a Dockerfile saved on Windows
    # (CRLF) or with a blank after the backslash is the same build
    lines = re.sub(r"\\[ \t]*\n", " ", text.replace("\r\n", "\n")).splitlines()
    i = 0
    while i < len(lines):
        ln = lines[i]
        i += 1
        m = re.match(r"^\s*(RUN|CMD|ENTRYPOINT|ENV|ARG)\s+(.*)$", ln, re.IGNORECASE)
        if not m:
            continue
        kind, rest = m.group(1).upper(), m.group(2).strip()
        here = re.match(r"^(?:--\S+\s+)*<<-?([\"']?)(\w+)\1\s*$", rest) if kind == "RUN" else None
        if here:
            body = []
            while i < len(lines) and lines[i].strip() != here.group(2):
                body.append(lines[i])
                i += 1
            i += 1
            out += body
            continue
        if kind in ("ENV", "ARG"):
            pairs = re.findall(r"([A-Za-z_]\w*)=(\"[^\"]*\"|'[^']*'|\S+)", rest)
            if not pairs and kind == "ENV" and len(rest.split(None, 1)) == 2:
                pairs = [tuple(rest.split(None, 1))]
            out += ["export " + k + "=" + (v if v[:1] in QUOTES else shlex.quote(v)) for k, v in pairs]
            continue
        if rest.startswith("["):
            try:
                words = json.loads(rest)
            except ValueError:
                words = None
            if isinstance(words, list) and all(isinstance(w, str) for w in words):
                rest = " ".join(shlex.quote(w) for w in words)
        out.append(rest)
    return "\n".join(out)



# A Makefile's variable assignments (`NAME ?= v`, `NAME := v`, `NAME = v`, `NAME ::= v`, `override`/`export` in front)
# and its recipe lines (a tab first); a `$(NAME)` / `${NAME}` reference is make's, `$$` the shell's `$`
_MAKE_ASSIGN = re.compile(r"^(?:override\s+|export\s+)?([A-Za-z_][A-Za-z0-9_.-]*)\s*(\?=|::=|:=|\+=|=)\s*(.*)$")
_MAKE_REF = re.compile(r"\$\(([A-Za-z_][A-Za-z0-9_.-]*)\)|\$\{([A-Za-z_][A-Za-z0-9_.-]*)\}")


def makefile_script(text: str) -> str:
    """A Makefile as the shell script its targets' recipes run, in the file's order (`make train` runs one of them; the
    training command among them is found as in any launch script), each recipe line as make hands it to /bin/sh: its
    variables expanded as make expands them (a `?=` default stays unless set before, `+=` appends), `$$` as `$`, and
    the `@` / `-` / `+` prefixes dropped. make runs the recipes from the Makefile's folder. A variable make exports
    (`export NAME = value`, or `export NAME` for one set elsewhere) is in every recipe's environment, wherever the
    directive stands (GNU make manual, 5.7.2 "Communicating Variables to a Sub-make": "export variable = value"), so the
    script starts by exporting it (review rev27: a launch's DIFFUSERS_ATTN_BACKEND exported this way was lost)."""
    vars_: dict = {}
    exported: list = []

    def sub(value: str, depth: int = 0) -> str:
        if depth > 5:
            return value
        out = _MAKE_REF.sub(lambda m: vars_.get(m.group(1) or m.group(2), m.group(0)), value)
        return out if out == value else sub(out, depth + 1)

    out = []
    for ln in re.sub(r"\\\n", " ", text).splitlines():
        if ln.startswith("\t"):
            cmd = ln[1:].lstrip().lstrip("@-+").strip()
            if cmd and not cmd.startswith("#"):
                out.append(sub(cmd).replace("$$", "$"))
            continue
        bare = ln.split("#", 1)[0].rstrip()
        m = re.match(r"^export\s+([A-Za-z_][A-Za-z0-9_]*(?:\s+[A-Za-z_][A-Za-z0-9_]*)*)\s*$", bare)
        if m:  # `export NAME ...`: names set elsewhere in the file
            exported += [n for n in m.group(1).split() if n not in exported]
            continue
        m = _MAKE_ASSIGN.match(bare)
        if not m or ":" in m.group(1):
            continue
        name, op, value = m.group(1), m.group(2), m.group(3).strip()
        if bare.startswith("export") and re.fullmatch(r"[A-Za-z_]\w*", name) and name not in exported:
            exported.append(name)
        if op == "?=" and name in vars_:
            continue
        vars_[name] = (vars_.get(name, "") + " " + sub(value)).strip() if op == "+=" else sub(value)
    head = [f"export {n}={shlex.quote(sub(vars_[n]).replace('$$', '$'))}" for n in exported if n in vars_]
    return "\n".join(head + out)

# A justfile's variable assignments (`name := "value"`, `export name := ...`) and its recipes (a `name args*:` line, then
# indented lines); `{{name}}` interpolates a variable (casey/just: GRAMMAR.md)
_JUST_ASSIGN = re.compile(r"^(?:export\s+)?([A-Za-z_][\w-]*)\s*:=\s*(.*?)\s*$")
_JUST_REF = re.compile(r"\{\{\s*([A-Za-z_][\w-]*)\s*\}\}")


def justfile_script(text: str) -> str:
    """A justfile as the shell lines its recipes run, in the file's order (`just train` runs one), each with its
    `{{variables}}` interpolated where the file sets them (quoted values unquoted; a backtick or expression stays as
    written) and the `@` / `-` prefixes dropped; the recipe lines of a `#!` shebang recipe as its script. A variable
    assigned with `export name := value` is in every recipe's environment (just's manual, "Exporting just Variables"),
    so the script starts by exporting it (review rev27)."""
    vars_: dict = {}
    exported: list = []
    out = []
    in_recipe = False
    for ln in re.sub(r"\\\n", " ", text).splitlines():
        if not ln.strip() or ln.lstrip().startswith("#") and not ln.lstrip().startswith("#!"):
            continue
        if ln[:1] in (" ", "\t"):
            if in_recipe:
                cmd = ln.strip().lstrip("@-").strip()
                if cmd and not cmd.startswith("#!"):
                    out.append(_JUST_REF.sub(lambda m: vars_.get(m.group(1), m.group(0)), cmd))
            continue
        m = _JUST_ASSIGN.match(ln)
        if m:
            v = m.group(2)
            vars_[m.group(1)] = unquoted(v)
            if ln.startswith("export") and m.group(1) not in exported:
                exported.append(m.group(1))
            in_recipe = False
            continue
        m = re.match(r"^@?[A-Za-z_][\w-]*((?:\s+[^:]*)?):(?!=)", ln)
        in_recipe = m is not None
        for name, q, val in re.findall(r"([A-Za-z_][\w-]*)=([\"'])(.*?)\2", m.group(1) if m else ""):
            vars_[name] = val  # a recipe parameter's default (`train cfg="configs/x.yaml":`), as `just train` runs it
    head = [f"export {n}={shlex.quote(vars_[n])}" for n in exported]
    return "\n".join(head + out)


# The serialisers a script writes a config with: yaml.dump / yaml.safe_dump / json.dump / toml.dump(obj, fh) and
# their *s forms inside fh.write(...) or Path(P).write_text(...)
_DUMPS = {"dump", "safe_dump", "dumps", "safe_dumps"}
_DUMP_CALL = re.compile(r"\.(safe_)?dumps?\(")
_DUMP_MODULES = {"yaml", "json", "toml", "tomli_w", "tomlkit", "rtoml"}
# the calls that turn a config's text into the dict a script then dumps (round 73: a Modal launcher whose axolotl
# config is a module-level f-string, `config_dict = yaml.safe_load(train_config_yaml)` then `yaml.dump(config_dict, f)`)
_LOADS = {("yaml", "safe_load"), ("yaml", "load"), ("yaml", "full_load"), ("json", "loads"), ("toml", "loads"),
          ("tomllib", "loads"), ("tomli", "loads"), ("rtoml", "loads")}
_UNKNOWN_TEXT = "\u2063attn-doctor-unknown\u2063"  # what an f-string's run-time part is replaced by while parsing


def _own_nodes(scope) -> list:
    """The nodes under `scope`, not those of functions or classes defined inside it, depth first (the last child first)."""
    import ast

    out = []
    stack = list(children(scope))
    while stack:
        n = stack.pop()
        out.append(n)
        if not isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            stack.extend(children(n))
    return out


def python_dumped_configs(code: str, calls: frozenset = frozenset()) -> list[tuple[object, dict]]:
    """The configs a script (or a notebook's cells) builds as a Python dict and writes out with yaml / json / toml
    (round 9: a wrapper that fills an axolotl config dict, `yaml.dump(cfg, f)` to a temporary file, then runs
    `axolotl train <that file>`; a Colab trainer's `config_dict = {"xformers": XFORMERS, ...}` written with
    `f.write(toml.dumps(config_dict))` to the --config_file its `!accelerate launch` line names). Each is (target,
    settings): target is the path written as a literal, ("var", NAME) for a path held in a variable, or None (a temporary
    file, or a path the script computes); settings hold the keys whose values the script writes as literals or
    constants (pyscript.constants: `XFORMERS = True`), a dict returned by a function of the script (`cfg =
    base_config(args)`) and the `cfg["key"] = value` lines that follow it included; a value computed at run time is
    left out, and a list only when each of its items is known. calls: functions that take such a dict in-process
    (ai-toolkit's run_job(job_dict)): a dict given to one is there with target ("call", NAME). Nothing is run."""
    import ast

    from .pyscript import constants, tree

    t = tree(code)
    if t is None:
        return []
    consts = constants(t)
    parents = parents_of(t)
    funcs = {f.name: f for f in walked(t) if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))}

    def scope_of(n):
        p = parents.get(id(n))
        while p is not None and not isinstance(p, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Module)):
            p = parents.get(id(p))
        return p

    def in_branch(n, scope):
        p = parents.get(id(n))
        while p is not None and p is not scope:
            if isinstance(p, (ast.If, ast.For, ast.While, ast.Try, ast.IfExp)):
                return True
            p = parents.get(id(p))
        return False

    def own_nodes(scope) -> list:
        """The scope's nodes, not those of functions defined inside it (listed once per scope and kept on it: a dict's
        every name is looked up in its scope's nodes again)."""
        return kept(scope, "_attn_doctor_own_nodes", lambda: _own_nodes(scope))

    def literal(v):
        from .pyscript import value

        got = value(v, consts)
        # only what a config file holds (a bytes, Ellipsis or complex literal is none of it: JSON cannot carry it)
        return got if got != "?" and isinstance(got, (str, int, float, bool)) else None

    def dict_value(node, scope, before, depth=0):
        """The dict (or list, or literal) `node` stands for where it is used: literals, {**spreads}, dict(...) and
        OrderedDict(...), a name assigned before `before` in `scope` or at module level, a function's last return."""
        if depth > 12 or node is None:  # (a job dict: its config, its process list, the process a name holds)
            return None
        if isinstance(node, ast.Dict):
            out = {}
            for k, v in zip(node.keys, node.values):
                if k is None:  # {**other}
                    out.update(dict_value(v, scope, before, depth + 1) or {})
                elif isinstance(k, ast.Constant) and isinstance(k.value, str):
                    sub = dict_value(v, scope, before, depth + 1) if isinstance(v, (ast.Dict, ast.Call, ast.List)) else None
                    val = sub if isinstance(sub, (dict, list)) else literal(v)
                    if val is not None:
                        out[k.value] = val
            return out
        if isinstance(node, ast.List):
            # `"process": [process]` (round 9m: an ai-toolkit job whose process dict is built beside it): each item a
            # dict the script builds or a literal; one unknown item leaves the whole list unknown
            items = []
            for e in node.elts:
                sub = dict_value(e, scope, before, depth + 1) if isinstance(e, (ast.Dict, ast.Call, ast.Name)) else None
                got = sub if isinstance(sub, dict) else literal(e)
                if got is None:
                    return None
                items.append(got)
            return items
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
                isinstance(node.func.value, ast.Name) and (node.func.value.id, node.func.attr) in _LOADS and node.args:
            # a config the script holds as text and parses before dumping it (round 73)
            return parsed_text(node, scope, before, depth)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "OrderedDict":
            node = ast.Call(func=ast.Name(id="OrderedDict"), args=node.args, keywords=node.keywords)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            # (ai-toolkit's own examples build the job as an OrderedDict; axolotl's Colab example its config as a
            # DictDefault, axolotl.utils.dict: a dict subclass)
            if node.func.id in ("dict", "OrderedDict", "DictDefault"):
                out = {}
                for a in node.args[:1]:
                    if isinstance(a, (ast.List, ast.Tuple)) and a.elts and all(
                            isinstance(e, ast.Tuple) and len(e.elts) == 2 for e in a.elts):
                        # `OrderedDict([("job", "extension"), ("config", OrderedDict([...]))])`: the pairs, in order,
                        # are the mapping dict() builds of them (round 57m: a Flux job written that way for run_job)
                        a = ast.Dict(keys=[e.elts[0] for e in a.elts], values=[e.elts[1] for e in a.elts])
                    got = dict_value(a, scope, before, depth + 1)
                    out.update(got if isinstance(got, dict) else {})
                for k in node.keywords:
                    if k.arg:
                        val = literal(k.value)
                        if val is not None:
                            out[k.arg] = val
                    else:
                        out.update(dict_value(k.value, scope, before, depth + 1) or {})
                return out
            f = funcs.get(node.func.id)
            if f is not None:  # a function of the script that builds the dict: what its (last) return gives
                rets = [r for r in own_nodes(f) if isinstance(r, ast.Return) and r.value is not None]
                if rets:
                    r = max(rets, key=lambda r: r.lineno)
                    params = [a.arg for a in f.args.args]
                    if isinstance(r.value, ast.Name) and r.value.id in params and \
                            params.index(r.value.id) < len(node.args) and not any(
                                isinstance(a, ast.Assign) and any(isinstance(t, ast.Name) and t.id == r.value.id
                                                                  for t in a.targets) for a in own_nodes(f)):
                        # a function that hands back the dict it is given, after tidying it in place (round 28: the
                        # kohya-trainer notebooks' toml.dumps(eliminate_none_variable(train_config))): that dict
                        return dict_value(node.args[params.index(r.value.id)], scope, before, depth + 1)
                    return dict_value(r.value, f, r.lineno, depth + 1)
            return None
        if isinstance(node, ast.Name):
            assigns = [a for a in own_nodes(scope) if isinstance(a, ast.Assign) and len(a.targets) == 1
                       and isinstance(a.targets[0], ast.Name) and a.targets[0].id == node.id and a.lineno < before]
            if not assigns and isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef)) and not bound_in(node.id, scope):
                # a name the function never binds is the module's (Python's scoping): `{**CONFIG, "output_dir": ...}`
                # in a function over a module-level CONFIG dict (round 95m's HarryCUzzz sft_training.py)
                return dict_value(node, t, 1 << 30, depth + 1)
            if not assigns:
                return None
            last = max(assigns, key=lambda a: a.lineno)
            out = dict_value(last.value, scope, last.lineno, depth + 1)
            if not isinstance(out, dict):
                return None
            # `cfg["key"] = value` after it (and before the dump), outside a branch: the dict the script writes
            for a in sorted((a for a in own_nodes(scope) if isinstance(a, ast.Assign) and len(a.targets) == 1
                             and isinstance(a.targets[0], ast.Subscript) and isinstance(a.targets[0].value, ast.Name)
                             and a.targets[0].value.id == node.id and last.lineno < a.lineno < before
                             and not in_branch(a, scope)), key=lambda a: a.lineno):
                key = a.targets[0].slice
                if isinstance(key, ast.Constant) and isinstance(key.value, str):
                    val = literal(a.value)
                    if val is None:
                        out.pop(key.value, None)  # set at run time: unknown, whatever the dict said
                    else:
                        out[key.value] = val
            return out
        return None

    def bound_in(name, scope):
        """Whether a function binds `name` itself (a parameter, an assignment, a loop or `with` target, an import)."""
        a = scope.args
        if name in [x.arg for x in a.posonlyargs + a.args + a.kwonlyargs] + \
                [x.arg for x in (a.vararg, a.kwarg) if x is not None]:
            return True
        return any(isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, (ast.Store, ast.Del)) or
                   isinstance(n, ast.alias) and (n.asname or n.name) == name or
                   isinstance(n, (ast.Global, ast.Nonlocal)) and name in n.names for n in own_nodes(scope))

    def param_texts(name, scope, depth):
        """The texts a function's parameter `name` holds: its default, else what every call of the function gives it
        (by position or keyword), when they all agree."""
        a = scope.args
        params = [x.arg for x in a.args]
        if name not in params:
            return None
        i = params.index(name)
        defaults = dict(zip(params[len(params) - len(a.defaults):], a.defaults))
        if name in defaults:
            return text_value(defaults[name], t, 1 << 30, depth + 1)
        got = set()
        for c in walked(t):
            if isinstance(c, ast.Call) and isinstance(c.func, ast.Name) and c.func.id == scope.name:
                arg = next((k.value for k in c.keywords if k.arg == name), c.args[i] if i < len(c.args) else None)
                if arg is None:
                    return None
                got.add(text_value(arg, scope_of(c), c.lineno, depth + 1))
        return got.pop() if len(got) == 1 and None not in got else None

    def text_value(node, scope, before, depth=0):
        """The text `node` stands for (a config's YAML / JSON / TOML the script holds as a string): a literal, an
        f-string (its run-time parts marked unknown), a name assigned before `before` in `scope` or at module level, a
        parameter's default or the text its callers give it."""
        if depth > 8 or node is None:
            return None
        if isinstance(node, ast.Constant):
            return node.value if isinstance(node.value, str) else None
        if isinstance(node, ast.JoinedStr):
            parts = []
            for v in node.values:
                if isinstance(v, ast.Constant):
                    parts.append(str(v.value))
                else:
                    got = literal(v.value) if v.conversion == -1 and v.format_spec is None else None
                    parts.append(str(got) if got is not None and not isinstance(got, bool) else _UNKNOWN_TEXT)
            return "".join(parts)
        if isinstance(node, ast.Name):
            if scope is not None and not isinstance(scope, ast.Module):
                assigns = [x for x in own_nodes(scope) if isinstance(x, ast.Assign) and len(x.targets) == 1
                           and isinstance(x.targets[0], ast.Name) and x.targets[0].id == node.id and x.lineno < before]
                if assigns:
                    last = max(assigns, key=lambda x: x.lineno)
                    return text_value(last.value, scope, last.lineno, depth + 1)
                if isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef)) and \
                        node.id in [x.arg for x in scope.args.args]:
                    return param_texts(node.id, scope, depth)
            top = [x for x in t.body if isinstance(x, (ast.Assign, ast.AnnAssign)) and any(
                isinstance(g, ast.Name) and g.id == node.id for g in (x.targets if isinstance(x, ast.Assign) else [x.target]))]
            if len(top) == 1 and top[0].value is not None:
                return text_value(top[0].value, t, 1 << 30, depth + 1)
        return None

    def parsed_text(call, scope, before, depth):
        """The dict `yaml.safe_load(TEXT)` (json.loads, toml.loads ...) makes of a text the script holds, its entries
        that an f-string fills at run time left out."""
        text = text_value(call.args[0], scope, before, depth + 1)
        if not isinstance(text, str):
            return None
        from . import load_toml, load_yaml  # (the readers' own loaders: tomli on Python 3.10)
        from ..model import UsageError

        mod = call.func.value.id
        try:
            data = load_yaml("", text) if mod == "yaml" else json.loads(text) if mod == "json" else load_toml("", text)
        except (UsageError, ValueError, TypeError, RecursionError):
            return None  # text the script's own loader would reject, or that only parses once filled in

        def known(v):
            if isinstance(v, dict):
                return {k: known(x) for k, x in v.items() if isinstance(k, str) and _UNKNOWN_TEXT not in k
                        and not (isinstance(x, str) and _UNKNOWN_TEXT in x)}
            if isinstance(v, list):
                return [known(x) for x in v if not (isinstance(x, str) and _UNKNOWN_TEXT in x)]
            return v

        return known(data) if isinstance(data, dict) else None

    def target_of(call):
        """Where the dump goes: the file it is given open (`yaml.safe_dump(cfg, open(P, "w"))`), the file of the `with
        open(P, "w") as fh` around it (P literal or variable), the path of Path(P).write_text(...), or None."""
        stream = call.args[1] if len(call.args) > 1 else next(
            (k.value for k in call.keywords if k.arg in ("stream", "fp", "f")), None)
        if isinstance(stream, ast.Call) and isinstance(stream.func, ast.Name) and stream.func.id == "open" and \
                stream.args:
            return _path_of(stream.args[0])
        p = parents.get(id(call))
        while p is not None and not isinstance(p, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Module)):
            if isinstance(p, ast.Call) and isinstance(p.func, ast.Attribute) and p.func.attr == "write_text":
                return _path_of(p.func.value)
            if isinstance(p, (ast.With, ast.AsyncWith)):
                for item in p.items:
                    e = item.context_expr
                    if isinstance(e, ast.Call) and isinstance(e.func, ast.Name) and e.func.id == "open" and e.args:
                        return _path_of(e.args[0])
                return None
            p = parents.get(id(p))
        return None

    out = []
    for loop in walked(t):
        # a YAML written by hand, one `key: value` line per item of a dict (`for key, value in cfg.items():
        # f.write(f"{key}: {value}\n")` in a `with open(P, "w") as f`: round 95m's HarryCUzzz sft_training.py, "written by
        # hand to avoid a dependency", then `llamafactory-cli train P`): the dict is the file's settings
        written = _lines_written(loop)
        if written is not None:
            data = dict_value(written[0], scope_of(loop), loop.lineno)
            if isinstance(data, dict) and data:
                out.append((target_of(written[1]), data))
    for n in walked(t):
        fname = n.func.id if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) else \
            n.func.attr if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) else None
        if fname in calls and n.args:
            data = dict_value(n.args[0], scope_of(n), n.lineno)
            if isinstance(data, dict) and data:
                out.append((("call", fname), data))
            continue
        if not (isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr in _DUMPS
                and isinstance(n.func.value, ast.Name) and n.func.value.id in _DUMP_MODULES and n.args):
            continue
        scope = scope_of(n)
        data = dict_value(n.args[0], scope, n.lineno)
        if not data and isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef)) and \
                isinstance(n.args[0], ast.Name) and n.args[0].id in [a.arg for a in scope.args.args]:
            # a helper that dumps the dict it is given (round 59: a config generator's
            # `def CleanConfigAndSave(name, filename, config_dict): ... f.write(toml.dumps(config_dict))`, called once for
            # the training config and once for the dataset's): each dict a call of it hands over, as the call gives it
            i = [a.arg for a in scope.args.args].index(n.args[0].id)
            for c in walked(t):
                if isinstance(c, ast.Call) and isinstance(c.func, ast.Name) and c.func.id == scope.name and \
                        i < len(c.args) and not any(k.arg is None for k in c.keywords):
                    given = dict_value(c.args[i], scope_of(c), c.lineno)
                    if isinstance(given, dict) and given:
                        out.append((target_of(n), given))
            continue
        if data:
            target = target_of(n)
            if target is None and n.func.value.id == "json":
                # JSON to a path computed at run time is as often a run's results or metrics as a config (the trainers
                # this stands in for take YAML or TOML): not one dumped_for may fall back on
                continue
            out.append((target, data))
            if isinstance(target, tuple) and target[0] == "var":
                # (round 25: `cfg_path = OUT / "train_lora.yaml"`, `cfg_path.write_text(yaml.safe_dump(cfg))`, then a
                # launch of `str(cfg_path)`, which python_commands spells as the path): the path the variable holds
                lit = literal_path(ast.Name(id=target[1]), consts)
                if isinstance(lit, str):
                    out.append((lit, data))
    return out


def _lines_written(loop):
    """(the dict, the write call) of `for K, V in D.items():` whose body writes each item as a YAML line: `X.write(
    f"{K}: ...")` or `print(f"{K}: ...", file=X)`, the line starting with the key and a colon; None for any other loop."""
    import ast

    if not (isinstance(loop, ast.For) and isinstance(loop.target, ast.Tuple) and len(loop.target.elts) == 2
            and isinstance(loop.target.elts[0], ast.Name) and isinstance(loop.iter, ast.Call)
            and isinstance(loop.iter.func, ast.Attribute) and loop.iter.func.attr == "items" and not loop.iter.args):
        return None
    key = loop.target.elts[0].id

    def key_line(s):
        return isinstance(s, ast.JoinedStr) and len(s.values) > 1 and isinstance(s.values[0], ast.FormattedValue) and \
            isinstance(s.values[0].value, ast.Name) and s.values[0].value.id == key and \
            isinstance(s.values[1], ast.Constant) and str(s.values[1].value).startswith(":")

    for n in ast.walk(loop):
        if isinstance(n, ast.Call) and n.args and key_line(n.args[0]) and (
                isinstance(n.func, ast.Attribute) and n.func.attr == "write" or
                isinstance(n.func, ast.Name) and n.func.id == "print" and any(k.arg == "file" for k in n.keywords)):
            return loop.iter.func.value, n
    return None


def _path_of(node):
    import ast

    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "Path" and node.args:
        return _path_of(node.args[0])
    if isinstance(node, ast.Name):
        return ("var", node.id)
    return None


def dumped_for(dumped: list, path) -> dict | None:
    """The settings of the config a launch line names (`--config_file={config_file}`, `axolotl train $PY_VALUE`) among
    the ones the script writes itself (python_dumped_configs): the one written to that literal path or to the variable
    the line expands (`{name}` as IPython substitutes it, `$name`); for a path the line computes at run time, the
    settings every config the script writes agrees on (a wrapper that writes one config per stage)."""
    if not dumped or not isinstance(path, str):
        return None
    base = path.rsplit("/", 1)[-1]
    for target, data in dumped:
        if isinstance(target, str) and (target == path or target.rsplit("/", 1)[-1] == base):
            return data
    m = re.fullmatch(r"\{([A-Za-z_]\w*)\}(?:\.\w+)?|\$\{?([A-Za-z_]\w*)\}?(?:\.\w+)?", path)
    if m:
        name = m.group(1) or m.group(2)
        for target, data in dumped:
            if target == ("var", name):
                return data
    if "$PY_VALUE" not in path:
        return None
    candidates = [d for tgt, d in dumped if not isinstance(tgt, str)]
    if not candidates:
        return None
    common = dict(candidates[0])
    for d in candidates[1:]:
        common = {k: v for k, v in common.items() if k in d and d[k] == v}
    return common or None


# A shell script that trains in Python written inside it (round 25: a nightly QLoRA pipeline whose training is
# `python3 -c "import torch ... trainer.train() ..."` between its bash steps): the interpreter's `-c CODE` (CODE in
# double quotes, where bash takes `\"`, `\\`, `\$` and `` \` `` as escapes, or in single quotes, taken as written) and
# the here-document it reads as its script (`python - <<'EOF'`, `python3 <<EOF`)
_INLINE_C = re.compile(r"(?:^|[\s;&|(])(?:\S*/)?python(?:3(?:\.\d+)?)?(?:\s+-[uBOsSE]+)*\s+-c\s+([\"'])", re.MULTILINE)
_INLINE_HEREDOC = re.compile(r"^[^\n#]*?(?:^|[\s;&|(])(?:\S*/)?python(?:3(?:\.\d+)?)?(?:\s+-[uBOsSE]+)*(?:\s+-)?\s*"
                             r"<<-?\s*(['\"]?)([A-Za-z_]\w*)\1[^\n]*\n", re.MULTILINE)
# what makes inline code a training run rather than a check or a post-processing step: a trainer's .train() call
_TRAINS = re.compile(r"\.train\s*\(\s*(resume_from_checkpoint\s*=[^)]*)?\)")


def inline_python(text: str) -> str:
    """The Python a shell script runs inline (`python -c CODE`, `python - <<EOF ... EOF`) when that code trains
    (calls a trainer's .train()), joined; "" otherwise. Variables bash would expand in double-quoted code stay as
    written (they sit in string literals: paths, names)."""
    parts = []
    for m in _INLINE_C.finditer(text):
        q, i, buf = m.group(1), m.end(), []
        while i < len(text) and text[i] != q:
            if q == '"' and text[i] == "\\" and i + 1 < len(text) and text[i + 1] in '"\\$`':
                buf.append(text[i + 1])
                i += 2
                continue
            if q == '"' and text[i] == "\\" and i + 1 < len(text) and text[i + 1] == "\n":
                i += 2  # a line continuation inside double quotes: bash drops both
                continue
            buf.append(text[i])
            i += 1
        if i < len(text):  # (an unterminated quote is no code bash would run)
            parts.append("".join(buf))
    for m in _INLINE_HEREDOC.finditer(text):
        end = re.compile(r"^\t*" + re.escape(m.group(2)) + r"\s*$", re.MULTILINE).search(text, m.end())
        if end is not None:
            parts.append(text[m.end():end.start()])
    return "\n".join(p for p in parts if _TRAINS.search(p))
