"""LitGPT (and lit-gpt before it): a finetune / pretrain config YAML (`litgpt finetune_lora --config x.yaml`, the
config_hub layout), the `litgpt finetune_lora ... --precision bf16-true` command line, or lit-gpt's older
`python finetune/lora.py --checkpoint_dir ... --precision bf16-true` scripts.

Read from Lightning-AI/litgpt 2685705 (2026-06-29):
- litgpt/model.py:576-596 CausalSelfAttention.scaled_dot_product_attention: always PyTorch's
  F.scaled_dot_product_attention, or plain matmul + softmax when the model config soft-caps attention logits
  (Gemma 2): there is no attention setting, so nothing is required;
- litgpt/pretrain.py:213 `model = torch.compile(model)` (default mode) on every pretraining run; the finetune
  scripts (litgpt/finetune/*.py) do not compile;
- `precision` (finetune/lora.py:52, pretrain.py:52): bf16-true | bf16-mixed | 16-true | 16-mixed | 32-true (Lightning
  Fabric's names); unset it is utils.py:363-380 get_default_supported_precision(training=True): bf16-mixed on a
  GPU with bf16, 16-mixed otherwise -- the GPU decides, not the file;
- `train.micro_batch_size` (args.py TrainArgs), the CLI in litgpt/__main__.py (jsonargparse: `--train.x v` is
  the same as `train: {x: v}`).
"""

from __future__ import annotations

import re

from . import NOTHING, STRONG, Score, as_int
from .trainer_keys import KEYS

TITLE = "LitGPT"
PRECISIONS = {"bf16-true": "bfloat16", "bf16-mixed": "bfloat16", "bf16": "bfloat16", "16-true": "float16",
              "16-mixed": "float16", "16": "float16", "32-true": "float32", "32": "float32", "64-true": "float64",
              "transformer-engine": "bfloat16", "transformer-engine-float16": "float16"}
OWN_KEYS = {"lora_query", "lora_key", "lora_value", "lora_projection", "lora_mlp", "lora_head", "logger_name",
            "initial_checkpoint_dir"}
# names LitGPT shares with nanoGPT (out_dir), old LLaMA-Factory / ChatGLM-Efficient-Tuning and users' own configs
# (checkpoint_dir, tokenizer_dir, model_config): evidence only beside LitGPT's own
SHARED_KEYS = {"checkpoint_dir", "out_dir", "tokenizer_dir", "model_config"}
SUBCOMMANDS = {"finetune", "finetune_lora", "finetune_full", "finetune_adapter", "finetune_adapter_v2", "pretrain"}
# Every key a LitGPT config file can hold at its top level: litgpt/__main__.py hands the file to jsonargparse's CLI over
# the entry point's setup() signature, and jsonargparse refuses a key that is no parameter of it ("... not expected").
# trainer_keys.py (scripts/extract_trainer_keys.py): the union of setup()'s parameters in litgpt/finetune/*.py and
# litgpt/pretrain.py, and in lit-gpt's finetune/*.py and pretrain/*.py, at every commit that touched them (the flat
# hyperparameters and `io:` of 2023-2024 included). A YAML with any other top-level key
# is either a fork's (calvintwr's litgpt adds `fsdp:` and `pad_id`) or another program's that borrowed LitGPT's names;
# a fork's config still names what it trains, as every config_hub file does (checkpoint_dir for finetune/*.py, whose
# setup() requires it; model_name / model_config / initial_checkpoint_dir for pretrain.py), so a file with keys LitGPT
# refuses and none of those (a user's own `optimization:` / `checkpointing:` sections read by the user's own loop)
# is not LitGPT's.
SETUP_KEYS = KEYS["litgpt"]["setup"]
NAMES_THE_MODEL = frozenset({"checkpoint_dir", "model_name", "model_config", "initial_checkpoint_dir", "model"})
# lit-gpt's scripts before the litgpt CLI (2023-2024): finetune/lora.py, finetune/full.py, pretrain/*.py
_OLD_SCRIPT = re.compile(r"(^|[\\/])(finetune[\\/](lora|full|adapter|adapter_v2)|pretrain[\\/]\w+)\.py$")

# the same scripts inside the package folder (litgpt/finetune/lora.py) or a lit-gpt checkout (lit-gpt/finetune/lora.py)
_PACKAGE_SCRIPT = re.compile(r"(^|[\\/])(litgpt|lit[-_]gpt)[\\/]finetune[\\/](lora|full|adapter|adapter_v2|lora_legacy)\.py$")


