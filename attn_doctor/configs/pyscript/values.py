"""A node's value as the script runs on this host: value() (constants, torch attributes, argparse defaults, config
objects' keywords, dicts' entries and getters' defaults, os.environ reads, comparisons and conditionals it settles), the host's answers to device probes
(HOST_ANSWERS), and the bf16 answer of a GPU a Modal function pins (pinned_bf16)."""

from __future__ import annotations

import ast
import re

from .nodes import ARGPARSE, ENVIRON, GUARDED_RETURNS, MODULE_CONSTANTS, PROBE_BRANCHES, SCRIPT_FUNCTIONS, _ENVIRON_GETS, _call_name, \
    resolve, walked
from .dataclass_args import DATACLASSES, NESTED, NESTED_SETS, RETURNED_OBJECTS, _CONFIG_CLASSES
from .argv import _parsed_args
from .call_keywords import _attr_source, _dict_items, _known_items


_NESTING = [0]  # how deep _nested_value is: `x = str(x)`, `p = p.lower()` name themselves through consts


def _nested_value(node, consts: dict):
    """value() of a part of an expression value() reads (str(X), X.lower()), "?" past a few levels: a name the script
    assigns from itself would otherwise be followed for ever."""
    if _NESTING[0] > 8:
        return "?"
    _NESTING[0] += 1
    try:
        return value(node, consts)
    finally:
        _NESTING[0] -= 1


def _built(node, consts: dict):
    """The call that built the object an expression names: `cfg` of `cfg = Config()`, or `cfg.model` of it when the
    field `model` is another dataclass built with its defaults (dataclass_args.NESTED) and `cfg` was built with no
    arguments; else the node as resolve() leaves it."""
    if isinstance(node, ast.Attribute):
        parent = _built(node.value, consts)
        if isinstance(parent, ast.Call) and parent is not node.value and not parent.args and not parent.keywords:
            fields = getattr(parent, NESTED, None) if isinstance(getattr(parent, NESTED, None), dict) else \
                consts.get(DATACLASSES, {}).get(_call_name(parent))
            got = (fields or {}).get(node.attr)
            if isinstance(got, ast.Call) and isinstance(getattr(got, NESTED, None), dict):
                return got
        return node
    got = resolve(node, consts)
    if isinstance(got, ast.Call) and isinstance(got.func, ast.Name) and got.func.id in consts.get(RETURNED_OBJECTS, {}):
        # `cfg = build_config(args)` of a function returning `Config()` it fills in part: that object, with the fields
        # the script never sets at their defaults (value() checks NESTED_SETS)
        return consts[RETURNED_OBJECTS][got.func.id]
    return got


def _set_after_unseen(node, key: str, consts: dict):
    """The entry under `key` of a loaded mapping a file not here may set keys in (a Hydra config: its unknown part a
    `**` spread first, the keys written after it, settings_files._literal), where the key is written: it wins over
    whatever the spread holds (`model=mistral model.attn_implementation=eager`: the value set after composition); None
    otherwise."""
    src = _attr_source(node, consts)
    got = [v for k, v in zip(src.keys, src.values) if isinstance(k, ast.Constant) and k.value == key] \
        if src is not None else []
    return got[-1] if got else None


def _loaded_entry(node, consts: dict):
    """The entry `getattr(cfg.model, "attn", D)` / `OmegaConf.select(cfg, "model.attn", default=D)` reads in a settings
    mapping the script loads and reads through attributes (a Hydra app's composed config, OmegaConf.load's DictConfig:
    call_keywords._attr_source), or D where that mapping is known whole and has no such key (select's default None);
    None for another node, or where a part of the path is not known whole (a Hydra group file not here: its file
    decides). rev21: the getter's default was read where the composed config says otherwise."""
    if not isinstance(node, ast.Call) or len(node.args) < 2 or not isinstance(node.args[1], ast.Constant) or \
            not isinstance(node.args[1].value, str):
        return None
    name = ast.unparse(node.func)
    if name == "getattr" and len(node.args) == 3 and not node.keywords:
        path, default = [node.args[1].value], node.args[2]
    elif name.rsplit(".", 1)[-1] == "select" and len(node.args) == 2 and all(k.arg == "default" for k in node.keywords):
        path = node.args[1].value.split(".")
        default = node.keywords[0].value if node.keywords else ast.Constant(value=None)
    else:
        return None
    src = _attr_source(node.args[0], consts)
    items = _known_items(src, consts) if src is not None else None
    for i, key in enumerate(path):
        if items is None:
            return None
        got = [v for k, v in items if k == key]
        if not got:
            return default
        if i == len(path) - 1:
            return got[-1]
        items = _known_items(got[-1], consts)
    return None


