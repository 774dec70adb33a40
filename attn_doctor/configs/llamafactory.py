"""LLaMA-Factory: its training YAML (`llamafactory-cli train examples/train_lora/....yaml`), v0 and v1.

Read from hiyouga/LLaMA-Factory ff6d4d1 (2026-08-18):
- src/llamafactory/extras/constants.py AttentionFunction: auto | disabled | sdpa | fa2 | fa3 (`flash_attn`,
  default auto: hparams/model_args.py); model/model_utils/attention.py configure_attn_implementation: auto leaves
  transformers' default, disabled -> eager, sdpa, fa2 -> flash_attention_2, fa3 -> flash_attention_3 (a missing
  FlashAttention only warns "is not installed" and leaves the default), any other value raises
  NotImplementedError("Unknown attention type: ...");
- v1 (src/llamafactory/v1/utils/types.py): flash_attn takes transformers' names eager | sdpa | flash_attention_2;
- hparams/data_args.py `packing` (on by default for stage pt) and `neat_packing` ("sequence packing without
  cross-attention"); data/collator.py builds the block-diagonal mask only for neat_packing, so plain packing lets
  the packed samples attend to each other;
- a command line `llamafactory-cli train [config.yaml] key=value ... --key value` (hparams/parser.py reads the YAML
  and then the overrides; the YAML named there is not read here);
- TrainingArguments `bf16`, `fp16`, finetuning_args `pure_bf16`; `per_device_train_batch_size` (v1:
  `micro_batch_size`); `torch_compile`, `torch_compile_mode`;
- before `llamafactory-cli` (2023-07 to 2024-05) training ran as `python src/train_bash.py --stage sft ...`
  (LLaMA-Factory ce8200ad9 renamed it src/train.py): `flash_attn` was a boolean (a40216163 2023-09-10
  src/llmtuner/hparams/model_args.py:46, 9a69cadab model_args.py:60, default False): `--flash_attn` asked for
  FlashAttention-2 (patcher.py:105-114 `attn_implementation="flash_attention_2"`, a warning and the default when
  flash-attn is missing), leaving it off ran "eager"; from d2bb1b3a6 (2024-04-24) it took off | sdpa | fa2 | auto.
  Any python script given LLaMA-Factory's own options (--stage, --finetuning_type, --template ...) is read the same
  way (forks keep the parser).
Head dims come from the model's config.json when the model named is a local directory (a Hub id: none).
"""

from __future__ import annotations

import os
import re

from . import NOTHING, SHARED, STRONG, as_int, attention, score_keys
from .hf_transformers import compile_of, local_model_config, model_head_dims
from .shell import HEADLESS

TITLE = "LLaMA-Factory"
V0 = {"auto": None, "disabled": None, "off": None, "sdpa": "sdpa", "fa2": "fa2", "fa3": "fa3"}  # off: 2024-04..06
V1 = {"eager": None, "sdpa": "sdpa", "flash_attention_2": "fa2"}
# Keys only LLaMA-Factory uses. Names other trainers and scripts use too are shared: template and lora_rank (ms-swift's
# YAML and command line), rope_scaling (a model's config.json, axolotl), overwrite_cache (transformers' run_*.py
# examples), quantization_bit (ms-swift 2.x), train_dataset (TRL GRPO recipes), a boolean flash_attn (OpenRLHF's, oat's,
# LLaVA-style scripts' --flash_attn); flash_attn with one of LLaMA-Factory's own values (fa2, auto, disabled ...) is
# told in score().
# (stage is told by its value in score(); max_samples and cutoff_len are names other scripts' arguments have too:
# tloen/alpaca-lora finetune.py cutoff_len, users' own HfArgumentParser scripts' max_samples)
STRONG_KEYS = {"finetuning_type", "lora_target", "neat_packing",
               "plot_loss", "pure_bf16", "dist_config", "model_class",
               "cp_mode", "cp_size", "enable_liger_kernel",
               "use_unsloth", "quantization_method", "shift_attn"}
# batching_strategy: llama-recipes' train_config (packing / padding) too; infer_backend: inference servers' word
SHARED_KEYS = {"batching_strategy", "infer_backend", "model_name_or_path", "dataset", "packing", "do_train", "per_device_train_batch_size", "num_train_epochs",
               "bf16", "fp16", "preprocessing_num_workers", "dataloader_num_workers", "overwrite_output_dir",
               "lr_scheduler_type", "warmup_ratio", "ddp_timeout", "save_only_model", "resume_from_checkpoint",
               "micro_batch_size", "model", "trust_remote_code", "deepspeed", "torch_compile", "template", "lora_rank",
               "rope_scaling", "overwrite_cache", "quantization_bit", "train_dataset", "flash_attn", "cutoff_len",
               "max_samples", "stage"}
# FinetuningArguments.stage: Literal["pt", "sft", "rm", "ppo", "dpo", "kto"] (hiyouga/LLaMA-Factory@ff6d4d1
# src/llamafactory/hparams/finetuning_args.py:460): LLaMA-Factory's own with one of these, any trainer's word otherwise
STAGES = {"pt", "sft", "rm", "ppo", "dpo", "kto"}
COMMON_KEYS = {"learning_rate", "output_dir", "report_to", "logging_steps", "save_steps", "gradient_accumulation_steps"}


