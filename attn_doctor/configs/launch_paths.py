"""Where a launch's run finds the user's own code and files, as Python and the launcher find them (configs.detect and
the readers ask it; nothing is imported or run):

- the environment a launch gives the script it runs (_launch_environ: the variables its command gets,
  shell.Command.environment; the folders of this checkout it puts on PYTHONPATH, _pythonpath_dirs; accelerate's
  ACCELERATE_MIXED_PRECISION);
- where the script's imports resolve: its folder and the two above it, the package folders a pyproject.toml /
  setup.cfg / setup.py installs from (_module_roots, _package_roots, _package_dirs), a module's file (_module_file,
  _module_text), and the module that defines a name through a package's re-exports (own_definition);
- what pyscript.constants reads of the checkout: the settings files a script opens (script_files), the modules of its
  own repository it imports (script_modules), a Hydra app's config folder and overrides (script_hydra).
"""

from __future__ import annotations

import os
import re

from ..model import UsageError
from ..textutil import walked
from . import _module_object_calls, load_toml, load_yaml, make_doc, read_text, with_accelerate_config


def _launch_environ(doc: dict, script: str) -> dict:
    """The variables the launch file puts in the environment of the command that runs `script`, as the script's
    os.environ.get / os.getenv sees them: exported (`export NAME=v`, `export NAME`, `declare -x`) or assigned in front of
    the command (`NAME=v python train.py`), with a value the file settles (shell.Command.environment). A variable only
    set in the shell is not the script's (its read falls back to its default, as it runs)."""
    from .shell import known

    cmd = next((c for c in [doc.get("command")] + list(doc.get("commands") or []) if c is not None and c.script == script),
               None)
    if cmd is None:
        return {}
    out = {}
    for k, v in cmd.environment().items():
        if isinstance(v, str) and known(v):
            out[k] = v
    roots = _pythonpath_dirs(doc, cmd)
    if roots:
        out["PYTHONPATH"] = os.pathsep.join(roots)  # (folders of this checkout, absolute: _module_roots reads them)
    if cmd.program == "accelerate":
        # `accelerate launch --mixed_precision bf16` (or its --config_file's mixed_precision, when that file is here)
        # puts ACCELERATE_MIXED_PRECISION in the script's environment, over any the shell exports
        # (huggingface/accelerate@e7998c9 src/accelerate/utils/launch.py: prepare_simple_launcher_cmd_env,
        # prepare_multi_gpu_env and prepare_deepspeed_cmd_env each set it from the resolved --mixed_precision):
        # what transformers' TrainingArguments takes when the script sets neither bf16 nor fp16 (hf_transformers.py)
        mp = with_accelerate_config(doc, dict(cmd.launcher_args or {})).get("mixed_precision")
        if isinstance(mp, str) and known(mp) and mp.strip().lower() in ("no", "fp16", "bf16", "fp8"):
            out["ACCELERATE_MIXED_PRECISION"] = mp.strip().lower()
    return out


def _pythonpath_dirs(doc: dict, cmd) -> list:
    """The folders of this checkout the launch puts on the command's PYTHONPATH (`PYTHONPATH=src python train.py`,
    `export PYTHONPATH=$PWD/src:$PYTHONPATH`, `${PYTHONPATH}:$(pwd)/lib`), which Python searches for the script's
    absolute imports and `-m` modules right after the script's own folder (CPython's Modules/getpath.py: PYTHONPATH's
    entries come before the standard library's and site-packages'). The caller's own $PYTHONPATH and any entry the file
    does not settle are left out; a relative entry is taken from the folder the launch runs in: the launcher's folder
    or one of the two above it (a launcher in scripts/ run from the repository root), the first that has it."""
    from .references import launcher_dir, spelt
    from .shell import known

    # (`PYTHONPATH=src` alone, never exported, is the shell's variable, not the program's: shell.Command.environment)
    value = cmd.environment().get("PYTHONPATH") if cmd is not None else None
    if not isinstance(value, str):
        return []
    base = launcher_dir(doc)
    out = []
    for entry in re.split(r"[:;]", value.strip("\"'")):
        entry = spelt(doc, entry.strip()) if entry.strip() else ""
        if not entry or not known(entry) or os.path.isabs(entry):
            continue  # (the caller's $PYTHONPATH, an unsettled entry, a folder of another machine)
        for up in (base, os.path.dirname(base), os.path.dirname(os.path.dirname(base))):
            where = os.path.normpath(os.path.join(up, entry))
            if os.path.isdir(where):
                out += [where] if where not in out else []
                break
    return out


