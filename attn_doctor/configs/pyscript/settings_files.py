"""Settings files a script loads into a name (`config = yaml.safe_load(f)` of `open("configs/x.yaml")`,
`cfg = load_config(path)`): where the file is (_loaded_path, paths beside the script) and its contents as a literal
(_loaded_files, _literal)."""

from __future__ import annotations

import ast
import re

from .nodes import ARGPARSE, AT_LAUNCH, PASSED, RUNTIME, _dotted, kept, resolve, walked
from .argv import _add_arguments, _parsed_args
from .values import value
from .call_keywords import LOADED, wrapped_arg
from .hydra_compose import UNSEEN
from .user_modules import imported_classes, imported_functions


# the calls that parse a settings file's text or stream into Python values (yaml.safe_load(f), json.load(f),
# tomllib.load(f)); toml.load / OmegaConf.load take the path itself
_PARSES = {"yaml.safe_load", "yaml.load", "yaml.full_load", "yaml.unsafe_load", "json.load", "json.loads",
           "tomllib.load", "tomllib.loads", "tomli.load", "tomli.loads", "toml.loads"}
_PATH_PARSES = {"toml.load", "OmegaConf.load"}


def _loaded_files(tree, consts: dict, read, modules=None) -> dict:
    """name -> the contents, as a Python literal, of the settings file the script loads into that name when the file
    is here: `with open(P) as f: config = yaml.safe_load(f)` (isalnikow86/Lami-LoRA, round 51's insublee/llm_env), `cfg
    = yaml.safe_load(Path(P).read_text())`, or `cfg = load_config(Path(P))` of a function of the script's own that returns
    such a load of its parameter (round 49m's takahashiJe: `load_config(Path(config_path))`, config_path its caller's
    `args.config`, argparse default configs/train_lora.yaml). P is what the script runs with (a constant, an argparse
    default, a parameter's default or the one value its callers pass); a file that is not here leaves the name unknown,
    as before. Names bound more than once are left alone (which binding a use sees is not modelled), except a loader's
    own local that it only returns (`def load_config(p): with open(p) as f: config = yaml.safe_load(f)` / `return
    config`, then `config = load_config(args.config)`: round 82m's KoaChang train_sft.py, cfg85), which no other code
    sees."""
    funcs = {f.name: f for f in walked(tree) if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))}
    returned = {id(a) for f in funcs.values() for a in _returned_local(f)}
    counts: dict = {}
    for n in walked(tree):
        if isinstance(n, ast.Assign) and id(n) not in returned:
            for t in n.targets:
                if isinstance(t, ast.Name):
                    counts[t.id] = counts.get(t.id, 0) + 1
    wraps = _self_wraps(tree)
    # the script's own classes, and those it imports from its repository's modules (user_modules.imported_classes);
    # its functions and those it imports, each with the classes of its module (a factory of a loader class)
    classes = {c.name: c for c in walked(tree) if isinstance(c, ast.ClassDef)}
    factories = {name: (f, classes) for name, f in funcs.items()}
    if modules is not None:
        classes.update({alias: c for alias, (c, _t) in imported_classes(tree, modules).items()})
        factories.update({alias: (f, {c.name: c for c in walked(t) if isinstance(c, ast.ClassDef)})
                          for alias, (f, t) in imported_functions(tree, modules).items()})
    out = {}
    # a parameter every call hands the same load (`train(load_config(args.config))`: script_constants._passed_arguments)
    # is bound to it as an assignment would be, in the scope of the call
    passed = [ast.Assign(targets=[ast.Name(id=name, ctx=ast.Store())], value=arg, lineno=call.lineno)
              for name, (arg, call) in consts.get(PASSED, {}).items() if isinstance(arg, ast.Call) and name not in counts]
    for n in [*walked(tree), *passed]:
        if not (isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name)) or \
                counts.get(n.targets[0].id, 1) != 1 + (n.targets[0].id in wraps) or not isinstance(n.value, ast.Call):
            continue
        if id(n) in returned:
            continue  # (the loader's local: its caller's binding is the one the script reads)
        if n.targets[0].id in wraps and (wraps[n.targets[0].id] is n or wraps[n.targets[0].id].lineno < n.lineno):
            continue  # (the wrapping comes after the load)
        scope = _enclosing_function(tree, n)
        path = _loaded_path(tree, n.value, scope, consts, funcs)
        outer = None
        if path is None:
            # `cfg = EasyDict(yaml.safe_load(f))`, `cfg = RunConfig(**load_json(P))`: an object built from the load alone
            inner = wrapped_arg(n.value)
            if isinstance(inner, ast.Call):
                path = _loaded_path(tree, inner, scope, consts, funcs)
                outer = n
        loader, called = None, n.value.func.id if isinstance(n.value.func, ast.Name) else None
        if path is None and (called in classes or called in factories):
            # `cfg = ConfigLoader("config.yaml")` of a loader class of the script's own: the file its __init__ parses;
            # `cfg = load_config("config.yaml")` of a function returning such an instance of its parameter
            loader = _loader_class(classes[called], tree) if called in classes else _factory_loader(*factories[called])
            if loader is not None and not loader[3]:
                # its mapping parsed from a download or an environment variable: nothing in it is known here, and a
                # getter's default is not the run's (an opened mapping, call_keywords.unseen_lookup)
                out[n.targets[0].id] = _instance(_marked(ast.Dict(keys=[None], values=[RUNTIME])), loader, tree,
                                                 n.targets[0].id)
                continue
            arg = _passed(loader[0], n.value, skip=called in classes) if loader is not None else None
            path = _path_value(tree, arg, scope, consts) if arg is not None else None
        if path is None:
            named = _named_at_launch(tree, n.value, scope, consts, funcs) or \
                _named_at_launch(tree, wrapped_arg(n.value), scope, consts, funcs)
            if named is not None and _read_by_key(tree, n.targets[0].id) and \
                    named not in out.setdefault(AT_LAUNCH, []):
                out[AT_LAUNCH].append(named)
            continue
        data = read(path)
        if isinstance(data, dict):
            lit = _marked(_literal(data))
            w = wraps.get(n.targets[0].id) or outer
            if w is not None:
                # `model_config = load_json(P)` then `model_config = ReCMLLMConfig(**model_config)` (round 75m's
                # 1azybug train.py): the name holds the object built from the file, its attributes the file's keys
                lit = ast.Call(func=w.value.func, args=[lit] if w.value.args else [],
                               keywords=[] if w.value.args else [ast.keyword(arg=None, value=lit)])
            if loader is not None:
                lit = _instance(lit, loader, tree, n.targets[0].id)
            out[n.targets[0].id] = lit
    return out


