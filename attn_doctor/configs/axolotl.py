"""axolotl: its training YAML (`axolotl train config.yml`).

Read from axolotl-ai-cloud/axolotl 067b021 (2026-07-24):
- src/axolotl/utils/schemas/config.py: `attn_implementation` (validate_attn_implementation: the canonical names
  eager, sdpa, flash_attention_2, flash_attention_3, flex_attention, xformers, sage, fp8, or a Hub-kernel path
  with "/"; the short forms flash, flex, sdp are refused "is not accepted. Use the canonical name"; anything else
  "is not a recognized backend"); normalize_attn_implementation maps the deprecated booleans (enums.py
  LEGACY_ATTN_FLAG_TO_IMPL, first wins: xformers_attention, sage_attention, flex_attention, flash_attention,
  sdp_attention, eager_attention) and refuses them beside attn_implementation; `gemma4_hybrid_attn_impl` runs
  FlashAttention 2 for sliding-window layers and SDPA for the global ones (head_dim 512); `context_parallel_size` (or
  the deprecated `sequence_parallel_degree`) above 1 runs ring-flash-attn and is refused with any backend but the
  flash-attn library's (validation.py check_context_parallel_size); `bf16` (default
  "auto": bf16 where the GPU has it), `fp16`; `torch_compile`, `torch_compile_mode` (default | reduce-overhead |
  max-autotune); `micro_batch_size`;
- enums.py ATTN_IMPLS_SUPPORTING_PACKING (flash_attention_2/3, flex_attention, xformers, sage and the flash/sage
  Hub kernels) and config.py attn_decontaminates_packing (those, plus sdpa and eager through a block-diagonal
  mask); validation.py check_sample_packing_without_attention warns that `sample_packing` with any other backend,
  or with none set, "does not handle cross-sample decontamination";
- src/axolotl/monkeypatch/attention/sage_attn.py calls sageattention's sageattn / sageattn_varlen (forward-only
  kernels: /work/shared/FACTS.md);
- src/axolotl/monkeypatch/attention/flash_attn_4.py patch_flash_attn_4 (applied by loaders/patch_manager.py
  whenever attn_implementation uses the flash-attn library): FlashAttention 2/3 calls go to flash_attn.cute on
  compute capability 9.x-11.x when it imports (checks/trainer.py reports it: config.axolotl-fa4-swap).
Head dims come from the model's config.json when the model named is a local directory (a Hub id: none).
Launch lines (src/axolotl/cli/main.py `axolotl train CONFIG [--key value]`, and `[accelerate launch | python] -m
axolotl.cli.train CONFIG`): read through CONFIG when the script writes it itself or it is beside the launch file (or
where it says), with the command line's --key value pairs applied over it as load_cfg does
(src/axolotl/cli/config.py:233-290, kebab-case options as snake_case keys); otherwise only what those options set is
known (config_file_unread).
"""

from __future__ import annotations

import os
import re

from ..backends import FLASH_LIB
from . import NOTHING, SHARED, STRONG, Score, as_int, attention, score_keys
from .hf_transformers import entry, model_head_dims

TITLE = "axolotl"
CANONICAL = {"eager": None, "sdpa": "sdpa", "flash_attention_2": "fa2", "flash_attention_3": "fa3",
             "flex_attention": "flex", "xformers": "xformers", "sage": "sage", "fp8": None}
LEGACY = {"xformers_attention": "xformers", "sage_attention": "sage", "flex_attention": "flex_attention",
          "flash_attention": "flash_attention_2", "sdp_attention": "sdpa", "eager_attention": "eager"}
SHORT = {"flash": "flash_attention_2", "flex": "flex_attention", "sdp": "sdpa"}
# attn_implementation values that use the flash-attn library: backends.FLASH_LIB (checks/trainer.py reads it too)
PACKING_OK = {"flash_attention_2", "flash_attention_3", "flex_attention", "xformers", "sage", "sdpa", "eager",
              "kernels-community/flash-attn2", "kernels-community/flash-attn3", "kernels-community/sage-attention"}
