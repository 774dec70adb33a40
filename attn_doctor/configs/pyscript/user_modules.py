"""Modules of the user's own repository that a script imports: their classes (imported_classes), their dataclasses'
defaults (_imported_dataclasses) and the constants of settings modules imported whole (MODULE_CONSTANTS), read
statically as the script is."""

from __future__ import annotations

import ast
import copy
import os
import sys

from .parsing import _parse
from .nodes import _ENVIRON_GETS, _call_name, _dotted, walked
from .dataclass_args import NESTED, nested_dataclasses
from .argv import _NO_CLI_PACKAGES


# modules no user's repository holds: an installed library's or Python's own (their files are not looked for)
_LIBRARIES = _NO_CLI_PACKAGES | frozenset(sys.stdlib_module_names)


def own_imports(tree) -> list[tuple]:
    """(name, module, level, the dotted modules the statement itself imports, `from` module or None, imported name or
    None) for each name an import statement of the script binds to something of the user's own repository (never an
    installed library's or Python's, _LIBRARIES), in the script's order, as the statement binds it (Python reference,
    "The import statement"): `import a.b.c` binds a (and imports a, a.b, a.b.c); `import a.b as T` binds T to a.b;
    `from a import b` / `from . import b` binds b to a's attribute b, or else to its submodule a.b (which one, the
    caller that has the files decides: configs._module_object_calls)."""
    out = []
    for n in walked(tree):
        if isinstance(n, ast.Import):
            for a in n.names:
                parts = a.name.split(".")
                if parts[0] not in _LIBRARIES:
                    out.append((a.asname or parts[0], a.name if a.asname else parts[0], 0,
                                {".".join(parts[:i + 1]) for i in range(len(parts))}, None, None))
        elif isinstance(n, ast.ImportFrom) and (n.level or (n.module or "").split(".")[0] not in _LIBRARIES):
            for a in n.names:
                sub = ".".join(x for x in (n.module, a.name) if x)
                out.append((a.asname or a.name, sub, n.level, {sub}, n.module, a.name))
    return out


def imported_classes(tree, modules) -> dict:
    """class name (as the script names it) -> (the ClassDef, the module's tree) of each class the script imports by
    name from a module of its own repository (`from src.config import TrainConfig`, `from configs.training_config
    import TrainingConfig as TC`, `from .config import TrainConfig` in a package's module), where `modules(name,
    level)` gives that module's text (configs.script_modules). A class
    the script defines itself is its own; an installed library's or Python's own modules are not looked for."""
    own = {c.name for c in walked(tree) if isinstance(c, ast.ClassDef)}
    out: dict = {}
    for n in walked(tree):
        if not (isinstance(n, ast.ImportFrom) and n.module) or not n.level and n.module.split(".")[0] in _LIBRARIES:
            continue
        names = [(a.name, a.asname or a.name) for a in n.names if a.name != "*" and (a.asname or a.name) not in own]
        defined = _defined(modules, n.module, n.level, [name for name, _ in names], ast.ClassDef) if names else {}
        for name, alias in names:
            if name in defined:
                out[alias] = defined[name]
    return out


