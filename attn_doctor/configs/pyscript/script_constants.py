"""constants(): the names a script binds, assembled from every part (assignments and the branches its constants
settle, parameters' defaults, fallback loops, dict updates, dataclasses, imported modules, argparse, environment,
loaded settings files); calls() and assigned_before() read through it."""

from __future__ import annotations

import ast

from .nodes import ARGPARSE, AT_LAUNCH, ENVIRON, GUARDED_RETURNS, MODULE_CONSTANTS, OPAQUE_DICTS, PARSED_VALUES, PASSED, \
    PROBE_BRANCHES, RETURNED_DICTS, RUNTIME, SCRIPT_FUNCTIONS, SIGNATURE_FILTERS, _call_name, defined_once, resolve, single_returns, walked
from .nodes import statements_under
from .dataclass_args import _ARG_PARSERS, DATACLASSES, FILE_PARSES, _DATACLASS_PARSES, _script_dataclasses
from .dataclass_args import NESTED_SETS, RETURNED_OBJECTS, nested_dataclasses, nested_sets
from .argv import PARSED_FILE, _argparse_defaults, _parse_call, _parsed_parameters, cli_defaults, cli_parameters
from .call_keywords import _known_items, _signature_filtered, keywords, signature_filters
from .values import PINNED_BF16, pinned_bf16, value
from .settings_files import _enclosing_function, _hydra_configs, _loaded_files
from .user_modules import _LIBRARIES, _imported_dataclasses, _imported_module_constants, own_imports
from ...textutil import kept


def constants(tree, argv: dict | None = None, environ: dict | None = None, read=None, modules=None,
              hydra: dict | None = None) -> dict:
    """Simple `name = value` assignments anywhere in the script (the last one wins), as ast nodes; and a function's
    parameter defaults (`def main(attn_implementation: str = "flash_attention_2")`, run by `fire.Fire(main)` or a
    call that does not pass it) for names the script assigns nowhere else. argv: the values the launcher's options give
    the script's own argparse (argv_options), in place of their defaults. environ: the variables the launcher puts in
    the script's environment (configs._launch_environ), which its os.environ.get / os.getenv read before their
    defaults. read: path -> the settings (a mapping) of a YAML / JSON / TOML file where the script's run finds it, or
    None (configs.script_files): a name the script binds to such a file's contents (`config = yaml.safe_load(f)` of
    `with open("configs/x.yaml") as f`, `cfg = load_config(path)`) holds them (_loaded_files). modules: module name ->
    the text of that module of the user's own repository where the script's run imports it from, or None
    (configs.script_modules): the dataclasses the script imports from one are known as its own are
    (_imported_dataclasses). hydra: the Hydra app's config folder and launch overrides (configs.script_hydra): the
    config its `@hydra.main` function is handed is Hydra's composition (settings_files._hydra_configs)."""
    if read is not None or modules is not None or hydra is not None:
        return _assembled(tree, argv, environ, read, modules, hydra)
    # the tree alone, with the launch's argv / environ: the same answer for every reader that asks, kept on the tree
    # (textutil.kept); launchers.python_commands, then python_dumped_configs, each asked it of one script in one reading
    memo = kept(tree, "_attn_doctor_constants", list)
    for (a, e), got in memo:
        if a == argv and e == environ:
            return got
    got = _assembled(tree, argv, environ)
    memo.append(((argv, environ), got))
    return got


def _assembled(tree, argv: dict | None = None, environ: dict | None = None, read=None, modules=None,
               hydra: dict | None = None) -> dict:
    """constants()'s answer, assembled."""
    # (the parts read from the tree alone, whatever the launch, the files or the modules: kept on the tree, a copy of
    # its dict each time; a reading asks constants() of one script twice or more, launchers.python_commands the tree
    # alone, hf_transformers / unsloth with its files)
    got, counts, defaults, bases = kept(tree, "_attn_doctor_tree_constants", lambda: _tree_constants(tree))
    out = dict(got)
    out[DATACLASSES] = {**(_imported_dataclasses(tree, modules) if modules is not None else {}),
                        **nested_dataclasses(tree)}
    out[NESTED_SETS] = nested_sets(tree)
    whole, named = _imported_module_constants(tree, modules, out) if modules is not None else ({}, {})
    for name, lit in named.items():
        out.setdefault(name, lit)
    out[MODULE_CONSTANTS] = whole
    out[OPAQUE_DICTS] = _opaque_updates(tree)
    out[RETURNED_DICTS] = _returned_dicts(tree, out)
    out[SCRIPT_FUNCTIONS] = frozenset(f.name for f in walked(tree) if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef)))
    out[GUARDED_RETURNS] = _guarded_returns(tree)
    out[PROBE_BRANCHES] = _probe_branches(tree, out)
    out[RETURNED_OBJECTS] = _returned_objects(tree, out)
    out[SIGNATURE_FILTERS] = signature_filters(tree)
    out[ENVIRON] = {**{k: ast.Constant(value=v) for k, v in (environ or {}).items()},
                    **_environ_sets(tree, bare=not argv)}
    out[ARGPARSE] = _argparse_defaults(tree)
    out[PINNED_BF16] = pinned_bf16(tree)
    if argv:
        out[ARGPARSE] = {**out[ARGPARSE], **argv}
        for name in cli_parameters(tree) & set(argv):
            # `python train.py --mode uasft` of `fire.Fire(train)` (or a Typer / Click command): the parameter holds the
            # launcher's value (where the script binds the name nowhere else)
            if name not in out or out[name] is defaults.get(name):
                out[name] = argv[name]
    if read is not None:
        out.update(_loaded_files(tree, out, read, modules))
        if argv and out.get(AT_LAUNCH):
            # (a launch's words were read: its positional words are not modelled as sys.argv, so not said missing)
            out[AT_LAUNCH] = [x for x in out[AT_LAUNCH] if "argv[" not in x]
        for name, lit in _hydra_configs(tree, out, read, hydra).items():
            out.setdefault(name, lit)
        out.update(_settled_in_functions(tree, out, counts, bases))
    files = _file_parses(tree, out, read)
    if files:
        # HfArgumentParser.parse_yaml_file("args.yaml") / parse_json_file / parse_dict({...}): the dataclasses hold the
        # file's (or dict's) values; the command line plays no part
        values, names = files
        out[ARGPARSE] = {**out[ARGPARSE], **values}
        out[PARSED_VALUES] = values
        for name, node in names.items():
            out[name] = node
    return out