def script_files(doc: dict):
    """path -> the settings (a mapping) of the YAML / JSON / TOML file a Python script of `doc` opens by that path
    (pyscript.constants' `read`), where the script's run finds it (references.locate: beside it, from the repository
    root above it, an absolute path of another machine under the checkout), else None. Nothing is noted as unread:
    the script's settings file is its own business, not an option of the launch."""
    from .references import locate

    def read(path):
        if not isinstance(path, str) or not path or not re.search(r"\.(ya?ml|json|toml)$", path, re.IGNORECASE):
            return None
        where = locate(doc, path)
        if where is None or os.path.abspath(where) == os.path.abspath(doc["path"]):
            return None
        try:
            sub = make_doc(where, read_text(where))
        except UsageError:
            return None
        return sub["data"] if sub["fmt"] in ("yaml", "json", "toml") and isinstance(sub.get("data"), dict) else None

    return read


def script_hydra(doc: dict) -> dict:
    """What the Hydra composition of a script's `@hydra.main` config needs (pyscript.constants' `hydra`): load, a path
    relative to the script's folder (Hydra's config_path is relative to the file declaring the main function) -> (its
    mapping, its `# @package` header) or None when it is not there; overrides, the launch's Hydra overrides
    (doc["hydra_overrides"], _hydra_overrides); environ, the variables the launch exports to the script (its
    `${oc.env:VAR}`); note, which names a file the composition needs that is not here in the reading's unread files
    (cfg87)."""
    from .pyscript.hydra_compose import header_package
    from .references import note_unread

    base = os.path.dirname(os.path.abspath(doc["path"]))

    def load(rel):
        where = os.path.normpath(os.path.join(base, rel))
        if not os.path.isfile(where) or where == os.path.abspath(doc["path"]):
            return None
        try:
            text = read_text(where)
            data = load_yaml(where, text)
        except UsageError:
            return None
        data = {} if data is None else data  # (an empty option file: `model/none.yaml`)
        return (data, header_package(text)) if isinstance(data, dict) else None

    return {"load": load, "overrides": list(doc.get("hydra_overrides") or []), "environ": dict(doc.get("environ") or {}),
            "note": lambda p: note_unread(doc, p)}


def _module_roots(doc: dict) -> list:
    """The folders a Python script of `doc` imports its own absolute modules from (script_modules): its folder (Python
    puts the script's folder first on sys.path) and the two above it (the repository root a script in scripts/ or a
    notebook in notebooks/ is run from); then the package folders the build configuration of any of those names
    (_package_dirs: src/ of a src layout), from which `pip install -e .` makes the packages importable by name."""
    ups = _script_ups(doc)
    # the folders the launch puts on PYTHONPATH (_pythonpath_dirs), searched right after the script's own
    path = [d for d in str((doc.get("environ") or {}).get("PYTHONPATH") or "").split(os.pathsep)
            if os.path.isabs(d) and os.path.isdir(d) and d not in ups]
    ups = ups[:1] + path + ups[1:]
    return ups + [d for d in _package_roots(doc) if d not in ups]


def _script_ups(doc: dict) -> list:
    """The script's folder and the two above it."""
    base = os.path.dirname(os.path.abspath(doc["path"]))
    return [base, os.path.dirname(base), os.path.dirname(os.path.dirname(base))]


def _package_roots(doc: dict) -> list:
    """The package folders the build configuration of the script's folder or one of the two above it names
    (_package_dirs), in that order."""
    return [d for up in _script_ups(doc) for d in _package_dirs(up)]


def _toml_table(data, *keys) -> dict:
    """The table at `keys` of a parsed TOML document, {} where any step is missing or not a table (a user's
    pyproject.toml may hold `packages = {find = "src"}` or `build = "x"`: read as naming nothing, never a crash)."""
    for k in keys:
        data = data.get(k) if isinstance(data, dict) else None
    return data if isinstance(data, dict) else {}


def _toml_list(table: dict, key: str) -> list:
    """table[key] when it is an array, else []."""
    got = table.get(key)
    return got if isinstance(got, list) else []