def imported_functions(tree, modules) -> dict:
    """function name (as the script names it) -> (the FunctionDef, the module's tree) of each top-level function the
    script imports by name from a module of its own repository (`from training_utils import build_trainer`, `from
    src.training.utils_training import define_training_arguments`), where `modules(name, level)` gives that module's
    text (configs.script_modules); as imported_classes, for functions (cfg78: round 75m's users' TrainingArguments
    built in such helpers); and each function the script calls on a module object of its repository, under the callee
    as it is spelt (`tu.build_args`, cfg94)."""
    own = {f.name for f in walked(tree) if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))}
    out: dict = {}
    for n in walked(tree):
        if not (isinstance(n, ast.ImportFrom) and n.module) or not n.level and n.module.split(".")[0] in _LIBRARIES:
            continue
        names = [(a.name, a.asname or a.name) for a in n.names if a.name != "*" and (a.asname or a.name) not in own]
        defined = _defined(modules, n.module, n.level, [name for name, _ in names],
                           (ast.FunctionDef, ast.AsyncFunctionDef)) if names else {}
        for name, alias in names:
            if name in defined:
                out[alias] = defined[name]
    for spelt, (module, level, name) in (modules.object_calls(tree) if hasattr(modules, "object_calls") else {}).items():
        # `import tu` ... `tu.build_args()`, `import pkg.train as T` ... `T.main()`: the function of that module
        # (configs._module_object_calls), under the callee as the script spells it
        got = _defined(modules, module, level, [name], (ast.FunctionDef, ast.AsyncFunctionDef)).get(name)
        if got is not None:
            out[spelt] = got
    return out


def _defined(modules, module: str, level: int, names: list, kinds) -> dict:
    """name -> (its node of `kinds`, the tree) of each of `names` the module `modules(module, level)` defines at its
    top level, or, for one it does not (a package's __init__.py, a module that re-exports), the module of the user's
    repository that defines it through those re-exports (`modules.definition`: configs.own_definition, cfg90)."""
    src = modules(module, level)
    t = _parse(src) if src else None
    top = {x.name: x for x in (t.body if t is not None else []) if isinstance(x, kinds)}
    out = {}
    for name in names:
        if name in top:
            out[name] = (top[name], t)
            continue
        found = modules.definition(module, level, name) if hasattr(modules, "definition") else None
        there = _parse(found[1]) if found else None
        node = next((x for x in there.body if isinstance(x, kinds) and x.name == name), None) if there else None
        if node is not None:
            out[name] = (node, there)
    return out