def _tree_constants(tree) -> tuple:
    """(the names constants() reads from the tree alone, before the launch, the loaded files or the imported modules
    take part: the assignments, parameters' defaults, fallback loops, parsed namespaces, passed arguments, dict
    updates; how many times each name is assigned; the parameters' defaults; the dicts updated, as they were before)."""
    out = _constants_pass(tree, None)
    counts: dict = {}
    for n, _ in _assignments(tree):
        t = n.targets[0].id if isinstance(n, ast.Assign) else n.target.id
        counts[t] = counts.get(t, 0) + 1
    if any(v is RUNTIME for v in out.values()):
        # again, with the `if`s the first pass's constants settle taken as Python takes them: names assigned once, so
        # the value a test sees is the one value they ever hold
        out = _constants_pass(tree, {k: v if counts.get(k) == 1 else RUNTIME for k, v in out.items()})
    # (a Typer / Click command's parameters default to what typer.Option / click.option declare)
    defaults = {**_parameter_defaults(tree), **cli_defaults(tree)}
    for name, default in defaults.items():
        out.setdefault(name, default)
    for name, first in _fallback_candidates(tree, out).items():
        out.setdefault(name, first)
    for name, parsed in _parsed_parameters(tree, out).items():
        out.setdefault(name, parsed)
    out[PASSED] = _passed_arguments(tree)
    for name, (arg, _) in out[PASSED].items():
        out.setdefault(name, arg)  # (after the parsed namespace a parameter receives: _parsed_parameters reads it)
    for n in walked(tree):
        # `model_args, data_args, training_args = parser.parse_args_into_dataclasses()`: each name is one of the
        # dataclasses HfArgumentParser fills (transformers' hf_argparser.py returns them in the order given)
        if isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Tuple) and \
                isinstance(n.value, ast.Call) and _call_name(n.value) in _DATACLASS_PARSES:
            for i, e in enumerate(n.targets[0].elts):
                if isinstance(e, ast.Name):
                    out.setdefault(e.id, ast.Subscript(value=n.value, slice=ast.Constant(value=i), ctx=ast.Load()))
    bases: dict = {}
    for name, sets in _dict_updates(tree).items():
        base = out.get(name)
        if _dict_like(base, out):
            # `model_kwargs = {...}` then `model_kwargs["attn_implementation"] = "sdpa"` (or `.update(...)`) outside any
            # branch: the dict the later `**model_kwargs` spreads holds the key, as Python runs it (and so for a
            # comprehension whose kept keys are known: `kw = {k: v for k, v in cfg.items() if k in supported}`, cfg89)
            bases[name] = base
            out[name] = _updated(base, sets)
    return out, counts, defaults, bases


def _dict_like(base, consts: dict) -> bool:
    """Whether a name's value is a dict whose keys the script shows: written out (`{...}`, `dict(...)`), or a
    comprehension keeping known keys (call_keywords._signature_filtered) of a mapping known whole (a file that is not
    here leaves it opaque, keys set after it or not: its spread may set bf16 / fp16)."""
    kept = _signature_filtered(base, consts)
    return isinstance(base, ast.Dict) or isinstance(base, ast.Call) and _call_name(base) == "dict" and \
        isinstance(base.func, ast.Name) or kept is not None and _known_items(kept[0], consts) is not None


def _updated(base, sets: list):
    """The dict `base` with the keys of `sets` ((key, value node) in source order) set on it after."""
    return ast.Dict(keys=[None] + [ast.Constant(value=k) for k, _ in sets], values=[base] + [v for _, v in sets])


def _settled_in_functions(tree, consts: dict, counts: dict, bases: dict) -> dict:
    """name -> its value, for each name decided at run time (RUNTIME) that an if / elif chain in a function binds, once
    the loaded settings files (and the values handed to the function) decide the chain: round 82m's SujitRoy run_sft.py,
    `if cfg.get("qlora", False): dtype = ... / elif cfg.get("bf16", True): dtype = torch.bfloat16 / else: ...` inside
    run_sft(config_path), cfg the YAML it loads. A test over what the GPU answers (`torch.cuda.is_bf16_supported()`) or
    over a name bound more than once (or a parameter the script binds another way) stays undecided: the name stays
    RUNTIME, never the first branch."""
    passed = consts.get(PASSED, {})
    functions = {}
    calls_by_name: dict = {}  # (each name's calls, in walk order: one walk of the tree, not one per function)
    for c in walked(tree):
        if isinstance(c, ast.Call) and isinstance(c.func, ast.Name):
            calls_by_name.setdefault(c.func.id, []).append(c)
    for f in walked(tree):
        if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef)):
            a = f.args
            calls_of = calls_by_name.get(f.name, [])
            positional = [x.arg for x in a.posonlyargs + a.args]

            # (a parameter every call hands the caller's name of the same spelling, `build_sft_config(cfg)`, holds that
            # name's one value)
            functions[id(f)] = frozenset(
                p for p in positional + [x.arg for x in a.kwonlyargs] + [x.arg for x in (a.vararg, a.kwarg) if x]
                if p not in passed and not (calls_of and all(_handed_on(_argument(c, positional, p), p)
                                                             for c in calls_of)))
    settled = {k: RUNTIME if counts.get(k, 1) != 1 else v for k, v in consts.items()}
    again = _constants_pass(tree, settled, functions=functions)
    # (a name its settled branches bind in one function only: which function's binding a use sees is not modelled)
    where: dict = {}
    for n, _ in _assignments(tree, False, settled, functions):
        t = n.targets[0].id if isinstance(n, ast.Assign) else n.target.id
        where.setdefault(t, set()).add(id(_enclosing_function(tree, n)))
    out = {k: v for k, v in again.items() if consts.get(k) is RUNTIME and v is not RUNTIME and len(where[k]) == 1}
    for name, sets in _dict_updates(tree, settled, functions).items():
        # `if model_cfg.get("attn_implementation"): load_kwargs["attn_implementation"] = model_cfg[...]` (round 82m's
        # MaxLSB sft.py): a key set in the branch the file decides is set, as one outside any branch is
        base = bases.get(name, consts.get(name))
        if _dict_like(base, consts):
            out[name] = _updated(base, sets)
    return out