def _package_dirs(root: str) -> list:
    """The folders under `root` its build configuration installs packages from, as the build backends read it:
    setuptools' `package-dir = {"" = "lib"}` / `[tool.setuptools.packages.find] where` (pyproject.toml), `package_dir
    = =lib` / `[options.packages.find] where` (setup.cfg), `package_dir={"": "lib"}` / `find_packages("lib")`
    (setup.py); Poetry's `packages = [{include = ..., from = "lib"}]`; Hatch's wheel `packages = ["lib/pkg"]`. A
    pyproject.toml that names none (a [project], [build-system] or [tool.poetry] table) has its src/ folder taken, as
    setuptools' automatic discovery (setuptools docs, "Package Discovery": src-layout), Hatch, Poetry and uv_build
    take it. Nothing for a root with no build configuration."""
    import configparser

    found: list = []
    py = os.path.join(root, "pyproject.toml")
    data = None
    if os.path.isfile(py):
        try:
            data = load_toml(py, read_text(py))
        except (OSError, UsageError):
            data = None
    tool = _toml_table(data, "tool")
    st = _toml_table(tool, "setuptools")
    pkg_dir = _toml_table(st, "package-dir")
    found += [pkg_dir[""]] if isinstance(pkg_dir.get(""), str) else []
    where = _toml_table(st, "packages", "find").get("where")
    found += [w for w in (where if isinstance(where, list) else [where]) if isinstance(w, str)]
    poetry = _toml_table(tool, "poetry")
    found += [p["from"] for p in _toml_list(poetry, "packages") if isinstance(p, dict) and isinstance(p.get("from"), str)]
    hatch = _toml_table(tool, "hatch", "build", "targets", "wheel")
    found += [os.path.dirname(p) for p in _toml_list(hatch, "packages") if isinstance(p, str) and "/" in p]
    cfg = os.path.join(root, "setup.cfg")
    if os.path.isfile(cfg):
        parser = configparser.ConfigParser()
        try:
            parser.read_string(read_text(cfg))
        except (OSError, UsageError, configparser.Error):
            parser = None
        if parser is not None:
            for line in parser.get("options", "package_dir", fallback="").splitlines():
                k, eq, v = line.partition("=")
                found += [v.strip()] if eq and not k.strip() and v.strip() else []
            found += [parser.get("options.packages.find", "where", fallback="").strip()]
    setup = os.path.join(root, "setup.py")
    if os.path.isfile(setup):
        text = _module_text(setup) or ""
        found += re.findall(r"""package_dir\s*=\s*\{\s*(?:''|"")\s*:\s*['"]([^'"]+)['"]""", text)
        found += re.findall(r"""find_(?:namespace_)?packages\(\s*(?:where\s*=\s*)?['"]([^'"]+)['"]""", text)
    if not found and isinstance(data, dict) and ("project" in data or "build-system" in data or poetry):
        found = ["src"]
    out = []
    for d in found:
        where = os.path.normpath(os.path.join(root, d.strip().strip("/")))
        if d.strip() not in ("", ".") and os.path.isdir(where) and where not in out:
            out.append(where)
    return out


def _module_file(doc: dict, module, level: int = 0, importer: str | None = None, package: bool = False) -> str | None:
    """The file of the user's checkout `from MODULE import ...` (level: its dots) in `importer` (a module's path; the
    script itself when None) imports: MODULE/as/path.py under one of _module_roots, or for a relative import under
    the importer's folder that many levels up; with package, a package's MODULE/as/path/__init__.py first, as Python's
    path finder looks (CPython 3.11 Lib/importlib/_bootstrap_external.py:1625-1637, FileFinder.find_spec: the directory
    with an __init__ file before the module file). The script's own file is never its module; None when no such file
    is here (a module of an installed library is never looked for by its caller: _LIBRARIES)."""
    if not isinstance(module, str) or not re.fullmatch(r"\w+(\.\w+)*", module) or not 0 <= level <= 3:
        return None
    me = os.path.abspath(doc["path"])
    rel = os.path.join(*module.split("."))
    if level:
        up = os.path.dirname(os.path.abspath(importer or doc["path"]))
        for _ in range(level - 1):
            up = os.path.dirname(up)
        ups = [up]
    else:
        ups = _module_roots(doc)  # (build configurations read only for an absolute import)
    for up in ups:
        for cand in ((os.path.join(rel, "__init__.py"),) if package else ()) + (rel + ".py",):
            where = os.path.join(up, cand)
            if os.path.isfile(where) and os.path.abspath(where) != me:
                return where
    return None


