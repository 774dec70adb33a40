"""ms-swift (ModelScope SWIFT): `swift sft|pt|rlhf ...` command lines (with NPROC_PER_NODE=... prefixes), the
YAML/JSON config `swift sft config.yaml` takes, and ms-swift 2.x's `--use_flash_attn` / `--dtype` spellings.

Read from modelscope/ms-swift 3602360 (2026-08-22):
- swift/arguments/base_args/model_args.py:79 `attn_impl` (default None: the model's config.json decides, sdpa or
  eager); swift/model/utils.py:30-50 AttnImpl: flash_attn and flash_attention_2 both become transformers'
  flash_attention_2; other values (sdpa, eager, flex_attention, flash_attention_3, flash_attention_4) are passed to
  transformers as they are;
- swift/arguments/sft_args.py:184-194 _check_padding_free: `packing` or `padding_free` with an attn_impl other
  than flash_attn / flash_attention_2 / flash_attention_3 / flash_attention_4 raises ValueError ("requires a
  flash attention implementation");
- model_args.py:72 `torch_dtype` bfloat16 | float16 | float32 (None: config.json's); :130-143
  _init_mixed_precision: bfloat16 trains with bf16 autocast, float16 and float32 with fp16;
- swift/cli/main.py:38-70 parse_yaml_args: `swift sft x.yaml` turns the file's keys into `--key value`;
  swift/pipelines/base.py:35-40: an argument the parser does not know raises ValueError("remaining_argv: ...");
- ms-swift 2.x (swift/llm/utils/argument.py, v2.6.1:637,838): `--use_flash_attn true` (flash_attention_2),
  `--dtype bf16|fp16|fp32|AUTO`, `--sft_type`, `--model_type`, `--model_id_or_path`.
TrainingArguments' `torch_compile` / `torch_compile_mode` pass through (HF Trainer).
"""

from __future__ import annotations

from . import NOTHING, STRONG, Score, as_int, given
from .hf_transformers import entry

TITLE = "ms-swift"
# attn_impl -> transformers' name (AttnImpl.to_use_flash_attn maps flash_attn to flash_attention_2)
ATTN_IMPL = {"flash_attn": "flash_attention_2", "flash_attention_2": "flash_attention_2",
             "flash_attention_3": "flash_attention_3", "flash_attention_4": "flash_attention_4", "sdpa": "sdpa",
             "eager": "eager", "flex_attention": "flex_attention"}
PACKING_OK = {"flash_attn", "flash_attention_2", "flash_attention_3", "flash_attention_4"}
DTYPES = {"bfloat16": "bfloat16", "float16": "float16", "float32": "float16", "bf16": "bfloat16", "fp16": "float16",
          "fp32": "float32"}
OWN_KEYS = {"train_type", "tuner_type", "attn_impl", "sft_type", "template_type", "dataset_sample", "train_dataset_sample", "lora_dropout_p", "freeze_vit", "tuner_backend", "model_author",
            "split_dataset_ratio", "ignore_args_error"}
# ms-swift options other frameworks have too (PEFT / axolotl / alpaca-lora's lora_target_modules, TRL's
# dataset_num_proc, DeepSpeed's loss_scale, Qwen-VL scripts' max_pixels, sequence_parallel_size of 360-LLaMA-Factory
# and others, use_flash_attn of LongLoRA's and many users' scripts; model_id_or_path, 2.x's, is also the model key of
# mistralai/mistral-finetune's YAML, finetune/args.py:59 TrainArgs, round 9m): evidence only beside one of OWN_KEYS
SHARED_KEYS = {"lora_target_modules", "dataset_num_proc", "loss_scale", "sequence_parallel_size", "max_pixels",
               "use_flash_attn", "model_id_or_path"}
# ms-swift's Python entry points (swift/pipelines/train/sft.py:340 sft_main, rlhf.py:253 rlhf_main, pretrain_main;
# 2.x's swift.llm sft_main / pt_main / rlhf_main) and the argument classes they take (swift/arguments/: SftArguments,
# PretrainArguments, RLHFArguments; 3.x's TrainArguments; 2.x's PtArguments): `sft_main(SftArguments(...))` runs what
# `swift sft --key value ...` runs, and `sft_main(["--model", ...])` parses the list as that command line
API_MAINS = {"sft_main": "sft", "pretrain_main": "pt", "pt_main": "pt", "rlhf_main": "rlhf"}
API_ARGS = {"SftArguments", "TrainArguments", "PretrainArguments", "PtArguments", "RLHFArguments"}
SUBCOMMANDS = {"sft", "pt", "rlhf"}
# ms-swift's entry files (swift/cli/sft.py, pt.py, rlhf.py: `from swift.llm import sft_main` ... `sft_main()`), which the
# `swift` command runs for its subcommands (swift/cli/main.py ROUTE_MAPPING)
ENTRY_FILES = ("sft.py", "pt.py", "rlhf.py")