def _file_parses(tree, consts: dict, read):
    """({field: value node}, {name: its binding}) of the script's `a, b = parser.parse_yaml_file(P)` /
    `parse_json_file(json_file=P)` / `parse_dict(D)` of an HfArgumentParser / TrlParser, when P is a file here (read)
    or D a dict written out; None when there is none, or more than one, or the values are not known here."""
    from .call_keywords import _dict_items
    from .settings_files import _literal, _path_value

    found = []
    for n in walked(tree):
        if isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.value, ast.Call) and \
                isinstance(n.value.func, ast.Attribute) and n.value.func.attr in FILE_PARSES:
            parser = resolve(n.value.func.value, consts)
            if isinstance(parser, ast.Call) and _call_name(parser) in _ARG_PARSERS:
                found.append(n)
    if len(found) != 1:
        return None
    n = found[0]
    call = n.value
    arg = call.args[0] if call.args else next((k.value for k in call.keywords
                                               if k.arg == FILE_PARSES[call.func.attr]), None)
    if arg is None:
        return None
    if call.func.attr == "parse_dict":
        items = _dict_items(arg, consts)
        if not items:
            return None
        values = dict(items)
    else:
        path = _path_value(tree, arg, None, consts) if read is not None else None
        data = read(path) if isinstance(path, str) else None
        if not isinstance(data, dict):
            return None
        values = {k: _literal(v) for k, v in data.items() if isinstance(k, str)}
    targets = n.targets[0].elts if isinstance(n.targets[0], (ast.Tuple, ast.List)) else [n.targets[0]]
    names = {}
    for i, e in enumerate(targets):
        if isinstance(e, ast.Name):
            sub = ast.Subscript(value=call, slice=ast.Constant(value=i), ctx=ast.Load())
            setattr(sub, PARSED_FILE, True)
            names[e.id] = sub
    return values, names


def _fallback_candidates(tree, consts: dict) -> dict:
    """name -> the first candidate of a fallback loop: `for kwargs in (kw, {...}):` / `for mod, cls_name in
    MODEL_CLASS_CANDIDATES:` over a tuple or list the script writes out, whose body tries something and returns or
    breaks once it works (`try: m = cls.from_pretrained(name, **kwargs); return m` / `except TypeError: continue`;
    round 54m's Satyajithchary loads a Qwen3-VL so across transformers 4.5x and 5.x). The first candidate is the one
    the run takes when it works; a loop that runs every value (a sweep: no return or break under a `try`) is left out,
    and so is a name the script assigns anywhere else."""
    assigned = set()
    for n in walked(tree):
        if isinstance(n, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            for t in (n.targets if isinstance(n, ast.Assign) else [n.target]):
                assigned |= {x.id for x in walked(t) if isinstance(x, ast.Name)}
    loops, seen = {}, set()
    for n in walked(tree):
        if not isinstance(n, ast.For) or n.orelse:
            continue
        names = [n.target] if isinstance(n.target, ast.Name) else list(n.target.elts) \
            if isinstance(n.target, ast.Tuple) else []
        if not names or not all(isinstance(x, ast.Name) for x in names):
            continue
        seq = resolve(n.iter, consts)
        if not isinstance(seq, (ast.Tuple, ast.List)) or len(seq.elts) < 2:
            continue
        if not any(isinstance(x, ast.Try) and any(isinstance(y, (ast.Return, ast.Break)) for st in x.body
                                                  for y in walked(st)) for st in n.body for x in walked(st)):
            continue
        first = seq.elts[0]
        if len(names) > 1:
            if not (isinstance(first, (ast.Tuple, ast.List)) and len(first.elts) == len(names)):
                continue
            vals = list(first.elts)
        else:
            vals = [first]
        for x, v in zip(names, vals):
            if x.id in seen:
                loops.pop(x.id, None)  # (two loops bind it: which one a use sees is not modelled)
            elif x.id not in assigned:
                loops[x.id] = v
            seen.add(x.id)
    return loops


def _dict_updates(tree, settled: dict | None = None, functions: dict | None = None) -> dict:
    """name -> [(key, value node)] of the keys a script sets on a dict variable outside any branch, in source order:
    `kw["key"] = v` and `kw.update(key=v)` / `kw.update({"key": v})`. One set under an `if`/`try`/loop is left out
    (the condition is the caller's: the dict's own value stands, as for a name assigned in a branch), unless `settled`
    decides the `if` (_taken, as _assignments takes it)."""
    out: dict = {}

    def walk(node, in_branch: bool, unsafe=frozenset()) -> None:
        for child in statements_under(node):
            taken = _taken(node, child, in_branch, settled, functions, unsafe)
            if taken is not None:
                walk(ast.Module(body=taken, type_ignores=[]), False, unsafe)
                continue
            inner = functions.get(id(child)) if functions is not None and \
                isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)) else unsafe
            if not in_branch:
                if isinstance(child, ast.Assign) and len(child.targets) == 1 and \
                        isinstance(child.targets[0], ast.Subscript) and isinstance(child.targets[0].value, ast.Name) and \
                        isinstance(child.targets[0].slice, ast.Constant) and isinstance(child.targets[0].slice.value, str):
                    out.setdefault(child.targets[0].value.id, []).append((child.targets[0].slice.value, child.value))
                elif isinstance(child, ast.Expr) and isinstance(child.value, ast.Call) and \
                        isinstance(child.value.func, ast.Attribute) and child.value.func.attr == "update" and \
                        isinstance(child.value.func.value, ast.Name):
                    c = child.value
                    items = [(k.arg, k.value) for k in c.keywords if k.arg]
                    if c.args and isinstance(c.args[0], ast.Dict):
                        items = [(k.value, v) for k, v in zip(c.args[0].keys, c.args[0].values)
                                 if isinstance(k, ast.Constant) and isinstance(k.value, str)] + items
                    out.setdefault(c.func.value.id, []).extend(items)
            branch = in_branch or isinstance(child, (ast.If, ast.Try, ast.For, ast.While)) or \
                type(child).__name__ in ("Match", "TryStar")
            walk(child, branch, inner)

    walk(tree, False)
    return out