def value(node, consts: dict):
    """A keyword's value: a constant, `torch.bfloat16`-style attribute names, or "?" (decided when the script runs)."""
    node = resolve(node, consts)
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "torch":
        return f"torch.{node.attr}"
    if isinstance(node, ast.Attribute) and node.attr in consts.get(ARGPARSE, {}) and _parsed_args(node.value, consts):
        # `bf16=args.bf16`: the option's argparse default, as the script runs with no options (round 9m: a GRPO script
        # whose `--fp16` defaults to True and whose GRPOConfig(fp16=args.fp16, ...) then trains in fp16)
        return value(consts[ARGPARSE][node.attr], consts)
    base = resolve(node.value, consts) if isinstance(node, ast.Attribute) else None
    if isinstance(base, ast.Name) and base.id not in consts and \
            node.attr in consts.get(MODULE_CONSTANTS, {}).get(base.id, {}):
        # `bf16=config.BF16` of `import config`: the literal the user's own config.py gives it (round 62); and through
        # a parameter whose default is that object, `def build_args(train_cfg=training_config)` then
        # `bf16=train_cfg.bf16` (round 57m: `training_config = TrainingConfig()` in src/config.py, cfg115)
        return consts[MODULE_CONSTANTS][base.id][node.attr].value
    if isinstance(node, ast.Attribute) and isinstance(node.value, (ast.Name, ast.Attribute)):
        obj = _built(node.value, consts)
        if isinstance(obj, ast.Call) and obj is not node.value:
            # `model_config = ModelConfig(attn_implementation="flash_attention_2")` then
            # `from_pretrained(attn_implementation=model_config.attn_implementation)`: the attribute is the keyword the
            # object was built with (a config / arguments class, or a dataclass of the script's own), else, for a
            # dataclass of the script's own built without it, the field's default
            cname = _call_name(obj)
            nested = isinstance(getattr(obj, NESTED, None), dict)
            returned = any(obj is c for c in consts.get(RETURNED_OBJECTS, {}).values())
            if (nested or returned) and ({node.attr, "*"} & consts.get(NESTED_SETS, set())):
                return "?"  # `cfg.model.attn_implementation = ...` somewhere: not the default the run reads
            fields = getattr(obj, NESTED) if nested else consts.get(DATACLASSES, {}).get(cname)
            kw = {k.arg: k.value for k in obj.keywords if k.arg}
            if node.attr in kw and (fields is not None or cname.endswith(_CONFIG_CLASSES)):
                return value(kw[node.attr], consts)
            if fields is not None and node.attr in fields and not obj.args and \
                    not any(k.arg is None for k in obj.keywords):
                return value(fields[node.attr], consts)
    if isinstance(node, ast.Attribute):
        # `cfg.training.bf16` of a settings file the script loads, read through OmegaConf or a namespace built from it
        # (call_keywords._attr_source): the entry under that key
        src = _attr_source(node.value, consts)
        got = [v for k, v in _dict_items(src, consts) if k == node.attr] if src is not None else []
        if got:
            return value(got[-1], consts)
    if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, str):
        # `CFG["model"]["attn"]` of a dict the script writes out (`CFG = {"model": {"attn": "sdpa"}}`): the entry
        # under that key; a dict loaded at run time (yaml.safe_load, json.load) has none here
        got = [v for k, v in _dict_items(node.value, consts) if k == node.slice.value]
        if got:
            return value(got[-1], consts)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in ("get", "pop") and \
            1 <= len(node.args) <= 2 and not node.keywords and not isinstance(node.args[0], ast.Constant) and \
            ast.unparse(node.func) not in _ENVIRON_GETS:
        # `dtype_map.get(dtype, torch.float16)` of a name known here (round 61m: `dtype = dtype or
        # settings.bnb_4bit_compute_dtype`, the settings' default "float16"): the dict's entry under that key, else
        # the getter's default, for a dict known here whole; a key not known here is "?", not the default
        key = _nested_value(node.args[0], consts)
        items = _known_items(node.func.value, consts) if isinstance(key, str) and key != "?" and \
            not key.startswith("torch.") else None
        if items is not None:
            got = [v for k, v in items if k == key]
            if got:
                return value(got[-1], consts)
            return value(node.args[1], consts) if len(node.args) > 1 else None
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in ("get", "pop") and \
            1 <= len(node.args) <= 2 and not node.keywords and isinstance(node.args[0], ast.Constant) and \
            isinstance(node.args[0].value, str) and ast.unparse(node.func) not in _ENVIRON_GETS:
        # `cfg.get("attn", "sdpa")` / `cfg["model"].get("attn_implementation", "sdpa")` of a dict known here whole (one
        # the script writes out, or the settings file it loads when that file is here: round 54m's users' scripts read
        # their default config so): the entry under the key, else the getter's default (None without one), as
        # dict.get answers (and `d.pop("attn_implementation", "sdpa")`, which answers the same the first time it is
        # called: round 68m, cfg71). A dict not known here whole (loaded from a file that is not here, or built at run time) is
        # "?": its file decides, not the default (round 17's convention for `bf16=train_cfg.get("bf16", False)`)
        items = _known_items(node.func.value, consts)
        if items is not None:
            got = [v for k, v in items if k == node.args[0].value]
            if got:
                return value(got[-1], consts)
            return value(node.args[1], consts) if len(node.args) > 1 else None
        got = _set_after_unseen(node.func.value, node.args[0].value, consts)
        if got is not None:
            return value(got, consts)
    got = _loaded_entry(node, consts)
    if got is not None:
        return value(got, consts)
    absent = _absent_default(node.func if isinstance(node, ast.Call) and not node.args and not node.keywords else None)
    if isinstance(absent, ast.Lambda) and not (absent.args.args or absent.args.posonlyargs or absent.args.vararg or
                                               absent.args.kwonlyargs or absent.args.kwarg):
        # `getattr(torch, "is_bf16_supported", lambda: False)()` (round 92m's thejeangenie18 train_qlora.py): PyTorch
        # has no such attribute (NOT_IN_TORCH), so the fallback is what is called, on every host
        return value(absent.body, consts)
    absent = _absent_default(node)
    if absent is not None:
        return value(absent, consts)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "hasattr" and \
            len(node.args) == 2 and not node.keywords and isinstance(node.args[1], ast.Constant) and \
            isinstance(node.args[1].value, str):
        # `hasattr(torch.cuda, "is_bf16_supported") and torch.cuda.is_bf16_supported()` (round 33m's darshlukkad GRPO
        # notebook): what every PyTorch answers for an attribute it has (IN_TORCH) or has not (NOT_IN_TORCH)
        name = f"{ast.unparse(node.args[0])}.{node.args[1].value}"
        if name in IN_TORCH or name in NOT_IN_TORCH:
            return name in IN_TORCH
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "getattr" and \
            len(node.args) == 3 and not node.keywords and isinstance(node.args[0], ast.Name) and \
            isinstance(node.args[1], ast.Constant) and isinstance(node.args[1].value, str) and \
            node.args[1].value.isidentifier():
        # `getattr(args, "bf16", True)` of an attribute known here (an argparse option's default, a config object's
        # keyword): that attribute, as `args.bf16` reads; else "?" (whether the object has it is decided at run time)
        return _nested_value(ast.Attribute(value=node.args[0], attr=node.args[1].value, ctx=ast.Load()), consts)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "getattr" and \
            len(node.args) == 2 and not node.keywords and isinstance(node.args[0], ast.Name) and \
            node.args[0].id == "torch":
        # `getattr(torch, cfg["model"]["dtype"])` of a dtype named by a setting known here: that torch attribute
        v = _nested_value(node.args[1], consts)
        return f"torch.{v}" if isinstance(v, str) and v.isidentifier() and not v.startswith("torch") else "?"
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        # `not script_args.use_flash_attention_2`: the negation of a setting known here
        v = value(node.operand, consts)
        return "?" if v == "?" or isinstance(v, str) and v.startswith("torch.") else not v
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "bool" and \
            len(node.args) == 1 and not node.keywords:
        # `XFORMERS = bool(args.xformers)`: the truth of a value known here
        v = value(node.args[0], consts)
        return "?" if v == "?" or isinstance(v, str) and v.startswith("torch.") else bool(v)
    if isinstance(node, ast.IfExp):
        # `torch.bfloat16 if args.bf16 else torch.float16`: the branch its test takes, when the test is known here
        test = value(node.test, consts)
        if test == "?" or isinstance(test, str) and test.startswith("torch."):
            return "?"
        return value(node.body if test else node.orelse, consts)
    if isinstance(node, ast.Call) and not node.args and not node.keywords and \
            ast.unparse(node.func) in HOST_ANSWERS:
        return HOST_ANSWERS[ast.unparse(node.func)]
    if isinstance(node, ast.Call) and not node.args and not node.keywords and isinstance(node.func, ast.Name) and \
            node.func.id in consts.get(GUARDED_RETURNS, {}):
        # `torch_dtype=_compute_dtype()` of a function of the script that returns by its own tests: the value of the
        # first test that holds, as the call runs it; a test not known here leaves it "?" (gpu_decides asks the bf16
        # probe both ways through it)
        for test, got in consts[GUARDED_RETURNS][node.func.id]:
            if test is None:
                return _nested_value(got, consts)
            holds = _nested_value(test, consts)
            if holds == "?" or isinstance(holds, str) and holds.startswith("torch."):
                return "?"
            if holds:
                return _nested_value(got, consts)
        return "?"
    if isinstance(node, ast.Call) and not node.args and \
            all(k.arg == "including_emulation" and isinstance(k.value, ast.Constant) for k in node.keywords) and \
            probe_call(node, consts) and consts.get(PINNED_BF16) is not None:
        # `bf16 = is_bfloat16_supported()` in a function that runs on the GPU the file pins (round 28: a Modal app's
        # @app.function(gpu="H100")): what that GPU answers (gpu_decides asks it both ways and notes the probe)
        consts.get(PROBED, set()).add(ast.unparse(node))
        return consts[PINNED_BF16]
    if isinstance(node, ast.Call) and ast.unparse(node.func) in _ENVIRON_GETS and node.args and \
            isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str):
        # `os.environ.get("ATTN_IMPL", "flash_attention_2")` / `os.getenv(...)`: what the script sets in its own
        # environment (`os.environ["ATTN_IMPL"] = ...`), else the default, as it runs when the variable is not set
        # (as an argparse default is the value with no options); no default: None, nothing chosen here
        own = consts.get(ENVIRON, {}).get(node.args[0].value)
        if own is not None:
            # (`os.environ["X"] = X_VALUE` of `X_VALUE = os.environ.get("X")` names itself: a few levels, then "?")
            return _nested_value(own, consts)
        default = node.args[1] if len(node.args) > 1 else \
            next((k.value for k in node.keywords if k.arg in ("default", "value")), None)
        return "?" if default is None else value(default, consts)
    if isinstance(node, ast.Attribute) and node.attr == "type" or \
            isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "str" and \
            len(node.args) == 1 and not node.keywords:
        # `device.type` / `str(device)` of `device = torch.device("cuda" if torch.cuda.is_available() else "cpu")`:
        # the device's type, the string torch.device was given without its index ("cuda:0" -> "cuda" for .type)
        base = resolve(node.value if isinstance(node, ast.Attribute) else node.args[0], consts)
        if isinstance(base, ast.Call) and ast.unparse(base.func) in ("torch.device", "device") and \
                len(base.args) == 1 and not base.keywords:
            got = value(base.args[0], consts)
            if not isinstance(got, str) or got == "?" or got.startswith("torch."):
                return "?"
            return got.split(":")[0] if isinstance(node, ast.Attribute) else got
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "str" and \
            len(node.args) == 1 and not node.keywords:
        # `str(train_cfg["precision"])` of a value known here (a loaded config's, round 49m): its text
        v = _nested_value(node.args[0], consts)
        if isinstance(v, (str, int, float)) and not isinstance(v, bool) and v != "?" and \
                not (isinstance(v, str) and v.startswith("torch.")):
            return str(v)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
            node.func.attr in ("lower", "upper", "strip", "casefold") and not node.args and not node.keywords:
        # `str(cfg["precision"]).lower() == "bf16"`: the string method applied to a string known here
        v = _nested_value(node.func.value, consts)
        if isinstance(v, str) and v != "?" and not v.startswith("torch."):
            return getattr(v, node.func.attr)()
        return "?"
    if isinstance(node, ast.Compare) and len(node.ops) == 1 and isinstance(node.ops[0], (ast.In, ast.NotIn)) and \
            isinstance(resolve(node.comparators[0], consts), (ast.List, ast.Tuple, ast.Set)) and \
            all(isinstance(e, ast.Constant) for e in resolve(node.comparators[0], consts).elts):
        # `model_args.torch_dtype in ["auto", None]` (transformers' examples/pytorch/language-modeling/run_clm.py, before
        # `getattr(torch, model_args.torch_dtype)`): membership of a value known here, None included (cfg83)
        a = value(node.left, consts)
        if a == "?" or not (a is None or isinstance(a, (str, int, float, bool))) or \
                isinstance(a, str) and a.startswith("torch."):
            return "?"
        return (a in [e.value for e in resolve(node.comparators[0], consts).elts]) is isinstance(node.ops[0], ast.In)
    if isinstance(node, ast.Compare) and len(node.ops) == 1 and \
            isinstance(node.ops[0], (ast.Eq, ast.NotEq, ast.Is, ast.IsNot, ast.In, ast.NotIn)):
        # `cross_attention == "sdpa"`, `"fp16" in precision` (round 16m: a Colab trainer's form values written into
        # its config as comparisons): what Python answers for two values known here (strings, numbers, booleans)
        a, b = value(node.left, consts), value(node.comparators[0], consts)
        if isinstance(node.ops[0], (ast.Eq, ast.NotEq, ast.Is, ast.IsNot)) and \
                isinstance(a, str) and isinstance(b, str) and a in _TORCH_DTYPES and b in _TORCH_DTYPES:
            # `bf16=(dtype == torch.bfloat16)` of `dtype = torch.bfloat16 if is_bfloat16_supported() else
            # torch.float16` (round 33m's darshlukkad notebooks, 54m's jamesbconner): two torch dtypes, equal when
            # they are one dtype under two names (torch.half is torch.float16: torch dtypes are singletons, so `is`
            # answers as `==` does)
            return (_TORCH_DTYPES[a] == _TORCH_DTYPES[b]) is isinstance(node.ops[0], (ast.Eq, ast.Is))
        if isinstance(node.ops[0], (ast.Is, ast.IsNot)):
            return "?"
        if any(v == "?" or v is None or not isinstance(v, (str, int, float, bool)) or
               isinstance(v, str) and v.startswith("torch.") for v in (a, b)):
            return "?"
        op = node.ops[0]
        if isinstance(op, (ast.In, ast.NotIn)):
            if not isinstance(b, str) or not isinstance(a, str):
                return "?"
            return (a in b) is isinstance(op, ast.In)
        return (a == b) is isinstance(op, ast.Eq)
    if isinstance(node, ast.BoolOp):
        # `torch.cuda.is_available() or torch.backends.hip.is_available()`: Python's `or` / `and` over values known
        # here; one that is not known leaves the whole unknown unless the known ones already decide it
        vals = [_nested_value(v, consts) for v in node.values]  # `x = x or default` names itself
        decide = isinstance(node.op, ast.Or)
        for v in vals:
            if v == "?" or isinstance(v, str) and v.startswith("torch."):
                return "?"
            if bool(v) is decide:
                return v
        return vals[-1]
    return "?"