def _command(doc: dict):
    for c in doc.get("commands") or []:
        if c.program == "swift" and c.sub[:1] and c.sub[0] in SUBCOMMANDS:
            return c
        if c.script in ("llm_sft.py", "sft.py", "pt.py", "rlhf.py") and c.module and c.module.startswith("swift."):
            return c
        if c.script == "llm_sft.py" and any(a.startswith(("--sft_type", "--model_type")) for a in c.args):
            return c  # ms-swift 1.x/2.x examples: python llm_sft.py --model_type ... --sft_type lora
        if c.script in ENTRY_FILES and any(w.replace("\\", "/").endswith("swift/cli/" + c.script) for w in c.words):
            # the installed package's own entry file run by its path (`torchrun "$SITE/swift/cli/sft.py" ...`, the
            # path printed by `python -c 'import swift ...'`, shell_words.package_file): what `swift sft` runs
            return c
    return None


def score(doc: dict) -> Score:
    if doc["fmt"] in ("yaml", "json"):
        from . import SHARED
        from .parser_keys import not_its_file, refusal

        own = sorted(set(doc["data"]) & OWN_KEYS)
        sc = Score()
        for k in own:
            sc.add(k)
        for k in sorted(set(doc["data"]) & SHARED_KEYS):
            sc.add(k, SHARED)
        refused = not_its_file("ms-swift", doc["data"], sc.evidence) if own else None
        if refused:
            # most of its keys are ones ms-swift's parser refuses: its ms-swift names are another framework's too
            other = Score(SHARED * len(sc.evidence), sc.evidence)
            other.refused = refusal(TITLE, doc["data"], sc.evidence, refused)
            return other
        return sc if sc.points else NOTHING
    if doc["fmt"] not in ("text", "python"):
        return NOTHING
    c = _command(doc)
    if c is None:
        api = _api_run(doc)
        return Score().add(f"{api[0]}(...) (swift's Python API)", 2 * STRONG) if api else NOTHING
    return Score().add(c.name, 2 * STRONG)


def _api_run(doc: dict) -> tuple[str, dict] | None:
    """(entry point, settings) of a script that runs ms-swift in-process: `from swift.llm import SftArguments,
    sft_main` then `sft_main(SftArguments(model_type=..., ...))` (or the arguments in a variable, or a list of
    command-line words). Settings as a command line would give them; values the script computes are left out."""
    import ast

    from .pyscript import constants, keywords, resolve, tree, value
    from .shell import dataclass_options

    if doc["fmt"] != "python" or "swift" not in (doc.get("python") or ""):
        return None
    t = tree(doc.get("python") or "")
    if t is None:
        return None
    imported: dict = {}  # the name the script calls -> ms-swift's (`sft_main as run_sft`)
    for n in ast.walk(t):
        if isinstance(n, ast.ImportFrom) and (n.module or "").split(".")[0] == "swift":
            imported.update({a.asname or a.name: a.name for a in n.names})
    consts = constants(t)
    for n in ast.walk(t):
        if not (isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and imported.get(n.func.id) in API_MAINS
                and n.args):
            continue
        a = resolve(n.args[0], consts)
        if isinstance(a, ast.Call) and isinstance(a.func, ast.Name) and imported.get(a.func.id) in API_ARGS:
            s = {}
            for k, v in keywords(a, consts):
                got = value(v, consts)
                if k and got != "?":
                    s[k] = got.replace("torch.", "") if isinstance(got, str) else got
            return imported[n.func.id], s
        if isinstance(a, (ast.List, ast.Tuple)):
            words = [str(e.value) if isinstance(e, ast.Constant) else "$PY_VALUE" for e in a.elts]
            return imported[n.func.id], {k: v for k, v in dataclass_options(words).items() if v != "$PY_VALUE"}
        return imported[n.func.id], {}
    return None


def _settings(doc: dict) -> tuple[dict, str, object]:
    from .shell import dataclass_options

    if doc["fmt"] not in ("text", "python"):
        return dict(doc["data"]), doc["fmt"], None
    cmd = _command(doc)
    if cmd is None:
        api = _api_run(doc)
        return (dict(api[1]), "python", None) if api else ({}, "cmdline", None)
    from . import config_data

    args = list(cmd.args)
    s: dict = {}
    if args and not args[0].startswith("-") and args[0].endswith((".yaml", ".yml", ".json")):
        # where the launcher's run finds it (after its `cd`s, beside it, from the root above), or the text it writes;
        # named in doc["unread"] when it is not there to read
        s.update(config_data(doc, args[0]) or {})
        args = args[1:]
    # `swift sft --config x.yaml [--key value ...]`, ms-swift v3.10.0 to v4.0.x (21209f9a9 swift/cli/main.py
    # prepare_config_args, until 6b3fa6ecc made the file positional in v4.1.0): the first `--config` word and its path are
    # taken out and the file's keys appended AFTER the rest of the line, so where both give a key the file's value is the
    # one argparse keeps (the last); named in doc["unread"] when it is not there to read
    at = args.index("--config") if "--config" in args[:-1] else None
    config = args[at + 1] if at is not None else None
    if at is not None:
        args = args[:at] + args[at + 2:]
    s.update(dataclass_options(args))
    if config is not None:
        s.update(config_data(doc, config) or {})
    return s, "cmdline", cmd