def _returned_dicts(tree, consts: dict) -> dict:
    """function name -> the dict node it returns, for each function of the script (defined once) whose one `return`
    gives a dict written out (`return {...}` / `return dict(...)`) or a name the function itself binds to one once
    (`kwargs = {...}` ... `return kwargs`, round 49m's CodeDaoVietNam `Seq2SeqTrainingArguments(
    **build_training_args_kwargs(config, out))`): what `**f(...)` spreads, keys the function sets in a branch aside."""
    out: dict = {}
    for name, (f, ret) in single_returns(tree).items():
        if ret.value is None:
            continue
        got = ret.value
        if isinstance(got, ast.Name):
            bound = consts.get(got.id)
            if bound is None or not any(n is bound for n in walked(f)):
                continue  # a name bound elsewhere (another function's), or more than once
            got = bound
        if isinstance(got, ast.Dict) or isinstance(got, ast.Call) and isinstance(got.func, ast.Name) and \
                got.func.id == "dict":
            out[name] = got
    return out


def _guarded_returns(tree) -> dict:
    """function name -> [(test, value)] for each function of the script (defined once, no parameters) whose body is
    `if TEST: return VALUE` statements and a last `return VALUE` (a docstring, imports and local assignments aside):
    round 57m's TheRedCan `_compute_dtype()` (`if torch.cuda.is_available() and torch.cuda.is_bf16_supported(): return
    torch.bfloat16` / `return torch.float16`), 64m's pick_compute_dtype(). value() runs the tests in order; test None is
    the last return."""
    out = {}
    for name, f in defined_once(tree).items():
        a = f.args
        if a.posonlyargs or a.args or a.vararg or a.kwonlyargs or a.kwarg:
            continue
        steps, done = [], False
        for st in f.body:
            if done:
                break
            if isinstance(st, (ast.Import, ast.ImportFrom, ast.Assign, ast.AnnAssign)) or \
                    isinstance(st, ast.Expr) and isinstance(st.value, ast.Constant):
                continue
            if isinstance(st, ast.If) and not st.orelse and len(st.body) == 1 and \
                    isinstance(st.body[0], ast.Return) and st.body[0].value is not None:
                steps.append((st.test, st.body[0].value))
            elif isinstance(st, ast.Return) and st.value is not None:
                steps.append((None, st.value))
                done = True
            else:
                break
        if done:
            out[name] = steps
    return out


def _probe_branches(tree, consts: dict) -> dict:
    """name -> (test, value where it holds, value where not) for each name the script decides at run time (RUNTIME) by
    one `if` over the GPU's bf16 probe: `if torch.cuda.is_bf16_supported(): compute_dtype = torch.bfloat16; use_bf16 =
    True / else: ...` (round 26m's DaniilDenisov train_qlora.py), or a branch that binds it over the value it held
    before (`use_bf16 = False` then `if ...is_bf16_supported(): use_bf16 = True`, round 8m's MdRahmatUllah). The test
    is asked both ways by values.gpu_decides; a name two such `if`s bind, or one bound again after, is left out."""
    from .values import probe_call

    bound: dict = {}
    for n, br in _assignments(tree):
        bound.setdefault(n.targets[0].id if isinstance(n, ast.Assign) else n.target.id, []).append((n, br))
    out, seen = {}, set()
    for st in walked(tree):
        if not isinstance(st, ast.If) or not any(probe_call(c, consts) for c in walked(st.test)):
            continue
        sides = []
        for block in (st.body, st.orelse):
            # (the branch's own `name = value` statements: a nested if or loop binds under a test of its own)
            plain = [x for x in block if isinstance(x, (ast.Assign, ast.AnnAssign))]
            sides.append({n.targets[0].id if isinstance(n, ast.Assign) else n.target.id: n
                          for n, _ in _assignments(ast.Module(body=plain, type_ignores=[]))})
        end = getattr(st, "end_lineno", st.lineno)
        for name in set(sides[0]) | set(sides[1]):
            if consts.get(name) is not RUNTIME or name in seen:
                out.pop(name, None)
                seen.add(name)
                continue
            seen.add(name)
            outside = [(n, br) for n, br in bound.get(name, []) if not st.lineno <= n.lineno <= end]
            if any(n.lineno > end for n, _ in outside):
                continue  # bound again after the if: which binding a use sees is not modelled
            before = [n for n, br in outside if not br]
            vals = [side[name].value if name in side else before[-1].value if before else None for side in sides]
            if None not in vals:
                out[name] = (st.test, vals[0], vals[1])
    return out


def _returned_objects(tree, consts: dict) -> dict:
    """function name -> the call `C()` it returns, for each function of the script (defined once) whose one `return`
    gives a name the function binds once, outside any branch, to a dataclass of the script's or of its own imported
    modules built with its defaults (`cfg = Config()` ... `return cfg` of round 79m's mrSvet0zar `build_config(args)
    -> Config`, which sets a few fields from the command line on it; cfg81). What the run reads of the object's fields
    is those defaults unless the script sets the field (values.py checks NESTED_SETS)."""
    known = consts.get(DATACLASSES, {})
    out: dict = {}
    for name, (f, ret) in single_returns(tree).items():
        if _filled_dataclass(ret.value, known):
            # `return TrainConfig(quant=args.quant, seed=args.seed, ...)` of round 92m's i-am-mushfiq parse_args() ->
            # TrainConfig: the keywords it writes, the other fields at their defaults (cfg94)
            out[name] = _in_scope(ret.value, f, consts)
            continue
        if not isinstance(ret.value, ast.Name):
            continue
        binds = [n for n in walked(f) if isinstance(n, (ast.Assign, ast.AnnAssign)) and
                 any(isinstance(t, ast.Name) and t.id == ret.value.id
                     for t in (n.targets if isinstance(n, ast.Assign) else [n.target]))]
        if len(binds) != 1 or binds[0] not in f.body:
            continue
        got = binds[0].value
        if isinstance(got, ast.Call) and isinstance(got.func, ast.Name) and got.func.id in known and \
                not got.args and not got.keywords:
            out[name] = got
    return out


