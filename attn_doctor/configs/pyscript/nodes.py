"""What every part of the script reading shares: the keys constants() adds beside the script's own names (ARGPARSE,
ENVIRON, MODULE_CONSTANTS, OPAQUE_DICTS, RETURNED_DICTS; no Python name is spelt like them), RUNTIME (a name decided
when the script runs), and the small node helpers (_call_name, _dotted, resolve: a name followed to what it holds; walked: a tree's nodes, listed
once)."""

from __future__ import annotations

import ast

from ...textutil import children, kept, walked  # noqa: F401  (the pyscript readers import them from here)


# the nodes a statement can sit in besides another statement's body: an `except` clause, a `case` of a match
_HOLDS_STATEMENTS = (ast.stmt, ast.excepthandler) + ((ast.match_case,) if hasattr(ast, "match_case") else ())


def statements_under(node) -> list:
    """The children of `node` that are statements, `except` clauses or `case`s, in ast.iter_child_nodes' order: all a
    walk that looks for statements (`name = value`, `d["k"] = v`, `d.update(...)`, an `if`) descends into, since no
    expression holds a statement (a lambda's body is an expression; a comprehension holds none). Listed once per node
    (kept): the readers of assignments descended into every expression of a script's tree, a few times per reading
    (session 34, ci34a: a third of the configs readers' CPU)."""
    return kept(node, "_attn_doctor_statements",
                lambda: [c for c in children(node) if isinstance(c, _HOLDS_STATEMENTS)])


# consts' entry for the script's argparse options (dest -> default node): no Python name can be spelt like this
ARGPARSE = "<argparse defaults>"


# consts' entry for the variables the script sets in its own environment (`os.environ["X"] = "v"`): no Python name
# can be spelt like this
ENVIRON = "<os.environ>"
_ENVIRON_GETS = {"os.environ.get", "os.getenv", "environ.get", "getenv"}


# consts' entry for the settings modules of the user's own repository the script imports whole (`import config`):
# the name it binds -> {constant: its literal}
MODULE_CONSTANTS = "<constants of the user's modules>"


# consts' entry for the dict variables the script changes with contents not known here (_opaque_updates)
OPAQUE_DICTS = "<dicts updated at run time>"
# consts' entry for the script's functions that build a dict of keywords and return it (_returned_dicts)
RETURNED_DICTS = "<dicts the script's functions return>"
# consts' entry for the script's functions of no parameters that return by their own tests (script_constants.
# _guarded_returns): name -> [(test node or None, returned node)], in the order they run
GUARDED_RETURNS = "<values the script's functions return by their tests>"
# consts' entry for the names the script binds in the branches of an `if` over the GPU's bf16 probe (script_constants.
# _probe_branches): name -> (the if's test, the value node where it holds, where it does not)
PROBE_BRANCHES = "<names bound by a bf16 probe's if>"
# consts' entry for the names of the functions the script defines itself (script_constants): a call of one runs the
# script's code, never a library's function of the same name (review rev27: `def is_bf16_supported(device=0): return False`
# is no GPU probe)
SCRIPT_FUNCTIONS = "<the functions the script defines>"
# consts' entry for the script's functions that return their dict argument kept against a config class's signature
# (call_keywords.signature_filters)
SIGNATURE_FILTERS = "<functions keeping a config class's keys>"


# consts' entry for the values the script's functions are handed where they are called (script_constants._passed_arguments):
# parameter -> (the argument node, the call that passes it)
PASSED = "<arguments passed to the script's functions>"


# consts' entry for the values an HfArgumentParser's parse_yaml_file / parse_json_file / parse_dict fills its dataclasses
# with (script_constants._file_parses): field -> value node
PARSED_VALUES = "<values of the parsed settings file>"


# consts' entry for the settings files the script loads from a path only its command line gives, with no default
# (settings_files._loaded_files): how the launch names each (`--config`, `sys.argv[1]`)
AT_LAUNCH = "<settings files named at launch>"


# a name the script sets to different values in its branches (round 8m: compute_dtype = torch.bfloat16 if the GPU
# supports bf16, else torch.float16): value() reads it as "?", decided when the script runs
RUNTIME = ast.Name(id="<decided at run time>")


def defined_once(tree) -> dict:
    """name -> definition of each function `tree` defines once (nested ones included, as walked reads it): a call of
    that name runs it. Found once per tree (kept)."""
    def build() -> dict:
        defs: dict = {}
        for f in walked(tree):
            if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef)):
                defs.setdefault(f.name, []).append(f)
        return {name: fs[0] for name, fs in defs.items() if len(fs) == 1}

    return kept(tree, "_attn_doctor_defined_once", build)


def single_returns(tree) -> dict:
    """name -> (definition, its `return`) of each function `tree` defines once whose body holds one `return` (a
    function nested in it included, as walked reads it): what a call of it gives is that return's value. Found once
    per tree (kept): the readers of returned dicts, returned objects and signature filters each ask it."""
    def build() -> dict:
        out = {}
        for name, f in defined_once(tree).items():
            rets = [r for r in walked(f) if isinstance(r, ast.Return)]
            if len(rets) == 1:
                out[name] = (f, rets[0])
        return out

    return kept(tree, "_attn_doctor_single_returns", build)


def _call_name(call) -> str:
    f = call.func
    return f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""


def _dotted(call) -> str:
    """A call's callee as written (`yaml.safe_load`, `Path`, `load_config`)."""
    try:
        return ast.unparse(call.func)
    except Exception:  # pragma: no cover - a node ast cannot write back
        return ""


def resolve(node, consts: dict, depth: int = 0):
    if isinstance(node, ast.Name) and node.id in consts and depth < 3:
        return resolve(consts[node.id], consts, depth + 1)
    return node