def _assignment_counts(t) -> dict:
    """NAME -> how many times the module assigns it anywhere (a name set more than once is decided at run time)."""
    counts: dict = {}
    for n in walked(t):
        if isinstance(n, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            for tg in (n.targets if isinstance(n, ast.Assign) else [n.target]):
                for x in walked(tg):
                    if isinstance(x, ast.Name):
                        counts[x.id] = counts.get(x.id, 0) + 1
    return counts


def _module_literals(t) -> dict:
    """NAME -> literal of a module's own top-level `NAME = literal` assignments (`BF16 = True`, `DTYPE = "bfloat16"`,
    `ATTN = OTHER` of such a name), each name assigned once in the whole module (a name a function or a branch sets
    again is decided at run time). Only literals: a value computed from anything else means nothing in the script's
    own names. A top-level `if` the module settles itself (`ENV = os.environ.get("LORA_ENV", "a800").lower()` then `if
    ENV == "a800": TORCH_DTYPE = "bfloat16" else: TORCH_DTYPE = "float16"`, the variable unset as an argparse default
    is the value with no options: _module_run) runs its taken branch only, the other's assignments never happen."""
    run, dropped = _module_run(t)
    counts = _assignment_counts(t)
    for d in dropped:
        for name, k in _assignment_counts(d).items():
            counts[name] = counts.get(name, 0) - k
    out: dict = {}
    for st in run:
        if isinstance(st, ast.Assign) and len(st.targets) == 1 and isinstance(st.targets[0], ast.Name):
            name, v = st.targets[0].id, st.value
        elif isinstance(st, ast.AnnAssign) and isinstance(st.target, ast.Name) and st.value is not None:
            name, v = st.target.id, st.value
        else:
            continue
        if counts.get(name) != 1:
            continue
        if isinstance(v, ast.Name) and v.id in out:
            v = out[v.id]
        got = _environ_default(v)
        if got is not None:
            v = ast.Constant(value=got)
        if isinstance(v, ast.Constant):
            out[name] = v
    return out


# str methods a settings module applies to an environment variable's value before testing it
_STR_METHODS = {"lower": str.lower, "upper": str.upper, "strip": str.strip, "casefold": str.casefold}


def _environ_default(v) -> str | None:
    """`os.environ.get("X", "a800")` / `os.getenv("X", "a800").lower()`: the default, as the module runs with the
    variable unset (its str methods applied); None for anything else."""
    methods = []
    while isinstance(v, ast.Call) and isinstance(v.func, ast.Attribute) and v.func.attr in _STR_METHODS and \
            not v.args and not v.keywords:
        methods.insert(0, _STR_METHODS[v.func.attr])
        v = v.func.value
    if not (isinstance(v, ast.Call) and _dotted(v) in _ENVIRON_GETS and len(v.args) == 2 and not v.keywords and
            all(isinstance(a, ast.Constant) and isinstance(a.value, str) for a in v.args)):
        return None
    got = v.args[1].value
    for m in methods:
        got = m(got)
    return got


def _module_run(t) -> tuple[list, list]:
    """The top-level statements of a module as it runs, the `if`s it settles itself flattened into their taken branch
    (a test comparing a name assigned once at the top level, a literal or an environment variable's default, with a
    literal: `==`, `!=`, `in`, `not in`), and the branches it does not take."""
    counts = _assignment_counts(t)
    known: dict = {}
    run: list = []
    dropped: list = []

    def test(node):
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            v = test(node.operand)
            return None if v is None else not v
        if not (isinstance(node, ast.Compare) and len(node.ops) == 1):
            return None
        a, b = node.left, node.comparators[0]
        va = known.get(a.id) if isinstance(a, ast.Name) else a.value if isinstance(a, ast.Constant) else None
        try:
            vb = ast.literal_eval(b)
        except (ValueError, TypeError, SyntaxError, RecursionError):
            return None
        if va is None or isinstance(va, bool) != isinstance(vb, bool):
            return None
        op = node.ops[0]
        if isinstance(op, (ast.Eq, ast.NotEq)):
            return (va == vb) == isinstance(op, ast.Eq)
        if isinstance(op, (ast.In, ast.NotIn)) and isinstance(vb, (tuple, list, set, frozenset)):
            return (va in vb) == isinstance(op, ast.In)
        return None

    def walk(body):
        for st in body:
            if isinstance(st, ast.If):
                v = test(st.test)
                if v is None:
                    run.append(st)
                    continue
                dropped.extend(st.orelse if v else st.body)
                walk(st.body if v else st.orelse)
                continue
            run.append(st)
            if isinstance(st, ast.Assign) and len(st.targets) == 1 and isinstance(st.targets[0], ast.Name) and \
                    counts.get(st.targets[0].id) == 1:
                got = _environ_default(st.value)
                if got is None and isinstance(st.value, ast.Constant) and isinstance(st.value.value, (str, int, bool)):
                    got = st.value.value
                if got is not None:
                    known[st.targets[0].id] = got

    walk(t.body)
    return run, [ast.Module(body=[d], type_ignores=[]) for d in dropped]


def _field_literal(v):
    """A class field's default written as a literal: `x: str = "float16"`, pydantic's `Field(default="float16", ...)` /
    `Field("float16", ...)`, dataclasses' `field(default="float16")`; None for anything else (a default_factory, a
    value computed from something)."""
    if isinstance(v, ast.Constant):
        return v
    if isinstance(v, ast.Call) and _call_name(v) in ("Field", "field"):
        got = [k.value for k in v.keywords if k.arg == "default"] or \
            (v.args[:1] if _call_name(v) == "Field" else [])
        if len(got) == 1 and isinstance(got[0], ast.Constant) and got[0].value is not Ellipsis:
            return got[0]
    return None


def _module_instances(t) -> dict:
    """NAME -> {field: literal} for a module's own top-level `NAME = Settings()` (assigned once) of a class the module
    defines with field defaults written as literals (_field_literal; those of a base class the module defines too,
    and the call's own literal keywords over them): round 61m's `settings = FineTuningSettings()` of a pydantic
    BaseSettings that a training module imports (`from icd10_fine_tune.config.settings import settings`) and reads
    as `settings.bnb_4bit_compute_dtype`. The values are the class's defaults, as the run has them with no
    environment variable or .env file of its own setting them (as an argparse default is the value with no options)."""
    classes = {c.name: c for c in t.body if isinstance(c, ast.ClassDef)}
    counts = _assignment_counts(t)

    def fields(c, depth=0) -> dict:
        out: dict = {}
        for b in c.bases:
            if isinstance(b, ast.Name) and b.id in classes and depth < 3:
                out.update(fields(classes[b.id], depth + 1))
        for st in c.body:
            if isinstance(st, ast.AnnAssign) and isinstance(st.target, ast.Name) and st.value is not None:
                name, v = st.target.id, st.value
            elif isinstance(st, ast.Assign) and len(st.targets) == 1 and isinstance(st.targets[0], ast.Name):
                name, v = st.targets[0].id, st.value
            else:
                continue
            lit = _field_literal(v)
            if lit is not None:
                out[name] = lit
            else:
                out.pop(name, None)
        return out

    out: dict = {}
    for st in t.body:
        if not (isinstance(st, ast.Assign) and len(st.targets) == 1 and isinstance(st.targets[0], ast.Name) and
                isinstance(st.value, ast.Call) and isinstance(st.value.func, ast.Name) and
                st.value.func.id in classes and not st.value.args and counts.get(st.targets[0].id) == 1):
            continue
        got = fields(classes[st.value.func.id])
        for k in st.value.keywords:
            if k.arg is None:
                got = {}
                break
            if isinstance(k.value, ast.Constant):
                got[k.arg] = k.value
            else:
                got.pop(k.arg, None)
        if got:
            out[st.targets[0].id] = got
    return out


def _literal_all(t) -> set | None:
    """The names of a module's `__all__ = [...]` written out as string literals, or None (no such `__all__`)."""
    for st in t.body:
        if isinstance(st, ast.Assign) and any(isinstance(x, ast.Name) and x.id == "__all__" for x in st.targets) and \
                isinstance(st.value, (ast.List, ast.Tuple)) and \
                all(isinstance(e, ast.Constant) and isinstance(e.value, str) for e in st.value.elts):
            return {e.value for e in st.value.elts}
    return None


def _imported_module_constants(tree, modules, own: dict) -> tuple[dict, dict]:
    """The literals of the settings modules of the user's own repository the script imports (_module_literals), where
    `modules(name, level)` gives a module's text (configs.script_modules), as Python binds them: (name -> {constant:
    literal} for `import config` / `import settings as cfg`, read as `config.BF16`; name -> literal for `from config
    import BF16` / `from .config import BF16 as USE_BF16`). A name the script assigns itself (`own`) is its own;
    an installed library's or Python's own modules are not looked for."""
    whole: dict = {}
    named: dict = {}
    for n in walked(tree):
        if isinstance(n, ast.Import):
            for a in n.names:
                bound = a.asname or (a.name if "." not in a.name else None)
                if not bound or bound in own or a.name.split(".")[0] in _LIBRARIES:
                    continue
                src = modules(a.name, 0)
                t = _parse(src) if src else None
                lits = _module_literals(t) if t is not None else {}
                if lits:
                    whole[bound] = lits
        elif isinstance(n, ast.ImportFrom) and n.module and (n.level or n.module.split(".")[0] not in _LIBRARIES):
            star = any(a.name == "*" for a in n.names)
            names = [(a.name, a.asname or a.name) for a in n.names if a.name != "*" and (a.asname or a.name) not in own]
            src = modules(n.module, n.level) if names or star else None
            t = _parse(src) if src else None
            lits = _module_literals(t) if t is not None else {}
            if star:
                # `from config import *` binds the module's public names (those of a literal `__all__` where it has one)
                public = _literal_all(t) if t is not None else None
                names += [(k, k) for k in lits if k not in own and (k in public if public is not None
                                                                    else not k.startswith("_"))]
            for name, alias in names:
                if name in lits:
                    named[alias] = lits[name]
                elif t is not None:
                    found = _module_path_constant(modules, n, name)
                    if found is not None:
                        named[alias] = found
            objs = _module_instances(t) if t is not None and names else {}
            for name, alias in names:
                if name in objs:
                    # `from pkg.config.settings import settings`: read as `settings.field`, the class's defaults
                    whole[alias] = objs[name]
    return whole, named


def _module_path_constant(modules, imp: ast.ImportFrom, name: str):
    """`from config.paths import PARAMS_PATH` of `PROJECT_ROOT = Path(__file__).resolve().parent.parent` and
    `PARAMS_PATH = PROJECT_ROOT / "params.yaml"` in config/paths.py: a path the module builds from its own location, as
    the absolute path it names in this checkout (a Constant; `__file__` there is the module's file, not the script's),
    so a loader of the script finds the file (settings_files._loaded_files). None for any other constant, or a module
    whose file modules.definition does not give."""
    from .settings_files import _beside_script

    definition = getattr(modules, "definition", None)
    got = definition(imp.module, imp.level, name) if definition is not None else None
    t = _parse(got[1]) if got else None
    if t is None:
        return None
    top: dict = {}
    for st in t.body:
        if isinstance(st, ast.Assign) and len(st.targets) == 1 and isinstance(st.targets[0], ast.Name):
            top[st.targets[0].id] = st.value if st.targets[0].id not in top else None
        elif isinstance(st, ast.AnnAssign) and isinstance(st.target, ast.Name) and st.value is not None:
            top[st.target.id] = st.value if st.target.id not in top else None

    class _Inline(ast.NodeTransformer):
        def __init__(self):
            self.depth = 0

        def visit_Name(self, node):  # a module-level name bound once: its value, a few levels deep
            if node.id in top and top[node.id] is not None and self.depth < 4:
                self.depth += 1
                return self.visit(copy.deepcopy(top[node.id]))
            return node

    expr = top.get(name)
    if expr is None:
        return None
    rel = _beside_script(_Inline().visit(copy.deepcopy(expr)))
    if rel is None:
        return None
    return ast.Constant(value=os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(got[0])), rel)))