def _named_at_launch(tree, call, scope, consts: dict, funcs: dict) -> str | None:
    """How the command line names the file `call` loads when nothing else does: `--config` of an argparse option with
    no default (required, or None when not given: `open(args.config)` then fails), `sys.argv[1]` read by position
    (kept by pyscript.constants only where no launch's words are read); None for any other path (a constant, a default, a
    file the script picks itself), which is the script's own and not a launch's to give."""
    if not isinstance(call, ast.Call):
        return None
    name = _dotted(call)
    if name in _PATH_PARSES and call.args:
        node = call.args[0]
    elif name in _PARSES and call.args:
        node = _source_of(call.args[0], scope, tree)
    elif isinstance(call.func, ast.Name) and call.func.id in funcs and call.args and \
            _loads_its_parameter(funcs[call.func.id], tree):
        node = call.args[0]  # (`load_config(args.config)`: the loader's parameter, as _loaded_path reads it)
    else:
        return None
    node = _local_value(_unwrap_path(node), scope) if node is not None else None
    node = _unwrap_path(node) if node is not None else None
    if isinstance(node, ast.Attribute) and _parsed_args(node.value, consts):
        decl = [(names, kw) for names, dest, kw in _add_arguments(tree) if dest == node.attr]
        given = consts.get(ARGPARSE, {}).get(node.attr)
        if len(decl) == 1 and (given is None or isinstance(given, ast.Constant) and given.value is None):
            names = decl[0][0]
            return next((x for x in names if x.startswith("--")), names[0] if names else node.attr)
        return None
    if isinstance(node, ast.Subscript) and ast.unparse(node.value) in ("sys.argv", "argv") and \
            isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, int):
        return ast.unparse(node)
    return None