def _filled_dataclass(node, known: dict) -> bool:
    """`C(field=..., ...)` of a dataclass the script knows (`known`), every field given by name: no positional
    argument and no `**` spread, so a field not written is at its default."""
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in known and \
        not node.args and all(k.arg is not None for k in node.keywords)


def _in_scope(call, f, consts: dict):
    """`call` (written in function `f`) with each keyword that reads a parameter of `f` no call of `f` hands one value
    (nodes.PASSED) decided at run time: the script's names are one flat scope here, and such a parameter would read
    another binding of its spelling (a dataclass field `fp16: bool = True`, a module constant)."""
    a = f.args
    params = {x.arg for x in a.posonlyargs + a.args + a.kwonlyargs + [a.vararg, a.kwarg] if x is not None}
    unknown = params - set(consts.get(PASSED, {}))
    if not any(isinstance(n, ast.Name) and n.id in unknown for k in call.keywords for n in walked(k.value)):
        return call
    keywords = [k if not any(isinstance(n, ast.Name) and n.id in unknown for n in walked(k.value)) else
                ast.keyword(arg=k.arg, value=RUNTIME) for k in call.keywords]
    return ast.copy_location(ast.Call(func=call.func, args=[], keywords=keywords), call)


def _opaque_updates(tree) -> set:
    """Names of dicts the script changes outside any branch with contents not known here: `kw.update(other)` of
    anything but a dict written out, `kw[key] = v` with a key computed at run time. A `.get` of such a dict may find a
    key the script's text does not show, so its default is no answer (_known_items)."""
    out: set = set()

    def walk(node, in_branch: bool) -> None:
        for child in statements_under(node):
            if not in_branch:
                if isinstance(child, ast.Assign) and len(child.targets) == 1 and \
                        isinstance(child.targets[0], ast.Subscript) and isinstance(child.targets[0].value, ast.Name) and \
                        not (isinstance(child.targets[0].slice, ast.Constant) and
                             isinstance(child.targets[0].slice.value, str)):
                    out.add(child.targets[0].value.id)
                elif isinstance(child, ast.Expr) and isinstance(child.value, ast.Call) and \
                        isinstance(child.value.func, ast.Attribute) and child.value.func.attr == "update" and \
                        isinstance(child.value.func.value, ast.Name):
                    c = child.value
                    if any(not isinstance(a, ast.Dict) or None in a.keys for a in c.args) or \
                            any(k.arg is None for k in c.keywords):
                        out.add(c.func.value.id)
            branch = in_branch or isinstance(child, (ast.If, ast.Try, ast.For, ast.While)) or \
                type(child).__name__ in ("Match", "TryStar")
            walk(child, branch)

    walk(tree, False)
    return out


def _environ_sets(tree, bare: bool = False) -> dict:
    """name -> value node of each `os.environ["NAME"] = value` the script makes; a name set to two different values
    (in branches, or one after the other around the read) is RUNTIME. bare: the script runs with no options (read
    alone, or launched with none), so the branch of an `if "--fp32" in sys.argv:` is not taken (its `else:` is, and
    the reverse for `not in`): the sets in the branch not taken are not made (round 86m: zgr0's improved_training.py
    sets USE_FP16 under `if "--fp16" in sys.argv:` / `if "--fp32" in sys.argv:`, then reads it with default "true")."""
    out: dict = {}

    def visit(node) -> None:
        if isinstance(node, ast.If) and bare:
            given = _option_given(node.test)
            if given is not None:
                for child in (node.body if given else node.orelse):
                    visit(child)
                return
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Subscript) and \
                ast.unparse(node.targets[0].value) in ("os.environ", "environ") and \
                isinstance(node.targets[0].slice, ast.Constant) and isinstance(node.targets[0].slice.value, str):
            k = node.targets[0].slice.value
            out[k] = node.value if k not in out or ast.dump(out[k]) == ast.dump(node.value) else RUNTIME
        for child in statements_under(node):
            visit(child)

    visit(tree)
    return out


def _option_given(test) -> bool | None:
    """What `"--flag" in sys.argv` (`not in`) answers for a script run with no options: an option word is not in its
    sys.argv, whose one word is the script's own path; None for any other test."""
    if isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], (ast.In, ast.NotIn)) and \
            isinstance(test.left, ast.Constant) and isinstance(test.left.value, str) and \
            test.left.value.startswith("-") and ast.unparse(test.comparators[0]) in ("sys.argv", "sys.argv[1:]"):
        return isinstance(test.ops[0], ast.NotIn)
    return None