# torch's floating dtypes by their attribute names, aliases to one name (torch.half is torch.float16, torch.float is
# torch.float32, torch.double is torch.float64: one object under two names, checked with torch 2.13)
_TORCH_DTYPES = {"torch.bfloat16": "bfloat16", "torch.float16": "float16", "torch.half": "float16",
                 "torch.float32": "float32", "torch.float": "float32", "torch.float64": "float64",
                 "torch.double": "float64"}


# The probes that ask whether the GPU does bfloat16 (Unsloth's is_bfloat16_supported, torch.cuda.is_bf16_supported),
# and the GPUs a cloud function can be pinned to, by whether they do (compute capability 8.0 and up: Ampere, Ada, Hopper,
# Blackwell; T4 is 7.5, V100 7.0, P100 6.0)
BF16_PROBES = {"is_bfloat16_supported", "is_bf16_supported"}
PINNED_BF16 = "<the pinned GPU does bf16>"
_GPU_BF16 = {"t4": False, "v100": False, "p100": False, "k80": False, "a10": True, "a10g": True, "a100": True, "l4": True,
             "l40": True, "l40s": True, "h100": True, "h200": True, "b200": True, "a40": True, "a6000": True}


def probe_call(node, consts: dict) -> bool:
    """Whether `node` calls a bf16 probe (BF16_PROBES, under any module path): not a function of the script's own that
    shadows its name (nodes.SCRIPT_FUNCTIONS), whose body decides what it returns (review rev27)."""
    return isinstance(node, ast.Call) and ast.unparse(node.func).rsplit(".", 1)[-1] in BF16_PROBES and \
        not (isinstance(node.func, ast.Name) and node.func.id in consts.get(SCRIPT_FUNCTIONS, ()))