def _loads_its_parameter(f, tree) -> bool:
    """`def load_config(path): with open(path) as fh: return yaml.safe_load(fh)`: f returns a parse of the file its
    first parameter names (the loader _loaded_path follows)."""
    params = f.args.posonlyargs + f.args.args
    rets = [r.value for r in walked(f) if isinstance(r, ast.Return) and r.value is not None]
    if not params or len(rets) != 1:
        return False
    ret = _local_value(rets[0], f)
    if not isinstance(ret, ast.Call) or _dotted(ret) not in _PARSES | _PATH_PARSES or not ret.args:
        return False
    src = ret.args[0] if _dotted(ret) in _PATH_PARSES else _source_of(ret.args[0], f, tree)
    src = _unwrap_path(src) if src is not None else None
    return isinstance(src, ast.Name) and src.id == params[0].arg


def _read_by_key(scope, name: str) -> bool:
    """The loaded value is read as settings, by key, somewhere in the script (a parameter it is handed is read in its
    function): `cfg["model"]`, `cfg.get("lr")`, `cfg["training"]["bf16"]` (a file of records, a dataset, is iterated
    or handed on whole instead)."""
    for x in walked(scope):
        if isinstance(x, ast.Subscript) and isinstance(x.value, ast.Name) and x.value.id == name and \
                isinstance(x.slice, ast.Constant) and isinstance(x.slice.value, str):
            return True
        if isinstance(x, ast.Call) and isinstance(x.func, ast.Attribute) and x.func.attr == "get" and \
                isinstance(x.func.value, ast.Name) and x.func.value.id == name and x.args and \
                isinstance(x.args[0], ast.Constant) and isinstance(x.args[0].value, str):
            return True
    return False


def _returned_local(f) -> list:
    """The one assignment `NAME = ...` of function `f` whose NAME is used nowhere in f but in its one `return NAME`
    ([] for any other function): a local the function hands its caller and nothing else reads."""
    rets = [r for r in walked(f) if isinstance(r, ast.Return)]
    if len(rets) != 1 or not isinstance(rets[0].value, ast.Name):
        return []
    name = rets[0].value.id
    binds = [a for a in walked(f) if isinstance(a, ast.Assign) and len(a.targets) == 1
             and isinstance(a.targets[0], ast.Name) and a.targets[0].id == name]
    uses = [x for x in walked(f) if isinstance(x, ast.Name) and x.id == name]
    return binds if len(binds) == 1 and len(uses) == 2 else []


def hydra_entries(tree, consts: dict) -> list[tuple[str, str]]:
    """(first parameter, primary config path relative to the script) of each Hydra entry point of the script: a
    function decorated `@hydra.main(config_path=P, config_name=N)` (or `@main(...)` of `from hydra import main`, which
    names config_name too) is handed P/N.yaml (facebookresearch/hydra hydra/main.py)."""
    out = []
    for f in walked(tree):
        if not isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef)) or not (f.args.posonlyargs + f.args.args):
            continue
        for d in f.decorator_list:
            if not (isinstance(d, ast.Call) and (ast.unparse(d.func) == "hydra.main" or ast.unparse(d.func) == "main"
                                                 and any(k.arg == "config_name" for k in d.keywords))):
                continue
            kw = {k.arg: value(k.value, consts) for k in d.keywords if k.arg}
            where, name = kw.get("config_path"), kw.get("config_name")
            if not isinstance(name, str) or name == "?" or where is not None and not isinstance(where, str):
                continue
            out.append(((f.args.posonlyargs + f.args.args)[0].arg,
                        "/".join(x.strip("/") for x in (where or ".", name if name.endswith((".yaml", ".yml")) else
                                                         name + ".yaml") if x and x != ".")))
    return out