def _value(v):
    """A command line's text value as the YAML would hold it (true/false/None)."""
    if isinstance(v, str) and v.lower() in ("true", "false"):
        return v.lower() == "true"
    return v


# LLaMA Board, LLaMA-Factory's web UI, saves its form as YAML under the components' ids (`top.booster`,
# `train.compute_type` ...: webui/runner.py _build_config_dict, saved as llamaboard_config/<name>.yaml or
# <output_dir>/llamaboard_config.yaml) and trains from it through _parse_train_args (webui/runner.py:133-183 at ff6d4d1),
# which runs `llamafactory-cli train` with the arguments below. The stage names are extras/constants.py:125-132's.
BOARD_STAGES = {"Supervised Fine-Tuning": "sft", "Reward Modeling": "rm", "PPO": "ppo", "DPO": "dpo", "KTO": "kto",
                "Pre-Training": "pt"}
BOARD_KEYS = {"top.booster", "top.flash_attn", "top.finetuning_type", "train.training_stage", "train.compute_type"}


def board_config(data) -> bool:
    """A LLaMA Board saved form: its own keys, and (nearly) every key a component id `top.` / `train.` / `eval.` ..."""
    if not isinstance(data, dict) or len(BOARD_KEYS & set(data)) < 2:
        return False
    ids = [k for k in data if isinstance(k, str) and re.fullmatch(r"(top|train|eval|infer|export)\.\w+", k)]
    return len(ids) >= 0.9 * len(data)


def board_settings(data: dict) -> dict:
    """The training arguments LLaMA Board runs for its saved form (webui/runner.py:133-183 at ff6d4d1)."""
    import json

    get = data.get
    booster = get("top.booster")
    out = {
        "stage": BOARD_STAGES.get(get("train.training_stage"), get("train.training_stage")), "do_train": True,
        # the saved form leaves the path out (runner.py _build_config_dict skip_ids); the UI fills it from the name
        "model_name_or_path": get("top.model_path") or get("top.model_name"),
        "finetuning_type": get("top.finetuning_type"), "template": get("top.template"),
        # booster: "flashattn2" since d2bb1b3a6 (2024-04-24); "flashattn" / "flash_attn" before it, and a boolean
        # top.flash_attn before 0fdd6074c (2023-12-23), were the boolean flash_attn of those versions: FlashAttention-2
        "flash_attn": "fa2" if booster in ("flashattn2", "flashattn", "flash_attn") or get("top.flash_attn") is True
        else "auto",
        "use_unsloth": booster == "unsloth", "enable_liger_kernel": booster == "liger_kernel",
        "per_device_train_batch_size": get("train.batch_size"),
        "packing": bool(get("train.packing") or get("train.neat_packing")), "neat_packing": get("train.neat_packing"),
        "fp16": get("train.compute_type") == "fp16", "bf16": get("train.compute_type") == "bf16",
        "pure_bf16": get("train.compute_type") == "pure_bf16",
    }
    try:  # train.extra_args: a JSON object merged over the arguments (args.update(json.loads(...)))
        extra = json.loads(get("train.extra_args") or "{}")
    except (TypeError, ValueError):
        extra = {}
    if isinstance(extra, dict):
        out.update(extra)
    return {k: v for k, v in out.items() if v is not None}


# LLaMA-Factory's Python entry: run_exp(args) takes the arguments as a dict (hiyouga/LLaMA-Factory@ff6d4d1
# src/llamafactory/train/tuner.py:163-164 `args = read_args(args)`: a dict is used as it is), what
# `llamafactory-cli train X.yaml` runs on X's contents; exported as llamafactory.train.tuner.run_exp, and as
# llmtuner.run_exp before the package was renamed (d2bb1b3a6 src/llmtuner/__init__.py:6)
API_PACKAGES = ("llamafactory", "llmtuner")


def _api_run(doc: dict) -> dict | None:
    """The settings of a script that trains in-process with `run_exp(dict(stage="sft", ...))` (or a dict literal, or a
    name holding one), imported from LLaMA-Factory; None for any other script. Values the script computes are left
    out."""
    import ast

    from .pyscript import _dict_items, constants, resolve, tree, value

    if doc["fmt"] != "python" or "run_exp" not in (doc.get("python") or ""):
        return None
    t = tree(doc.get("python") or "")
    if t is None:
        return None
    names = set()
    for n in ast.walk(t):
        if isinstance(n, ast.ImportFrom) and (n.module or "").split(".")[0] in API_PACKAGES:
            names |= {a.asname or a.name for a in n.names if a.name == "run_exp"}
    if not names:
        return None
    consts = constants(t)
    for n in ast.walk(t):
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in names:
            arg = n.args[0] if n.args else next((k.value for k in n.keywords if k.arg == "args"), None)
            if arg is None:
                return None  # run_exp() reads sys.argv: the command line's arguments, not written here
            out = {}
            for k, v in _dict_items(resolve(arg, consts), consts):
                got = value(v, consts)
                if got != "?":
                    out[k] = got
            return out
    return None