PROBED = "<the bf16 probes asked>"


def gpu_decides(node, consts: dict) -> dict | None:
    """What an expression the GPU decides is on a GPU that does bfloat16 and on one that does not, where the bf16
    probes alone decide it (value() leaves it "?" here): `bf16=torch.cuda.is_bf16_supported()`, `fp16=not
    is_bfloat16_supported()`, `torch.bfloat16 if torch.cuda.is_bf16_supported() else torch.float16`, through the
    names the script assigns. {"yes": value there, "no": value there, "probes": the calls, as written}; None for
    anything else (a value known here, or one something besides the probe leaves open)."""
    if node is None or consts.get(PINNED_BF16) is not None or value(node, consts) != "?":
        return None
    asked: set = set()
    yes = value(node, _branched({**consts, PINNED_BF16: True, PROBED: asked}))
    no = value(node, _branched({**consts, PINNED_BF16: False, PROBED: asked}))
    if not asked or "?" in (yes, no) or yes == no:
        return None
    return {"yes": yes, "no": no, "probes": sorted(asked), "written": ast.unparse(node)}


def gpu_open(node, consts: dict) -> dict | None:
    """Where the bf16 probe takes part in an expression but does not decide it alone (gpu_decides: None): {"probes":
    the calls asked, "written": the expression, "unknown": its parts that stay open whatever the GPU answers, as
    written} -- `bf16=is_bfloat16_supported() and training_config.get("bf16", False)` of a settings file that is not
    here (avnlp's GRPO script, real/unsloth). The reading says so instead of guessing; None where no probe is asked."""
    if node is None or consts.get(PINNED_BF16) is not None or value(node, consts) != "?":
        return None
    asked: set = set()
    sides = [_branched({**consts, PINNED_BF16: answer, PROBED: asked}) for answer in (True, False)]
    if not any(value(node, side) == "?" for side in sides) or not asked:
        return None
    unknown: list = []

    def probe(c) -> bool:
        return probe_call(c, consts)

    def visit(n) -> None:
        if probe(n):
            return
        if not any(probe(c) for c in walked(n)) and isinstance(n, ast.expr) and \
                any(value(n, side) == "?" for side in sides):
            unknown.append(ast.unparse(n))
            return
        for child in ast.iter_child_nodes(n):
            visit(child)

    visit(node)
    return {"probes": sorted(asked), "written": ast.unparse(node), "unknown": unknown} if unknown else None