def _hydra_configs(tree, consts: dict, read, hydra: dict | None = None) -> dict:
    """name -> the contents (marked LOADED) of the config a Hydra entry point is handed (hydra_entries), when its
    primary YAML is here; its DictConfig's keys read as attributes (`TrainingArguments(**cfg.training)`). hydra
    (configs.script_hydra): the config folder's files, the launch's overrides and where to note the files the
    composition needs that are not here; with it the config is Hydra's composition (hydra_composed: the defaults list's
    group files, the overrides winning; cfg87), without it the primary file's own keys (cfg83)."""
    out = {}
    for param, path in hydra_entries(tree, consts) if read is not None else ():
        data = hydra_composed(path, hydra) if hydra is not None else None
        if data is None:
            data = read(path)
            data = {k: v for k, v in data.items() if k != "defaults"} if isinstance(data, dict) else None
        if isinstance(data, dict):
            out[param] = _marked(_literal(data))
    return out


def hydra_composed(path: str, hydra: dict, overrides=None) -> dict | None:
    """The config Hydra hands the app whose primary config is `path` (relative to the script, as hydra_entries gives
    it), composed with the launch's overrides (hydra["overrides"], or `overrides`), each file it needs that is not here
    noted (hydra["note"], as the script would find it: conf/model/llama.yaml) and everything it could set unknown;
    `${oc.env:VAR}` read from the variables the launch exports to the app (hydra["environ"]). None when the primary
    config is not here. Raises hydra_compose.Refused for overrides Hydra refuses."""
    from .hydra_compose import compose, config_flags

    folder, _, name = path.rpartition("/")
    # the launch's `--config-name X` replaces the decorator's config_name (cfg88: leo-liuzy/CodeUpdateArena's ft_u.sh),
    # `--config-path P` its config_path (relative to the script, as the decorator's), `--config-dir D` adds a folder
    # searched after it (the launch makes D absolute from where it runs: configs._hydra_words)
    chosen, config_path, config_dir, words = config_flags(
        list(hydra.get("overrides") or [] if overrides is None else overrides))
    folder = config_path.rstrip("/") if config_path is not None else folder
    folders = [folder] + ([config_dir.rstrip("/")] if config_dir else [])

    def load(rel):
        # the first folder of the search path that holds the file (Hydra: "The first matching config in the search
        # path is used", hydra.cc "Config Search Path")
        return next((got for got in (hydra["load"]("/".join(x for x in (f, rel) if x)) for f in folders)
                     if got is not None), None)

    name = chosen or name
    primary = name[:-5] if name.endswith(".yaml") else name[:-4] if name.endswith(".yml") else name
    if load(primary + ".yaml") is None:
        return None
    data, missing = compose(load, primary, words, environ=hydra.get("environ"))
    for m in missing:
        hydra["note"]("/".join(x for x in (folder, m) if x))
    return data


def _self_wraps(tree) -> dict:
    """NAME -> the one assignment `NAME = Cls(**NAME)` / `NAME = EasyDict(NAME)` of the script: an object built from
    the dict the name held (its attributes that dict's keys: call_keywords._attr_source)."""
    out: dict = {}
    for n in walked(tree):
        if not (isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name)
                and isinstance(n.value, ast.Call)):
            continue
        name, c = n.targets[0].id, n.value
        inner = c.args[0] if len(c.args) == 1 and not c.keywords else wrapped_arg(c)  # (any class built from the name)
        if isinstance(inner, ast.Name) and inner.id == name:
            out[name] = None if name in out else n
    return {k: v for k, v in out.items() if v is not None}


def _self_attr(node) -> str | None:
    """X of `self.X`, else None."""
    ok = isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self"
    return node.attr if ok else None


def _placeholder(node) -> bool:
    """`{}`, `dict()`, None: what __init__ puts in an attribute before its loading method fills it."""
    return isinstance(node, ast.Dict) and not node.keys or isinstance(node, ast.Constant) and node.value is None or \
        isinstance(node, ast.Call) and _dotted(node) == "dict" and not node.args and not node.keywords