def _settings(doc: dict) -> dict:
    """A YAML's settings, a `llamafactory-cli train [x.yaml] key=value --key value` command line's, or the dict a
    script gives run_exp."""
    if doc["fmt"] == "python" and not _cli(doc) and _old_command(doc) is None:
        api = _api_run(doc)
        if api is not None:
            return {k: _value(v) for k, v in api.items()}
    if doc["fmt"] not in LINES and board_config(doc["data"]):
        return board_settings(doc["data"])
    if doc["fmt"] not in LINES:
        # a quoted "true" in the YAML: HfArgumentParser.parse_dict hands it to the dataclass unconverted, and the
        # trainer's `if self.bf16` takes the non-empty string as true (hparams/parser.py _parse_args). A quoted "false"
        # is a non-empty string too, which such a test would take as true; whether every use of the flag does is not
        # read here, so it is left unsaid (no dtype from it), not read as either
        return {k: True if isinstance(v, str) and v.strip().lower() == "true" else v for k, v in doc["data"].items()}
    old = _old_command(doc) if not _cli(doc) else None
    if old is not None:
        from .shell import dataclass_options

        if _src_train(doc, old) or _package_launcher(old):  # the config file it names, when it is here
            out = dict(_named(doc, old.args[0]))
            for a in old.args[1:]:  # hparams/parser.py read_args: the key=value overrides on top of it (round 73)
                k, eq, v = a.partition("=")
                if eq and "." not in k:
                    out[k] = v
            return {k: _value(v) for k, v in out.items()}
        return {k: _value(v) for k, v in dataclass_options(old.args).items()}
    out = {}
    # hparams/parser.py read_args: `llamafactory-cli train X.yaml key=value ...` loads X first, the overrides on top
    cmd = doc.get("command")
    if cmd is None or not (cmd.program in ("llamafactory-cli", "lmf") or _package_cli(cmd)):
        # the CLI's file run by path (`python .../llamafactory/cli.py train X.yaml`) is the launch line's command
        cmd = next((c for c in doc.get("commands") or [] if _package_cli(c) and (c.args or [""])[0] == "train"), cmd)
    # under a launcher (`torchrun ... $(which llamafactory-cli) train X.yaml`) the CLI is the script run and its
    # subcommand the first argument (cli.py: `llamafactory-cli train|chat|export ...`)
    first = next((a for a in (cmd.args if cmd is not None else []) if not a.startswith("-") and "=" not in a
                  and a not in CLI_COMMANDS), None)
    if first and (first.lower().endswith((".yaml", ".yml", ".json")) or _dumped(doc, first)):
        # (round 25: a wrapper that builds the config as a dict, `cfg_path.write_text(yaml.safe_dump(cfg))`, then
        # `subprocess.run(["llamafactory-cli", "train", str(cfg_path)])`: the path is computed, the config the script's)
        got = _named(doc, first)
        if not got:
            # a launcher that runs the CLI's training more than once, on configs of its own (round 145m's longyueyyyy
            # driver: `llamafactory-cli train "${SMOKE_CONFIG}"`, then the long run `llamafactory-cli train
            # "${TRAIN_CONFIG}"` in a background subshell): when the first run's YAML is not here, a later run's that is
            # here is read, the first staying noted unread (what it sets is unknown, not taken from the other)
            noted = list(doc.get("unread") or [])
            got = next((g for g in (_named(doc, y) for y in _later_train_yamls(doc, cmd)) if g), {})
            if not got:
                doc["unread"] = noted  # (none of them here: the unread file is the one the first run names, as before)
        out.update(got)
    for w in doc["words"]:
        k, eq, v = w.partition("=")
        if eq and re.fullmatch(r"[a-z_][a-z0-9_.]*", k):
            out[k] = v
    # (HfArgumentParser takes a field's dashed spelling too: shell.dataclass_options)
    out.update({k.replace("-", "_"): v for k, v in doc["args"].items()})
    return {k: _value(v) for k, v in out.items()}


# ExportArguments (src/llamafactory/hparams/model_args.py): what `llamafactory-cli export` reads to merge an adapter into
# its model or quantise it (train/tuner.py export_model); a training run needs a stage and a dataset
EXPORT_KEYS = {"export_dir", "export_size", "export_device", "export_quantization_bit", "export_quantization_dataset",
               "export_legacy_format", "export_hub_model_id"}


def export_config(s: dict) -> bool:
    """A LLaMA-Factory export (merge / quantise) config: export_* settings and nothing that trains (stage, do_train,
    dataset)."""
    return isinstance(s, dict) and bool(EXPORT_KEYS & set(s)) and not {"stage", "do_train", "dataset"} & set(s)


