"""The keywords a call passes: keywords() with `**kw` spreads opened (_dict_items), a dict's keys as far as the script
shows them (_known_items), and the comprehensions that keep a dict's keys a config class's signature names
(_signature_filtered)."""

from __future__ import annotations

import ast

from .nodes import ARGPARSE, OPAQUE_DICTS, RETURNED_DICTS, RUNTIME, SIGNATURE_FILTERS, _call_name, resolve, single_returns, walked
from .argv import _parsed_args


# calls that give back the mapping they are handed, as a plain dict: OmegaConf's DictConfig to a dict, a deep copy
_SAME_MAPPING = {"OmegaConf.to_container", "omegaconf.OmegaConf.to_container", "OmegaConf.to_object", "copy.deepcopy",
                 "deepcopy", "copy.copy"}


# The classes whose every keyword is a named parameter of __init__ (transformers' TrainingArguments and TRL's configs
# are dataclasses): a script that keeps only the keys `inspect.signature(C).parameters` names keeps their fields.
# A model class's from_pretrained takes attn_implementation / torch_dtype through **kwargs, so a filter against its
# signature drops them: not listed.
_SIGNATURE_CLASSES = {"TrainingArguments", "Seq2SeqTrainingArguments", "SFTConfig", "DPOConfig", "GRPOConfig",
                      "ORPOConfig", "KTOConfig", "RewardConfig", "PPOConfig", "GKDConfig", "ModelConfig"}


def _signature_of(node, consts: dict, depth: int = 0) -> str | None:
    """The class C whose parameter names `node` holds: `inspect.signature(C).parameters` (or of `C.__init__`), with
    `set(...)` / `.keys()` around it, `C.__dataclass_fields__`, `{f.name for f in dataclasses.fields(C)}`."""
    node = resolve(node, consts)
    if depth > 3:
        return None
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("set", "frozenset", "list") \
            and len(node.args) == 1:
        return _signature_of(node.args[0], consts, depth + 1)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "keys" and \
            not node.args:
        return _signature_of(node.func.value, consts, depth + 1)
    if isinstance(node, ast.SetComp) and len(node.generators) == 1 and isinstance(node.elt, ast.Attribute) and \
            node.elt.attr == "name":
        it = node.generators[0].iter
        if isinstance(it, ast.Call) and _call_name(it) == "fields" and len(it.args) == 1:
            return _class_named(it.args[0])
    if isinstance(node, ast.Attribute) and node.attr == "parameters":
        sig = resolve(node.value, consts)
        if isinstance(sig, ast.Call) and _call_name(sig) == "signature" and len(sig.args) == 1:
            return _class_named(sig.args[0])
    if isinstance(node, ast.Attribute) and node.attr == "__dataclass_fields__":
        return _class_named(node.value)
    return None


def _class_named(node) -> str | None:
    if isinstance(node, ast.Attribute) and node.attr == "__init__":
        node = node.value
    if isinstance(node, ast.Attribute):
        return node.attr  # transformers.TrainingArguments
    return node.id if isinstance(node, ast.Name) else None