def _imported_dataclasses(tree, modules) -> dict:
    """class name (as the script names it) -> {field: default} of the `@dataclass` classes the script imports from a
    module of its own repository (imported_classes; round 57m: a notebook's `train_cfg = TrainConfig(output_dir=...)`
    then `TrainingArguments(fp16=train_cfg.fp16)`, the field's default being in src/config.py). Only defaults written
    as literals (`fp16: bool = True`, `dtype: str = "bfloat16"`) are kept: a default naming something of that module
    means nothing in the script's own names."""
    out: dict = {}
    for alias, (c, t) in imported_classes(tree, modules).items():
        classes = nested_dataclasses(t)
        if c.name in classes:
            out[alias] = _literal_fields(classes[c.name])
    return out


def _literal_fields(fields: dict, depth: int = 0) -> dict:
    """The fields of an imported dataclass whose defaults are literals, and those that are another dataclass of its
    module built with its defaults (dataclass_args.NESTED: `model: ModelConfig = field(default_factory=ModelConfig)`),
    theirs kept the same way."""
    out = {}
    for k, d in fields.items():
        if isinstance(d, ast.Constant):
            out[k] = d
        elif isinstance(getattr(d, NESTED, None), dict) and depth < 3:
            call = ast.Call(func=d.func, args=[], keywords=[])
            setattr(call, NESTED, _literal_fields(getattr(d, NESTED), depth + 1))
            out[k] = call
    return out