# What `llamafactory-cli chat | api | webchat` read (hparams/parser.py:68 _INFER_ARGS = ModelArguments, DataArguments,
# FinetuningArguments, GeneratingArguments; no TrainingArguments, so parse_dict(allow_extra_keys=False) refuses a
# training key there): hparams/model_args.py's fields (the model, adapter, quantisation, vLLM / SGLang / KTransformers
# engines), generating_args.py's, and the chat template and system prompt of data_args.py:26,116-124
# (hiyouga/LLaMA-Factory@ff6d4d1; examples/inference/*.yaml). `llamafactory-cli train` with such a file trains nothing:
# TrainingArguments.do_train defaults to False and train/sft/workflow.py:120 trains only `if training_args.do_train`.
INFER_KEYS = {
    "model_name_or_path", "adapter_name_or_path", "adapter_folder", "cache_dir", "use_fast_tokenizer", "resize_vocab",
    "split_special_tokens", "add_tokens", "add_special_tokens", "new_special_tokens_config", "init_special_tokens",
    "model_revision", "low_cpu_mem_usage", "rope_scaling", "flash_attn", "shift_attn", "use_unsloth", "infer_backend",
    "offload_folder", "use_kv_cache", "use_v1_kernels", "infer_dtype", "hf_hub_token", "ms_hub_token", "om_hub_token",
    "print_param_status", "trust_remote_code", "quantization_method", "quantization_bit", "quantization_type",
    "double_quantization", "quantization_device_map", "image_max_pixels", "image_min_pixels", "video_max_pixels",
    "video_min_pixels", "video_fps", "video_maxlen", "vllm_maxlen", "vllm_gpu_util", "vllm_enforce_eager",
    "vllm_max_lora_rank", "vllm_config", "sglang_maxlen", "sglang_mem_fraction", "sglang_tp_size", "sglang_config",
    "sglang_lora_backend", "use_kt", "kt_weight_path", "device_map", "model_max_length",
    "do_sample", "temperature", "top_p", "top_k", "num_beams", "max_length", "max_new_tokens", "repetition_penalty",
    "length_penalty", "skip_special_tokens",
    "template", "tool_format", "default_system", "enable_thinking", "finetuning_type"}
# what only a chat / API config names beside the model (a training YAML names a dataset, a stage, do_train ...)
INFER_OWN = {"adapter_name_or_path", "infer_backend", "template", "vllm_maxlen", "vllm_gpu_util", "sglang_maxlen",
             "temperature", "top_p", "max_new_tokens", "do_sample"}


def infer_config(s: dict) -> bool:
    """A LLaMA-Factory inference config (what `llamafactory-cli chat` / `api` / `webchat` load): the model and what
    serves it, and no key of a training run (no stage, do_train, dataset, output_dir or other TrainingArguments)."""
    return isinstance(s, dict) and "model_name_or_path" in s and bool(INFER_OWN & set(s)) and \
        all(isinstance(k, str) and k in INFER_KEYS for k in s)


def _dumped(doc: dict, name: str) -> bool:
    """The CLI's config argument is a path the launching script computes (`str(cfg_path)`, `{cfg_file}`, `$CFG`) and
    writes a config of its own to (launchers.python_dumped_configs / dumped_for)."""
    from .launchers import dumped_for

    return dumped_for(doc.get("dumped") or [], name) is not None


def _later_train_yamls(doc: dict, cmd) -> list:
    """The YAML / JSON files the file's other `llamafactory-cli train X.yaml` commands (after `cmd`, the one read) name,
    in order."""
    out = []
    for c in doc.get("commands") or []:
        if c is cmd or c.program not in ("llamafactory-cli", "lmf") or c.line < getattr(cmd, "line", 0):
            continue
        first = next((a for a in c.args if not a.startswith("-") and "=" not in a and a not in CLI_COMMANDS), None)
        if "train" in (c.sub[:1] or c.args[:1]) and first and first.lower().endswith((".yaml", ".yml", ".json")) \
                and first not in out:
            out.append(first)
    return out


def _named(doc: dict, name: str) -> dict:
    """The settings of the config file a launch line names, when it is here; {} otherwise."""
    from . import named_config

    sub = named_config(doc, name)
    return sub["data"] if sub is not None and isinstance(sub.get("data"), dict) else {}


# launch lines: a shell script's, or those a Python script / notebook starts (configs/__init__.py python_commands:
# subprocess / os.system / a run() wrapper), with the configs it writes before them
LINES = ("text", "python")
CLI_COMMANDS = {"train", "chat", "export", "eval", "api", "webui", "webchat", "env", "version"}


# The entry scripts of LLaMA-Factory before its CLI (src/train_bash.py, src/train.py, src/train_web.py) and of
# ChatGLM-Efficient-Tuning / LLaMA-Efficient-Tuning, its earlier names.
OLD_SCRIPTS = {"train_bash.py", "train_sft.py", "train_pt.py", "train_rm.py", "train_ppo.py", "train_dpo.py"}
OWN_FLAGS = {"stage", "finetuning_type", "template", "lora_target", "plot_loss", "cutoff_len", "neat_packing"}
# The model under a name LLaMA-Factory never defines (diffusers' and sd-scripts' option): its HfArgumentParser refuses
# an option no dataclass defines ("Some specified arguments are not used by the HfArgumentParser", hiyouga/LLaMA-Factory
# @59a9a59 src/llmtuner/hparams/parser.py:53-58, @ff6d4d1 src/llamafactory/hparams/parser.py:156-161), and before the
# CLI it required --model_name_or_path (@59a9a59 src/llmtuner/hparams/model_args.py:11, no default): a command that
# names its model so, with no --model_name_or_path, runs a script of another program built in LLaMA-Factory's image
# (round 16m: Diffusion-Factory's src/train_bash.py --finetuning_type lora on Stable Diffusion)
FOREIGN_MODEL = {"pretrained_model_name_or_path"}