def _signature_filtered(node, consts: dict):
    """(the dict a comprehension filters, the keys it keeps, whether it drops None values) when `node` is `{k: v for k,
    v in D.items() if k in PARAMS}` with PARAMS the parameter names of one of _SIGNATURE_CLASSES (a script's guard
    against a keyword the installed transformers lacks) or a key set written out (`if k in supported`, `if k not in
    {...}`: _key_set) and, at most, `if v is not None` beside it; else None (another condition: the keys it keeps are
    not known here). The keys kept of a class's signature are its fields (configs.hf_transformers.HF_FIELDS), which
    every release takes: bf16 / fp16 / torch_compile / per_device_train_batch_size ..."""
    if not (isinstance(node, ast.DictComp) and len(node.generators) == 1):
        return None
    g = node.generators[0]
    if not (isinstance(g.target, ast.Tuple) and len(g.target.elts) == 2 and
            all(isinstance(e, ast.Name) for e in g.target.elts)):
        return None
    k, v = (e.id for e in g.target.elts)
    if not (isinstance(node.key, ast.Name) and node.key.id == k and isinstance(node.value, ast.Name) and
            node.value.id == v):
        return None
    if not (isinstance(g.iter, ast.Call) and isinstance(g.iter.func, ast.Attribute) and g.iter.func.attr == "items"
            and not g.iter.args):
        return None
    conds = [c for i in g.ifs for c in (i.values if isinstance(i, ast.BoolOp) and isinstance(i.op, ast.And) else [i])]
    cls, drop_none, listed = None, False, []
    for c in conds:
        if not (isinstance(c, ast.Compare) and len(c.ops) == 1 and isinstance(c.left, ast.Name)):
            return None
        if c.left.id == v and isinstance(c.ops[0], ast.IsNot) and isinstance(c.comparators[0], ast.Constant) and \
                c.comparators[0].value is None:
            drop_none = True
        elif c.left.id == k and isinstance(c.ops[0], (ast.In, ast.NotIn)) and _key_set(c.comparators[0], consts):
            # `if k in supported` of `supported = {"bf16", "fp16", ...}` written out (round 82m's SujitRoy run_sft.py,
            # cfg89): the keys listed, or every key but those (`not in`)
            listed.append((isinstance(c.ops[0], ast.In), _key_set(c.comparators[0], consts)))
        elif c.left.id == k and isinstance(c.ops[0], ast.In) and cls is None:
            cls = _signature_of(c.comparators[0], consts)
            if cls not in _SIGNATURE_CLASSES:
                return None
        else:
            return None
    if cls is None and not listed:
        return None
    from ..hf_transformers import HF_FIELDS

    return g.iter.func.value, _Kept(HF_FIELDS if cls else None, listed), drop_none


class _Kept:
    """The keys a filtering comprehension keeps (`key in kept`): a config class's fields (fields None: any key), and for
    each written-out key set the comprehension tests, whether the key must be in it (True) or not (False)."""

    def __init__(self, fields, listed):
        self.fields, self.listed = fields, listed

    def __contains__(self, key) -> bool:
        return (self.fields is None or key in self.fields) and all((key in keys) is inside for inside, keys in self.listed)


def _key_set(node, consts: dict) -> frozenset | None:
    """The strings of a set / list / tuple of string constants the script writes out (`{"bf16", "fp16"}`), or of a dict's
    keys written out, `set([...])` / `frozenset(...)` of one; None for anything else."""
    node = resolve(node, consts)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("set", "frozenset") and \
            len(node.args) == 1 and not node.keywords:
        node = resolve(node.args[0], consts)
    if isinstance(node, ast.Dict):
        node = ast.Set(elts=[k for k in node.keys if k is not None]) if None not in node.keys else None
    if not isinstance(node, (ast.Set, ast.List, ast.Tuple)) or \
            not all(isinstance(e, ast.Constant) and isinstance(e.value, str) for e in node.elts):
        return None
    return frozenset(e.value for e in node.elts)