def _loader_class(cls, tree):
    """(__init__, the attribute, whether the class's getter hands that attribute's keys on, whether the mapping is the
    file its parameter names) of a settings loader class
    of the script's own: `def __init__(self, config_path): self.config = yaml.safe_load(open(config_path))`, or a
    method __init__ calls (`self._load_yaml()`) parsing `self.config_path`, which __init__ set from that parameter
    (`self.config_path = Path(config_path)`) — round 75m's longhoag ConfigLoader. The getter delegates when it is
    `def get(self, key, default=None): return self.config.get(key, default)` (or `self.config[key]`, `__getitem__`).
    A parse of anything else (a download's or an environment variable's text) is a loader whose mapping only the run
    knows. None for any other class: an attribute bound twice (an empty placeholder aside: _placeholder), two parses."""
    methods = {f.name: f for f in cls.body if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))}
    init = methods.get("__init__")
    params = (init.args.posonlyargs + init.args.args)[1:] if init is not None else []
    if not params:
        return None
    param = params[0].arg
    held = {_self_attr(a.targets[0]) for a in walked(init) if isinstance(a, ast.Assign) and len(a.targets) == 1
            and isinstance(_unwrap_path(a.value), ast.Name) and _unwrap_path(a.value).id == param} - {None}
    called = {_self_attr(c.func) for c in walked(init) if isinstance(c, ast.Call)}
    bound: dict = {}
    for m in methods.values():
        for a in walked(m):
            if isinstance(a, ast.Assign) and len(a.targets) == 1 and _self_attr(a.targets[0]) and \
                    not _placeholder(a.value):
                bound.setdefault(_self_attr(a.targets[0]), []).append((m, a.value))
    loads = []
    for attr, binds in bound.items():
        if len(binds) != 1 or binds[0][0] is not init and binds[0][0].name not in called:
            continue
        m, v = binds[0]
        v = v.values[0] if isinstance(v, ast.BoolOp) and isinstance(v.op, ast.Or) else v  # (`yaml.safe_load(f) or {}`)
        if not (isinstance(v, ast.Call) and _dotted(v) in _PARSES | _PATH_PARSES and v.args):
            continue
        src = v.args[0] if _dotted(v) in _PATH_PARSES else _source_of(v.args[0], m, tree)
        src = _unwrap_path(src) if src is not None else None
        # (a parse of anything else: a download's or an environment variable's text, known only at run time)
        loads.append((attr, m is init and isinstance(src, ast.Name) and src.id == param or _self_attr(src) in held))
    if len(loads) != 1:
        return None
    (attr, from_file), = loads
    getter = methods.get("get") or methods.get("__getitem__")
    key = (getter.args.posonlyargs + getter.args.args)[1:2] if getter is not None else []
    rets = [r.value for r in walked(getter) if isinstance(r, ast.Return)] if key else []
    ret = rets[0] if len(rets) == 1 else None
    first = ret.args[0] if isinstance(ret, ast.Call) and isinstance(ret.func, ast.Attribute) and \
        ret.func.attr == "get" and ret.args else ret.slice if isinstance(ret, ast.Subscript) else None
    on = ret.func.value if isinstance(ret, ast.Call) and first is not None else getattr(ret, "value", None)
    delegates = isinstance(first, ast.Name) and first.id == key[0].arg and _self_attr(on) == attr
    return init, attr, delegates, from_file


def _factory_loader(f, classes: dict):
    """_loader_class's answer, with f for its __init__, for `def load_config(config_path, use_ssm=True): return
    ConfigLoader(config_path, use_ssm=use_ssm)` (round 75m's longhoag src/utils/config.py): a function whose one return
    is a loader class of its module built from its first parameter; None otherwise."""
    rets = [r.value for r in walked(f) if isinstance(r, ast.Return)]
    params = f.args.posonlyargs + f.args.args
    ret = rets[0] if len(rets) == 1 else None
    cls = classes.get(ret.func.id) if isinstance(ret, ast.Call) and isinstance(ret.func, ast.Name) else None
    loader = _loader_class(cls, None) if cls is not None and params else None
    handed = _passed(loader[0], ret, skip=1) if loader is not None else None
    if loader is None or loader[3] and not (isinstance(handed, ast.Name) and handed.id == params[0].arg):
        return None
    return (f, *loader[1:])