# Keys only axolotl uses. Names other frameworks use too (num_epochs, wandb_project, load_in_4bit, datasets,
# chat_template, adapter, micro_batch_size: alpaca-lora, TRL, LitGPT, diffusion-pipe ...; base_model: Ludwig, alpaca-lora,
# hosted trainers' inputs and users' own configs) are shared evidence.
STRONG_KEYS = {"sample_packing", "sequence_len", "pad_to_sequence_len",
               "dataset_prepared_path", "lora_target_linear", "gemma4_hybrid_attn_impl",
               "eval_sample_packing", "evals_per_epoch", "saves_per_epoch", "flash_attn_cross_entropy",
               "flash_attn_fuse_mlp", "s2_attention", "lora_model_dir", "flex_attn_compile_kwargs",
               "large_head_attention", "sdpa_varlen"} | set(LEGACY)
# val_set_size: alpaca-lora's finetune.py argument (tloen/alpaca-lora), which axolotl's names come from, and its
# descendants' (LLM-Adapters)
SHARED_KEYS = {"val_set_size", "base_model", "attn_implementation", "lora_r", "lora_alpha", "lora_dropout", "lora_target_modules", "torch_compile",
               "torch_compile_mode", "bf16", "fp16", "tf32", "model_type", "gradient_checkpointing", "optimizer",
               "lr_scheduler", "warmup_steps", "weight_decay", "fp8", "deepspeed", "fsdp", "fsdp_config",
               "micro_batch_size", "num_epochs", "special_tokens", "plugins", "wandb_project", "wandb_entity",
               "wandb_watch", "wandb_name", "wandb_log_model", "load_in_4bit", "load_in_8bit", "train_on_inputs",
               "group_by_length", "adapter", "chat_template", "datasets"}
# tokenizer_type is axolotl's own only as the name of a transformers tokenizer class (AutoTokenizer, LlamaTokenizer,
# Qwen2TokenizerFast ...: src/axolotl/loaders/tokenizer.py getattr(transformers, cfg.tokenizer_type)); MaxText's
# (sentencepiece / tiktoken / huggingface), Megatron-LM's and NeMo's (GPT2BPETokenizer, SentencePieceTokenizer,
# HuggingFaceTokenizer, NullTokenizer ...: megatron/training/arguments.py --tokenizer-type) are other frameworks' values
_HF_TOKENIZER_CLASS = re.compile(r"^[A-Z][A-Za-z0-9]*Tokenizer(Fast)?$")
_NOT_HF_TOKENIZER = {"GPT2BPETokenizer", "SentencePieceTokenizer", "GPTSentencePieceTokenizer", "HuggingFaceTokenizer",
                     "Llama2Tokenizer", "Llama3Tokenizer", "MistralTokenizer", "TikTokenizer", "NullTokenizer",
                     "MultimodalTokenizer", "HFTokenizer", "NullMultimodalTokenizer"}
COMMON_KEYS = {"learning_rate", "output_dir", "seed", "gradient_accumulation_steps", "logging_steps"}


# `axolotl <command>` subcommands that run a config (src/axolotl/cli/main.py)
CLI_COMMANDS = {"train", "preprocess", "evaluate", "inference", "merge-lora", "merge-sharded-fsdp-weights", "quantize",
                "vllm-serve"}


def launch(cmd) -> tuple[str, list] | None:
    """(how it runs, the words after the subcommand) of an axolotl launch command: `axolotl train CFG`, `[accelerate
    launch | python] -m axolotl.cli.train CFG`, `-m axolotl.cli.main train CFG` (src/axolotl/cli/main.py, cli/train.py);
    None for other commands."""
    module = cmd.module or ""
    if cmd.program == "axolotl" and cmd.sub[:1] and cmd.sub[0] in CLI_COMMANDS:
        return f"axolotl {cmd.sub[0]}", list(cmd.args)
    if module == "axolotl.cli.main":
        return (f"-m {module} {cmd.args[0]}", list(cmd.args[1:])) if cmd.args[:1] and cmd.args[0] in CLI_COMMANDS \
            else None
    if module.startswith("axolotl.cli."):
        return f"-m {module}", list(cmd.args)
    return None