# llamafactory-cli's subcommands that do not train (src/llamafactory/cli.py): the web UIs, chat and the API server,
# export (merge an adapter / quantise), eval, env, version
NOT_TRAINING = CLI_COMMANDS - {"train"}


# The package's own entry files run by path (hiyouga/LLaMA-Factory@ff6d4d1): src/llamafactory/cli.py is the console
# script's module (`if __name__ == "__main__": main()`, cli.py:27; main() runs launcher.launch(), which pops the
# subcommand from sys.argv, launcher.py:56), so `python .../llamafactory/cli.py train X.yaml` is `llamafactory-cli train
# X.yaml`; src/llamafactory/launcher.py run as a script is run_exp() on its arguments (launcher.py:182-185), the file the
# CLI itself hands to torchrun for a multi-GPU run (launcher.py:95-127), so `torchrun ... .../llamafactory/launcher.py
# X.yaml` trains on X as src/train.py does. The package was llmtuner before 2024-05 (src/llmtuner/cli.py the same CLI).
_PACKAGE_CLI = re.compile(r"(?:^|/)(?:llamafactory|llmtuner)/cli\.py$")
_PACKAGE_LAUNCHER = re.compile(r"(?:^|/)llamafactory/launcher\.py$")


def _script_path(c) -> str:
    """The word of a command that is its script (the path as written, / separated)."""
    return next((w.replace("\\", "/") for w in c.words if c.script and w.replace("\\", "/").endswith("/" + c.script)),
                c.script or "")


def _package_cli(c) -> bool:
    return bool(c.script) and bool(_PACKAGE_CLI.search(_script_path(c)))


def _package_launcher(c) -> bool:
    """`.../llamafactory/launcher.py CONFIG` (under torchrun or python): run_exp on one config file, or a variable
    holding one."""
    return bool(c.script) and bool(_PACKAGE_LAUNCHER.search(_script_path(c))) and len(c.args) == 1 \
        and bool(_CONFIG.search(c.args[0]))


def _cli(doc: dict) -> bool:
    """Does the launch line run LLaMA-Factory's CLI to train (`llamafactory-cli`, `lmf`, its module under -m:
    `torchrun ... -m llamafactory.cli train ...`, or its file by path: `python .../src/llamafactory/cli.py train ...`)?
    A file whose every call of the CLI is a step around training (`llamafactory-cli webui`, `export`, `chat`) does not
    train with it."""
    cmds = doc.get("commands") or []
    own = [c for c in cmds if c.program in ("llamafactory-cli", "lmf")]
    by_path = [c for c in cmds if _package_cli(c)]
    launched = [c for c in cmds if c.program not in ("llamafactory-cli", "lmf") and not _package_cli(c)
                and any(os.path.basename(w) in ("llamafactory-cli", "lmf") for w in c.words)]
    calls = [(c.sub or [""])[0] for c in own] + [(c.args or [""])[0] for c in by_path]
    if calls and not launched and all(sub in NOT_TRAINING for sub in calls):
        return False
    return any(w in ("llamafactory-cli", "lmf") for w in doc["words"]) or bool(own) or bool(by_path)


def _old_command(doc: dict):
    """A `python [src/]train_bash.py --stage ...` command, any script given LLaMA-Factory's own options, or the
    repository's own `src/train.py` run with a config file (`cd LLaMA-Factory; python src/train.py x.yaml`)."""
    from .shell import headless, option_names

    cmds = doc.get("commands") or []
    if not cmds and doc["fmt"] == "text":
        # LLaMA-Factory's arguments pasted with the command's head left off (`--stage sft \` ... `--flash_attn`): held
        # to a fork's console script's rule below (--stage and three options only LLaMA-Factory defines)
        cmds = [c for c in (headless(doc["text"]),) if c is not None]
    for c in cmds:
        flags = set(option_names(c.args))
        if flags & FOREIGN_MODEL and "model_name_or_path" not in flags:
            continue  # LLaMA-Factory's parser would refuse it: another program built in its image (round 16m)
        if not c.script:
            if _fork_cli(c, flags) and not _refused_options(flags):
                return c
            continue
        if (c.script in OLD_SCRIPTS and flags & OWN_FLAGS or len(flags & OWN_FLAGS) >= 3) and \
                not _refused_options(flags) or _src_train(doc, c) or _package_launcher(c):
            return c
    return None