def _branched(consts: dict) -> dict:
    """consts with each name an `if` over the bf16 probe binds (nodes.PROBE_BRANCHES) bound as the branch the pinned
    answer takes binds it."""
    out = dict(consts)
    for name, (test, yes, no) in consts.get(PROBE_BRANCHES, {}).items():
        asked: set = set()
        holds = value(test, {**consts, PROBED: asked})
        if isinstance(holds, bool):  # (the probes of a test that decides nothing here are not this value's)
            out[name] = yes if holds else no
            consts.get(PROBED, set()).update(asked)
    return out


def pinned_bf16(tree) -> bool | None:
    """Whether the GPU a script pins its functions to does bfloat16: a `gpu="H100"` (`"A100-80GB"`, `"h100:8"`) keyword
    of the decorators that say where they run (Modal's @app.function / @stub.function / @app.cls); None when it pins
    none, pins several that disagree, or names one not listed."""
    answers = set()
    for n in walked(tree):
        if not isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        for d in n.decorator_list:
            if not isinstance(d, ast.Call) or not isinstance(d.func, ast.Attribute) or \
                    d.func.attr not in ("function", "cls"):
                continue
            for k in d.keywords:
                if k.arg == "gpu" and isinstance(k.value, ast.Constant) and isinstance(k.value.value, str):
                    kind = re.split(r"[-:]", k.value.value.strip().lower(), maxsplit=1)[0]
                    answers.add(_GPU_BF16.get(kind))
    return answers.pop() if len(answers) == 1 else None