def _instance(lit, loader, tree, name: str):
    """What `name = Loader(P)` holds for a loader class (_loader_class) whose file is here: its attribute is the file's
    mapping (`cfg.config["fp16"]`); `cfg.get("fp16")` / `cfg["fp16"]` read the file's keys where the class's getter
    hands them on, and otherwise read nothing known (a mapping a `**` of RUNTIME opens: call_keywords' unseen lookups,
    so a getter's default is not taken for the run's value)."""
    _init, attr, delegates, _from_file = loader
    reads_attr = any(isinstance(x, ast.Attribute) and x.attr == attr and isinstance(x.value, ast.Name)
                     and x.value.id == name for x in walked(tree))
    if delegates and not reads_attr:
        return lit
    obj = ast.Dict(keys=([] if delegates else [None]) + [ast.Constant(value=attr)] + (lit.keys if delegates else []),
                   values=([] if delegates else [RUNTIME]) + [lit] + (lit.values if delegates else []))
    setattr(obj, LOADED, True)
    return obj


def _marked(lit):
    """The literal of a loaded settings file, each dict in it marked LOADED (its keys read as attributes too:
    call_keywords._attr_source)."""
    for d in walked(lit):
        if isinstance(d, ast.Dict):
            setattr(d, LOADED, True)
    return lit


def _functions(tree) -> list:
    """The function definitions of `tree`, in ast.walk's order, found once per tree and kept on it (kept):
    _enclosing_function is asked once per assignment and call, and a walk of the whole tree each time made a long
    script's reading quadratic (2.8 s for a 600-line one)."""
    return kept(tree, "_attn_doctor_functions",
                lambda: [f for f in walked(tree) if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))])


def _enclosing_function(tree, node):
    """The innermost function whose body holds `node`, or None (the module level)."""
    best = None
    for f in _functions(tree):
        if f.lineno <= node.lineno <= getattr(f, "end_lineno", f.lineno) and (best is None or f.lineno >= best.lineno):
            best = f
    return best


def _loaded_path(tree, call, scope, consts: dict, funcs: dict, depth: int = 0):
    """The path (a string) of the file `call` parses, or None: a parse of a stream or text read from a path, or a call
    of the script's own function that returns such a parse of its first parameter."""
    name = _dotted(call)
    if name in _PATH_PARSES and call.args:
        return _path_value(tree, call.args[0], scope, consts)
    if name in _PARSES and call.args:
        src = _source_of(call.args[0], scope, tree)
        return _path_value(tree, src, scope, consts) if src is not None else None
    f = funcs.get(name) if isinstance(call.func, ast.Name) else None
    if f is None or depth or not _loads_its_parameter(f, tree):
        return None  # (a file the function picks itself, or one built from its parameter: not followed)
    arg = _passed(f, call)
    return _path_value(tree, arg, scope, consts) if arg is not None else None


def _passed(f, call, skip: int = 0):
    """The node `call` gives f's first parameter after `skip` (1: a method's self): its first positional argument, the
    keyword of that name, or the parameter's default — `config = load_config()` of `def load_config(config_path=
    "config/training_config.yaml")` (cfg67: round 64m's Joshua-Peter7 finetune_phi4.py); None where there is none."""
    positional = f.args.posonlyargs + f.args.args
    if len(positional) <= skip:
        return None
    param = positional[skip].arg
    arg = call.args[0] if call.args else next((k.value for k in call.keywords if k.arg == param), None)
    if arg is None:
        defaults = dict(zip([a.arg for a in positional[len(positional) - len(f.args.defaults):]], f.args.defaults))
        arg = defaults.get(param)
    return arg