def _refused_options(flags: set) -> bool:
    """Would LLaMA-Factory's own parser refuse most of a command line's options? Given on the command line, they go to
    HfArgumentParser.parse_args_into_dataclasses(return_remaining_strings=True), and any it leaves over stop the run
    ("Some specified arguments are not used by the HfArgumentParser": hiyouga/LLaMA-Factory@003a2ac
    src/llamafactory/hparams/parser.py:80-85, @ff6d4d1 :156-161, @59a9a59 src/llmtuner/hparams/parser.py:53-58);
    argparse takes a unique prefix of an option as the option (`--lora_r` is --lora_rank). A command whose --stage sits
    among options no argument class of LLaMA-Factory defines, as many as parser_keys counts against a file of another
    framework (round 137m: a user's `accelerate launch -m src.train_sft --pipeline P1 --stage sft --sft_dose ...
    --lora_target_preset ... --num_epochs 1`), runs the project's own script, whatever it is called."""
    from .parser_keys import not_its_file

    return bool(flags) and not_its_file("llama-factory", dict.fromkeys(flags), sorted(flags & OWN_FLAGS),
                                        command_line=True) is not None


def _fork_cli(c, flags: set) -> bool:
    """A renamed fork's console script run with LLaMA-Factory's own options (round 16m: PetroGPT's `petrogpt-train
    --stage sft ... --template baichuan2 --finetuning_type lora --lora_target W_pack --plot_loss`, its package the
    llmtuner-era code renamed): a program with no subcommand, not an interpreter, given --stage and two more options
    only LLaMA-Factory defines (the rule for a script: three of them, TRAINERS.md 'Old LLaMA-Factory command lines')."""
    return not c.sub and c.program not in ("python", "python3", "py", "bash", "sh") and "stage" in flags \
        and len(flags & OWN_FLAGS) >= 3


# (a checkout under its own name, or a fork's or an archive's: LLaMA-Factory-main, LLaMA-Factory-AutoReviewer, round 73)
_IN_REPO = re.compile(r"""(?:^|[\s/\\])(?:LLaMA[-_]Factory|LlamaFactory|llama[-_]factory)(?!-cli\b)(?:-[A-Za-z0-9][\w.-]*)?"""
                      r"""(?=[/\\\s;&|"']|$)""", re.IGNORECASE | re.MULTILINE)
# LLaMA-Factory's command-line overrides after the config (hparams/parser.py read_args: OmegaConf.from_cli(sys.argv[2:])
# merged over the YAML): `key=value` dotlist words
_OVERRIDE = re.compile(r"^[A-Za-z_][\w.]*=")
_CONFIG = re.compile(r"\.(?:ya?ml|json)$|^\$\{?\w+\}?$")


def _src_train(doc: dict, c) -> bool:
    """LLaMA-Factory's src/train.py (llamafactory.train.tuner.run_exp; hparams/parser.py reads a lone .yaml or .json
    argument as the config) run inside the repository with a config file, or a variable holding one (round 8m:
    `cd /workspace/LLaMA-Factory` then `python src/train.py $CONFIG_FILE`)."""
    path = next((w for w in c.words if w.replace("\\", "/").endswith("src/train.py")), None)
    if path is None or c.script != "train.py" or not c.args or not _CONFIG.search(c.args[0]) or \
            not all(_OVERRIDE.match(a) for a in c.args[1:]):
        return False
    if _IN_REPO.search(path) or _IN_REPO.search(doc.get("text") or ""):
        return True
    # a checkout or fork under any name, given a config that is here and is LLaMA-Factory's by its own keys (the stage
    # it runs and its finetuning type: hparams/finetuning_args.py): src/train.py hands that file to read_args (cfg80)
    s = _named(doc, c.args[0])
    return str(s.get("stage", "")).strip() in STAGES and "finetuning_type" in s and \
        bool({"model_name_or_path", "model"} & set(s) or _base_config(s))


# LLaMA-Factory's own options by the argument group that defines them (hiyouga/LLaMA-Factory@ff6d4d1
# src/llamafactory/hparams/data_args.py: template, cutoff_len, neat_packing; finetuning_args.py: stage,
# finetuning_type, lora_target, plot_loss)
_DATA_OWN = {"template", "cutoff_len", "neat_packing"}
_TUNING_OWN = {"stage", "finetuning_type", "lora_target", "plot_loss"}


def _base_config(s: dict) -> bool:
    """A config without the model that is still LLaMA-Factory's own: the base file of runs that name the model on the
    command line (`llamafactory-cli train base.yaml model_name_or_path=...`, `src/train.py base.yaml key=value ...`:
    hparams/parser.py merges OmegaConf.from_cli(sys.argv[2:]) over the YAML), setting three of its own options from both
    its data and its finetuning arguments (round 73: a fork's stage config with stage, finetuning_type, template,
    cutoff_len and plot_loss). A checkpoint's saved finetuning_args.json holds the finetuning group alone."""
    keys = set(s)
    return bool(keys & _DATA_OWN) and bool(keys & _TUNING_OWN) and len(keys & OWN_FLAGS) >= 3