# subcommands that only use a trained model or its weights (src/axolotl/cli/main.py: merge-lora and
# merge-sharded-fsdp-weights fold weights together, quantize rewrites them, inference / vllm-serve generate, evaluate
# scores the eval set): a file whose only axolotl commands are these trains nothing, as `llamafactory-cli export` and
# `swift export` (round 55: a user's merge_dpo.sh, `axolotl merge-lora x.yaml --lora-model-dir ...`)
NOT_TRAINING = {"merge-lora", "merge-sharded-fsdp-weights", "quantize", "inference", "vllm-serve", "evaluate"}


def _trains(cmd) -> tuple[str, list] | None:
    run = launch(cmd)
    return run if run and run[0].endswith("train") else None


def _around_training(cmd) -> tuple[str, list] | None:
    """launch() of an axolotl command that is not only a step after training (preprocess comes before one)."""
    run = launch(cmd)
    # (`axolotl merge-lora`, `-m axolotl.cli.main merge-lora`, `-m axolotl.cli.merge_lora`)
    return run if run and run[0].split()[-1].rsplit(".", 1)[-1].replace("_", "-") not in NOT_TRAINING else None


def _cli(doc: dict) -> tuple[str, list] | None:
    """launch() of a script's axolotl command: one that trains (`axolotl preprocess x.yml` comes first in many
    scripts), else any other but a step after training (NOT_TRAINING)."""
    from . import launch_config

    return launch_config(doc, _trains)[1] or launch_config(doc, _around_training)[1]


def cli_settings(doc: dict, args: list) -> tuple[dict | None, dict]:
    """(the YAML's settings or None, the command line's overrides) of an axolotl command line: the YAML it names
    (the file the script writes itself, `cat > $CFG <<EOF`, or one on this machine) and its `--key value` options,
    which load_cfg applies over it (src/axolotl/cli/config.py:233-290; kebab-case options are snake_case keys)."""
    from . import config_data
    from .shell import parse_options

    parsed = parse_options(args)
    path = parsed.positionals[0] if parsed.positionals else None
    overrides = {}
    for k, v in parsed.values.items():
        if k == "debug":
            continue
        low = str(v).strip().lower()
        overrides[k.replace("-", "_")] = True if v is True or low == "true" else False if low == "false" else v
    return config_data(doc, path), overrides


_IMPORT = re.compile(r"^\s*(from\s+axolotl\b[\w.]*\s+import|import\s+axolotl\b)", re.MULTILINE)


def _api_call(doc: dict):
    """The `load_cfg(CONFIG, **overrides)` call of a script or notebook that trains through axolotl's Python API
    (axolotl.cli.config.load_cfg, then axolotl.train.train(cfg=...): axolotl's own Colab example builds CONFIG as a
    DictDefault; users pass a YAML path), or None."""
    if doc["fmt"] != "python" or not _IMPORT.search(doc.get("python") or ""):
        return None
    import ast

    from .pyscript import tree

    t = tree(doc["python"])
    if t is None:
        return None
    # (axolotl.cli.train.do_cli(config, **kwargs), the function behind `python -m axolotl.cli.train`, runs
    # load_cfg(config, **kwargs) and trains: src/axolotl/cli/train.py; cfg80)
    names = {"load_cfg"} | ({"do_cli"} if re.search(r"^\s*from\s+axolotl\.cli\.train\s+import\b[^\n]*\bdo_cli\b",
                                                    doc["python"], re.MULTILINE) else set())
    calls = [n for n in ast.walk(t) if isinstance(n, ast.Call) and (
        isinstance(n.func, ast.Name) and n.func.id in names or
        isinstance(n.func, ast.Attribute) and n.func.attr in names) and (n.args or any(
            k.arg == "config" for k in n.keywords))]
    return max(calls, key=lambda n: n.lineno) if calls else None