def _command(doc: dict):
    for c in doc.get("commands") or []:
        if c.program == "litgpt" and c.sub[:1] and c.sub[0] in SUBCOMMANDS:
            return c
        if c.module and c.module.startswith(("litgpt.finetune", "litgpt.pretrain")):
            return c
        if c.script and any(_OLD_SCRIPT.search(w) for w in c.head) and \
                any(a.startswith(("--checkpoint_dir", "--precision", "--io.")) for a in c.args):
            return c
        if c.script and any(_PACKAGE_SCRIPT.search(w) for w in c.head) and \
                any(a == "--config" or a.startswith("--config=") for a in c.args):
            # the package's own file run by path with a YAML (`python litgpt/finetune/lora.py --config X.yaml`):
            # litgpt/finetune/lora.py ends `if __name__ == "__main__": CLI(setup)` (Lightning-AI/litgpt@01fe959),
            # litgpt.utils.CLI being jsonargparse's, which reads --config (cfg80, ENTRYPOINTS.md)
            return c
    return None


# The entry points whose setup() a Python script may call itself instead of the CLI: litgpt.finetune.{lora, full, adapter,
# adapter_v2, lora_legacy} and litgpt.pretrain, or lit-gpt's finetune/*.py and pretrain/*.py imported from a lit-gpt
# checkout put on sys.path (`sys.path.append("lit-gpt/finetune")` + `import lora` + `lora.setup(precision=...)`).
SETUP_MODULES = {"lora", "full", "adapter", "adapter_v2", "lora_legacy", "pretrain", "tinyllama", "redpajama",
                 "openwebtext"}
_LIT_PATH = re.compile(r"lit[-_]?gpt", re.IGNORECASE)


def _python_setup(doc: dict):
    """(module, keyword arguments) of the last setup() of a LitGPT / lit-gpt entry point the script calls, or None."""
    import ast

    from ..textutil import walked
    from .pyscript import constants, keywords, tree

    t = tree(doc.get("python") or "")
    if t is None:
        return None
    on_path = any(isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr in ("append", "insert")
                  and any(isinstance(a, ast.Constant) and isinstance(a.value, str) and _LIT_PATH.search(a.value)
                          for a in n.args) for n in walked(t))
    modules, functions = {}, {}  # local name -> entry point
    for n in walked(t):
        if isinstance(n, ast.Import):
            for a in n.names:
                last = a.name.rsplit(".", 1)[-1]
                if last in SETUP_MODULES and (a.name.startswith("litgpt.") or on_path and
                                              (a.name == last or a.name.startswith(("finetune.", "pretrain.")))):
                    modules[a.asname or (a.name if a.asname is None and "." in a.name else last)] = last
        elif isinstance(n, ast.ImportFrom) and n.module:
            last = n.module.rsplit(".", 1)[-1]
            lit = n.module.startswith("litgpt") or on_path and n.module.split(".")[0] in ("finetune", "pretrain")
            for a in n.names:
                if lit and a.name == "setup" and last in SETUP_MODULES:
                    functions[a.asname or "setup"] = last
                elif lit and a.name in SETUP_MODULES:
                    modules[a.asname or a.name] = a.name
    if not modules and not functions:
        return None
    consts = constants(t)
    found = None
    for n in walked(t):
        if not isinstance(n, ast.Call):
            continue
        f = n.func
        if isinstance(f, ast.Attribute) and f.attr == "setup":
            owner = ast.unparse(f.value) if hasattr(ast, "unparse") else ""
            entry = modules.get(owner)
        else:
            entry = functions.get(f.id) if isinstance(f, ast.Name) else None
        if entry:
            found = (entry, dict(keywords(n, consts)), consts)
    return found