def signature_filters(tree) -> set:
    """Names of the script's functions (each defined once) that return their first parameter's items kept against a
    config class's signature, the loop form of _signature_filtered (round 68m's Min-DongYoung train.py, cfg71: `def
    filter_sft_kwargs(kwargs): sig = inspect.signature(SFTConfig.__init__) ... filtered = {} / for key, value in
    kwargs.items(): if key in params: filtered[key] = value ... / return filtered`, then `SFTConfig(
    **filter_sft_kwargs(sft_kwargs))`): `**f(D)` spreads D's keys that are those classes' fields."""
    out = set()
    for name, (f, ret) in single_returns(tree).items():
        params = [a.arg for a in f.args.posonlyargs + f.args.args]
        if not params or not isinstance(ret.value, ast.Name):
            continue
        kept, p = ret.value.id, params[0]
        sig = any(isinstance(n, ast.Call) and _call_name(n) == "signature" and len(n.args) == 1 and
                  _class_named(n.args[0]) in _SIGNATURE_CLASSES for n in walked(f))
        copies = any(isinstance(n, ast.For) and isinstance(n.iter, ast.Call) and isinstance(n.iter.func, ast.Attribute)
                     and n.iter.func.attr == "items" and isinstance(n.iter.func.value, ast.Name) and
                     n.iter.func.value.id == p and isinstance(n.target, ast.Tuple) and len(n.target.elts) == 2 and
                     any(isinstance(a, ast.Assign) and len(a.targets) == 1 and isinstance(a.targets[0], ast.Subscript)
                         and isinstance(a.targets[0].value, ast.Name) and a.targets[0].value.id == kept and
                         isinstance(a.value, ast.Name) and a.value.id == getattr(n.target.elts[1], "id", None)
                         for a in walked(n))
                     for n in walked(f))
        if sig and copies:
            out.add(name)
    return out


# wrappers that give a dict's keys as attributes (`cfg = EasyDict(yaml.safe_load(f))`, `OmegaConf.create(d)`)
_ATTR_WRAPPERS = {"SimpleNamespace", "EasyDict", "edict", "Box", "Munch", "munchify", "DotMap", "AttrDict", "ConfigDict",
                  "DictConfig", "create", "Namespace", "addict", "Dict"}
LOADED = "_attn_doctor_loaded"  # the mark settings_files puts on the dicts of a settings file a script loads


def wrapped_arg(call: ast.Call):
    """What an object is built from alone: `Cls(**x)`'s x, or `EasyDict(x)`'s of a wrapper of _ATTR_WRAPPERS; None for
    another call."""
    if not call.args and len(call.keywords) == 1 and call.keywords[0].arg is None:
        return call.keywords[0].value
    if len(call.args) == 1 and not call.keywords and _call_name(call) in _ATTR_WRAPPERS:
        return call.args[0]
    return None


def _attr_source(node, consts: dict, depth: int = 0):
    """The dict of a loaded settings file (marked LOADED: pyscript.settings_files) whose keys an object's attributes
    are, or None: the loaded dict itself (OmegaConf.load's DictConfig reads `cfg.training.bf16`), a wrapper of it
    (`SimpleNamespace(**cfg)`, `EasyDict(cfg)`, a config class built from it alone, `Config(**cfg)`), or the dict
    under a key of one (`cfg.training`). Round 75m's 1azybug train.py: `TrainingArguments(**model_config.training_args)`
    of `model_config = ReCMLLMConfig(**load_json("./ReCMLLM/config.json"))` (cfg78)."""
    node = resolve(node, consts)
    if depth > 6:
        return None
    if isinstance(node, ast.Dict):
        return node if getattr(node, LOADED, False) else None
    if isinstance(node, ast.Call):
        inner = wrapped_arg(node)
        return None if inner is None else _attr_source(inner, consts, depth + 1)
    if isinstance(node, ast.Attribute):
        parent = _attr_source(node.value, consts, depth + 1)
        if parent is not None:
            got = [v for k, v in _dict_items(parent, consts, depth + 1) if k == node.attr]
            if got and isinstance(got[-1], ast.Dict) and getattr(got[-1], LOADED, False):
                return got[-1]
    return None


def _unseen(node) -> bool:
    """A loaded mapping a file not here may set keys in (settings_files._literal: a `**` of RUNTIME first)."""
    return isinstance(node, ast.Dict) and any(k is None and v is RUNTIME for k, v in zip(node.keys, node.values))