def _local_value(node, scope):
    """`node`, or the value of the one `name = value` a Name has in `scope` (a function body)."""
    if isinstance(node, ast.Name) and scope is not None:
        got = [a.value for a in walked(scope) if isinstance(a, ast.Assign) and len(a.targets) == 1
               and isinstance(a.targets[0], ast.Name) and a.targets[0].id == node.id]
        if len(got) == 1:
            return got[0]
    return node


def _source_of(arg, scope, tree):
    """The path node a parse's argument reads from: `f` of `with open(P) as f`, `open(P)`, `open(P).read()`,
    `P.read_text()`, `Path(P).open()`; None for anything else."""
    arg = _local_value(arg, scope)
    if isinstance(arg, ast.Name):
        # the one `with open(P) as NAME` of the function (or of the module's own statements) that binds it
        opened = [item.context_expr for w in walked(scope if scope is not None else tree)
                  if isinstance(w, (ast.With, ast.AsyncWith)) and (scope is not None or _enclosing_function(tree, w) is None)
                  for item in w.items if isinstance(item.optional_vars, ast.Name) and item.optional_vars.id == arg.id]
        return _opened(opened[0]) if len(opened) == 1 else None
    if isinstance(arg, ast.Call) and isinstance(arg.func, ast.Attribute) and arg.func.attr in ("read", "read_text"):
        return _opened(arg.func.value) if arg.func.attr == "read" else arg.func.value
    return _opened(arg)