def _api_settings(doc: dict, call) -> tuple[dict | None, dict]:
    """(the config's settings or None, the keyword overrides) of a load_cfg call: a YAML path as written (read as a
    launch line's: named_config), or a dict the script writes out (DictDefault({...}), dict(...), a name bound to one);
    its literal keywords override the config, as load_cfg applies **kwargs over it (src/axolotl/cli/config.py)."""
    import ast

    from . import config_data
    from .launchers import python_dumped_configs
    from .pyscript import constants, tree, value

    first = call.args[0] if call.args else next(k.value for k in call.keywords if k.arg == "config")
    data = None
    if isinstance(first, ast.Constant) and isinstance(first.value, str):
        data = config_data(doc, first.value)
    else:
        given = [d for target, d in python_dumped_configs(doc["python"], frozenset({"load_cfg"}))
                 if target == ("call", "load_cfg")]
        data = given[-1] if given else None
    consts = constants(tree(doc["python"]))
    overrides = {}
    for k in call.keywords:
        v = value(k.value, consts) if k.arg else "?"
        if k.arg and k.arg != "config" and v != "?" and isinstance(v, (str, int, float, bool)):
            overrides[k.arg] = v
    return data, overrides


def score(doc: dict) -> tuple[float, list[str]]:
    if doc["fmt"] in ("text", "python"):  # a launch script, or a notebook's `!` lines
        run = _cli(doc)
        if not run and _api_call(doc) is not None:
            return Score().add("load_cfg(...) (axolotl's Python API)", 2 * STRONG)
        return Score().add(f"{run[0]} (axolotl's launch line)", 2 * STRONG) if run else NOTHING
    if doc["fmt"] not in ("yaml", "json"):
        return NOTHING
    sc = score_keys(set(doc["data"]), STRONG_KEYS, SHARED_KEYS, COMMON_KEYS)
    tok = doc["data"].get("tokenizer_type")
    if tok is not None:  # own evidence as a transformers class name, shared evidence as any other value
        hf = isinstance(tok, str) and bool(_HF_TOKENIZER_CLASS.match(tok.strip())) and tok.strip() not in _NOT_HF_TOKENIZER
        # ... and only in a config with axolotl's one required key: ModelInputConfig.base_model has no default
        # (axolotl-ai-cloud/axolotl@067b021 src/axolotl/utils/schemas/model.py:17). A class-like name alone is any
        # framework's (GPT-NeoX's SPMTokenizer / HFTokenizer, NeMo's, a user's own tokenizer class)
        sc.add("tokenizer_type", STRONG if hf and "base_model" in doc["data"] else SHARED)
    impl = doc["data"].get("attn_implementation")
    if isinstance(impl, str) and impl in ("xformers", "sage", "fp8"):
        sc.add(f"attn_implementation: {impl}")
    ds = doc["data"].get("datasets")
    if isinstance(ds, list) and ds and all(isinstance(d, dict) and "path" in d for d in ds) and \
            any("type" in d for d in ds):
        sc.add("datasets: [{path, type}]")  # axolotl's dataset list layout
    if sc.own and set(sc.own) <= set(LEGACY) and not DATA_KEYS & set(doc["data"]):
        # `flash_attention: true` / `xformers_attention: true` are names users' own trainers and other frameworks give
        # their switches too (the brief's look-alikes); axolotl's config says what it trains under datasets: /
        # pretraining_dataset: (src/axolotl/utils/data: load_datasets, prepare_datasets read only those), so a YAML
        # whose only axolotl names are those switches, beside data named otherwise (dataset_path, train_file), is
        # another trainer's and the switches are shared evidence
        return score_keys(set(doc["data"]), STRONG_KEYS - set(LEGACY), SHARED_KEYS | set(LEGACY), COMMON_KEYS)
    return sc


# where an axolotl config names what it trains (AxolotlInputConfig: datasets, test_datasets, pretraining_dataset; rl
# configs use datasets too)
DATA_KEYS = {"datasets", "test_datasets", "pretraining_dataset", "dataset_prepared_path"}


# axolotl validates its config with pydantic, whose lax mode takes a quoted "true" / "yes" / "on" (any case) for
# True and "false" / "no" / "off" for False (src/axolotl/utils/schemas/config.py: AxolotlInputConfig's bool fields)
_LAX = {"true": True, "yes": True, "on": True, "false": False, "no": False, "off": False}
# for the fields that are bools (or bool | "auto") only, pydantic's lax mode also takes 1 / 0 (int, float or string) and
# "t" / "f" / "y" / "n" (pydantic-core's str_as_bool); a 1 elsewhere (micro_batch_size: 1) is a number
BOOL_FIELDS = {*LEGACY, "bf16", "fp16", "bfloat16", "float16", "fp8", "tf32", "torch_compile", "sample_packing",
               "load_in_8bit", "load_in_4bit", "gemma4_hybrid_attn_impl", "s2_attention", "pad_to_sequence_len"}