def _looked_in(node):
    """(the object a lookup looks in, the keys it follows) of `x.k`, `x["k"]`, `x.get("k", d)` / `x.pop(...)`,
    `getattr(x, "k", d)`, a dotted path given with the object (`OmegaConf.select(x, "a.b", default=d)`, a getter of the
    user's own: `deep_get(x, "a.b", d)`), and the same mapping copied (`OmegaConf.to_container(x)`, `EasyDict(x)`,
    `bool(x)`: no key); None for any other node."""
    if isinstance(node, ast.Attribute):
        return node.value, [node.attr]
    if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, str):
        return node.value, [node.slice.value]
    if not isinstance(node, ast.Call):
        return None
    named = [a.value for a in node.args[1:2] if isinstance(a, ast.Constant) and isinstance(a.value, str)]
    if isinstance(node.func, ast.Attribute) and node.func.attr in ("get", "pop"):
        first = node.args[0] if node.args else None
        return (node.func.value, [first.value]) if isinstance(first, ast.Constant) and \
            isinstance(first.value, str) else (node.func.value, [])
    if node.args and named:
        return node.args[0], named[0].split(".")  # (getattr's one key; select's and a user's getter's dotted path)
    if node.args and (ast.unparse(node.func) in _SAME_MAPPING or wrapped_arg(node) is not None or
                      ast.unparse(node.func) == "bool"):
        return node.args[0], []
    return None


def _mapping(node, consts: dict, depth: int = 0):
    """The loaded settings mapping (an ast.Dict marked LOADED) a node reads as, following _looked_in's keys; or None."""
    src = _attr_source(node, consts)
    if src is not None or depth > 8:
        return src
    node = resolve(node, consts)
    if isinstance(node, ast.Dict):
        return node if getattr(node, LOADED, False) else None
    parts = _looked_in(node)
    m = _mapping(parts[0], consts, depth + 1) if parts is not None else None
    for key in parts[1] if m is not None else ():
        got = [v for k, v in zip(m.keys, m.values) if isinstance(k, ast.Constant) and k.value == key]
        m = got[-1] if got and isinstance(got[-1], ast.Dict) and getattr(got[-1], LOADED, False) else None
        if m is None:
            break
    return m


def unseen_lookup(node, consts: dict, depth: int = 0) -> bool:
    """Whether `node` (a lookup: `cfg.model.get("attn", "sdpa")`, `getattr(cfg.training, "bf16", False)`,
    `cfg.get("model", {}).get(...)`, `cfg["model"].get(...)`, `OmegaConf.select(cfg, "model.attn", default=...)`, a getter
    of the user's own given a dotted path, through `OmegaConf.to_container(cfg)`; or the object looked in) reads a loaded
    settings mapping that a file not here may set keys in: a Hydra config whose group file is not here (settings_files
    marks it with a `**` of RUNTIME, pyscript.hydra_compose.UNSEEN), at that mapping or one above it on the lookup's
    path. Such a lookup's default is not the run's value: the missing file decides (cfg87; the other spellings rev21)."""
    if depth > 8:
        return False
    if _unseen(_mapping(node, consts)):
        return True
    parts = _looked_in(resolve(node, consts))
    if parts is None:
        return False
    if unseen_lookup(parts[0], consts, depth + 1):
        return True
    m = _mapping(parts[0], consts)
    for key in parts[1][:-1] if m is not None else ():
        got = [v for k, v in zip(m.keys, m.values) if isinstance(k, ast.Constant) and k.value == key]
        m = got[-1] if got and isinstance(got[-1], ast.Dict) else None
        if m is None:
            return False
        if _unseen(m):
            return True
    # the key's own value not known here (a Hydra `${oc.env:VAR}` nothing sets, an interpolation not settled:
    # settings_files._literal's RUNTIME): the run decides, not the getter's default
    got = [v for k, v in zip(m.keys, m.values) if isinstance(k, ast.Constant) and k.value == parts[1][-1]] \
        if isinstance(m, ast.Dict) and parts[1] else []
    return bool(got) and got[-1] is RUNTIME