def _absent_default(node):
    """The default of `getattr(torch, "NAME", DEFAULT)` (or of torch.backends, ...) where PyTorch has no such attribute
    (NOT_IN_TORCH): the value getattr answers on every host; else None."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "getattr" and
            len(node.args) == 3 and not node.keywords and isinstance(node.args[1], ast.Constant) and
            isinstance(node.args[1].value, str)):
        return None
    return node.args[2] if f"{ast.unparse(node.args[0])}.{node.args[1].value}" in NOT_IN_TORCH else None


# Attributes PyTorch does not have, which scripts probe with getattr and a fallback: whether the GPU does bf16 is
# torch.cuda.is_bf16_supported (torch/cuda/__init__.py:191 in torch 2.13; torch.xpu has its own), never a function of
# the top-level module (torch/__init__.py defines neither spelling); ROCm builds answer through torch.cuda and have no
# torch.backends.hip (torch/backends/ holds cuda, cudnn, mps, ... and no hip)
NOT_IN_TORCH = {"torch.is_bf16_supported", "torch.is_bfloat16_supported", "torch.backends.hip"}
# and ones every PyTorch a trainer runs on has: torch.cuda.is_bf16_supported (torch/cuda/__init__.py in every torch 2.x)
IN_TORCH = {"torch.cuda.is_bf16_supported"}


# What a script's device probes answer on the host attn-doctor checks: a CUDA GPU (as `$(uname -s)` is never Darwin in
# configs/shell.py). `torch.cuda.is_available()` is true there; Apple's MPS is not; PyTorch has no
# `torch.backends.hip` (ROCm builds answer through torch.cuda), so a script testing it gets False or an AttributeError
# on a CUDA build, never true. Whether the GPU does bf16 (`torch.cuda.is_bf16_supported()`) stays the GPU's to say.
HOST_ANSWERS = {"torch.cuda.is_available": True, "torch.backends.mps.is_available": False,
                "torch.backends.hip.is_available": False}