def score(doc: dict) -> "Score":
    if doc["fmt"] not in ("yaml", "json", *LINES):
        return NOTHING
    cli = doc["fmt"] in LINES and _cli(doc)
    old = _old_command(doc) if doc["fmt"] in LINES and not cli else None
    api = _api_run(doc) if doc["fmt"] == "python" and not cli and old is None else None
    if doc["fmt"] in LINES and not cli and old is None and api is None:
        return NOTHING
    s = _settings(doc)
    if doc["fmt"] not in LINES and (export_config(s) or infer_config(s)):
        return score_keys(set(s), (), STRONG_KEYS | SHARED_KEYS, COMMON_KEYS)  # others.what_file names it
    if doc["fmt"] not in LINES and not {"model_name_or_path", "model"} & set(s) and not _base_config(s):
        # LLaMA-Factory cannot train from a YAML/JSON without the model: hparams/model_args.py:208 ModelArguments
        # __post_init__ raises "Please provide `model_name_or_path`" (v1: `model:`), and hparams/parser.py:154 parses
        # the file with parse_dict(allow_extra_keys=False) (hiyouga/LLaMA-Factory@ff6d4d1), so a file written for another trainer (pretrained_model_name_
        # or_path, a checkpoint's saved finetuning_args.json) is not LLaMA-Factory's whatever lora_rank it shares
        return score_keys(set(s), (), STRONG_KEYS | SHARED_KEYS, COMMON_KEYS)
    sc = score_keys(set(s) - {"stage"}, STRONG_KEYS, SHARED_KEYS, COMMON_KEYS)
    if "stage" in s:
        own = str(s["stage"]).strip() in STAGES
        sc.add(f"stage: {s['stage']}" if own else "stage", STRONG if own else SHARED)
    fa = s.get("flash_attn")
    if isinstance(fa, str) and fa in V0:
        sc.add(f"flash_attn: {fa}")
    if doc["fmt"] not in LINES and board_config(doc["data"]):
        sc.add("LLaMA Board form (top.* / train.* component ids)", 2 * STRONG)
    elif doc["fmt"] not in LINES and sc.own:
        from .parser_keys import not_its_file, refusal

        keys = [k for k in sc.own if k in s] + (["stage"] if any(e.startswith("stage:") for e in sc.own) else [])
        refused = not_its_file("llama-factory", doc["data"], keys)
        if refused:
            # most of its keys are ones LLaMA-Factory's parse_dict refuses: its LLaMA-Factory names are another
            # framework's too (hparams/parser.py raises "Some keys are not used by the HfArgumentParser")
            other = score_keys(set(s), (), STRONG_KEYS | SHARED_KEYS | {"stage"}, COMMON_KEYS)
            other.refused = refusal(TITLE, doc["data"], keys or sc.own, refused)
            return other
    if api is not None:
        sc.add("run_exp(...) (LLaMA-Factory's Python entry)", 2 * STRONG)
    if cli:
        sc.add("llamafactory-cli", 2 * STRONG)
    elif old is not None and old.script in OLD_SCRIPTS:
        sc.add(old.script, 2 * STRONG)
    elif old is not None and old.program == HEADLESS:
        sc.add("--stage ... (LLaMA-Factory's own options, the command left off)", 2 * STRONG)
    elif old is not None and not old.script:
        sc.add(f"{old.program} --stage (a fork's console script with LLaMA-Factory's own options)", 2 * STRONG)
    elif old is not None and _src_train(doc, old):
        sc.add("src/train.py CONFIG in a LLaMA-Factory checkout", 2 * STRONG)
    elif old is not None and _package_launcher(old):
        sc.add("llamafactory/launcher.py CONFIG (LLaMA-Factory's run_exp entry)", 2 * STRONG)
    return sc