def _opened(node):
    """P of `open(P, ...)` / `P.open(...)` / `Path(P).open()`, else None."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "open" and node.args:
        return node.args[0]
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "open":
        return node.func.value
    return None


def _unwrap_path(node):
    """P of `Path(P)` / `pathlib.Path(P)` / `str(P)`, else the node."""
    while isinstance(node, ast.Call) and _dotted(node) in ("Path", "pathlib.Path", "str") and len(node.args) == 1:
        node = node.args[0]
    return node


def _path_value(tree, node, scope, consts: dict):
    """The string a path node holds when the script runs as it is, or None: a constant, an argparse default, or a
    parameter of the enclosing function, by its default or the one value every call in the script passes it."""
    node = _unwrap_path(node)
    if isinstance(node, ast.Name) and scope is not None and \
            node.id in [a.arg for a in scope.args.posonlyargs + scope.args.args + scope.args.kwonlyargs]:
        got = _parameter_value(tree, scope, node.id, consts)
        return got if isinstance(got, str) else None
    if isinstance(node, ast.Attribute) and node.attr in consts.get(ARGPARSE, {}) and _parsed_args(node.value, consts):
        # `args.config` of `add_argument("--config", type=Path, default=Path("configs/x.yaml"))` (round 54m's
        # thao12345310): the default's path, as argparse hands it over
        node = _unwrap_path(resolve(consts[ARGPARSE][node.attr], consts))
    beside = _beside_script(node)
    if beside is not None:
        return beside
    v = value(node, consts)
    return v if isinstance(v, str) and v != "?" and not v.startswith("torch.") else None


def _beside_script(node) -> str | None:
    """A path the script builds from its own location, as a path relative to the script's folder: `Path(__file__).parent
    / "config.yaml"` -> "config.yaml", `Path(__file__).resolve().parent.parent / "configs" / "x.yaml"` ->
    "../configs/x.yaml", `os.path.join(os.path.dirname(os.path.abspath(__file__)), "x.yaml")` (cfg67: round 64m's
    eduardd76 train.py, whose --config defaults to `str(Path(__file__).parent / "config.yaml")`); None for anything
    else (the script's own path, a folder, a part not written as a literal)."""
    parts: list = []
    while True:
        node = _unwrap_path(node)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div) and isinstance(node.right, ast.Constant) and \
                isinstance(node.right.value, str):
            parts.insert(0, node.right.value)
            node = node.left
        elif isinstance(node, ast.Call) and _dotted(node) in ("os.path.join", "path.join") and len(node.args) >= 2 and \
                all(isinstance(a, ast.Constant) and isinstance(a.value, str) for a in node.args[1:]) and \
                not node.keywords:
            parts[:0] = [a.value for a in node.args[1:]]
            node = node.args[0]
        else:
            break
    ups = _levels_above_script(node)
    if ups is None or not parts or ups < 0:
        return None
    rel = "/".join([".."] * ups + [q.strip("/") for q in parts if q.strip("/")])
    return rel if re.search(r"[^./]", rel) else None


def _levels_above_script(node) -> int | None:
    """How many folders above the script's own folder a path expression of `__file__` names: 0 for
    `Path(__file__).parent` / `os.path.dirname(__file__)`, 1 for `.parent.parent` / `.parents[1]`, -1 for the script's
    own path; None when the expression is not one of __file__."""
    if isinstance(node, ast.Name) and node.id == "__file__":
        return -1
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in ("resolve", "absolute") \
            and not node.args:
        return _levels_above_script(node.func.value)
    if isinstance(node, ast.Call) and _dotted(node) in ("Path", "pathlib.Path", "os.path.abspath", "os.path.realpath",
                                                       "os.path.normpath") and len(node.args) == 1:
        return _levels_above_script(node.args[0])
    if isinstance(node, ast.Call) and _dotted(node) == "os.path.dirname" and len(node.args) == 1:
        inner = _levels_above_script(node.args[0])
        return None if inner is None else inner + 1
    if isinstance(node, ast.Attribute) and node.attr == "parent":
        inner = _levels_above_script(node.value)
        return None if inner is None else inner + 1
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Attribute) and node.value.attr == "parents" and \
            isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, int):
        inner = _levels_above_script(node.value.value)
        return None if inner is None or inner != -1 else node.slice.value
    return None


def _parameter_value(tree, f, param: str, consts: dict):
    """The value a parameter of the script's function `f` holds in every call of it the script makes (its default
    where a call does not pass it); None when the calls disagree, one cannot be read, or nothing calls f."""
    positional = f.args.posonlyargs + f.args.args
    defaults = dict(zip([a.arg for a in positional[len(positional) - len(f.args.defaults):]], f.args.defaults))
    defaults.update({a.arg: d for a, d in zip(f.args.kwonlyargs, f.args.kw_defaults) if d is not None})
    idx = [a.arg for a in positional].index(param) if param in [a.arg for a in positional] else None
    seen = set()
    for c in walked(tree):
        if not (isinstance(c, ast.Call) and isinstance(c.func, ast.Name) and c.func.id == f.name):
            continue
        if any(isinstance(a, ast.Starred) for a in c.args) or any(k.arg is None for k in c.keywords):
            return None
        node = next((k.value for k in c.keywords if k.arg == param), None)
        if node is None and idx is not None and idx < len(c.args):
            node = c.args[idx]
        if node is None:
            node = defaults.get(param)
        v = value(_unwrap_path(node), consts) if node is not None else "?"
        if not isinstance(v, str) or v == "?":
            return None
        seen.add(v)
    return seen.pop() if len(seen) == 1 else None


def _literal(data, depth: int = 0):
    """A YAML / JSON / TOML file's contents as the Python literal the script's dict would be (value() and _dict_items
    read it as they read a dict written in the script)."""
    if data == UNSEEN:
        return RUNTIME  # (a value of a Hydra config a file not here, or the run, decides: hydra_compose)
    if isinstance(data, dict) and depth < 12:
        keys = [k for k in data if isinstance(k, str) and k != UNSEEN]
        # keys a Hydra config file that is not here may set: a `**` of a value not known here, so the mapping is not
        # known whole (call_keywords._known_items: a getter's default is not the run's)
        spread = [None] if UNSEEN in data else []
        return ast.Dict(keys=spread + [ast.Constant(value=k) for k in keys],
                        values=[RUNTIME] * len(spread) + [_literal(data[k], depth + 1) for k in keys])
    if isinstance(data, (list, tuple)) and depth < 12:
        return ast.List(elts=[_literal(v, depth + 1) for v in data], ctx=ast.Load())
    if data is None or isinstance(data, (str, int, float, bool)):
        return ast.Constant(value=data)
    return ast.Constant(value=str(data))