def _module_text(where: str | None) -> str | None:
    try:
        return read_text(where) if where else None
    except (OSError, UsageError):
        return None


def script_modules(doc: dict):
    """(module name, import level) -> the text of the module `from MODULE import ...` of a Python script of `doc`
    names, where the script's run imports it from (pyscript.constants' `modules`): MODULE/as/path.py in the script's
    folder or in one of the two above it (_module_roots); for a relative import (`from .config import X`, level 1;
    `from ..config import X`, level 2) in the package folder that many levels up from the script alone. Else None:
    a module of the user's own repository, never one of an installed library, which is not here. Its `definition(module,
    level, name)` follows a name through the package's re-exports to the module that defines it (own_definition)."""

    def source(module, level=0):
        return _module_text(_module_file(doc, module, level))

    source.definition = lambda module, level, name: own_definition(doc, module, level, name)
    # (the functions a script calls on module objects of the checkout: `import tu` ... `tu.build_args()`)
    source.object_calls = lambda t: _module_object_calls(doc, t, written=True)
    return source


# how many modules deep a name imported from the user's own package is followed through re-exports (`from pkg import
# f`, pkg/__init__.py `from .sub import f`, ...): Python's own chain has no bound, a static reading keeps one
_REEXPORT_HOPS = 4


def own_definition(doc: dict, module, level: int, name: str) -> tuple | None:
    """(path, text) of the module of the user's checkout that defines NAME (a top-level def, class or assignment) which
    `from MODULE import NAME` (level: its dots) in a Python script of `doc` binds, following the package's re-exports
    as Python binds them (cfg90: tall-e/finetuning's scripts/train_hydra.py, `from src.trainers import run_training`,
    src/trainers/__init__.py `from .sft import run_training`): an `__init__.py` or module that imports the name
    (relative or absolute, `as` renamed) or `import *`s it (the module's `__all__` lists it, or with no `__all__` the
    name is public) from another module of the checkout, _REEXPORT_HOPS re-exports deep at most; the last binding of the
    name in the module's top level (or its `try:` body) is the one that counts. None when the chain reaches a module
    of an installed library (_LIBRARIES: its object is no code of the user's) or a file that is not here."""
    import ast

    from .pyscript import _LIBRARIES, tree

    def exported(t, name) -> bool:
        names = None
        for st in t.body:
            if isinstance(st, (ast.Assign, ast.AnnAssign, ast.AugAssign)) and any(
                    isinstance(x, ast.Name) and x.id == "__all__" for x in
                    (st.targets if isinstance(st, ast.Assign) else [st.target])) and \
                    isinstance(st.value, (ast.List, ast.Tuple)):
                got = [e.value for e in st.value.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)]
                names = (names or []) + got if isinstance(st, ast.AugAssign) else got
        return name in names if names is not None else not name.startswith("_")

    def bound(st, name):
        """what a top-level statement binds NAME to: "here" (defined), ("from", module, level, name, star) or None"""
        if isinstance(st, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and st.name == name:
            return "here"
        if isinstance(st, (ast.Assign, ast.AnnAssign)) and any(
                isinstance(x, ast.Name) and x.id == name for tg in (st.targets if isinstance(st, ast.Assign)
                                                                    else [st.target]) for x in walked(tg)):
            return "here"
        if isinstance(st, ast.ImportFrom) and st.module:
            for a in st.names:
                if a.name == "*":
                    return ("from", st.module, st.level, name, True)
                if (a.asname or a.name) == name:
                    return ("from", st.module, st.level, a.name, False)
        return None

    def find(module, level, name, importer, hops, seen, star):
        if hops < 0 or not level and module.split(".")[0] in _LIBRARIES:
            return None
        where = _module_file(doc, module, level, importer, package=True)
        if where is None or (where, name) in seen:
            return None
        seen.add((where, name))
        text = _module_text(where)
        t = tree(text or "")
        if t is None or star and not exported(t, name):
            return None
        body = [x for st in t.body for x in (st.body if isinstance(st, ast.Try) else [st])]
        for st in reversed(body):
            got = bound(st, name)
            if got == "here":
                return where, text
            if got is not None:
                found = find(got[1], got[2], got[3], where, hops - 1, seen, got[4])
                if found is not None or not got[4]:
                    return found
        return None

    return find(module, level, name, None, _REEXPORT_HOPS, set(), False)