def read(doc: dict) -> dict:
    s = _settings(doc)
    v1 = any(k in s for k in ("model", "train_dataset", "model_class", "dist_config", "micro_batch_size")) \
        and "model_name_or_path" not in s
    raw = s.get("flash_attn")
    entries = []
    name = None
    if raw is True:  # the boolean flag of LLaMA-Factory before 2024-04: FlashAttention-2
        name = "fa2"
        entries.append(attention("flash_attn", "--flash_attn (the boolean of LLaMA-Factory before 0.7)", "fa2"))
        raw = None
    if raw is not None and str(raw).strip() not in ("auto",):
        name = str(raw).strip()
        if raw is False:
            name = "disabled"
        table = V1 if v1 else V0
        if name in table:
            b = table[name]
            entries.append(attention(name, f"flash_attn: {name}", b, kind="local" if b else "builtin"))
        else:
            from difflib import get_close_matches

            hint = (get_close_matches(name.lower(), list(V1 if v1 else V0), n=1, cutoff=0.3) or ["sdpa"])[0]
            entries.append(attention(name, f"flash_attn: {name}", None, known=False, suggestion=hint,
                                     fix=f"flash_attn: {hint}"))
    model = s.get("model") if v1 else s.get("model_name_or_path")
    if not v1 and _gpt_oss(model, os.path.dirname(os.path.abspath(doc["path"]))):
        # model/model_utils/attention.py:34-44 (hiyouga/LLaMA-Factory@ff6d4d1, since 7901b2f32 2025-12-23): a gpt_oss model
        # gets the Hub kernel kernels-community/vllm-flash-attn3 whatever flash_attn says (nothing local required)
        name = "fa3"
        entries = [attention("kernels-community/vllm-flash-attn3",
                             "a gpt-oss model (LLaMA-Factory sets the Hub kernel whatever flash_attn says)", None,
                             kind="hub", hub_repo="kernels-community/vllm-flash-attn3", kernels_min="0.4")]
    if not v1 and s.get("use_unsloth") is True:
        # model/loader.py:145-149 + model_utils/unsloth.py:30-60 (hiyouga/LLaMA-Factory@ff6d4d1): a trained model is loaded by
        # Unsloth's FastLanguageModel.from_pretrained(model_name, dtype, ...), without the config flash_attn was written
        # into: Unsloth picks FlashAttention 2, xformers or SDPA from what is installed (configs/unsloth.py)
        entries, name = [], "unsloth"
    packing = s.get("packing")
    if packing is None:
        packing = s.get("stage") == "pt"
    traps = []
    if packing is True and not s.get("neat_packing") and not v1:
        traps.append({"setting": "packing: true" if s.get("packing") is True else "stage: pt (packing on by default)",
                      "attn": name or "auto"})
    bf16 = s.get("bf16")
    if bf16 is None and v1:
        bf16 = True  # v1 training_args: bf16 defaults to True
    dtype = "bfloat16" if bf16 is True or s.get("pure_bf16") is True else "float16" if s.get("fp16") is True else None
    bs = s.get("micro_batch_size") if v1 else s.get("per_device_train_batch_size", 1)
    comp = compile_of(s)
    unread = bool(doc.get("unread")) and doc["fmt"] in LINES  # the YAML the launch line names is not here
    misspelt = _misspelt_keys(doc.get("data")) if not v1 and doc["fmt"] in ("yaml", "json") else []
    if unread:
        # what the YAML sets is unknown, not LLaMA-Factory's defaults (only what the command line itself gives)
        if "torch_compile" not in s:
            comp = {**comp, "enabled": None, "mode": None}
        if "per_device_train_batch_size" not in s and "micro_batch_size" not in s:
            bs = None
    return {
        "trainer": "llama-factory", "trainer_title": TITLE + (" (v1)" if v1 else ""),
        "format": "cmdline" if doc["fmt"] in LINES else doc["fmt"],
        "family": None, "mixed_precision": None, "dtype": dtype, "attention": entries,
        "head_dims": model_head_dims(s.get("model") if v1 else s.get("model_name_or_path"),
                                     os.path.dirname(os.path.abspath(doc["path"]))),
        "compile": comp, "batch_size": as_int(bs), "packing": traps, **({"config_file_unread": True} if unread else {}),
        **({"cmdline_errors": misspelt} if misspelt else {}),
        "fixes": {"packing": "neat_packing: true   # packs without cross-attention between samples"
                  if s.get("stage") in (None, "sft") else
                  # hparams/parser.py get_train_args: "`neat_packing` cannot be set as True except SFT" (hiyouga/LLaMA-Factory
                  # @003a2acb); a pt run concatenates its texts into cutoff_len blocks (data/processor/pretrain.py) unless
                  # packing is false
                  f"packing: false   # one sample per sequence; neat_packing is for stage sft only (LLaMA-Factory refuses it with stage {s.get('stage')})",
                  "compile": "torch_compile: true", "use_default": "flash_attn: sdpa"},
    }


def _misspelt_keys(data) -> list[dict]:
    """The file's keys LLaMA-Factory's parser lacks, when each is a misspelling of one it has (flash_atn, enabel_...):
    hparams/parser.py _parse_args -> parse_dict raises "Some keys are not used by the HfArgumentParser" unless
    ALLOW_EXTRA_ARGS is set. A key with no near namesake is left alone: forks add their own (grpo_*, mfsgd_*)."""
    import difflib

    from .parser_keys import refused_keys
    from .trainer_keys import KEYS

    if not isinstance(data, dict) or board_config(data):
        return []
    got = refused_keys("llama-factory", data, ())
    if not got or not got[1]:
        return []
    known = KEYS["llama-factory"][got[0]]
    near = {b: difflib.get_close_matches(b, list(known), n=1, cutoff=0.85) for b in got[1]}
    if not all(near.values()):
        return []  # one key with no namesake: a fork's file, whose parser may take them all
    return [{"kind": "unknown-key", "name": b, "script": TITLE, "suggestion": near[b][0], "candidates": [],
             "value": data[b]} for b in got[1]]


def _gpt_oss(model, base: str) -> bool:
    """The model is a gpt-oss one: its name says so (openai/gpt-oss-20b, unsloth/gpt-oss-20b-BF16), or its local
    config.json's model_type is gpt_oss (what attention.py tests)."""
    if not isinstance(model, str) or not model.strip():
        return False
    if re.search(r"gpt[-_]?oss", model.rstrip("/\\").replace("\\", "/").rsplit("/", 1)[-1], re.IGNORECASE):
        return True
    data = local_model_config(model, base)
    return data is not None and data.get("model_type") == "gpt_oss"


def parse(path: str, text: str) -> dict:
    from . import make_doc

    return read(make_doc(path, text))