def _unless_given(tree) -> dict:
    """id(assignment) -> its value with the parameter's default in place of the name, for each `x = x or DEFAULT` in
    a function whose parameter x defaults to a false literal (None, False, "", 0) and that no call in the script
    passes x to (round 61m: `def load_model_for_training(..., dtype: Optional[str] = None)` with `dtype = dtype or
    settings.bnb_4bit_compute_dtype`): x is DEFAULT, as the function runs when its callers leave x out."""
    out: dict = {}
    funcs = [f for f in walked(tree) if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))]
    for f in funcs:
        a = f.args
        pos = a.posonlyargs + a.args
        defaults = dict(zip([x.arg for x in pos[len(pos) - len(a.defaults):]], a.defaults))
        defaults.update({x.arg: d for x, d in zip(a.kwonlyargs, a.kw_defaults) if d is not None})
        for st in walked(f):
            if not (isinstance(st, ast.Assign) and len(st.targets) == 1 and isinstance(st.targets[0], ast.Name) and
                    isinstance(st.value, ast.BoolOp) and isinstance(st.value.op, ast.Or) and
                    isinstance(st.value.values[0], ast.Name) and st.value.values[0].id == st.targets[0].id):
                continue
            x = st.targets[0].id
            d = defaults.get(x)
            if not (isinstance(d, ast.Constant) and not d.value):
                continue
            index = [p.arg for p in pos].index(x) if x in [p.arg for p in pos] else None
            passed = any(isinstance(c, ast.Call) and _call_name(c) == f.name and (
                any(k.arg == x or k.arg is None for k in c.keywords) or
                index is not None and (len(c.args) > index - (1 if pos and pos[0].arg in ("self", "cls") else 0) or
                                       any(isinstance(g, ast.Starred) for g in c.args)))
                for c in walked(tree))
            if not passed:
                rest = st.value.values[1:]
                out[id(st)] = rest[0] if len(rest) == 1 else ast.BoolOp(op=ast.Or(), values=rest)
    return out


def _constants_pass(tree, settled: dict | None, functions: dict | None = None) -> dict:
    out, branched = {}, set()
    given = kept(tree, "_attn_doctor_unless_given", lambda: _unless_given(tree))  # (the tree's alone: once per tree)
    for n, in_branch in _assignments(tree, False, settled, functions):
        if isinstance(n, ast.Assign):
            name, val = n.targets[0].id, n.value
        else:
            name, val = n.target.id, n.value
        val = given.get(id(n), val)
        old = out.get(name)
        if old is not None and _filters_itself(val, name):
            # `kw = {k: v for k, v in kw.items() if k in sig}` (round 61m: keywords filtered against the installed
            # TrainingArguments' signature): the comprehension over the dict the name held before
            val = _over(val, old)
        if old is not None and in_branch and ast.dump(old) != ast.dump(val) and \
                not (_parse_call(old) and _parse_call(val)):
            # `if torch.cuda.is_bf16_supported(): x = bf16 / else: x = fp16`: decided at run time. Two spellings of the
            # parsing (`args = parser.parse_args()` in parse_args(), `args = parse_args()` under `if __name__ ==
            # "__main__":`) are the one parsed namespace, whichever runs
            branched.add(name)
        out[name] = val
    for name in branched:
        out[name] = RUNTIME
    return out


def _assignments(tree, in_branch: bool = False, settled: dict | None = None, functions: dict | None = None,
                 unsafe: frozenset = frozenset()):
    """(`name = value` / `name: T = value` node, whether it sits in an if/try/loop/match branch), in source order.
    settled: constants known so far; an `if` outside any branch whose test they settle (`if "fp16" in precision:`
    after `precision = "full fp16"`, at the top level: in a function a parameter may shadow the name) runs only the
    branch the test takes, which is then no branch (round 16m: a Colab
    trainer's `mixed_precision = "no"` / `if "fp16" in precision: mixed_precision = "fp16"` / `elif ...`).
    functions: id(function) -> its parameters whose value the script's flat reading does not know there; given, the
    `if`s of a function's own body are settled too when their test names none of those (its elif chain over a loaded
    settings file: constants' last pass, _settled_in_functions). Only statements are descended into (statements_under:
    no expression holds an assignment)."""
    for child in statements_under(tree):
        if isinstance(child, ast.Assign) and len(child.targets) == 1 and isinstance(child.targets[0], ast.Name):
            yield child, in_branch
        elif isinstance(child, ast.Assign) and len(child.targets) == 1 and \
                isinstance(child.targets[0], (ast.Tuple, ast.List)) and isinstance(child.value, (ast.Tuple, ast.List)) \
                and len(child.targets[0].elts) == len(child.value.elts):
            # `use_bf16, use_fp16 = False, True` (round 82m's MaxLSB sft.py, under `if not torch.cuda.is_bf16_supported()`):
            # each name bound to its element, as one assignment each
            for t, v in zip(child.targets[0].elts, child.value.elts):
                if isinstance(t, ast.Name) and not isinstance(v, ast.Starred):
                    yield ast.copy_location(ast.Assign(targets=[t], value=v), child), in_branch
        elif isinstance(child, ast.AnnAssign) and isinstance(child.target, ast.Name) and child.value is not None:
            yield child, in_branch
        inner = functions.get(id(child)) if functions is not None and \
            isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)) else unsafe
        taken = _taken(tree, child, in_branch, settled, functions, unsafe)
        if taken is not None:
            for stmt in taken:
                yield from _assignments(ast.Module(body=[stmt], type_ignores=[]), False, settled, functions, unsafe)
            continue
        branch = in_branch or isinstance(child, (ast.If, ast.Try, ast.For, ast.While)) or \
            type(child).__name__ in ("Match", "TryStar")
        yield from _assignments(child, branch, settled, functions, inner)


def _taken(parent, child, in_branch: bool, settled: dict | None, functions: dict | None, unsafe):
    """The statements of the branch an `if` (child, outside any branch, in parent) runs when its test is settled (see
    _assignments), or None when it is not: at the module level, or in a function's own body where `functions` is given
    and the test names none of the function's unknown parameters (`unsafe`; None: a function not in `functions`)."""
    if settled is None or in_branch or not isinstance(child, ast.If):
        return None
    in_function = functions is not None and unsafe is not None and \
        isinstance(parent, (ast.FunctionDef, ast.AsyncFunctionDef))
    if not (isinstance(parent, ast.Module) or in_function) or \
            any(isinstance(x, ast.Name) and (settled.get(x.id) is RUNTIME or x.id in (unsafe or ()))
                for x in walked(child.test)):
        return None
    test = _truth(value(child.test, settled)) if functions is not None else value(child.test, settled)
    if not isinstance(test, bool):
        return None
    return child.body if test else child.orelse


def _truth(v):
    """What `if v:` takes of a value known here (value()'s answer), or None ("?", a torch attribute)."""
    if v == "?" or isinstance(v, str) and v.startswith("torch."):
        return None
    return bool(v) if v is None or isinstance(v, (bool, int, float, str)) else None