_LAX_FIELD = {"1": True, "0": False, "t": True, "f": False, "y": True, "n": False}


def _lax_bool(k: str, v):
    if isinstance(v, str):
        low = v.strip().lower()
        return _LAX[low] if low in _LAX else _LAX_FIELD[low] if k in BOOL_FIELDS and low in _LAX_FIELD else v
    if k in BOOL_FIELDS and not isinstance(v, bool) and isinstance(v, (int, float)) and v in (0, 1):
        return v == 1
    return v


def _lax_bools(data: dict) -> dict:
    return {k: _lax_bool(k, v) for k, v in data.items()}


def _context_parallel(s: dict) -> tuple[str, int]:
    """(key, degree): context_parallel_size, or the deprecated sequence_parallel_degree when it is unset
    (validation.py:1635-1641)."""
    for key in ("context_parallel_size", "sequence_parallel_degree"):
        v = s.get(key)
        if v not in (None, 0, False):
            return key, as_int(v) or 0
    return "", 0


def read(doc: dict) -> dict:
    if doc["fmt"] in ("text", "python"):
        run = _cli(doc)
        api = _api_call(doc) if not run else None
        data, overrides = cli_settings(doc, run[1]) if run else _api_settings(doc, api) if api is not None else \
            (None, {})
        if data is None and not overrides:  # the YAML that says which backend, dtype and compile is not here
            from . import unknown_settings

            return unknown_settings("axolotl", TITLE, "torch_compile",
                                    {"compile": "torch_compile: true", "use_default": "attn_implementation: sdpa"})
        out = dict(read(dict(doc, fmt="yaml", data={**(data or {}), **overrides})), format="cmdline")
        if data is None:
            # the YAML is not here, the command line's options are: what they set is known, what the YAML would
            # (its bf16/fp16, its torch_compile) is not
            out["config_file_unread"] = True
            if not {"bf16", "fp16"} & set(overrides):
                out["dtype"] = None
            if "torch_compile" not in overrides:
                out["compile"] = {"enabled": None, "mode": None, "setting": "torch_compile"}
        return out
    s = _lax_bools(doc["data"])
    impl = s.get("attn_implementation")
    flags = [f for f in LEGACY if s.get(f) is True]
    entries = []
    if isinstance(impl, str) and impl.strip():
        impl = impl.strip()
        e = entry(impl, f"attn_implementation: {impl}", CANONICAL)
        if impl in SHORT:
            e.update(known=False, backend=None, suggestion=SHORT[impl])
        if not e["known"]:
            e["fix"] = f"attn_implementation: {e['suggestion'] or 'sdpa'}"
        entries.append(e)
    elif flags:
        impl = LEGACY[flags[0]]  # normalize_attn_implementation: the first set flag, in LEGACY's order
        entries.append(entry(impl, f"{flags[0]}: true", CANONICAL))
    elif s.get("gemma4_hybrid_attn_impl") is True:
        impl = "flash_attention_2"
    if s.get("gemma4_hybrid_attn_impl") is True and impl == "flash_attention_2":
        if not entries:
            entries.append(entry(impl, "gemma4_hybrid_attn_impl: true", CANONICAL))
        entries.append(entry("sdpa", "gemma4_hybrid_attn_impl: true (global layers, head_dim 512)", CANONICAL))
    impl = entries[0]["name"] if entries else None
    cp_key, cp = _context_parallel(s)
    if cp > 1 and impl not in FLASH_LIB and s.get("use_glm_dsa_kernels") is not True:
        # validation.py:1634-1657 check_context_parallel_size: context parallelism runs ring-flash-attn, so any other
        # backend (or none set) is refused, "context_parallel_size > 1 requires flash attention (attn_implementation:
        # flash_attention_2 or flash_attention_3)"; the GLM DSA kernels bring their own (validation.py:1642-1651)
        setting = f"{cp_key}: {cp} with " + (entries[0]["setting"] if entries else "no attn_implementation")
        entries = [attention(impl or "none", setting, None, known=False, suggestion="flash_attention_2",
                             fix="attn_implementation: flash_attention_2")]
        impl = None
    traps = []
    if s.get("sample_packing") is True and (impl or "") not in PACKING_OK:
        traps.append({"setting": "sample_packing: true", "attn": impl or "no attn_implementation (the model's default)"})
    fp16 = s.get("fp16") is True
    bf16 = s.get("bf16", "auto")
    # "full" (bf16 plus bf16_full_eval) is axolotl's before its pydantic schema (6c81c61bc 2023-10-23
    # src/axolotl/core/trainer_builder.py:436, src/axolotl/utils/config.py:73 `if cfg.bf16 or cfg.bfloat16`): bfloat16
    bf16 = bf16 is True or bf16 == "full" or (bf16 in ("auto", None) and not fp16)
    # utils/config/__init__.py:191-196 resolve_dtype (axolotl-ai-cloud/axolotl@067b021): `if cfg.bf16 or cfg.bfloat16`
    # bfloat16, `elif cfg.load_in_8bit or cfg.fp16 or cfg.float16` float16, else float32
    dtype = "bfloat16" if bf16 or s.get("bfloat16") is True else \
        "float16" if fp16 or s.get("float16") is True or s.get("load_in_8bit") is True else "float32"
    by_gpu = _auto_bf16_by_gpu(s, fp16)
    comp = s.get("torch_compile") in (True, "auto")
    mode = s.get("torch_compile_mode") if isinstance(s.get("torch_compile_mode"), str) else None
    return {
        "trainer": "axolotl", "trainer_title": TITLE, "format": doc["fmt"], "family": None,
        "head_dims": model_head_dims(s.get("base_model"), os.path.dirname(os.path.abspath(doc["path"]))),
        "mixed_precision": None, "dtype": dtype, "attention": entries,
        **({"dtype_by_gpu": by_gpu} if by_gpu else {}),
        "compile": {"enabled": comp, "mode": (mode or "default") if comp else None, "setting": "torch_compile"},
        "batch_size": as_int(s.get("micro_batch_size", 1)), "packing": traps,
        "sage_training": any(e["backend"] == "sage" for e in entries),
        "fixes": {"packing": "attn_implementation: flash_attention_2   # or sdpa: both keep packed samples apart",
                  "sage": "attn_implementation: sdpa   # SageAttention is forward only",
                  "compile": "torch_compile: true", "use_default": "attn_implementation: sdpa"},
    }