def read(doc: dict) -> dict:
    s, fmt, cmd = _settings(doc)
    truthy = (lambda v: v is True or str(v).strip().lower() in ("true", "1"))
    raw = s.get("attn_impl")
    entries = []
    impl = None
    if given(raw):
        impl = str(raw).strip()
        e = entry(ATTN_IMPL.get(impl, impl), f"--attn_impl {impl}" if fmt == "cmdline" else f"attn_impl: {impl}",
                  {"flash_attention_4": "cute"})
        e["name"] = impl
        if not e["known"]:
            e["fix"] = f"--attn_impl {e['suggestion'] or 'sdpa'}"
        entries.append(e)
    elif truthy(s.get("use_flash_attn")):  # ms-swift 2.x
        impl = "flash_attn"
        entries.append(entry("flash_attention_2", "--use_flash_attn true"))
    packing = truthy(s.get("packing")) or truthy(s.get("padding_free"))
    errors = []
    if packing and (impl or "") not in PACKING_OK:
        feature = "packing" if truthy(s.get("packing")) else "padding_free"
        errors.append({"feature": feature, "attn": impl or "the model's default (sdpa or eager)"})
    dt = s.get("torch_dtype") if given(s.get("torch_dtype")) else s.get("dtype")
    dt = str(dt).strip().lower() if given(dt) else ""
    dtype = DTYPES.get(dt)
    # swift/arguments/base_args/model_args.py:130-143 (modelscope/ms-swift@3602360): torch_dtype float16 / float32 implies
    # fp16 autocast and bfloat16 bf16, each only where the file gives no fp16 / bf16 of its own (`if self.fp16 is None`)
    falsy = (lambda v: v is False or str(v).strip().lower() in ("false", "0"))
    # 2.x (swift/llm/utils/argument.py, v2.6.1:1021) overwrites fp16 / bf16 with what select_dtype derives from --dtype
    v2 = not {"torch_dtype", "attn_impl", "train_type", "tuner_type"} & set(s) and \
        bool({"dtype", "sft_type", "model_id_or_path", "template_type", "use_flash_attn"} & set(s))
    if v2:
        if dtype is None and truthy(s.get("bf16")):
            dtype = "bfloat16"
    else:
        weights = {"bfloat16": "bfloat16", "bf16": "bfloat16", "float16": "float16", "fp16": "float16",
                   "float32": "float32", "fp32": "float32"}.get(dt)
        amp = {}
        for flag, implied in (("fp16", weights in ("float16", "float32")), ("bf16", weights == "bfloat16")):
            v = s.get(flag)
            amp[flag] = truthy(v) if truthy(v) or falsy(v) else implied
        if not (amp["fp16"] and amp["bf16"]):  # both: TrainingArguments refuses the pair ("At most one of fp16 and bf16")
            dtype = "bfloat16" if amp["bf16"] else "float16" if amp["fp16"] else weights
    # HF TrainingArguments (huggingface/transformers@00349ae training_args.py): torch_compile_mode or
    # torch_compile_backend "automatically enables torch_compile"
    comp = truthy(s.get("torch_compile")) or given(s.get("torch_compile_mode")) or given(s.get("torch_compile_backend"))
    return {
        "trainer": "ms-swift", "trainer_title": TITLE + (f" {cmd.sub[0]}" if cmd is not None and cmd.sub else ""),
        "format": fmt, "family": None, "mixed_precision": dt or None, "dtype": dtype, "attention": entries,
        "compile": {"enabled": comp, "mode": (s.get("torch_compile_mode") or "default") if comp else None,
                    "setting": "--torch_compile"},
        "batch_size": as_int(s.get("per_device_train_batch_size") or s.get("batch_size")),
        "swift_packing": errors,
        "packing": [],
        "fixes": {"packing": "--attn_impl flash_attn   # packing / padding_free need a FlashAttention implementation",
                  "use_default": "--attn_impl sdpa", "compile": "--torch_compile true"},
    }


def parse(path: str, text: str) -> dict:
    from . import make_doc

    return read(make_doc(path, text))