def _key(node, consts: dict):
    """A subscript's key as the run has it: a string written out, or the parsed command line's value of an option
    (`args.mode`: the launch's word, else argparse's default); None for anything else."""
    if isinstance(node, ast.Constant):
        return node.value if isinstance(node.value, str) else None
    if isinstance(node, ast.Attribute) and node.attr in consts.get(ARGPARSE, {}) and _parsed_args(node.value, consts):
        got = resolve(consts[ARGPARSE][node.attr], consts)
        return got.value if isinstance(got, ast.Constant) and isinstance(got.value, str) else None
    return None


def _dict_items(node, consts: dict, depth: int = 0) -> list:
    """The (key, value node) pairs of a dict the script writes out: `{"k": v, **other}` or `dict(k=v, **other)`;
    nothing for a dict it builds at run time."""
    node = resolve(node, consts)
    if depth > 3:
        return []
    out = []
    if isinstance(node, ast.Dict):
        for k, v in zip(node.keys, node.values):
            if k is None:  # {**other}
                out += _dict_items(v, consts, depth + 1)
            elif isinstance(k, ast.Constant) and isinstance(k.value, str):
                out.append((k.value, v))
    elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "dict":
        for a in node.args[:1]:  # dict({...}, k=v)
            out += _dict_items(a, consts, depth + 1)
        for k in node.keywords:
            out += [(k.arg, k.value)] if k.arg else _dict_items(k.value, consts, depth + 1)
    elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        # `base | cfg[args.mode]`: PEP 584's merge, the right operand's keys over the left's ({**a, **b})
        out += _dict_items(node.left, consts, depth + 1) + _dict_items(node.right, consts, depth + 1)
    elif isinstance(node, ast.Subscript) and isinstance(_key(node.slice, consts), str):
        # `**CONFIG["training"]` of `CONFIG = {"training": {...}, "model": {...}}` written in the script: the inner
        # dict under that key (the last one the outer dict gives it, as Python builds it); the key may be an option's
        # value, `raw[args.mode]` of `add_argument("--mode", default="full")`: the section the run picks
        inner = [v for k, v in _dict_items(node.value, consts, depth + 1) if k == _key(node.slice, consts)]
        if inner:
            out += _dict_items(inner[-1], consts, depth + 1)
    elif isinstance(node, ast.Attribute) and _attr_source(node, consts, depth + 1) is not None:
        # `**cfg.training` of a settings file the script loads (OmegaConf's DictConfig, a namespace built from it)
        out += _dict_items(_attr_source(node, consts, depth + 1), consts, depth + 1)
    elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
            node.func.id in consts.get(SIGNATURE_FILTERS, ()) and node.args and not node.keywords:
        # `**filter_sft_kwargs(sft_kwargs)` of the script's own signature filter (signature_filters): D's fields (not
        # the empty dict the filter starts from, which _returned_dicts would take for what it returns)
        from ..hf_transformers import HF_FIELDS

        out += [(k, v) for k, v in _dict_items(node.args[0], consts, depth + 1) if k in HF_FIELDS]
    elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
            node.func.id in consts.get(RETURNED_DICTS, {}):
        # `**build_kwargs(cfg)` of the script's own `def build_kwargs(cfg): kw = {...}; return kw`
        out += _dict_items(consts[RETURNED_DICTS][node.func.id], consts, depth + 1)
    elif isinstance(node, ast.Call) and ast.unparse(node.func) in _SAME_MAPPING and node.args:
        # `**OmegaConf.to_container(cfg.train)`, `**copy.deepcopy(kw)`: the mapping it is given, as plain Python (cfg83)
        out += _dict_items(node.args[0], consts, depth + 1)
    elif isinstance(node, ast.Call) and ast.unparse(node.func) == "vars" and len(node.args) == 1 and \
            _parsed_args(node.args[0], consts):
        # `SFTConfig(**vars(args))` of `args = parser.parse_args()`: every option the parser declares, as the command
        # line (or its default) gives it (argparse's Namespace holds one attribute per dest; cfg83)
        out += list(consts.get(ARGPARSE, {}).items())
    elif _signature_filtered(node, consts) is not None:
        # `{k: v for k, v in kw.items() if k in inspect.signature(TrainingArguments).parameters}`: kw's fields
        base, keep, drop_none = _signature_filtered(node, consts)
        out += [(k, v) for k, v in _dict_items(base, consts, depth + 1) if k in keep and
                not (drop_none and isinstance(v, ast.Constant) and v.value is None)]
    return out