def assigned_before(tree, name: str, line: int):
    """The value node of the last `name = value` outside any function, branch or loop before `line` (a module-level
    statement: a notebook's cells run top to bottom), when the name is also assigned after it: the value the name holds
    at that line, which constants' last-wins reading misses. None when there is no such later assignment, no earlier one,
    or `line` is inside a function (its locals and call order are not modelled here)."""
    funcs = [(f.lineno, getattr(f, "end_lineno", f.lineno)) for f in walked(tree)
             if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef))]
    if any(a <= line <= b for a, b in funcs):
        return None
    seen = [(n, br) for n, br in _assignments(tree)
            if (n.targets[0].id if isinstance(n, ast.Assign) else n.target.id) == name
            and not any(a <= n.lineno <= b for a, b in funcs)]
    if not any(n.lineno > line for n, _ in seen):
        return None
    before = [(n, br) for n, br in seen if n.lineno < line]
    if not before or before[-1][1]:
        return None
    return before[-1][0].value


def held_at(tree, node, consts: dict) -> dict:
    """consts with each name `node` reads bound to what it holds at node's line where that differs from the last-wins
    reading (assigned_before: a notebook that trains with `dtype = torch.bfloat16 if is_bfloat16_supported() else
    torch.float16`, then reloads its adapter with `dtype = torch.float16 if torch.cuda.is_available() else
    torch.float32`; round 33m's darshlukkad notebooks pass `fp16=(dtype == torch.float16)` to the trainer between)."""
    line = getattr(node, "lineno", None)
    if line is None:
        return consts
    held = {}
    for n in walked(node):
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) and n.id not in held:
            got = assigned_before(tree, n.id, line)
            if got is not None:
                held[n.id] = got
    return {**consts, **held} if held else consts


def _parameter_defaults(tree) -> dict:
    """name -> default node of the parameters of the script's functions, unless a call in the script passes that
    parameter (by keyword, or by position) or two functions give the name different defaults: then the value is
    the caller's, not known here."""
    out, passed = {}, set()
    funcs = [n for n in walked(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
    by_name = {f.name: f for f in funcs}
    for n in walked(tree):
        if isinstance(n, ast.Call):
            fname = n.func.id if isinstance(n.func, ast.Name) else n.func.attr if isinstance(n.func, ast.Attribute) \
                else None
            f = by_name.get(fname)
            if f is None:
                continue
            # (a caller handing on its own parameter of the same name, `build_args(train_cfg)` inside `def
            # build_trainer(train_cfg=training_config)`, passes the default both functions give it: not counted)
            passed.update(k.arg for k in n.keywords if k.arg and not _handed_on(k.value, k.arg))
            positional = f.args.posonlyargs + f.args.args
            passed.update(a.arg for a, v in zip(positional, n.args) if not _handed_on(v, a.arg))
            if any(k.arg is None for k in n.keywords) or any(isinstance(a, ast.Starred) for a in n.args):
                passed.update(a.arg for a in positional + f.args.kwonlyargs)  # f(**kw) / f(*args): any of them
    seen: dict = {}
    for f in funcs:
        positional = f.args.posonlyargs + f.args.args
        pairs = list(zip(positional[len(positional) - len(f.args.defaults):], f.args.defaults))
        pairs += [(a, d) for a, d in zip(f.args.kwonlyargs, f.args.kw_defaults) if d is not None]
        for a, d in pairs:
            if a.arg in seen and ast.dump(seen[a.arg]) != ast.dump(d):
                passed.add(a.arg)
            seen[a.arg] = d
    for name, d in seen.items():
        if name not in passed:
            out[name] = d
    return out


def _passed_arguments(tree) -> dict:
    """parameter -> (the argument node, the call passing it) for each parameter of the script's module-level functions
    that every call of them hands the same value (positionally or by keyword; a call that leaves it out hands its
    default), not counting a call that passes a name of the same spelling on (`def train(config)` ... `load_model(config)`
    of `def load_model(config)`: the one value flows down). Round 82m's MaxLSB sft.py: `train(load_config(args.config))`,
    then `build_sft_config(config)` reads `config["training"]`. Left out: a parameter the script also binds any other way
    (an assignment, a loop, a lambda's or a method's parameter), one of a function the script hands elsewhere by its name
    (a callback, `fire.Fire(main)`), decorates, or calls with `*args` / `**kw`; calls that disagree, or none at all."""
    funcs = [f for f in tree.body if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))]
    names = [f.name for f in funcs]
    # names the script's imports bind to modules of the user's own (`import mypkg.train as tr`): a function the script
    # calls on one (`tr.main(bf16=True)`) is the module's, which configs._through_own_modules reads after the script
    # (round 92m's leftovers: an entry script handing values to an imported train function, cfg94)
    modules = {b[0] for b in own_imports(tree)}
    called, other = set(), set()
    apps = _modal_apps(tree)
    modal = {f.name for f in funcs if f.decorator_list and all(_modal_runs(d, apps) for d in f.decorator_list)}
    for n in walked(tree):
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name):
            called.add(id(n.func))
        if _modal_call(n, modal):
            called.add(id(n.func.value))  # (`train.spawn(...)`: a call of train, not train handed on)
    for n in walked(tree):
        if isinstance(n, ast.Name) and n.id in names and id(n) not in called:
            other.add(n.id)  # (handed on by name: its caller is not in the script)
    bound = {n.id for n in walked(tree) if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load)}
    for f in walked(tree):
        if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)) and f not in funcs:
            a = f.args
            bound |= {x.arg for x in a.posonlyargs + a.args + a.kwonlyargs + [a.vararg, a.kwarg] if x is not None}
    seen: dict = {}
    every_call = [c for c in walked(tree) if isinstance(c, ast.Call)]  # (in walk order: one pass, not one per function)
    for f in funcs:
        a = f.args
        if names.count(f.name) != 1 or f.name in other or f.decorator_list and f.name not in modal or a.vararg or \
                a.kwarg:
            for x in a.posonlyargs + a.args + a.kwonlyargs:
                seen[x.arg] = None
            continue
        positional, defaults = _parameters(f)
        calls_of = [c for c in every_call if (
            isinstance(c.func, ast.Name) and c.func.id == f.name or
            isinstance(c.func, ast.Attribute) and c.func.attr == f.name and _on_own_module(c.func.value, modules) or
            _modal_call(c, {f.name} & modal))]
        for param in positional + [x.arg for x in a.kwonlyargs]:
            for c in calls_of:
                if any(isinstance(g, ast.Starred) for g in c.args) or any(k.arg is None for k in c.keywords):
                    seen[param] = None
                    break
                got = _argument(c, positional, param)
                got = got if got is not None else defaults.get(param)
                if _handed_on(got, param):
                    continue  # (the caller's own value of the name, passed on)
                if got is None or param in seen and (seen[param] is None or
                                                     ast.dump(seen[param][0]) != ast.dump(got)):
                    seen[param] = None
                    break
                seen[param] = (got, c)
    return {k: v for k, v in seen.items() if v is not None and k not in bound}