def score(doc: dict) -> Score:
    if doc["fmt"] == "python" and doc.get("command") is None:
        py = _python_setup(doc)
        if py is not None:
            return Score().add(f"{py[0]}.setup() of {'litgpt' if 'litgpt' in (doc.get('python') or '') else 'lit-gpt'}",
                               2 * STRONG)
    if doc["fmt"] in ("yaml", "json"):
        d = doc["data"]
        own = sorted(set(d) & OWN_KEYS)
        train = d.get("train") if isinstance(d.get("train"), dict) else {}
        if not own and not ({"global_batch_size", "micro_batch_size"} <= set(train)) and not set(d) & SHARED_KEYS:
            return NOTHING
        foreign = sorted(set(d) - SETUP_KEYS)
        sc = Score()
        if foreign and not set(d) & NAMES_THE_MODEL:
            # keys LitGPT's CLI would refuse: what LitGPT-like names it has are another script's (shared evidence only)
            for k in own + sorted(set(d) & SHARED_KEYS):
                sc.add(k, 1.0)
            if own:
                from .parser_keys import refusal

                sc.refused = refusal(TITLE, d, own, ("setup()", [str(k) for k in d if k not in SETUP_KEYS]),
                                     " and names no model (checkpoint_dir, model_name, model_config)")
            return sc
        for k in own:
            sc.add(k)
        for k in sorted(set(d) & SHARED_KEYS):
            sc.add(k, 1.0)
        if {"global_batch_size", "micro_batch_size"} <= set(train):
            sc.add("train: {global_batch_size, micro_batch_size}")
        if str(d.get("precision", "")).strip() in PRECISIONS and "-" in str(d.get("precision")):
            sc.add(f"precision: {d['precision']}", 1.0)
        data = d.get("data") if isinstance(d.get("data"), dict) else {}
        if str(data.get("class_path", "")).startswith("litgpt."):
            sc.add(f"data.class_path: {data['class_path']}")
        return sc
    c = _command(doc) if doc["fmt"] in ("text", "python") else None
    if c is None:
        return NOTHING
    return Score().add(c.name if c.program == "litgpt" else (c.module or c.script), 2 * STRONG)


def _cli_settings(cmd) -> dict:
    """jsonargparse's `--a.b value` / `--a.b=value` as a nested dict; a leading positional is checkpoint_dir."""
    from .shell import parse_options

    parsed = parse_options(cmd.args)
    out: dict = {}
    for k, v in parsed.values.items():
        cur = out
        parts = k.split(".")
        for p in parts[:-1]:
            cur = cur.setdefault(p, {}) if isinstance(cur.get(p, {}), dict) else {}
        cur[parts[-1]] = v
    return out


def _merge(base: dict, over: dict) -> dict:
    out = dict(base)
    for k, v in over.items():
        out[k] = _merge(out[k], v) if isinstance(v, dict) and isinstance(out.get(k), dict) else v
    return out


def read(doc: dict) -> dict:
    py = _python_setup(doc) if doc["fmt"] == "python" and doc.get("command") is None else None
    if py is not None:
        from .pyscript import value

        entry, kw, consts = py
        d = {k: value(v, consts) for k, v in kw.items()}
        d = {k: v for k, v in d.items() if v != "?"}
        fmt, sub, unread = "python", entry, False
    elif doc["fmt"] in ("text", "python"):
        from . import config_data

        cmd = _command(doc)
        d = _cli_settings(cmd) if cmd is not None else {}
        # jsonargparse's CLI (litgpt/__main__.py:80) reads `--config X.yaml` first (the file the script writes itself,
        # or the one on this machine) and the options after it over it
        named = d.pop("config", None)
        cfg = config_data(doc, named)
        if cfg is not None:
            d = _merge(cfg, d)
        unread = isinstance(named, str) and cfg is None  # the file the line names is not here: its settings unknown
        sub = cmd.sub[0] if cmd is not None and cmd.sub else (cmd.module or cmd.script or "") if cmd else ""
        fmt = "cmdline"
    else:
        d, fmt, sub, unread = doc["data"], doc["fmt"], "", False
    pretrain = "pretrain" in str(sub) or ("model_name" in d and "checkpoint_dir" not in d and fmt != "cmdline")
    prec = str(d.get("precision") or "").strip()
    train = d.get("train") if isinstance(d.get("train"), dict) else {}
    return {
        "trainer": "litgpt", "trainer_title": TITLE + (" pretrain" if pretrain else ""), "format": fmt,
        "family": None, "mixed_precision": prec or None, "dtype": PRECISIONS.get(prec),
        "attention": [],  # model.py: PyTorch SDPA (or matmul + softmax with logit soft-capping); no setting
        "compile": {"enabled": pretrain, "mode": "default" if pretrain else None,
                    "setting": "litgpt pretrain (pretrain.py compiles the model)" if pretrain else None},
        "batch_size": as_int(train.get("micro_batch_size")) if train.get("micro_batch_size") is not None else None,
        "packing": [], "config_file_unread": unread,
        "fixes": {"use_default": "# LitGPT has no attention setting: it runs PyTorch SDPA"},
    }


def parse(path: str, text: str) -> dict:
    from . import make_doc

    return read(make_doc(path, text))