def _known_items(node, consts: dict, depth: int = 0) -> list | None:
    """The (key, value node) pairs of a dict known here whole: written out in the script (`{...}` / `dict(...)`, every
    `**other` spread in it known too) or loaded from a settings file that is here (constants' `read`), or an entry of
    one that is itself such a dict (`cfg["model"]`); None when any part is decided at run time (a dict the script
    updates with contents not known here: _opaque_updates)."""
    if isinstance(node, ast.Name) and node.id in consts.get(OPAQUE_DICTS, ()):
        return None
    node = resolve(node, consts)
    if depth > 4:
        return None
    if isinstance(node, ast.Dict):
        out = []
        for k, v in zip(node.keys, node.values):
            if k is None:
                inner = _known_items(v, consts, depth + 1)
                if inner is None:
                    return None
                out += inner
            elif isinstance(k, ast.Constant):
                out.append((k.value, v))
            else:
                return None
        return out
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "dict" and \
            len(node.args) <= 1:
        out = []
        for a in node.args:
            inner = _known_items(a, consts, depth + 1)
            if inner is None:
                return None
            out += inner
        for k in node.keywords:
            if k.arg:
                out.append((k.arg, k.value))
            else:
                inner = _known_items(k.value, consts, depth + 1)
                if inner is None:
                    return None
                out += inner
        return out
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        # `base | cfg[args.mode]` (PEP 584): known whole when both are, the right one's keys last
        left, right = _known_items(node.left, consts, depth + 1), _known_items(node.right, consts, depth + 1)
        return None if left is None or right is None else left + right
    if isinstance(node, ast.Subscript) and isinstance(_key(node.slice, consts), str):
        outer = _known_items(node.value, consts, depth + 1)
        got = [v for k, v in outer or [] if k == _key(node.slice, consts)]
        return _known_items(got[-1], consts, depth + 1) if got else None
    if isinstance(node, ast.Attribute) and _attr_source(node, consts, depth + 1) is not None:
        # `cfg.model` of a settings file the script loads, read through OmegaConf or a namespace (`cfg.model.get("attn",
        # "sdpa")` of a Hydra config: cfg87)
        return _known_items(_attr_source(node, consts, depth + 1), consts, depth + 1)
    if isinstance(node, ast.Call) and ast.unparse(node.func) in _SAME_MAPPING and node.args:
        # `OmegaConf.to_container(cfg, resolve=True)["model"]`: the mapping it copies, as plain Python (rev21)
        return _known_items(node.args[0], consts, depth + 1)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get" and \
            1 <= len(node.args) <= 2 and not node.keywords and isinstance(node.args[0], ast.Constant):
        # `cfg.get("model", {}).get("attn_implementation", "sdpa")`: the section, else the getter's default dict
        outer = _known_items(node.func.value, consts, depth + 1)
        if outer is None:
            return None
        got = [v for k, v in outer if k == node.args[0].value]
        if got:
            return _known_items(got[-1], consts, depth + 1)
        return _known_items(node.args[1], consts, depth + 1) if len(node.args) > 1 else None
    return None


def keywords(call: ast.Call, consts: dict) -> list[tuple[str, object]]:
    """A call's keyword arguments as Python passes them: `f(**kw)` with `kw = dict(a=1)` / `{"a": 1}` written in
    the script is f(a=1) (a keyword given after the spread wins, as the call would see it last)."""
    out = []
    for k in call.keywords:
        out += [(k.arg, k.value)] if k.arg else _dict_items(k.value, consts)
    return out