# how a Modal app calls a function it runs in a container: F.remote(*args, **kwargs), F.local(...), F.spawn(...) call F
# with those arguments (modal-labs/modal-client modal/_functions.py, _Function.remote / .local / .spawn); .map / .starmap
# call it once per item (several runs: not read as one value)
_MODAL_CALLS = frozenset({"remote", "local", "spawn"})


def _modal_runs(decorator, apps: set) -> bool:
    """`@app.function(...)` / `@stub.function(...)`: Modal's decorator registering a function it runs in a container
    (the function keeps its parameters; pyscript.values.pinned_bf16 reads its gpu=), `app` one of `apps` (_modal_apps):
    not another library's `X.function` (`@tf.function` traces a graph; helper rev28b)."""
    d = decorator.func if isinstance(decorator, ast.Call) else decorator
    return isinstance(d, ast.Attribute) and d.attr == "function" and isinstance(d.value, ast.Name) and d.value.id in apps


def _modal_apps(tree) -> set:
    """The names the script binds to a Modal app: `app = modal.App(...)` / `modal.Stub(...)` (`import modal`, any alias), or
    `App(...)` / `Stub(...)` imported `from modal import App`."""
    mods, classes = set(), set()
    for n in walked(tree):
        if isinstance(n, ast.Import):
            mods |= {a.asname or a.name for a in n.names if a.name == "modal"}
        elif isinstance(n, ast.ImportFrom) and n.module == "modal":
            classes |= {a.asname or a.name for a in n.names if a.name in ("App", "Stub")}
    apps = set()
    for n in walked(tree):
        if isinstance(n, ast.Assign) and isinstance(n.value, ast.Call):
            f = n.value.func
            if isinstance(f, ast.Attribute) and f.attr in ("App", "Stub") and isinstance(f.value, ast.Name) and \
                    f.value.id in mods or isinstance(f, ast.Name) and f.id in classes:
                apps |= {t.id for t in n.targets if isinstance(t, ast.Name)}
    return apps


def _modal_call(node, modal: set) -> bool:
    """`F.remote(...)` / `F.local(...)` / `F.spawn(...)` of a Modal function F of `modal`."""
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _MODAL_CALLS and \
        isinstance(node.func.value, ast.Name) and node.func.value.id in modal


def _on_own_module(node, modules: set) -> bool:
    """Whether `node` (the object a function is called on: `tr`, `mypkg.train`) starts at a name in `modules`."""
    while isinstance(node, ast.Attribute):
        node = node.value
    return isinstance(node, ast.Name) and node.id in modules


def _parameters(f) -> tuple[list, dict]:
    """(the names of function `f`'s positional parameters in order, {parameter: its default's node}), keyword-only
    parameters' defaults included."""
    a = f.args
    positional = [x.arg for x in a.posonlyargs + a.args]
    defaults = dict(zip(positional[len(positional) - len(a.defaults):], a.defaults))
    defaults.update({x.arg: d for x, d in zip(a.kwonlyargs, a.kw_defaults) if d is not None})
    return positional, defaults


def _argument(call, positional: list, param: str):
    """The node a call passes for `param` (by keyword, or at its place among `positional`), or None."""
    got = next((k.value for k in call.keywords if k.arg == param), None)
    if got is None and param in positional and positional.index(param) < len(call.args):
        got = call.args[positional.index(param)]
    return got


def _handed_on(node, param: str) -> bool:
    """Whether an argument is the caller's own name spelt as the parameter (`load_model(config)` of `def
    load_model(config)`): in the script's one namespace, the same value."""
    return isinstance(node, ast.Name) and node.id == param


def _filters_itself(node, name: str) -> bool:
    """`{k: v for k, v in NAME.items() if ...}`: a comprehension that keeps some entries of the dict NAME names."""
    if not (isinstance(node, ast.DictComp) and len(node.generators) == 1):
        return False
    it = node.generators[0].iter
    return isinstance(it, ast.Call) and isinstance(it.func, ast.Attribute) and it.func.attr == "items" and \
        isinstance(it.func.value, ast.Name) and it.func.value.id == name and not it.args


def _over(comp: ast.DictComp, base) -> ast.DictComp:
    """The comprehension `comp` iterating over `base.items()` instead of its own name's."""
    g = comp.generators[0]
    items = ast.Call(func=ast.Attribute(value=base, attr="items", ctx=ast.Load()), args=[], keywords=[])
    return ast.DictComp(key=comp.key, value=comp.value, generators=[
        ast.comprehension(target=g.target, iter=items, ifs=g.ifs, is_async=g.is_async)])


def calls(tree, names: set, consts: dict | None = None) -> list[tuple[str, dict]]:
    consts = constants(tree) if consts is None else consts
    out = []
    for n in walked(tree):
        if isinstance(n, ast.Call):
            f = n.func
            owner = f.value.id if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) else None
            name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else None
            key = owner if owner in names and name == "from_pretrained" else name if name in names else None
            if key:
                out.append((key, dict(keywords(n, consts))))
    return out