def _auto_bf16_by_gpu(s: dict, fp16: bool) -> dict | None:
    """`bf16: auto` (or no bf16: the schema's default "auto", utils/schemas/config.py:559-560 at 067b021) is the GPU's to
    decide: resolve_dtype (utils/config/__init__.py:156-196) asks transformers' is_torch_bf16_gpu_available() when fp16 is
    not set, bf16 True where it answers True, else bf16 False and fp16 True unless fp16 or float16 is written; then
    bfloat16 / float16 (load_in_8bit, fp16, float16) / float32. That function is torch.cuda.is_bf16_supported() on a
    CUDA GPU (transformers 5.24 utils/import_utils.py:656-665), whose default counts emulated bfloat16: True on a T4 /
    V100 from torch 2.3 (emulated). The reading's `dtype` stays bfloat16 (what the labels take); `dtype_by_gpu` says
    what a GPU without bfloat16 makes of it. None where the file decides (fp16 or bf16 written, bfloat16: true)."""
    if "bf16" in s and s["bf16"] != "auto" or fp16 or s.get("bfloat16") is True or s.get("use_ray") is True:
        return None  # (with use_ray the worker decides the same way, later: utils/config/__init__.py:158)
    other = "float16" if s.get("fp16") is not False or s.get("float16") is True or s.get("load_in_8bit") is True \
        else "float32"
    setting = "bf16: auto" if "bf16" in s else "bf16 (not set: auto)"
    return {"bfloat16_gpu": "bfloat16", "other_gpu": other, "probes": ["is_torch_bf16_gpu_available()"],
            "emulated": True, "settings": [setting],
            "pins": {"bfloat16": "bf16: true", "float16": "fp16: true"}}


def parse(path: str, text: str) -> dict:
    from . import make_doc

    return read(make_doc(path, text))
