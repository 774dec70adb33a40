"""transformers / TRL: `attn_implementation` in a training YAML or JSON (the TRL CLI's `trl sft --config`,
TrainingArguments/SFTConfig/ModelConfig fields, or `model_init_kwargs`), a model's config.json, a command line,
or a training script's `*.from_pretrained(attn_implementation=...)` / `SFTConfig(...)` calls read statically
(configs/pyscript/; never imported or run).

Read from huggingface/trl f2cd577 (2026-07-24): trl/trainer/model_config.py (`attn_implementation`, `dtype`),
trl/trainer/sft_config.py (`packing`, `packing_strategy` bfd | bfd_split | wrapped, default bfd; `padding_free`:
"only supported with the FlashAttention 2 or 3"; `model_init_kwargs`), trl/trainer/sft_trainer.py
(FLASH_ATTENTION_VARIANTS = flash_attention_2, flash_attention_3, kernels-community/flash-attn2,
kernels-community/flash-attn3, kernels-community/vllm-flash-attn3; padding-free is on with packing under bfd/bfd_split,
and other implementations "may lead to unexpected behavior": the flattened batch carries its sample boundaries
only in position_ids, which SDPA and eager ignore). transformers' names: eager, sdpa, flash_attention_2,
flash_attention_3, flex_attention, a `paged|` prefix for generation, and Hub kernels `org/repo[:fn]` loaded by the
`kernels` package (transformers.modeling_utils _check_and_adjust_attn_implementation; the transformers
repository itself was too large to fetch here, these names are those TRL, axolotl and LLaMA-Factory pass to it).
TrainingArguments: `torch_compile`, `torch_compile_mode`, `bf16`, `fp16`, `per_device_train_batch_size`.
Head dims come from the model's config.json when the model named is a local directory (a Hub id: none).
"""

from __future__ import annotations

import os
import re

from ..textutil import walked
from . import NOTHING, Score, as_int, attention, score_keys

TITLE = "transformers / TRL"
# transformers' attn_implementation -> attn-doctor backend (eager: plain PyTorch matmul + softmax, no backend)
NAMES = {"eager": None, "sdpa": "sdpa", "flash_attention_2": "fa2", "flash_attention_3": "fa3",
         "flex_attention": "flex"}
FLASH_VARIANTS = {"flash_attention_2", "flash_attention_3", "kernels-community/flash-attn2",
                  "kernels-community/flash-attn3", "kernels-community/vllm-flash-attn3"}
# Keys only transformers / TRL use. Names every script built on the HF Trainer takes as well
# (per_device_train_batch_size, dataset_name, torch_compile_mode: LLaMA-Factory, ms-swift, FastChat, users' own
# HfArgumentParser scripts and their YAMLs) are shared; a YAML made of TrainingArguments / TRL fields is told by
# fields_evidence() instead.
STRONG_KEYS = {"model_init_kwargs", "packing_strategy", "use_peft", "completion_only_loss", "assistant_only_loss",
               "architectures", "transformers_version", "num_attention_heads", "num_key_value_heads",
               "max_position_embeddings", "rope_theta", "rms_norm_eps", "intermediate_size", "vocab_size",
               "_attn_implementation"}
# dataset_text_field: users' own scripts copy TRL's name for their argument; padding_free is ms-swift's option as well
SHARED_KEYS = {"dataset_text_field", "padding_free", "attn_implementation", "model_name_or_path", "max_length", "packing", "lora_r", "lora_alpha", "lora_target_modules", "torch_dtype",
               "num_train_epochs", "hidden_size", "head_dim", "model_type", "torch_compile", "bf16", "fp16",
               "lr_scheduler_type", "warmup_ratio", "logging_steps", "eval_strategy", "save_strategy", "dtype",
               "per_device_train_batch_size", "dataset_name", "torch_compile_mode"}
COMMON_KEYS = {"learning_rate", "output_dir", "report_to", "gradient_checkpointing", "gradient_accumulation_steps", "seed"}
DTYPES = {"bfloat16": "bfloat16", "float16": "float16", "float32": "float32", "bf16": "bfloat16", "fp16": "float16",
          "half": "float16", "float": "float32"}
# The fields a TRL / transformers-examples YAML or command line may hold: TrainingArguments (transformers
# training_args.py), TRL's SFT/DPO/GRPO/Reward configs, ModelConfig and ScriptArguments (trl/trainer/*_config.py,
# trl/scripts/utils.py), the alignment-handbook's and open-r1's recipe additions. TrlParser / HfArgumentParser refuse
# a YAML key no dataclass has ("Some specified config arguments are not used"), so a file whose keys are mostly
# outside this table is some other script's (a user's own config with model: / lora: / training: sections).
HF_FIELDS = frozenset("""
output_dir overwrite_output_dir do_train do_eval do_predict eval_strategy evaluation_strategy prediction_loss_only
per_device_train_batch_size per_device_eval_batch_size gradient_accumulation_steps eval_accumulation_steps eval_delay
learning_rate weight_decay adam_beta1 adam_beta2 adam_epsilon max_grad_norm num_train_epochs max_steps
lr_scheduler_type lr_scheduler_kwargs warmup_ratio warmup_steps log_level log_level_replica logging_dir
logging_strategy logging_first_step logging_steps logging_nan_inf_filter save_strategy save_steps save_total_limit
save_safetensors save_only_model save_on_each_node seed data_seed full_determinism bf16 fp16 bf16_full_eval
fp16_full_eval tf32 local_rank ddp_backend ddp_timeout ddp_find_unused_parameters dataloader_num_workers
dataloader_drop_last dataloader_pin_memory dataloader_persistent_workers dataloader_prefetch_factor eval_steps
run_name disable_tqdm remove_unused_columns label_names load_best_model_at_end metric_for_best_model
greater_is_better ignore_data_skip fsdp fsdp_config deepspeed label_smoothing_factor optim optim_args
group_by_length length_column_name report_to gradient_checkpointing gradient_checkpointing_kwargs
include_num_input_tokens_seen include_tokens_per_second push_to_hub hub_model_id hub_strategy hub_token
hub_private_repo hub_always_push hub_model_revision resume_from_checkpoint torch_compile torch_compile_backend
torch_compile_mode neftune_noise_alpha use_liger_kernel liger_kernel_config average_tokens_across_devices
auto_find_batch_size eval_on_start batch_eval_metrics save_steps max_seq_length max_length packing
packing_strategy padding_free dataset_text_field dataset_num_proc dataset_kwargs completion_only_loss
assistant_only_loss model_init_kwargs chat_template chat_template_path eos_token pad_token pad_to_multiple_of
activation_offloading use_vllm vllm_mode vllm_device vllm_gpu_memory_utilization vllm_max_model_len
vllm_server_host vllm_server_port vllm_tensor_parallel_size num_generations max_prompt_length
max_completion_length temperature top_p top_k beta loss_type reward_funcs reward_weights scale_rewards
num_iterations epsilon mask_truncated_completions log_completions num_completions_to_print generation_batch_size
steps_per_generation ref_model_init_kwargs precompute_ref_log_probs rpo_alpha label_pad_token_id
truncation_mode center_rewards_coefficient dataset_name dataset_config dataset_train_split dataset_test_split
dataset_streaming dataset_mixture datasets gradient_checkpointing_use_reentrant model_name_or_path
model_revision torch_dtype dtype trust_remote_code attn_implementation use_peft lora_r lora_alpha lora_dropout
lora_target_modules lora_modules_to_save lora_task_type use_rslora use_dora load_in_4bit load_in_8bit
bnb_4bit_quant_type use_bnb_nested_quant tokenizer_name_or_path dataset_mixer dataset_splits dataset_configs
preprocessing_num_workers truncation_side auto_insert_empty_system_msg use_flash_attention_2 system_prompt
benchmarks callbacks wandb_entity wandb_project wandb_run_group config
""".split()) | frozenset(
    # the other fields of TRL's config dataclasses (huggingface/trl@f2cd577 trl/trainer/{base,sft,dpo,grpo,kto,reward,
    # rloo,model}_config.py: GRPO's epsilon_high / importance_sampling_level / top_entropy_quantile / generation_kwargs,
    # DPO's label_smoothing / f_divergence_type, KTO's desirable_weight ...; SFTConfig's use_liger of 4dd0dc298
    # 2024-08-29 to a8cfca6d0 2025-04-26, before use_liger_kernel), TrainingArguments fields the table above
    # lacked, and open-r1's GRPO / SFT ScriptArguments (huggingface/open-r1@1416fa0 src/open_r1/configs.py), whose
    # TrlParser YAMLs carry them beside GRPOConfig's
    """
bnb_4bit_quant_storage cache_implementation cast_lm_head_to_fp32 chat_template_kwargs delta desirable_weight
disable_dropout discopop_tau ds3_gather_for_generation entropy_coef entropy_coef_delta entropy_coef_max entropy_coef_min
entropy_target epsilon_high eval_packing f_alpha_divergence_coef f_divergence_type generation_kwargs
importance_sampling_level label_smoothing ld_alpha log_completions_hub_repo log_multimodal log_unique_prompts
lora_target_parameters loss_weights max_tool_calling_iterations min_p multi_objective_aggregation normalize_advantages
num_generations_eval off_policy_mask_threshold precompute_ref_batch_size ref_model_mixup_alpha ref_model_sync_steps
repetition_penalty reward_clip_range router_aux_loss_coef sapo_temperature_neg sapo_temperature_pos shuffle_dataset
sync_ref_model top_entropy_quantile torch_empty_cache_steps train_sampling_strategy
transformers_continuous_batching_config undesirable_weight use_adaptive_entropy use_bias_correction_kl
use_transformers_continuous_batching use_transformers_paged use_weighting vespo_k_neg vespo_k_pos vespo_lambda_neg
vespo_lambda_pos vllm_enable_sleep_mode vllm_group_port vllm_importance_sampling_cap vllm_importance_sampling_clip_max
vllm_importance_sampling_clip_min vllm_importance_sampling_correction vllm_importance_sampling_mode
vllm_max_model_length vllm_model_impl vllm_server_base_url vllm_server_timeout vllm_structured_outputs_regex
use_cpu ddp_broadcast_buffers ddp_bucket_cap_mb restore_callback_states_from_checkpoint
use_liger
code_eval_scoring_mode code_eval_test_batch_size code_language code_provider cosine_max_len cosine_max_value_correct
cosine_max_value_wrong cosine_min_value_correct cosine_min_value_wrong dataset_prompt_column e2b_router_url
hub_model_revision ioi_provider max_completion_len morph_router_url overwrite_hub_revision
parallel_code_exec_per_proc push_to_hub_revision repetition_max_penalty repetition_n_grams soft_punish_cache
wandb_log_unique_prompts
""".split())
MIN_FIELDS, FIELDS_SHARE = 3, 0.9  # real TRL / handbook / open-r1 recipes: 0.93-1.0; LLaMA-Factory YAMLs 0.56-0.71


# TRL's ModelConfig fields (huggingface/trl@f2cd577 trl/trainer/model_config.py:81-164), the alignment-handbook's
# ModelArguments alike. Its model_name_or_path is optional (default None, :81): a TrlParser YAML may leave the model to
# the command line (`grpo.py --config configs/grpo.yaml --model_name_or_path ...`) and still say how it is loaded.
MODEL_CONFIG_FIELDS = {"model_revision", "dtype", "torch_dtype", "attn_implementation", "use_peft", "lora_r",
                       "lora_alpha", "lora_dropout", "lora_target_modules", "lora_target_parameters",
                       "lora_modules_to_save", "lora_task_type", "use_rslora", "use_dora", "load_in_4bit",
                       "load_in_8bit", "bnb_4bit_quant_type", "use_bnb_nested_quant", "trust_remote_code"}


# ModelConfig's LoRA fields (trl/trainer/model_config.py), which only use_peft applies: TRL's get_peft_config (and the
# alignment-handbook's, open-r1's copies) starts `if model_args.use_peft is False: return None`, and use_peft defaults
# False. A TrlParser recipe that trains a LoRA names use_peft beside them; one that sets them without it is another
# loader's schema that borrowed the names (round 147m's tanghui315 grpo_open_r1_config.yaml, `lora_r: 16` read by
# the repository's own Unsloth loader). Counted over the training labels (cfg42n, session 42): of 39 bare YAML / JSON
# files read as transformers on their TRL-shaped keys alone, 34 are labelled transformers (none has a LoRA field
# without use_peft) and 5 refused (1 has): the keys alone stay transformers' evidence, this one sign is not.
PEFT_ONLY_FIELDS = {"lora_r", "lora_alpha", "lora_dropout", "lora_target_modules", "lora_target_parameters",
                    "lora_modules_to_save", "lora_task_type", "use_rslora", "use_dora"}


def lora_without_peft(s: dict) -> list[str]:
    """The LoRA fields of ModelConfig a YAML / JSON sets without use_peft, which TRL would leave unapplied (sorted);
    [] when it names use_peft (true or false) or sets none of them."""
    if "use_peft" in s:
        return []
    return sorted(str(k) for k in s if str(k) in PEFT_ONLY_FIELDS)


def model_from_command_line(keys) -> bool:
    """A TrlParser / H4ArgumentParser YAML without model_name_or_path: TrainingArguments / TRL fields throughout
    (fields_evidence) with ModelConfig's own `model_revision` and at least one more of its fields, so the file says how
    the model is loaded while the launch names it. A user's own YAML of GRPOConfig-like keys names no ModelConfig
    field; another trainer's YAML names its model."""
    keys = {str(k) for k in keys}
    return "model_revision" in keys and len(keys & MODEL_CONFIG_FIELDS) >= 2 and fields_evidence(keys) is not None


def fields_evidence(keys) -> str | None:
    """The own evidence of a file (or a command line's options) made of TrainingArguments / TRL fields: at least
    MIN_FIELDS of them, and FIELDS_SHARE of all its keys; None otherwise."""
    keys = {str(k) for k in keys}
    known = keys & HF_FIELDS
    if len(known) >= MIN_FIELDS and len(known) >= FIELDS_SHARE * len(keys):
        return f"TrainingArguments / TRL fields ({len(known)} of {len(keys)} keys)"
    return None


def entry(name: str, setting: str, extra: dict | None = None) -> dict:
    """One attn_implementation value as an attention entry (extra: more names the caller's trainer knows)."""
    raw = str(name).strip()
    base = raw.split("|", 1)[1] if raw.startswith("paged|") else raw
    names = dict(NAMES, **(extra or {}))
    if base in names:
        b = names[base]
        return attention(raw, setting, b, kind="local" if b else "other" if base == "fp8" else "builtin")
    if "/" in base:
        repo = base.split(":", 1)[0]
        return attention(raw, setting, None, kind="hub", hub_repo=repo, kernels_min="0.4")
    from difflib import get_close_matches

    hint = (get_close_matches(base.lower().replace("-", "_"), list(names), n=1, cutoff=0.4) or ["sdpa"])[0]
    return attention(raw, setting, None, known=False, suggestion=hint)


def head_dims(cfg: dict) -> list[int] | None:
    """Head dims of a model config.json: head_dim, or hidden_size / num_attention_heads."""
    for c in (cfg, cfg.get("text_config") if isinstance(cfg.get("text_config"), dict) else {}):
        hd = c.get("head_dim")
        if isinstance(hd, int) and hd > 0:
            return [hd]
        h, n = c.get("hidden_size"), c.get("num_attention_heads")
        if isinstance(h, int) and isinstance(n, int) and n > 0 and h % n == 0:
            return [h // n]
    return None


def local_model_config(model, base: str) -> dict | None:
    """The config.json of the model a training config names, when the model is a local directory (as written,
    or beside the training config); a Hub id says nothing here (nothing is downloaded)."""
    import json
    import os

    if not isinstance(model, str) or not model.strip():
        return None
    for d in ([model] if os.path.isabs(model) else [model, os.path.join(base, model)]):
        path = os.path.join(d, "config.json")
        if os.path.isfile(path) and os.path.getsize(path) < 4 * 1024 * 1024:
            try:
                with open(path, encoding="utf-8") as fh:
                    data = json.load(fh)
            except (OSError, ValueError):
                return None
            return data if isinstance(data, dict) else None
    return None


def model_head_dims(model, base: str) -> list[int] | None:
    """Head dims of the model a training config names, from its local config.json (local_model_config)."""
    data = local_model_config(model, base)
    return head_dims(data) if data is not None else None


def dtype_from(s: dict) -> str | None:
    if s.get("bf16") in (True, "true", "True") or str(s.get("mixed_precision", "")).lower() == "bf16":
        return "bfloat16"
    if s.get("fp16") in (True, "true", "True") or str(s.get("mixed_precision", "")).lower() == "fp16":
        return "float16"
    kw = s.get("model_init_kwargs") if isinstance(s.get("model_init_kwargs"), dict) else {}
    for v in (s.get("dtype"), s.get("torch_dtype"), kw.get("dtype"), kw.get("torch_dtype")):
        if isinstance(v, str) and v.strip().lower() in DTYPES:
            return DTYPES[v.strip().lower()]
    return None


# What _settings notes beside a script's settings for read() (not settings: the evidence does not name them)
_NOTES = {"by_gpu", "amp_other", "gpu_open"}


def _open_by_gpu(out: dict, arg: str, node, consts: dict) -> None:
    """A bf16 / fp16 (or a model's dtype) the script leaves open here: the GPU's answer to a bf16 probe
    (pyscript.gpu_decides: `bf16=torch.cuda.is_bf16_supported()`) kept in out["by_gpu"] for read() to say what each GPU
    runs; a bf16 / fp16 open for any other reason (a spread of a file not here, a method's value) is amp_other, and then
    no GPU's answer is the run's whole story."""
    from .pyscript import gpu_decides, gpu_open

    got = gpu_decides(node, consts)
    if got is not None:
        out.setdefault("by_gpu", {})[arg] = got
    elif arg in ("bf16", "fp16"):
        out["amp_other"] = True
    opened = gpu_open(node, consts) if got is None else None
    if opened is not None:
        out.setdefault("gpu_open", {})[arg] = opened
    if arg in ("bf16", "fp16"):
        out["amp_unknown"] = True


def compile_of(s: dict, setting: str = "torch_compile") -> dict:
    on = s.get("torch_compile") in (True, "true", "True") or bool(s.get("torch_compile_mode")) or bool(s.get("torch_compile_backend"))
    mode = s.get("torch_compile_mode") if isinstance(s.get("torch_compile_mode"), str) else None
    return {"enabled": on, "mode": (mode or "default") if on else None, "setting": setting}


OTHER_CLIS = {"swift", "megatron", "llamafactory-cli", "lmf", "tune", "litgpt", "axolotl", "simpletuner"}
ACCELERATE_KEYS = {"compute_environment", "distributed_type", "parallelism_config", "num_processes", "machine_rank",
                   "main_training_function", "downcast_bf16", "rdzv_backend", "same_network"}


# (`import torch, transformers`: one import statement of several modules names it too; cfg83)
_PY_IMPORT = re.compile(r"^\s*(from\s+(transformers|trl)\b[\w.]*\s+import|import\s+(?:[\w.]+(?:\s+as\s+\w+)?\s*,\s*)*"
                        r"(transformers|trl)\b)", re.MULTILINE)
_UNSLOTH = re.compile(r"^\s*(from\s+unsloth\b|import\s+unsloth\b)", re.MULTILINE)
_UNSLOTH_LOADER = re.compile(r"\bFast\w*Model\b")  # FastLanguageModel, FastModel, FastVisionModel ... (unsloth.LOADERS)
_HF_MODEL_LOAD = re.compile(r"\b(AutoModel\w*|\w+For[A-Z]\w*)\.from_pretrained\s*\(")


# The classmethods of Unsloth's loader classes a training script calls (unslothai/unsloth@015bdef
# unsloth/models/loader.py FastLanguageModel / FastModel.from_pretrained, models/llama.py get_peft_model /
# for_training / for_inference / patch_peft_model, models/vision.py the same on FastBaseModel's subclasses)
_UNSLOTH_CALL = re.compile(r"(?<![\w.])(Fast(?:Language|Vision|Text|Llama|Mistral|Qwen2|Gemma2?|Cohere|FalconH1)?Model)\s*\.\s*"
                           r"(from_pretrained|get_peft_model|for_training|for_inference|patch_peft_model)\s*\(")


def unsloth_unimported(src: str) -> str | None:
    """The Unsloth loader call (`FastLanguageModel.get_peft_model`) of a script that does not import Unsloth itself, or
    None: the name comes from the project's own module (`from mypkg.config import *`, a wrapper class in mypkg/model.py
    whose file does `from unsloth import FastLanguageModel`: round 138's unslothlora/train.py), so the run is Unsloth's
    as much as with the import in the script. A script that defines a class of that name (a stub for a machine without
    Unsloth) calls its own class, one that imports the name from another library or calls it on another module
    (`mt.FastLanguageModel` of mlx-tune, round 79m) calls that library's, and a docstring's or a comment's example
    calls nothing."""
    if _UNSLOTH.search(src) or not _UNSLOTH_CALL.search(src):
        return None
    import ast

    from .pyscript import tree

    t = tree(src)
    if t is None:
        return None
    bound = set()  # the names the script binds itself: a class, an import from any module, an assignment
    for n in ast.walk(t):
        if isinstance(n, ast.ClassDef):
            bound.add(n.name)
        elif isinstance(n, (ast.Import, ast.ImportFrom)):
            bound |= {(a.asname or a.name).split(".")[0] for a in n.names if a.name != "*"}
        elif isinstance(n, ast.Assign):
            bound |= {x.id for x in n.targets if isinstance(x, ast.Name)}
    for n in ast.walk(t):
        # a call in the code (not a docstring's or a comment's example) on the bare name, not on another module
        f = n.func if isinstance(n, ast.Call) else None
        if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id not in bound and \
                _UNSLOTH_CALL.fullmatch(f"{f.value.id}.{f.attr}("):
            return f"{f.value.id}.{f.attr}"
    return None


def unsloth_script(src: str) -> bool:
    """Whether a Python script is Unsloth's run: it imports Unsloth, and its model goes through one of Unsloth's
    loaders (FastLanguageModel ...) or is not loaded here at all (a notebook's cell after the one that loaded it). A
    script that takes only a helper from Unsloth (`from unsloth.chat_templates import get_chat_template`) and loads its
    model with transformers' AutoModelForCausalLM.from_pretrained trains transformers' model: importing Unsloth patches
    libraries and trainers (unslothai/unsloth@015bdef unsloth/_gpu_init.py:250-275, 464-469) but not a model's
    attention, which Unsloth replaces only inside its own from_pretrained (unsloth/models/llama.py:2288-2300 pre_patch,
    called at :2430). A script that calls Unsloth's loader classes with the import in the project's own module is
    Unsloth's run too (unsloth_unimported)."""
    if unsloth_unimported(src):
        return True
    return bool(_UNSLOTH.search(src)) and bool(_UNSLOTH_LOADER.search(src) or not _HF_MODEL_LOAD.search(src))
# TRL's configs (trl/trainer/*_config.py, trl/experimental/*/*_config.py: subclasses of _BaseConfig, whose bf16 defaults
# to `not fp16`); TrainingArguments / Seq2SeqTrainingArguments keep transformers' False. GOLD / GMPO / AsyncGRPO /
# MiniLLM / GRPOWithReplayBuffer: huggingface/trl@f2cd577 trl/experimental/ (cfg83)
TRL_CONFIGS = {"SFTConfig", "DPOConfig", "GRPOConfig", "ORPOConfig", "KTOConfig", "RewardConfig", "PPOConfig", "GKDConfig",
               "RLOOConfig", "CPOConfig", "BCOConfig", "OnlineDPOConfig", "PRMConfig", "XPOConfig", "NashMDConfig",
               "GOLDConfig", "GMPOConfig", "AsyncGRPOConfig", "MiniLLMConfig", "GRPOWithReplayBufferConfig"}
# The keyword arguments a transformers / TRL script's calls set (from_pretrained, TrainingArguments, SFTConfig ...): every
# TRL config, not the first few (cfg83: a script's `CPOConfig(..., torch_compile=True)` was not read)
PY_ARGS = {"TrainingArguments", "Seq2SeqTrainingArguments", "ModelConfig"} | TRL_CONFIGS
# `_attn_implementation=`: the private name from_pretrained also takes (a keyword it does not take itself goes to the
# model's config, whose __post_init__ sets it with setattr, and `_attn_implementation` is the config property the
# attention interface is chosen from: huggingface/transformers@008e574 src/transformers/configuration_utils.py)
# `use_flash_attention_2=True`: from_pretrained's keyword before attn_implementation (transformers 4.34-4.35, kept with a
# deprecation warning after: config._attn_implementation = "flash_attention_2"), as read() takes it from a YAML
PY_KEYS = ("attn_implementation", "_attn_implementation", "use_flash_attention_2", "torch_dtype", "dtype", "bf16", "fp16",
           "torch_compile",
           "torch_compile_mode",
           "torch_compile_backend", "packing", "packing_strategy", "padding_free", "per_device_train_batch_size")
# the classmethods that build a model with from_pretrained's keywords (attn_implementation, torch_dtype / dtype):
# `AutoModelForCausalLM.from_config(config, attn_implementation=...)` builds an untrained model the same way
MODEL_BUILDERS = ("from_pretrained", "from_config")


_DIFFUSERS = re.compile(r"^\s*(from\s+diffusers\b|import\s+diffusers\b)", re.MULTILINE)


def _callee(call) -> tuple[str, str]:
    """(owner, name) of a call: `AutoModel.from_pretrained(...)` -> ("AutoModel", "from_pretrained"),
    `TrainingArguments(...)` -> ("", "TrainingArguments")."""
    import ast

    f = call.func
    name = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""
    # `transformers.AutoModelForCausalLM.from_pretrained(...)` (round 30: a user's `import transformers` script): the
    # class is the last name of the dotted path, as `from transformers import AutoModelForCausalLM` would name it
    owner = f.value.id if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) else \
        f.value.attr if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Attribute) else ""
    return owner, name


def _transformers_calls(t, *, models: bool = True) -> list:
    """The calls of a script that load a language model or configure a trainer through transformers / TRL:
    `*.from_pretrained` / `*.from_config` on an AutoModel* / task-head / *Model class of transformers' (not a tokenizer,
    a processor, a bare encoder such as CLIPTextModel that a diffusion script loads beside its UNet, nor a class of the
    script's own) and TrainingArguments / SFTConfig (...) calls of transformers' / TRL's (not a class of the same name
    the script imports from its own package). models=False: the trainer calls only (a script another framework's loop
    or a diffusion pipeline runs, whose transformers models are not transformers' run: real/TRAINERS.md, round 6a)."""
    import ast

    out = []
    # a TRL trainer the script imports from TRL (`from trl import SFTTrainer`, `trl.SFTTrainer(...)`): a user's own
    # class of the same name (round 30: a notebook's `from training.sft import SFTTrainer`) is not TRL's
    trl = {a.asname or a.name for n in walked(t) if isinstance(n, ast.ImportFrom) and (n.module or "").split(".")[0]
           == "trl" for a in n.names}
    hf = _hf_trainers_imported(t)
    foreign = _foreign_names(t)
    subclasses = _script_subclasses(t)
    frozen = _frozen_loads(t) if models else set()
    for n in walked(t):
        if not isinstance(n, ast.Call) or id(n) in frozen:
            continue
        owner, name = _callee(n)
        if not owner and name in subclasses:
            name = subclasses[name][0]  # a class of the script's own on TrainingArguments / TRL's (checked there)
        elif name in TRL_TRAINERS and not (name in trl or owner == "trl"):
            continue
        elif name in HF_TRAINERS and not (name in hf and not owner or owner == "transformers"):
            continue  # a Trainer of the script's own, Lightning's `pl.Trainer(...)`, another library's
        elif not owner and name in foreign:
            continue  # `from mytrainer.args import TrainingArguments`: the repository's own class of that name (cfg44)
        if name in PY_ARGS or name in TRL_TRAINERS or name in HF_TRAINERS:
            out.append((owner + "." if owner in ("transformers", "trl") else "") + name)
        elif models and name in MODEL_BUILDERS and _model_class(t, owner, foreign):
            out.append(owner + "." + name)
    return out


# transformers' bare encoders a diffusion pipeline conditions on (diffusers' SD / SDXL / SD3 / FLUX / Wan text and image
# encoders: CLIPTextModel, CLIPTextModelWithProjection, T5EncoderModel, UMT5EncoderModel, CLIPVisionModelWithProjection,
# SiglipVisionModel): not a language model a script trains or runs (real/TRAINERS.md, round 6a)
_BARE_ENCODER = re.compile(r"(TextModel|TextModelWithProjection|EncoderModel|VisionModel|VisionModelWithProjection)$")


def _frozen_loads(t) -> set:
    """id() of the model loads (`qwen = Qwen2_5_VLForConditionalGeneration.from_pretrained(...)`) whose model the script
    freezes whole (`for p in qwen.parameters(): p.requires_grad = False`, `qwen.requires_grad_(False)`) and never hands
    whole to a call (peft's get_peft_model, or an adapter injection of the script's own may train part of it
    again): a frozen feature extractor beside what the script's own loop trains (a part of it, `qwen.visual`, tapped
    for features), not a transformers run of its own, as a diffusion script's text encoders are not (cfg67: round 64m's
    qlccz185 classanddetect.py trains its own heads on Qwen2.5-VL's visual features)."""
    import ast

    loads: dict = {}
    for n in walked(t):
        if isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name) and \
                isinstance(n.value, ast.Call) and _callee(n.value)[1] in MODEL_BUILDERS:
            loads.setdefault(n.targets[0].id, []).append(n.value)
    if not loads:
        return set()
    frozen, adapted = set(), set()
    for n in walked(t):
        if isinstance(n, ast.For) and isinstance(n.target, ast.Name) and isinstance(n.iter, ast.Call) and \
                isinstance(n.iter.func, ast.Attribute) and n.iter.func.attr == "parameters" and \
                isinstance(n.iter.func.value, ast.Name) and any(
                    isinstance(a, ast.Assign) and isinstance(a.value, ast.Constant) and a.value.value is False and
                    any(isinstance(x, ast.Attribute) and x.attr == "requires_grad" and isinstance(x.value, ast.Name) and
                        x.value.id == n.target.id for x in a.targets) for a in n.body):
            frozen.add(n.iter.func.value.id)
        elif isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "requires_grad_" and \
                isinstance(n.func.value, ast.Name) and len(n.args) == 1 and isinstance(n.args[0], ast.Constant) and \
                n.args[0].value is False:
            frozen.add(n.func.value.id)
        elif isinstance(n, ast.Call):
            # handed whole to a call: peft's get_peft_model or the script's own adapter injection (round 51's tiwwpst
            # `add_lora_gptneox(model, ...)` on a frozen GPT-NeoX) may make part of it train again
            adapted |= {a.id for a in list(n.args) + [k.value for k in n.keywords] if isinstance(a, ast.Name)}
    return {id(c) for name in frozen - adapted for c in loads.get(name, [])}


# the libraries whose own trainers build on transformers' Trainer (a script importing theirs is read by what it
# configures), beside those attn-doctor reads or knows as no trainer (pyscript._LIBRARIES)
_TRAINER_LIBRARIES = {"sentence_transformers", "setfit", "swift", "llamafactory", "axolotl", "optimum", "ray", "trl",
                      "transformers", "unsloth", "peft", "accelerate"}


def own_trainer(t) -> str | None:
    """The trainer class of the user's own repository a script hands its run to (`from gspo_implementation import
    GSPOTrainer` ... `GSPOTrainer(model, tokenizer, config)`, `from .trainer import Trainer`), or None: there the
    transformers models it loads are trained by that code, not by a transformers / TRL trainer, and only a transformers
    / TRL trainer configured counts (cfg67: round 64m's vivekvar-dl train_gspo.py, whose own GSPO loop trains a model
    loaded with attn_implementation="flash_attention_2"; round 30's notebook of its own SFTTrainer)."""
    import ast

    from .pyscript import _LIBRARIES

    own = {}
    for n in walked(t):
        if isinstance(n, ast.ImportFrom) and (n.level or (n.module or "").split(".")[0] not in
                                              _LIBRARIES | _TRAINER_LIBRARIES):
            own.update({a.asname or a.name: a.name for a in n.names if a.name.endswith("Trainer")})
    for n in walked(t):
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in own:
            return own[n.func.id]
    return None


# the optimiser's step of a loop written by hand: `optimizer.step()`, `self.optim.step()`, `opt.step()` (not a
# scheduler's, a progress bar's or an environment's step)
_OPTIMIZER_NAME = re.compile(r"(?i)^(opt|optim|optimi[sz]er)(_\w+)?$|_(opt|optim|optimi[sz]er)$")


def _trainer_used(t) -> bool:
    """Whether the script builds or names a transformers / TRL trainer: a call of Trainer / Seq2SeqTrainer imported from
    transformers or of a TRL trainer imported from TRL (`trl.SFTTrainer(...)`, `transformers.Trainer(...)` too), a
    class of its own on one (`class WeightedTrainer(Trainer)`), or the class handed on (`trainer_cls = SFTTrainer`).
    An import alone is not a run (round 72m's nemotron_lora_train.py imports Trainer and trains in its own class)."""
    import ast

    names = _hf_trainers_imported(t) | {a.asname or a.name for n in walked(t) if isinstance(n, ast.ImportFrom) and
                                        (n.module or "").split(".")[0] == "trl" for a in n.names
                                        if a.name in TRL_TRAINERS}
    if any(base in HF_TRAINERS | TRL_TRAINERS for base, _d in _script_subclasses(t).values()):
        return True
    for n in walked(t):
        if isinstance(n, ast.Name) and n.id in names and isinstance(n.ctx, ast.Load):
            return True
        if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and n.value.id in ("transformers", "trl") \
                and n.attr in HF_TRAINERS | TRL_TRAINERS:
            return True
    return False


# an optimiser a script builds: torch.optim's and the libraries' (bitsandbytes' AdamW8bit, transformers' Adafactor,
# prodigyopt's Prodigy, lion-pytorch's Lion, Muon ...), by its class name
_OPTIMIZER_CLASS = re.compile(r"(?i)^(\w*adam\w*|sgd|adafactor|\w*lion\w*|rmsprop|adagrad|adadelta|prodigy\w*|muon|"
                              r"lamb|lars|came|schedulefree\w*|\w*optimi[sz]er)$")


def _optimizer_built(t) -> bool:
    import ast

    return any(isinstance(n, ast.Call) and _OPTIMIZER_CLASS.match(_callee(n)[1] or "") for n in walked(t))


def _own_step(t) -> str | None:
    """The training step a script writes itself, or None: an optimiser's step (`optimizer.step()`,
    `scaler.step(optimizer)`), or a backward pass it calls (`loss.backward()`, `accelerator.backward(loss)`,
    `scaler.scale(loss).backward()`) beside an optimiser it builds (a backward pass alone is a gradient an inference
    or attribution script may take: no training)."""
    import ast

    backward = None
    for n in walked(t):
        if not (isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)):
            continue
        target = n.func.value
        said = ast.unparse(n.func) + "()"
        if n.func.attr == "backward" and backward is None:
            # (`(raw_loss / config.accumulation_steps).backward()`: said as the backward pass it is)
            backward = said if isinstance(target, (ast.Name, ast.Attribute)) and len(said) <= 48 else "loss.backward()"
        name = target.attr if isinstance(target, ast.Attribute) else target.id if isinstance(target, ast.Name) else ""
        if n.func.attr == "step" and (_OPTIMIZER_NAME.search(name) or any(
                isinstance(a, ast.Name) and _OPTIMIZER_NAME.search(a.id) for a in n.args)):
            return backward or (said if len(said) <= 48 else "optimizer.step()")
    return backward if backward is not None and _optimizer_built(t) else None


def own_loop(doc: dict, *, attn: bool = True) -> dict | None:
    """A user's own training loop over a transformers model: a script that loads a language model through transformers
    (`AutoModelForCausalLM.from_pretrained(...)`, a task head, a *ForCausalLM class: not a tokenizer, a diffusion
    script's text encoder, a frozen feature extractor) and trains it with a step of its own (`optimizer.step()`, or
    `loss.backward()` / `accelerator.backward(loss)` beside an optimiser it builds: _own_step), in the file or in a trainer class of its repository, while no
    transformers Trainer or TRL trainer runs it. Such a run is no trainer's (the convention of the blind rounds, issue
    24's "a file is read as trainer X only on X's own evidence"; relabelled in session 18, cfg74: round 6a's Sherlock1956
    sft.py, round 51's BFCmath train_grpo.py and tiwwpst loops, round 47m's LennoxC gemma3_finetune.py): {"step": what
    trains, "model": the load, "attn": the attn_implementation it asks for (or None; not looked for with attn=False)}.
    None otherwise: an inference or load script stays transformers' (round 6a / 27u), a trainer's script is that
    trainer's."""
    if doc.get("fmt") != "python":
        return None
    src = doc.get("python") or ""
    if not _PY_IMPORT.search(src) or unsloth_script(src) or _DIFFUSERS.search(src):
        return None
    from .others import imported_framework
    from .pyscript import tree

    t = tree(src)
    if t is None or imported_framework(doc) or _trainer_used(t):
        return None
    if _transformers_calls(t, models=False):
        # TrainingArguments / SFTConfig (...) configured: arguments for a transformers / TRL trainer, whatever runs them
        # (cfg67: `from src.trainer import WeightedTrainer`, the user's subclass of Trainer, given TrainingArguments)
        return None
    # (the language model first: a script's own PreTrainedModel subclass beside an AutoModelForCausalLM it wraps)
    loads = sorted((c for c in _transformers_calls(t) if c.split(".")[-1] in MODEL_BUILDERS),
                   key=lambda c: not (c.startswith("AutoModel") or _TASK_HEAD.search(c.split(".")[0])))
    if not loads:
        return None
    step = _own_step(t)
    trainer = own_trainer(t)
    if step is None and trainer is None:
        return None
    if not attn:
        return {"step": step or f"{trainer}(...)", "model": loads[0], "attn": None}
    s = _python_settings(doc)
    attn = next((s[k] for k in ("attn_implementation", "_attn_implementation") if isinstance(s.get(k), str) and
                 s[k].strip() and s[k] != "?"), None)
    if attn is None and str(s.get("use_flash_attention_2")).lower() == "true":
        attn = "flash_attention_2"
    return {"step": step or f"{trainer}(...)", "model": loads[0], "attn": attn}


def own_loop_refusal(loop: dict) -> str:
    """What a user's own loop is (own_loop), said in one clause: what trains the model and, where the script asks
    transformers for an attention, that one and the command that tests its backend here."""
    said = (f"a training loop of the user's own over a transformers model ({loop['model']}, trained by "
            f"{loop['step']}), with no trainer calls attn-doctor reads: no transformers Trainer, TRL trainer or trainer "
            f"CLI runs it")
    attn = loop.get("attn")
    if not attn:
        return said + "; it names no attn_implementation, so transformers loads its default (sdpa where the model has it)"
    e = entry(attn, f"attn_implementation: {attn}")
    if not e.get("known"):
        return said + (f"; it asks transformers for attn_implementation=\"{attn}\", a name transformers does not know "
                       f"(did you mean {e.get('suggestion') or 'sdpa'}?)")
    if e.get("backend"):
        return (said + f"; it asks transformers for attn_implementation=\"{attn}\": `attn-doctor check --require "
                f"{e['backend']}` tests that backend here")
    return said + f"; it asks transformers for attn_implementation=\"{attn}\", which needs no backend attn-doctor tests"


def _hf_trainers_imported(t) -> set:
    """transformers' trainers the script imports by name from transformers (`from transformers import Trainer`,
    `from transformers.trainer import Trainer`); an alias is spelt as the name it imports (pyscript._unalias)."""
    import ast

    return {a.name for n in walked(t) if isinstance(n, ast.ImportFrom) and not n.level and
            (n.module or "").split(".")[0] == "transformers" for a in n.names if a.name in HF_TRAINERS}


def _foreign_names(t) -> set:
    """Names the script defines as classes of its own or imports from a module that is not transformers' / TRL's
    (`from training.configs import SFTConfig`, `from mytrainer.args import TrainingArguments`), less its own subclasses
    of transformers' / TRL's classes (_script_subclasses)."""
    import ast

    out = {c.name for c in walked(t) if isinstance(c, ast.ClassDef)}
    for n in walked(t):
        if isinstance(n, ast.ImportFrom) and (n.module or "").split(".")[0] not in ("transformers", "trl"):
            out |= {a.asname or a.name for a in n.names}
    return out - set(_script_subclasses(t))


def _own_models(t) -> set:
    """Model classes the script defines that are not transformers' models: a class with a from_pretrained /
    from_config of its own (round cfg44: `class TinyLlamaModel(nn.Module)` loading its own safetensors), or one that
    extends no PreTrainedModel. A `class MyLM(LlamaPreTrainedModel)` is loaded by transformers' from_pretrained."""
    import ast

    out = set()
    for c in walked(t):
        if not isinstance(c, ast.ClassDef):
            continue
        methods = {f.name for f in c.body if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))}
        bases = [b.attr if isinstance(b, ast.Attribute) else b.id if isinstance(b, ast.Name) else "" for b in c.bases]
        if methods & set(MODEL_BUILDERS) or not any(b.endswith(("PreTrainedModel", "PretrainedModel")) or
                                                    b.startswith("AutoModel") or _TASK_HEAD.search(b) for b in bases):
            out.add(c.name)
    return out


def _model_class(t, owner: str, foreign: set) -> bool:
    """`owner.from_pretrained(...)` loads a transformers model: an AutoModel* or task-head class (transformers' own, or
    one a library built on it exports: modelscope's AutoModelForCausalLM, peft's AutoPeftModelForCausalLM), or a *Model
    class imported from transformers; not a model class of the script's own (_own_models) nor a bare encoder."""
    if owner and not (owner.startswith("AutoModel") or _TASK_HEAD.search(owner)):
        owner = _class_held(t, owner) or owner
    if not owner or owner in _own_models(t) or _BARE_ENCODER.search(owner):
        return False
    import ast

    if owner.startswith("AutoModel") or _TASK_HEAD.search(owner) or \
            any(isinstance(c, ast.ClassDef) and c.name == owner for c in walked(t)):
        return True  # (a class of the script's own left here extends a PreTrainedModel: _own_models)
    return owner.endswith(("ForCausalLM", "Model", "ForConditionalGeneration")) and owner not in foreign


# transformers' task-head classes (`BertForSequenceClassification`, `LlamaForCausalLM`, `T5ForConditionalGeneration`,
# `RobertaForTokenClassification`): a model with a head is one a script trains or tunes, not an encoder it borrows
_TASK_HEAD = re.compile(r"\wFor[A-Z][a-zA-Z]+$")


# what _script_settings reads beside the script's path: its text and what the launch hands it (configs.detect,
# _read_through set the last three on a script's doc after its scoring read it without them)
_SCRIPT_INPUTS = ("python", "argv", "environ", "hydra_overrides")


def _python_settings(doc: dict) -> dict:
    """_script_settings of the doc, read once for what the doc holds now: score() asks it, then read() of the reader
    chosen (and configs.detect's own_loop) ask it again of the same doc, each reading the script and every file it
    loads afresh (346 of 717 asks over the configs snapshot's 3041 files repeated one). Kept on the doc for its
    inputs (_SCRIPT_INPUTS); the files the reading could not find are noted again at each ask, as configs.load
    forgets what scoring noted (references.note_unread), and the settings file only the launch names is this
    reading's (references.note_at_launch)."""
    from .references import note_at_launch, note_unread

    key = (doc.get("python"), repr([doc.get(k) for k in _SCRIPT_INPUTS[1:]]))
    memo = doc.setdefault("_attn_doctor_python_settings", [])
    got = next((g for k, g in memo if k == key), None)
    if got is None:
        held = doc.pop("unread", None)
        try:
            got = _script_settings(doc), doc.pop("unread", []), doc.get("at_launch")
        finally:
            if held is not None:
                doc["unread"] = held
        memo.append((key, got))
    for path in got[1]:
        note_unread(doc, path)
    note_at_launch(doc, got[2])  # (what this reading of the script found, not an earlier one's)
    return got[0]


def _script_settings(doc: dict) -> dict:
    """A transformers / TRL training script read statically (configs/pyscript/): the keyword arguments of its
    *.from_pretrained(...) and TrainingArguments / SFTConfig(...) calls, as a YAML of the same keys would hold them
    ("?" where the script computes the value)."""
    import ast

    from .pyscript import _dict_items, _inherits_training_arguments, constants, keywords, tree, value

    t = tree(doc.get("python") or "")
    if t is None:
        return {}
    # argv / environ: the launcher's options to the script and the variables it exports to it (configs.detect)
    from . import script_files, script_hydra, script_modules
    from .pyscript.nodes import AT_LAUNCH
    from .references import note_at_launch

    # read: the settings file the script loads itself (`config = yaml.safe_load(f)`), where its run finds it; modules:
    # the dataclasses of its own repository it imports (`from src.config import TrainConfig`), where its run imports them
    modules = script_modules(doc)
    consts = constants(t, doc.get("argv"), doc.get("environ"), script_files(doc), modules=modules,
                       hydra=script_hydra(doc))
    note_at_launch(doc, consts.get(AT_LAUNCH))
    out: dict = {}
    upcast = _upcast_to_fp32(t)
    trained = _last_training_call(t)
    subclasses = _script_subclasses(t)
    # a TrainingArguments the script gets from a method of its own settings object: read with that object as `self`
    # (below), not as the method's `self.fp16` unknown
    by_method, built = _built_by_a_method(t, consts, modules)
    by_function = _built_by_an_imported_function(t, modules, consts)
    arg_classes: set = set()
    for n in walked(t):
        if not isinstance(n, ast.Call) or id(n) in built:
            continue
        owner, name = _callee(n)
        if not owner and name in subclasses:
            # `MyTrainingArguments(output_dir=...)` of `class MyTrainingArguments(TrainingArguments)` with `bf16: bool =
            # True`: TrainingArguments' call, the subclass's field defaults first (the call's keywords win, below)
            name, defaults = subclasses[name]
            for k, d in defaults.items():
                if k in PY_KEYS and not any(kw.arg == k for kw in n.keywords):
                    out[k] = value(d, consts)
        if owner and name in MODEL_BUILDERS and not (owner.startswith("AutoModel") or _TASK_HEAD.search(owner)):
            # `model_cls = Qwen2VLForConditionalGeneration` (or another model class in each branch) then
            # `model_cls.from_pretrained(...)`: the class it names
            owner = _class_held(t, owner, consts) or owner
        if name in ("Trainer", "Seq2SeqTrainer") and owner in ("", "transformers") and \
                any(k.arg == "tokenizer" for k in n.keywords):
            # transformers' own Trainer given `tokenizer=`: renamed processing_class and kept only until 5.0 (4.57.1
            # trainer.py:409 `@deprecate_kwarg("tokenizer", new_name="processing_class", version="5.0.0")`; 5.0.0
            # trainer.py:382-401 takes no tokenizer and no **kwargs): the script runs under transformers 4
            out["transformers_4"] = f"{name}(tokenizer=...)"
        if name == "SFTTrainer" and owner in ("", "trl") and _peft_given(n) and \
                {k.arg for k in n.keywords} & SFT_TRAINER_OLD_KEYWORDS:
            # TRL's SFTTrainer of a release that still takes one of SFT_TRAINER_OLD_KEYWORDS (at most 0.15) given a
            # peft_config prepares a model loaded in 8 or 4 bits with peft's prepare_model_for_kbit_training before
            # wrapping it (huggingface/trl v0.7.6 trl/trainer/sft_trainer.py:183-191, v0.12.2 :250-260, every release
            # to v0.25; v0.4-v0.7.1 the same with prepare_model_for_int8_training), which casts every float16 /
            # bfloat16 parameter that is not packed to float32 (_upcast_to_fp32): as the script's own call would
            out["sft_prepares_kbit"] = f"SFTTrainer({sorted({k.arg for k in n.keywords} & SFT_TRAINER_OLD_KEYWORDS)[0]}=...)"
        if name in PY_ARGS and any(k.arg in ("fsdp", "deepspeed") for k in n.keywords):
            out["sharded"] = True
        if name in ("set_default_dtype", "set_default_tensor_type") and owner in ("", "torch") and \
                not (n.args and re.fullmatch(r"(?:torch\.)?(?:float32|float|FloatTensor|cuda\.FloatTensor)",
                                             ast.unparse(n.args[0]))):
            # `torch.set_default_dtype(torch.bfloat16)`: transformers 4 builds a model loaded with no dtype in torch's
            # default dtype, not float32 (4.57.1 modeling_utils.py _get_dtype's else branch: `default_dtype =
            # torch.get_default_dtype()`), so the load default is no longer float32 (rev25)
            out["default_dtype_set"] = ast.unparse(n)
        if not (name in PY_ARGS or name in TRL_TRAINERS or name in MODEL_BUILDERS and (
                owner.startswith("AutoModel") or owner.endswith(("ForCausalLM", "Model", "ForConditionalGeneration"))
                or _TASK_HEAD.search(owner))):
            continue
        if name in MODEL_BUILDERS and trained is not None and n.lineno > trained:
            # a model loaded after the last `trainer.train()` is for generating or evaluating (round 28: a notebook's
            # PeftModel base reloaded in float16 to try the adapter), not the model the run trained; its `dtype=` still
            # dates the script (transformers' name from 2025-09, below)
            if any(k.arg == "dtype" for k in n.keywords):
                out["dtype_named"] = True
            continue
        if name == "from_pretrained":
            # the trained model loaded with no dtype at all (no quantization either, no `**kwargs` this file cannot
            # spell out): what it loads in is transformers' own default, which depends on its release
            # (transformers_load_default)
            named = {k.arg for k in n.keywords if k.arg} | {a for a, _ in keywords(n, consts)}
            spread = any(k.arg is None and not _dict_items(k.value, consts) for k in n.keywords)
            default = not spread and not named & {"torch_dtype", "dtype", "quantization_config", "load_in_4bit",
                                                  "load_in_8bit"}
            out["load_default"] = out.get("load_default", True) and default
            bits = _kbit_load(n, t, consts)
            if bits:
                out["kbit_load"] = bits
            model = value(n.args[0], consts) if n.args else next(
                (value(k.value, consts) for k in n.keywords if k.arg == "pretrained_model_name_or_path"), None)
            out["load_float32_checkpoint"] = out.get("load_float32_checkpoint", True) and default and bool(
                _FLOAT32_CLASSES.match(owner) or isinstance(model, str) and _FLOAT32_CHECKPOINTS.search(model))
        unread = _fields_never_read(t, n) if name == "ModelConfig" else set()
        looked_up: dict = {}
        open_nodes: dict = {}
        if name in PY_ARGS and name != "ModelConfig":
            arg_classes.add(name)
            if not any(k.arg in ("bf16", "fp16") for k in n.keywords) and \
                    any(k.arg is None and not _dict_items(k.value, consts) for k in n.keywords):
                # `SFTConfig(**cfg["train"])` of a settings file that is not here (or a dict built at run time): the
                # spread may set bf16 / fp16 itself, so neither TrainingArguments' nor TRL's default is the run's
                _open_by_gpu(out, "bf16", None, consts)
        # `**model_kwargs` spread into the call's own keywords (pyscript.keywords), as Python passes them
        for arg, node in keywords(n, consts):
            if arg in unread:
                continue
            if upcast and name == "from_pretrained" and arg in ("torch_dtype", "dtype"):
                # the weights' dtype is gone once prepare_model_for_kbit_training casts them to float32 (below); the
                # keyword's name still dates the script (`dtype` is transformers' name from 2025-09: TRL >= 0.19)
                out["weights_upcast"] = True
                out["dtype_named"] = out.get("dtype_named") or arg == "dtype"
                continue
            if arg in PY_KEYS:
                out[arg] = value(node, consts)
                if arg == "dtype" and name in MODEL_BUILDERS and out[arg] == "?":
                    # `from_pretrained(..., dtype=model_args.dtype)`: a value not known here, but the keyword's name
                    # dates the script as a known one does (transformers' name from 2025-09, TRL >= 0.19; cfg83)
                    out["dtype_named"] = True
                if arg in ("bf16", "fp16") and out[arg] == "?":
                    looked_up[arg] = _switch_default(node, arg, consts)
                    open_nodes[arg] = node
                elif arg in ("torch_dtype", "dtype") and name in MODEL_BUILDERS and out[arg] == "?":
                    _open_by_gpu(out, arg, node, consts)  # `dtype=torch.bfloat16 if is_bf16_supported() else ...`
                if arg in _ATTN_ARGS and out[arg] == "?":
                    out[arg] = _attention_default(node, consts) or "?"
            elif arg == "model_init_kwargs":
                # a dict written in the call or in a variable (`model_kwargs = dict(attn_implementation=...)`), given to
                # a TRL config or, in TRL before 0.13, to the trainer itself (`SFTTrainer(model="org/name",
                # model_init_kwargs=...)`), which loads the model from the name with those keywords
                items = _dict_items(node, consts)
                if items:
                    out["model_init_kwargs"] = {k: _bare_dtype(value(v, consts)) for k, v in items}
                    for k, v in items:
                        if k in _ATTN_ARGS and out["model_init_kwargs"].get(k) == "?":
                            out["model_init_kwargs"][k] = _attention_default(v, consts) or "?"
        if looked_up:
            if all(d is not None for d in looked_up.values()) and any(looked_up.values()):
                # `fp16=t.get("fp16", True), bf16=t.get("bf16", False)` of a settings file that is not here (round
                # 61m's CatalinMoldova, 49m's CodeDaoVietNam `bool(deep_get(config, "training.fp16", True))`): a
                # default that turns an autocast on is the precision the script is written for, which its file
                # would have to turn off; defaults that leave both off say nothing (round 17's JackyJerkyYt
                # `bf16=train_cfg.get("bf16", False)`: its file decides)
                out.update(looked_up)
            else:
                for arg in looked_up:  # `bf16=use_bf16` set by the GPU: an autocast, which one not said here
                    _open_by_gpu(out, arg, open_nodes[arg], consts)
    prepared, bits, sharded = out.pop("sft_prepares_kbit", None), out.pop("kbit_load", ""), out.pop("sharded", False)
    if bits and (upcast or prepared and not (bits == "4" and sharded)):
        # a model loaded in 8 / 4 bits (no torch_dtype named: transformers' bitsandbytes load keeps its other
        # parameters in 16 bits) that prepare_model_for_kbit_training is given, by the script or by TRL's SFTTrainer
        # above: float32 weights whatever the load's dtype (round 107m's sehyeondev fine_tune.py, 111m's TRL #1055
        # example); the run's autocast, where one is set, still decides (_run_dtype). SFTTrainer skips a 4-bit model
        # whose parameters sit on cpu / meta (v0.8.0 :190-199 is_sharded_qlora, QLoRA under FSDP / ZeRO-3): not
        # claimed where the script's arguments shard (fsdp= / deepspeed=)
        out["weights_upcast"] = True
    for arg, v in [*by_method.items(), *by_function.items()]:  # (a method of a settings object's first, then a function's)
        out.setdefault(arg, v)
        if arg in ("bf16", "fp16") and v == "?":
            _open_by_gpu(out, arg, None, consts)
    if not arg_classes and not by_method and not by_function and _args_from_elsewhere(t, subclasses):
        # `Trainer(model=model, args=training_args)` of `training_args = define_training_arguments(...)`, a function of
        # the user's own package (round 75m's RandomFab train_sft.py, cfg78), or a trainer built there whole (its
        # REICHIYAN train_qlora.py): TrainingArguments is built where this file does not show, so its bf16 / fp16 are
        # not TrainingArguments' defaults here
        out["args_unseen"] = True
    from .pyscript.nodes import PARSED_VALUES

    # (the launcher's options over the values of the file an HfArgumentParser's parse_yaml_file / parse_json_file /
    # parse_dict fills the dataclasses from, where that file is here: pyscript.constants; cfg83)
    argv = {**consts.get(PARSED_VALUES, {}), **(doc.get("argv") or {})}
    if argv and _inherits_training_arguments(t):
        # the launcher's `--bf16 True` / `--fp16` / `--torch_compile` to a script whose HfArgumentParser fills
        # TrainingArguments (or a subclass of its own): the Trainer it hands that object to trains with them
        # (pyscript.argv_options; TrainingArguments' own defaults are False, src/transformers/training_args.py)
        for k in ("bf16", "fp16", "torch_compile", "torch_compile_mode", "torch_compile_backend"):
            if k in argv and k not in out:
                out[k] = value(argv[k], consts)
                if k in ("bf16", "fp16") and out[k] == "?":
                    _open_by_gpu(out, k, argv[k], consts)
        items = _dict_items(argv["model_init_kwargs"], consts) if "model_init_kwargs" in argv else []
        if items and "model_init_kwargs" not in out:
            # a TRL config's model_init_kwargs from the TrlParser `--config` YAML (cfg83)
            out["model_init_kwargs"] = {k: _bare_dtype(value(v, consts)) for k, v in items}
    launched = str((doc.get("environ") or {}).get("ACCELERATE_MIXED_PRECISION", "")).strip().lower()
    switches = (out.get("bf16"), out.get("fp16"))
    if launched in ("bf16", "fp16") and (arg_classes or by_method) and not out.get("amp_unknown") and \
            True not in switches and "?" not in switches:
        # `accelerate launch --mixed_precision bf16 train.py` (or its config file's mixed_precision, or the variable
        # exported): TrainingArguments takes ACCELERATE_MIXED_PRECISION from the environment and sets it over only
        # when bf16 / fp16 is true (huggingface/transformers 5.24 training_args.py:1612-1618 `self.mixed_precision =
        # os.environ.get("ACCELERATE_MIXED_PRECISION", "no")`, which the Trainer hands its Accelerator, trainer.py:744).
        # A TRL config (>= 0.19) makes bf16 true itself when fp16 is not, so only bf16 is the same in every release
        if launched == "bf16" or arg_classes <= {"TrainingArguments", "Seq2SeqTrainingArguments"}:
            out[launched] = True
    after = _after_loading(t, consts)
    by_gpu = {**out.get("by_gpu", {}), **after.pop("by_gpu", {})}
    out.update(after)
    if by_gpu:
        out["by_gpu"] = by_gpu
    if isinstance(out.get("torch_dtype"), str) and out["torch_dtype"].startswith("torch."):
        out["torch_dtype"] = out["torch_dtype"][6:]
    if isinstance(out.get("dtype"), str) and out["dtype"].startswith("torch."):
        out["dtype"] = out["dtype"][6:]
    return {k: v for k, v in out.items() if v != "?"}


_ATTN_ARGS = ("attn_implementation", "_attn_implementation")
# what _script_settings notes about the script, beside the settings it reads: marks, not settings (no evidence)
_MARKS = {"args_unseen", "load_default", "load_float32_checkpoint", "transformers_4", "default_dtype_set"}
# The encoder / early decoder families whose checkpoints were published in float32, before half-precision checkpoints
# (BERT, DistilBERT, RoBERTa, XLM-R, ALBERT, ELECTRA, DeBERTa, GPT-2 / DistilGPT2, T5): their config.json names no
# dtype, or float32, and transformers 5's dtype="auto" falls back to the first floating weight's dtype, float32 (5.0.0
# modeling_utils.py:798-811 in _get_dtype, get_state_dict_dtype :280-291) as transformers 4's default does: float32
# under either release. Known by the model class (`BertForSequenceClassification.from_pretrained(path)`) or the Hub
# name under its own organisation (`distilbert-base-uncased`, `FacebookAI/roberta-base`, `openai-community/gpt2`; a
# user's fine-tune of one may be saved in half precision)
_FLOAT32_CLASSES = re.compile(r"(Bert|DistilBert|Roberta|XLMRoberta|Albert|Electra|Deberta|DebertaV2|GPT2|T5)"
                              r"(Model|For[A-Z]\w*|LMHeadModel)$")
_FLOAT32_CHECKPOINTS = re.compile(r"^(?:(?:google-bert|google|distilbert|FacebookAI|openai-community|"
                                  r"microsoft|google-t5)/)?(bert|distilbert|roberta|xlm-roberta|albert|electra|"
                                  r"deberta|gpt2|distilgpt2|t5)(-[\w.-]+)?$", re.IGNORECASE)


def _args_from_elsewhere(t, subclasses: dict) -> bool:
    """A transformers / TRL trainer of the script (or a subclass of one of its own) is handed training arguments
    (`args=...`, or Trainer's second positional) that no TrainingArguments / TRL config call of the script builds, or
    the script builds no such trainer at all (`trainer = build_trainer(...)` of a module of the user's own)."""
    import ast

    built = False
    for n in walked(t):
        if not isinstance(n, ast.Call):
            continue
        _owner, name = _callee(n)
        base = subclasses[name][0] if name in subclasses else name
        if base in HF_TRAINERS | TRL_TRAINERS:
            built = True
            if any(k.arg == "args" for k in n.keywords) or base in HF_TRAINERS and len(n.args) >= 2:
                return True
    return not built


def _attention_default(node, consts: dict) -> str | None:
    """The attention implementation a script's lookup falls back to, where the value itself is not known here (the
    settings file it reads is not here, or is given at run time): `cfg.get("attn_implementation", "flash_attention_2")`,
    `kw.pop("attn_implementation", "sdpa")` (round 68m's nhockid235 grpo.py: `attn_impl = grpo_kwargs.pop(...)` of a
    YAML the required --config names), `getattr(args, "attn", "sdpa")`, `OmegaConf.select(cfg, "model.attn",
    default="eager")`, held in a name first or not. As the autocast switches' defaults (_switch_default): the attention
    the script is written for, which its file would have to change (cfg71). Only a default that is a name transformers
    knows (NAMES, the hub kernels' flash variants); the environment's lookups are the launcher's (pyscript constants)."""
    import ast

    from .pyscript import resolve
    from .pyscript.call_keywords import unseen_lookup

    if unseen_lookup(node, consts):
        return None  # (a Hydra config file that is not here may set it: cfg87)
    d = _lookup_default(resolve(node, consts))
    if isinstance(d, ast.Constant) and isinstance(d.value, str) and d.value in set(NAMES) | FLASH_VARIANTS:
        return d.value
    return None


def _lookup_default(node):
    """The default of the settings lookup `node` is, as an expression: `d.get("key", D)` / `d.pop("key", D)` (not the
    environment's: those are the launcher's, pyscript's constants), `getattr(obj, "name", D)`, `X.select(cfg, "path",
    default=D)` (OmegaConf); None for any other node. The attention's and a precision word's defaults are read so."""
    import ast

    from .pyscript.nodes import _ENVIRON_GETS

    if not isinstance(node, ast.Call):
        return None
    f, args, keys = node.func, node.args, [k.arg for k in node.keywords]

    def named(i: int) -> bool:
        return len(args) > i and isinstance(args[i], ast.Constant) and isinstance(args[i].value, str)

    if isinstance(f, ast.Attribute) and f.attr in ("get", "pop") and len(args) == 2 and not keys and named(0) and \
            ast.unparse(f) not in _ENVIRON_GETS:
        return args[1]
    if isinstance(f, ast.Name) and f.id == "getattr" and len(args) == 3 and not keys and named(1):
        return args[2]
    if isinstance(f, ast.Attribute) and f.attr == "select" and len(args) == 2 and keys == ["default"] and named(1):
        return node.keywords[0].value
    return None


def _switch_default(node, arg: str, consts: dict | None = None) -> bool | None:
    """The default of a lookup an autocast switch is read with, where the value itself is not known here:
    `cfg.get("fp16", True)`, `getattr(cfg, "fp16", True)`, `deep_get(config, "training.fp16", True)` /
    `OmegaConf.select(cfg, "train.fp16", default=True)` (a getter of the user's own that names the switch), under
    `bool(...)` as well; with the script's constants, also a switch compared from a precision word looked up so
    (`precision = train_cfg.get("precision", "fp16").lower()` then `fp16 = precision == "fp16"`, round 68m's
    Min-DongYoung train.py, cfg71): the comparison on the default; and such a lookup `and`-ed with probes the GPU host
    answers True (`fp16=cfg.get("fp16", True) and torch.cuda.is_available()`, round 82m's KoaChang train_sft.py, cfg85:
    pyscript.values.HOST_ANSWERS), the lookup's. None for anything else."""
    import ast

    if consts is not None:
        from .pyscript import resolve
        from .pyscript.call_keywords import unseen_lookup

        if unseen_lookup(node, consts):
            return None  # (a Hydra config file that is not here may set it: cfg87)
        node = resolve(node, consts)
        if isinstance(node, ast.Compare):
            return _compared_default(node, consts)
    if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.And):
        from .pyscript.values import HOST_ANSWERS

        rest = [v for v in node.values if not (isinstance(v, ast.Call) and not v.args and not v.keywords
                                                 and HOST_ANSWERS.get(ast.unparse(v.func)) is True)]
        return _switch_default(rest[0], arg, consts) if len(rest) == 1 and len(node.values) > 1 else None
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "bool" and \
            len(node.args) == 1 and not node.keywords:
        node = node.args[0]
    if not isinstance(node, ast.Call):
        return None
    keys = [a.value for a in node.args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
    default = [k.value for k in node.keywords if k.arg == "default"] or node.args[-1:]
    if len(default) != 1 or not isinstance(default[0], ast.Constant) or not isinstance(default[0].value, bool):
        return None
    f = node.func
    if isinstance(f, ast.Attribute) and f.attr in ("get", "pop") and len(node.args) == 2 and \
            isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str):
        return default[0].value
    if isinstance(f, ast.Name) and f.id == "getattr" and len(node.args) == 3 and \
            isinstance(node.args[1], ast.Constant) and isinstance(node.args[1].value, str):
        return default[0].value
    if any(re.split(r"[.:/]", k)[-1].lower().endswith(arg) for k in keys):
        return default[0].value
    return None


def _compared_default(node, consts: dict) -> bool | None:
    """`precision == "fp16"` / `mixed_precision in ("bf16", "bf16-mixed")` / `!=` / `not in`, where the left side is a
    word a lookup's default gives (`cfg.get("precision", "fp16")`, `getattr(args, "precision", "bf16")`, `OmegaConf.
    select(cfg, "train.precision", default="fp16")`, through `.lower()` / `.upper()` / `.strip()` / `str(...)`, held in a
    name first or not): the comparison on that default; None for anything else."""
    import ast

    from .pyscript import resolve

    if len(node.ops) != 1 or not isinstance(node.ops[0], (ast.Eq, ast.NotEq, ast.In, ast.NotIn)):
        return None
    right = node.comparators[0]
    words = [right.value] if isinstance(right, ast.Constant) else \
        [e.value for e in right.elts] if isinstance(right, (ast.Tuple, ast.List, ast.Set)) and \
        all(isinstance(e, ast.Constant) for e in right.elts) else None
    if not words or not all(isinstance(w, str) for w in words):
        return None
    left, steps = resolve(node.left, consts), []
    for _ in range(4):
        if isinstance(left, ast.Call) and isinstance(left.func, ast.Attribute) and \
                left.func.attr in ("lower", "upper", "strip", "casefold") and not left.args and not left.keywords:
            steps.append(left.func.attr)
            left = resolve(left.func.value, consts)
        elif isinstance(left, ast.Call) and isinstance(left.func, ast.Name) and left.func.id == "str" and \
                len(left.args) == 1 and not left.keywords:
            left = resolve(left.args[0], consts)
        else:
            break
    from .pyscript.call_keywords import unseen_lookup

    if unseen_lookup(left, consts):
        return None  # (the precision word of a Hydra config file that is not here: that file decides, rev21)
    default = _lookup_default(left)
    if not isinstance(default, ast.Constant) or not isinstance(default.value, str):
        return None
    word = default.value
    for step in reversed(steps):
        word = getattr(word, step)()
    hit = word in words
    return hit if isinstance(node.ops[0], (ast.Eq, ast.In)) else not hit


def _built_by_an_imported_function(t, modules, consts: dict | None = None) -> dict:
    """The PY_KEYS settings of the one TrainingArguments / TRL config that a function of the user's own module builds,
    where the script calls that function (`trainer = build_trainer(model=model, cfg=cfg)` of `from training_utils import
    build_trainer`, whose body builds `TrainingArguments(fp16=torch.cuda.is_available(), bf16=False, ...)`: round 75m's
    REICHIYAN train_qlora.py; RandomFab's define_training_arguments, B0DH1i's setup_trainer are the same shape; cfg78;
    or `import tu` ... `tu.build_args()`, a function of a module object: cfg94). Read as the module's own text reads
    them (its constants; a parameter holds what the script's calls hand it, as Python binds a call's arguments: the
    value every call passes, read with the script's `consts`, or the parameter's default where none passes it; "?"
    where the calls disagree or the value is decided at run time: _handed_values). Only where the module imports
    transformers or TRL, and builds one such call in that function."""
    import ast

    from .pyscript import _call_name, constants, imported_functions, keywords, value

    if modules is None:
        return {}
    calls: dict = {}
    for n in walked(t):
        if isinstance(n, ast.Call) and isinstance(n.func, (ast.Name, ast.Attribute)):
            calls.setdefault(ast.unparse(n.func), []).append(n)
    out: dict = {}
    for alias, (f, mt) in imported_functions(t, modules).items():
        if alias not in calls:
            continue
        libs = any(isinstance(n, (ast.Import, ast.ImportFrom)) and any(
            (x or "").split(".")[0] in ("transformers", "trl") for x in
            ([a.name for a in n.names] if isinstance(n, ast.Import) else [n.module])) for n in walked(mt))
        made = [n for n in walked(f) if isinstance(n, ast.Call) and _call_name(n) in PY_ARGS
                and _call_name(n) != "ModelConfig"]
        if not libs or len(made) != 1:
            continue
        # (the function's own parameters are its callers': what the script's calls hand them, else unknown)
        own = {a.arg for a in f.args.posonlyargs + f.args.args + f.args.kwonlyargs}
        mconsts = {k: v for k, v in constants(mt).items() if k not in own}
        mconsts.update(_handed_values(f, calls[alias], consts or {}, mconsts))
        for arg, node in keywords(made[0], mconsts):
            if arg in PY_KEYS and arg not in ("torch_dtype", "dtype"):
                out.setdefault(arg, value(node, mconsts))
    return out


def _handed_values(f, calls: list, consts: dict, mconsts: dict) -> dict:
    """parameter -> a node of its value, for each parameter of the function `f` (of another module) that every one of the
    script's `calls` of it hands the same known value (a constant, a torch attribute), read with the script's `consts`;
    a call that does not pass it hands its default, read with the module's `mconsts`. None is read for a function
    taking `*args` / `**kwargs`, or for calls spreading `*` / `**` (which parameters they fill is not known here)."""
    import ast

    from .pyscript import value
    from .pyscript.script_constants import _argument, _parameters

    a = f.args
    if a.vararg or a.kwarg or any(isinstance(x, ast.Starred) for c in calls for x in c.args) or \
            any(k.arg is None for c in calls for k in c.keywords):
        return {}
    positional, defaults = _parameters(f)
    out: dict = {}
    for param in positional + [x.arg for x in a.kwonlyargs]:
        got = set()
        for c in calls:
            node = _argument(c, positional, param)
            v = value(node, consts) if node is not None else \
                value(defaults[param], mconsts) if param in defaults else "?"
            got.add(v if isinstance(v, (bool, int, float, str, type(None))) else "?")
        v = got.pop() if len(got) == 1 else "?"
        if v != "?":
            out[param] = ast.parse(v, mode="eval").body if isinstance(v, str) and v.startswith("torch.") and \
                v[6:].isidentifier() else ast.Constant(value=v)
    return out


def _built_by_a_method(t, consts: dict, modules) -> tuple[dict, set]:
    """The PY_KEYS settings of a TrainingArguments / TRL config the script gets from a method of a settings object of
    its own (`training_args = training_config.to_training_args()` of `training_config = TrainingConfig()`, round 57m):
    the method (of a class the script defines, or imports from its repository: pyscript.imported_classes) returns
    `TrainingArguments(fp16=self.fp16, ...)`, and `self` is the object the script built, so `self.fp16` is the keyword
    it was built with, else its dataclass field's default (pyscript.value). "?" where that is not said here. Also the
    ids of those returned calls where the script itself holds them (a class of its own)."""
    import ast

    from .pyscript import _call_name, imported_classes, keywords, resolve, value

    classes = {name: c for name, (c, _mt) in imported_classes(t, modules).items()}
    classes.update({c.name: c for c in walked(t) if isinstance(c, ast.ClassDef)})
    out: dict = {}
    built: set = set()
    for n in walked(t):
        if not (isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and isinstance(n.func.value, ast.Name)):
            continue
        obj = resolve(n.func.value, consts)
        c = classes.get(_call_name(obj)) if isinstance(obj, ast.Call) and obj is not n.func.value else None
        meth = next((f for f in (c.body if c is not None else []) if isinstance(f, ast.FunctionDef) and
                     f.name == n.func.attr and f.args.args and f.args.args[0].arg == "self"), None)
        rets = [r.value for r in walked(meth) if isinstance(r, ast.Return)] if meth is not None else []
        if len(rets) != 1 or not isinstance(rets[0], ast.Call) or _call_name(rets[0]) not in PY_ARGS:
            continue
        own = {**consts, "self": obj}
        built.add(id(rets[0]))
        for arg, node in keywords(rets[0], own):
            if arg in PY_KEYS:
                out.setdefault(arg, value(node, own))
    return out, built


def _script_subclasses(t) -> dict:
    """class name -> (the TrainingArguments / TRL config or trainer class it extends, {field: default node}) for each class
    the script defines on one of those (through its own classes too): `class MyArgs(TrainingArguments)`,
    `class WeightedSFT(SFTTrainer)`, `@dataclass class TrainingArguments(transformers.TrainingArguments)` with its own
    defaults. A TRL trainer base must be TRL's (imported from trl, or `trl.SFTTrainer`)."""
    import ast

    known = set(PY_ARGS) | TRL_TRAINERS | HF_TRAINERS
    trl = {a.asname or a.name for n in walked(t) if isinstance(n, ast.ImportFrom) and (n.module or "").split(".")[0]
           == "trl" for a in n.names}
    hf = _hf_trainers_imported(t)
    # names imported from transformers / TRL (an alias is spelt as the name it imports: pyscript._unalias), which a
    # class of the same name extends (`from transformers import TrainingArguments as HFArgs`, `class
    # TrainingArguments(HFArgs)`)
    imported = {a.name for n in walked(t) if isinstance(n, ast.ImportFrom) and (n.module or "").split(".")[0]
                in ("transformers", "trl") for a in n.names}
    classes = {c.name: c for c in walked(t) if isinstance(c, ast.ClassDef)}

    def base_of(c, depth=0):
        for b in c.bases:
            bn = b.attr if isinstance(b, ast.Attribute) else b.id if isinstance(b, ast.Name) else ""
            owner = b.value.id if isinstance(b, ast.Attribute) and isinstance(b.value, ast.Name) else ""
            if bn in known and (bn not in TRL_TRAINERS or bn in trl or owner == "trl") and \
                    (bn not in HF_TRAINERS or bn in hf and not owner or owner == "transformers") and \
                    (bn != c.name or isinstance(b, ast.Attribute) or bn in imported):
                return bn
            if bn in classes and bn != c.name and depth < 4:
                got = base_of(classes[bn], depth + 1)
                if got:
                    return got
        return None

    out = {}
    for name, c in classes.items():
        base = base_of(c)
        if base:
            fields = {}
            for st in c.body:
                if isinstance(st, ast.AnnAssign) and isinstance(st.target, ast.Name) and st.value is not None:
                    d = st.value
                    if isinstance(d, ast.Call) and isinstance(d.func, ast.Name) and d.func.id == "field":
                        d = next((k.value for k in d.keywords if k.arg == "default"), None)
                    if d is not None:
                        fields[st.target.id] = d
            out[name] = (base, fields)
    return out


def _class_held(t, name: str, consts: dict | None = None) -> str | None:
    """The model class a variable holds, when every assignment of it in the script is one (`model_cls =
    Qwen2VLForConditionalGeneration`, or Qwen2_5_VL... in another branch): the first; None otherwise. consts (the
    script's constants): a class looked up in transformers by a name known here counts too (`cls =
    getattr(transformers, "Qwen3VLForConditionalGeneration")`, `getattr(importlib.import_module(mod), cls_name)` of a
    fallback loop's first candidate ("transformers", "Qwen3VLForConditionalGeneration"): _transformers_attr)."""
    import ast

    held = []
    for n in walked(t):
        if isinstance(n, ast.Assign) and any(isinstance(x, ast.Name) and x.id == name for x in n.targets):
            # `model_cls = LlamaForCausalLM if ... else MistralForCausalLM`: each branch is an assignment of its own
            values = [n.value.body, n.value.orelse] if isinstance(n.value, ast.IfExp) else [n.value]
            for v in values:
                cls = v.id if isinstance(v, ast.Name) else v.attr if isinstance(v, ast.Attribute) else \
                    _transformers_attr(v, consts) if consts is not None else ""
                if not (cls.startswith("AutoModel") or _TASK_HEAD.search(cls)):
                    return None
                held.append(cls)
    return held[0] if held else None


def _transformers_attr(node, consts: dict) -> str:
    """NAME of `getattr(transformers, NAME)` / `getattr(importlib.import_module(M), NAME)` (M "transformers") when the
    name is known here; "" otherwise."""
    import ast

    from .pyscript import value

    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "getattr" and
            len(node.args) == 2):
        return ""
    mod = node.args[0]
    if isinstance(mod, ast.Call) and ast.unparse(mod.func) in ("importlib.import_module", "import_module") and \
            len(mod.args) == 1:
        if value(mod.args[0], consts) != "transformers":
            return ""
    elif not (isinstance(mod, ast.Name) and mod.id == "transformers"):
        return ""
    got = value(node.args[1], consts)
    return got if isinstance(got, str) and got.isidentifier() else ""


def _fields_never_read(t, call) -> set:
    """The keywords of a `X = ModelConfig(...)` that never reach a model: TRL's ModelConfig is a dataclass the script
    reads itself (`from_pretrained(args.model_name_or_path, attn_implementation=args.attn_implementation)`,
    get_quantization_config(args), get_peft_config(args)); no trainer takes it (GRPOTrainer / SFTTrainer load a model
    id with args.model_init_kwargs only: huggingface/trl GRPOTrainer.__init__). A field counts when the script reads
    it (`X.field`, getattr(X, "field")) or hands the object on whole (any other use of X); round 26m: a ModelConfig(
    attn_implementation="flash_attention_2") of which only .model_name_or_path is read, given to GRPOTrainer as a
    string. Empty (every field counts) when the call is not assigned to one name."""
    import ast

    target = None
    for n in walked(t):
        if isinstance(n, (ast.Assign, ast.AnnAssign)) and n.value is call:
            tg = n.targets if isinstance(n, ast.Assign) else [n.target]
            if len(tg) == 1 and isinstance(tg[0], ast.Name):
                target = tg[0].id
    if target is None:
        return set()
    read: set = set()
    attrs = {id(n.value) for n in walked(t) if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name)}
    for n in walked(t):
        if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and n.value.id == target:
            read.add(n.attr)
        elif isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "getattr" and len(n.args) >= 2 \
                and isinstance(n.args[0], ast.Name) and n.args[0].id == target:
            if not (isinstance(n.args[1], ast.Constant) and isinstance(n.args[1].value, str)):
                return set()
            read.add(n.args[1].value)
        elif isinstance(n, ast.Name) and n.id == target and isinstance(n.ctx, ast.Load) and id(n) not in attrs and \
                not _getattr_receiver(t, n):
            return set()  # handed on whole: every field may be read
    return {k.arg for k in call.keywords if k.arg} - read


def _getattr_receiver(t, name) -> bool:
    import ast

    return any(isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "getattr" and n.args and
               n.args[0] is name for n in walked(t))


# nn.Module casts: model.half() / .bfloat16() / .float() (torch/nn/modules/module.py) and the dtypes .to() takes
_CASTS = {"half": "float16", "bfloat16": "bfloat16", "float": "float32"}
_TORCH_DTYPES = {"torch.float16": "float16", "torch.half": "float16", "torch.bfloat16": "bfloat16",
                 "torch.float32": "float32", "torch.float": "float32"}
# nn.Module methods that return the module itself
_MODULE_METHODS = {"to", "half", "bfloat16", "float", "cuda", "train", "eval", "requires_grad_"}
# autocast context managers: torch.autocast / torch.amp.autocast (device_type first), torch.cuda.amp.autocast and a bare
# `autocast` imported from either; on CUDA their dtype defaults to float16 (torch.get_autocast_dtype("cuda"))
_AUTOCAST = {"torch.autocast", "torch.amp.autocast", "torch.cuda.amp.autocast", "autocast"}


def _amp_aliases(t) -> dict:
    """`amp.autocast` -> the autocast it is, for torch's amp module imported under a name of the script's (`from torch
    import amp`: torch.amp.autocast, device_type first; `from torch.cuda import amp`: torch.cuda.amp.autocast, CUDA;
    `import torch.amp as amp`), round 51's own loop under `with amp.autocast('cuda', dtype=torch.float16)`."""
    import ast

    out = {}
    for n in walked(t):
        if isinstance(n, ast.ImportFrom) and n.module in ("torch", "torch.cuda") and not n.level:
            for a in n.names:
                if a.name == "amp":
                    out[f"{a.asname or 'amp'}.autocast"] = f"{n.module}.amp.autocast"
        elif isinstance(n, ast.Import):
            for a in n.names:
                if a.name in ("torch.amp", "torch.cuda.amp") and a.asname:
                    out[f"{a.asname}.autocast"] = f"{a.name}.autocast"
    return out


def _last_training_call(t) -> int | None:
    """The line of a script's last `trainer.train()` (a Trainer's, by the name it is held under or the class it is
    built from; `model.train()` is PyTorch's mode switch, not a run), None when it has none."""
    import ast

    lines = []
    for n in walked(t):
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "train" and not n.args:
            recv = n.func.value
            if isinstance(recv, ast.Name) and "trainer" in recv.id.lower() or \
                    isinstance(recv, ast.Call) and _callee(recv)[1].endswith("Trainer"):
                lines.append(n.lineno)
    return max(lines) if lines else None


def _after_loading(t, consts: dict) -> dict:
    """What a script does to its model after building it, before it trains: switches the attention
    (`model.set_attn_implementation("flash_attention_2")`, transformers' PreTrainedModel method, or
    `model.config._attn_implementation = ...`, which the attention interface is looked up from at each forward),
    casts it (`model.half()`, `model.to(torch.bfloat16)`: the weights' and so, without autocast, attention's dtype),
    compiles it (`model = torch.compile(model, mode=...)`, `model.compile()`), or runs its own loop under
    `Accelerator(mixed_precision=...)` / `with torch.autocast(..., dtype=...)`. Only the model the script loaded (a
    name assigned from a from_pretrained / from_config call, or from a call given that name: get_peft_model(model,
    ...)), and only lines before the Trainer's `.train()` (a cast or an autocast for generating afterwards is not
    the run's)."""
    import ast

    from .pyscript import _dict_items, value

    stmts = sorted((n for n in walked(t) if isinstance(n, (ast.Assign, ast.Expr, ast.With, ast.AnnAssign))),
                   key=lambda n: (n.lineno, n.col_offset))
    models: set = set()

    def builder(e) -> bool:
        owner, name = _callee(e)
        return name in MODEL_BUILDERS and (owner.startswith("AutoModel") or owner.endswith(
            ("ForCausalLM", "ForConditionalGeneration", "ForSeq2SeqLM")))

    def base_call(e):
        """What a chain of method calls starts from: from_pretrained(...).half().cuda() -> the from_pretrained call,
        model.to(torch.bfloat16) -> model."""
        while isinstance(e, ast.Call) and isinstance(e.func, ast.Attribute) and not builder(e):
            e = e.func.value
        return e

    def is_model(e) -> bool:
        e = base_call(e)
        if isinstance(e, ast.Name):
            return e.id in models
        if not isinstance(e, ast.Call):
            return False
        if builder(e):
            return True
        return bool(e.args) and isinstance(e.args[0], ast.Name) and e.args[0].id in models

    def model_value(e) -> bool:
        """The value is the model itself: built (from_pretrained / from_config), moved or cast (`.to()`, `.half()`,
        `.cuda()`), or wrapped by a function given it first (get_peft_model(model, ...)); not what it returns
        (model.generate(...), model(**batch))."""
        while isinstance(e, ast.Call) and isinstance(e.func, ast.Attribute) and not builder(e):
            if e.func.attr not in _MODULE_METHODS:
                return False
            e = e.func.value
        if isinstance(e, ast.Name):
            return e.id in models
        return isinstance(e, ast.Call) and (builder(e) or isinstance(e.func, ast.Name) and bool(e.args) and
                                            isinstance(e.args[0], ast.Name) and e.args[0].id in models)

    def cast_of(call) -> str | None:
        """The dtype a method call on the model casts it to, or None."""
        if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute)):
            return None
        if call.func.attr in _CASTS and not call.args:
            return _CASTS[call.func.attr]
        if call.func.attr == "to":
            for a in [*call.args, *(k.value for k in call.keywords if k.arg == "dtype")]:
                got = value(a, consts)
                if isinstance(got, str) and got in _TORCH_DTYPES:
                    return _TORCH_DTYPES[got]
        return None

    def casts_in_chain(e) -> str | None:
        got = None
        while isinstance(e, ast.Call) and isinstance(e.func, ast.Attribute):
            got = got or cast_of(e)  # the outermost cast is the last applied
            e = e.func.value
        return got

    amp_names = _amp_aliases(t)
    out: dict = {}
    configs: dict = {}  # config variables -> the attn_implementation they were loaded with
    arg_names: set = set()  # variables holding a TrainingArguments / TRL config
    for n in stmts:
        if isinstance(n, ast.Expr) and isinstance(n.value, ast.Call) and isinstance(n.value.func, ast.Attribute) and \
                n.value.func.attr == "train" and not n.value.args and not is_model(n.value.func.value):
            break  # trainer.train(): what follows is after the run
        if isinstance(n, ast.With):
            for item in n.items:
                c = item.context_expr
                fn = amp_names.get(ast.unparse(c.func), ast.unparse(c.func)) if isinstance(c, ast.Call) else None
                if fn in _AUTOCAST:
                    kw = {k.arg: k.value for k in c.keywords}
                    device = value(kw.get("device_type", c.args[0] if c.args else None), consts) \
                        if fn != "torch.cuda.amp.autocast" else "cuda"
                    if device not in ("cuda", None) or value(kw.get("enabled"), consts) is False:
                        continue
                    got = value(kw["dtype"], consts) if "dtype" in kw else "torch.float16"
                    if got in _TORCH_DTYPES and _TORCH_DTYPES[got] != "float32":
                        out.setdefault("mixed_precision", "bf16" if _TORCH_DTYPES[got] == "bfloat16" else "fp16")
            continue
        val = n.value
        targets = n.targets if isinstance(n, ast.Assign) else [n.target] if isinstance(n, ast.AnnAssign) else []
        if isinstance(val, ast.Call) and ast.unparse(val.func) in ("Accelerator", "accelerate.Accelerator"):
            mp = value(next((k.value for k in val.keywords if k.arg == "mixed_precision"), None), consts)
            if isinstance(mp, str) and mp.lower() in ("bf16", "fp16"):
                out["mixed_precision"] = mp.lower()
        if isinstance(val, ast.Call) and _callee(val)[1] in PY_ARGS:
            arg_names.update(tg.id for tg in targets if isinstance(tg, ast.Name))
        if isinstance(val, ast.Call) and ast.unparse(val.func) in ("dataclasses.replace", "replace") and val.args and \
                isinstance(val.args[0], ast.Name) and val.args[0].id in arg_names:
            # `args = dataclasses.replace(args, bf16=True)` of a TrainingArguments / TRL config: a copy with those
            # fields changed (Python's dataclasses.replace; cfg83), the object the Trainer is then handed
            arg_names.update(tg.id for tg in targets if isinstance(tg, ast.Name))
            for k in val.keywords:
                if k.arg in PY_KEYS:
                    got = value(k.value, consts)
                    if got != "?":
                        out[k.arg] = got
                    elif k.arg in ("bf16", "fp16"):
                        _open_by_gpu(out, k.arg, k.value, consts)
        for tg in targets:
            if isinstance(tg, ast.Attribute) and tg.attr == "model_init_kwargs":
                # `training_args.model_init_kwargs = dict(attn_implementation=model_args.attn_implementation, dtype=...)`:
                # TRL's own scripts set it on the config TrlParser filled (huggingface/trl@f2cd577 trl/scripts/sft.py:74-79,
                # examples/scripts/gkd.py:72-84); the trainer loads a model given by name with it (cfg83). Only TRL's
                # configs have the field (ref_ / teacher_model_init_kwargs are other models')
                items = _dict_items(val, consts)
                if items:
                    kw = {k: _bare_dtype(value(v, consts)) for k, v in items}
                    for k, v in items:
                        if k in _ATTN_ARGS and kw.get(k) == "?":
                            kw[k] = _attention_default(v, consts) or "?"
                    out["model_init_kwargs"] = kw
            # `args.bf16 = True` on the TrainingArguments / SFTConfig object before the Trainer reads it
            if isinstance(tg, ast.Attribute) and tg.attr in PY_KEYS and isinstance(tg.value, ast.Name) and \
                    tg.value.id in arg_names:
                got = value(val, consts)
                if got != "?":
                    out[tg.attr] = got
                elif tg.attr in ("bf16", "fp16"):
                    _open_by_gpu(out, tg.attr, val, consts)  # as a keyword set by the GPU (`args.bf16 = is_bf16_supported()`)
            # model.config._attn_implementation = "flash_attention_2"
            if isinstance(tg, ast.Attribute) and tg.attr == "_attn_implementation" and \
                    isinstance(tg.value, ast.Attribute) and tg.value.attr == "config" and is_model(tg.value.value):
                got = value(val, consts)
                if isinstance(got, str) and got != "?":
                    out["attn_implementation"] = got
        if not isinstance(val, ast.Call):
            continue
        if isinstance(val.func, ast.Attribute) and val.func.attr == "set_attn_implementation" and \
                is_model(val.func.value) and val.args:
            got = value(val.args[0], consts)
            if isinstance(got, str) and got != "?":
                out["attn_implementation"] = got
        if ast.unparse(val.func) == "torch.compile" and val.args and is_model(val.args[0]) or \
                isinstance(val.func, ast.Attribute) and val.func.attr == "compile" and not val.args and \
                is_model(val.func.value):
            out["torch_compile"] = True
            mode = value(next((k.value for k in val.keywords if k.arg == "mode"), None), consts)
            if isinstance(mode, str) and mode != "?":
                out["torch_compile_mode"] = mode
        # config = AutoConfig.from_pretrained(name, attn_implementation=...): the implementation rides on the config
        # a model is then built from (`from_pretrained(name, config=config)`, `from_config(config)`) unless the
        # builder names its own
        if _callee(val)[1] == "from_pretrained" and _callee(val)[0].endswith("Config"):
            got = value(next((k.value for k in val.keywords if k.arg in ("attn_implementation", "_attn_implementation")),
                             None), consts)
            for tg in targets:
                if isinstance(tg, ast.Name) and isinstance(got, str) and got != "?":
                    configs[tg.id] = got
        b = base_call(val)
        if isinstance(b, ast.Call) and builder(b) and \
                not any(k.arg in ("attn_implementation", "_attn_implementation") for k in b.keywords):
            cfg = next((k.value for k in b.keywords if k.arg == "config"), None)
            if cfg is None and _callee(b)[1] == "from_config" and b.args:
                cfg = b.args[0]
            if isinstance(cfg, ast.Name) and cfg.id in configs:
                out["attn_implementation"] = configs[cfg.id]
        if model_value(val):
            cast = casts_in_chain(val)
            if cast:
                out["torch_dtype"] = cast
            for tg in targets:
                if isinstance(tg, ast.Name):
                    models.add(tg.id)
    return out


# quantization_config classes whose weights prepare_model_for_kbit_training leaves as they are (peft's is_gptq_quantized,
# is_aqlm_quantized, is_eetq_quantized, is_hqq_quantized, is_torchao_quantized)
_KEPT_QUANTIZED = {"GPTQConfig", "AqlmConfig", "EetqConfig", "HqqConfig", "TorchAoConfig"}


def _upcast_to_fp32(t) -> bool:
    """The script hands its model to peft's prepare_model_for_kbit_training, which casts every float16 / bfloat16
    parameter that is not 4-bit packed to float32 (huggingface/peft@5d602fd src/peft/utils/other.py:197-209), whatever
    torch_dtype loaded it with (round 9m: torch_dtype=torch.float16, no quantization, then that call: float32 weights).
    Not for the quantization methods it leaves alone."""
    import ast

    names = {_callee(n)[1] for n in walked(t) if isinstance(n, ast.Call)}
    return "prepare_model_for_kbit_training" in names and not names & _KEPT_QUANTIZED


# Keywords SFTTrainer took itself only in old TRL: the dataset ones until 0.13 (v0.12.2 trl/trainer/sft_trainer.py:
# 110-127 deprecates them "version 0.13.0"; SFTConfig holds them since), `tokenizer` until 0.16 (renamed processing_class
# in v0.12.0, accepted under its old name until "0.16.0": v0.13.0 :111-113). Every release that takes one of them
# prepares a k-bit model itself (above)
SFT_TRAINER_OLD_KEYWORDS = {"dataset_text_field", "max_seq_length", "packing", "dataset_kwargs", "dataset_num_proc",
                           "dataset_batch_size", "neftune_noise_alpha", "infinite", "num_of_sequences",
                           "chars_per_token", "eval_packing", "tokenizer"}
_KBIT_KEYWORDS = ("load_in_4bit", "load_in_8bit")


def _peft_given(call) -> bool:
    """The call passes a peft_config that is not a literal None."""
    import ast

    return any(k.arg == "peft_config" and not (isinstance(k.value, ast.Constant) and k.value.value is None)
               for k in call.keywords)


def _kbit_load(call, t, consts: dict) -> str:
    """"4" / "8" for a from_pretrained call that loads through bitsandbytes in 4 or 8 bits: `load_in_4bit=True` /
    `load_in_8bit=True` (transformers 4's keywords), or `quantization_config=BitsAndBytesConfig(load_in_4bit=True, ...)`
    written in the call or held by a name every assignment of which is such a config; "" otherwise."""
    import ast

    from .pyscript import keywords, value

    def bits(kws) -> str:
        return next((a[8] for a, v in kws if a in _KBIT_KEYWORDS and value(v, consts) is True), "")

    def bnb(c) -> str:
        return bits([(k.arg, k.value) for k in c.keywords]) if isinstance(c, ast.Call) and \
            _callee(c)[1] == "BitsAndBytesConfig" else ""

    kws = list(keywords(call, consts))
    got = bits(kws)
    for arg, node in kws:
        if arg == "quantization_config":
            got = got or bnb(node)
            if isinstance(node, ast.Name):
                held = {bnb(a.value) for a in walked(t) if isinstance(a, ast.Assign)
                        and any(isinstance(x, ast.Name) and x.id == node.id for x in a.targets)}
                got = got or (held.pop() if len(held) == 1 else "")
    return got


# TRL's trainers: in TRL before the configs took them (model_init_kwargs moved to SFTConfig in 0.13), the trainer itself
# took model_init_kwargs, packing, dataset_text_field and max_seq_length (trl/trainer/sft_trainer.py of 0.8-0.12)
TRL_TRAINERS = {"SFTTrainer", "DPOTrainer", "GRPOTrainer", "ORPOTrainer", "KTOTrainer", "RewardTrainer", "PPOTrainer",
                "GKDTrainer", "CPOTrainer", "RLOOTrainer", "OnlineDPOTrainer", "BCOTrainer", "PRMTrainer", "XPOTrainer",
                "NashMDTrainer", "GOLDTrainer", "GMPOTrainer", "AsyncGRPOTrainer", "MiniLLMTrainer",
                "GRPOWithReplayBufferTrainer"}
# transformers' own trainers (src/transformers/trainer.py Trainer, trainer_seq2seq.py Seq2SeqTrainer): built by a script
# that imports them from transformers (`from transformers import Trainer`, `transformers.Trainer(...)`), they are
# transformers' training loop run on the model handed to them, whatever file the model and the TrainingArguments come
# from (round 57m: `Trainer(model=model, args=training_config.to_training_args())`, both built in the user's own modules)
HF_TRAINERS = {"Trainer", "Seq2SeqTrainer"}


def _bare_dtype(v):
    """`torch.bfloat16` as a YAML writes it (bfloat16); other values as they are."""
    return v[6:] if isinstance(v, str) and v.startswith("torch.") else v


def _settings(doc: dict) -> dict:
    """The settings of a YAML/JSON file, a command line's --flags, a script's calls, or an accelerate config's
    parallelism block. model_init_kwargs written as JSON text (`--model_init_kwargs '{"attn_implementation": ...}'`,
    or a quoted string in the YAML) is the dict it spells: TRL's configs list it in _VALID_DICT_FIELDS
    (huggingface/trl@f2cd577 trl/trainer/sft_config.py:140), which TrainingArguments.__post_init__ parses with
    json.loads."""
    s = _given_settings(doc)
    kw = s.get("model_init_kwargs")
    if isinstance(kw, str) and kw.strip().startswith("{"):
        import json

        try:
            parsed = json.loads(kw)
        except ValueError:
            parsed = None
        if isinstance(parsed, dict):
            s = {**s, "model_init_kwargs": parsed}
    return s


def _given_settings(doc: dict) -> dict:
    if doc["fmt"] == "python":
        return _python_settings(doc)
    if doc["fmt"] == "text":
        args = dict(doc["args"])
        from . import config_data

        # only TRL's own entry points are known to read --config this way; a user's train.py --config x.yaml may not
        data = config_data(doc, args.get("config")) if _trl_command(doc) else None
        cmd = doc.get("command")
        if data is None and cmd is not None and handbook_run(cmd, doc):
            # the alignment-handbook's H4ArgumentParser: the recipe YAML (first argument), then --key=value overrides
            data = config_data(doc, cmd.args[0])
        if data is not None:
            # TrlParser.parse_args_and_config (trl/scripts/utils.py:303-338): the --config YAML's values become the
            # dataclasses' defaults and the command line's own --flags override them
            return {**data, **{k: v for k, v in args.items() if k != "config"}}
        return args
    s = dict(doc["data"])
    par = s.get("parallelism_config") if isinstance(s.get("parallelism_config"), dict) else {}
    sp = par.get("parallelism_config_sp_attn_implementation") or s.get("parallelism_config_sp_attn_implementation")
    if isinstance(sp, str) and "attn_implementation" not in s:
        s["attn_implementation"] = sp  # accelerate's sequence parallelism (Ulysses) attention
    return s


def _trl_command(doc: dict) -> bool:
    """`trl sft|dpo|...`, or one of TRL's example scripts (sft.py, dpo.py, grpo.py ...) under any launcher, given
    TRL's options (hf_script: a user's own sft.py with options of its own is not TRL's)."""
    if any(w == "trl" for w in doc["words"][:4]):
        return True
    if any(_trl_own_script(c) for c in doc.get("commands") or []):
        return True
    runs = [c for c in doc.get("commands") or [] if c.script and c.script.startswith(("sft", "dpo", "grpo"))]
    if runs:
        return any(hf_script(c) for c in runs)
    return any(x.startswith(("sft", "dpo", "grpo")) for x in doc["scripts"])


_TRL_SCRIPT_DIR = re.compile(r"(^|[/\\])(trl[/\\]scripts|examples[/\\]scripts)[/\\][^/\\]+\.py$")


def _trl_own_script(cmd) -> bool:
    """The command runs one of TRL's example scripts where TRL keeps them (trl/scripts/orpo.py, examples/scripts/cpo.py:
    a TRL checkout, or a copy of TRL the repository vendors), under TRL's script names (_HF_SCRIPT), given TRL's
    options (hf_script)."""
    return bool(cmd.script and _HF_SCRIPT.match(cmd.script) and not cmd.script.startswith("run_") and
                any(_TRL_SCRIPT_DIR.search(w) for w in cmd.words) and hf_script(cmd))


# TRL's example scripts that load the policy with `AutoModelForCausalLM.from_pretrained(model_args.model_name_or_path,
# trust_remote_code=...)` only and hand the trainer the built model (huggingface/trl@21e9774 examples/scripts/orpo.py,
# @7bcecc5 examples/scripts/cpo.py; so since @004c867): ModelConfig's attn_implementation / torch_dtype never reach the
# model, and the config's model_init_kwargs apply only to a model given by name. The attention is transformers' default.
_TRL_NAME_ONLY_LOAD = {"orpo.py", "cpo.py"}
_MODEL_LOAD_KEYS = {"attn_implementation", "torch_dtype", "dtype", "model_init_kwargs", "use_flash_attention_2"}


def _loads_by_name_only(doc: dict) -> bool:
    """The file's training command runs TRL's own orpo.py / cpo.py (_TRL_NAME_ONLY_LOAD)."""
    if doc["fmt"] != "text":
        return False
    return any(c.script in _TRL_NAME_ONLY_LOAD and _trl_own_script(c) for c in doc.get("commands") or [])



# the files a repository pins its Python dependencies in (pip's requirements, PEP 621 / Poetry's pyproject.toml,
# setuptools' setup.py / setup.cfg, conda's environment file)
_PIN_FILES = re.compile(r"^(requirements[\w.-]*\.txt|pyproject\.toml|setup\.py|setup\.cfg|environment\.ya?ml)$")
# `trl>=0.25.1`, `trl[vllm]>=0.25.1`, `"trl==0.21.0"`, `trl ~= 0.20`, Poetry's `trl = "^0.23.0"` / `trl = ">=0.19"`: the
# lowest release the pin allows (a `<` / `<=` / `!=` bound alone says no lower one)
_TRL_PIN = re.compile(r"(?<![\w.-])trl(?:\[[^\]]*\])?[\"']?\s*(?:=\s*[\"'])?\s*(===|==|>=|~=|\^|>)\s*v?(\d+)\.(\d+)",
                      re.IGNORECASE)


def _pins(doc: dict, pattern: "re.Pattern") -> list:
    """The matches of `pattern` in the dependency files (_PIN_FILES) of the nearest of the file's folder and the two
    above it where it matches at all (commented lines skipped); [] when none does. Nothing is installed or fetched."""
    import os

    base = os.path.dirname(os.path.abspath(doc.get("path") or "."))
    for up in (base, os.path.dirname(base), os.path.dirname(os.path.dirname(base))):
        try:
            names = sorted(n for n in os.listdir(up) if _PIN_FILES.match(n))
        except OSError:
            continue
        found = []
        for n in names:
            try:
                with open(os.path.join(up, n), encoding="utf-8", errors="replace") as fh:
                    text = fh.read(200_000)
            except OSError:
                continue
            lines = [ln for ln in text.splitlines() if not ln.lstrip().startswith("#")]
            found += list(pattern.finditer("\n".join(lines)))
        if found:
            return found
    return []


def trl_pinned_at_least(doc: dict, release: tuple) -> bool:
    """The repository the file is in pins TRL at `release` (major, minor) or later: every TRL pin of the dependency
    files (_PIN_FILES) in the nearest of the file's folder and the two above it that has any sets a lower bound at
    or above it. False when no such file pins TRL, or one allows an older release. Nothing is installed or fetched."""
    pins = [(int(m.group(2)), int(m.group(3))) for m in _pins(doc, _TRL_PIN)]
    return bool(pins) and all(p >= tuple(release) for p in pins)


# `transformers==4.46.3`, `transformers>=4.40,<5`, `transformers<=4.57.1`, Poetry's `transformers = "^4.51"`, conda's
# `- transformers=4.41.2`: each bound of the requirement (the specifiers after the name, to the line's end or a quote)
_TRANSFORMERS_REQ = re.compile(r"(?<![\w.-])transformers(?:\[[^\]]*\])?[\"']?[ \t]*(?:=[ \t]*[\"'])?[ \t]*"
                               r"((?:(?:===|==|>=|<=|~=|!=|\^|<|>|=)[ \t]*v?\d+(?:\.\d+)*(?:\.\*)?[ \t,]*)+)",
                               re.IGNORECASE)
_INLINE_METADATA = re.compile(r"^# /// script\s*$(.*?)^# ///\s*$", re.MULTILINE | re.DOTALL)
_BOUND = re.compile(r"(===|==|>=|<=|~=|!=|\^|<|>|=)\s*v?(\d+)(?:\.(\d+))?")


def transformers_load_default(doc: dict, s: dict) -> str | None:
    """What `from_pretrained` loads a model in when the script names no dtype, by the transformers release the run
    can be seen to use: "float32" before 5.0 (transformers 4.57.1 modeling_utils.py:4628-4629 pops dtype / torch_dtype
    with None, and _get_dtype's else branch, :1287-1291, keeps torch.get_default_dtype(), float32 "for BC" unless the
    script sets another: read() then says nothing, s["default_dtype_set"]), "auto" from 5.0 (5.0.0
    modeling_utils.py:3934-3935, 5.24.0 :4186-4187 `if dtype is None: dtype = "auto"`: the checkpoint's config.json
    dtype, which this file does not show), None when the release is not known. The release is known from what the file
    installs itself (pip install, PEP 723 inline metadata), else the repository's own pin of transformers (_pins), or
    failing both, from a keyword 5.0 no longer takes, which the script passes (s["transformers_4"]:
    `Trainer(tokenizer=...)`). Never the installed transformers: the run's machine is not the one `check --config`
    may run on (where none of these shows the release, the reading says what each release loads, _dtype_by_release,
    and checks/trainer.py resolves it with the transformers of the environment it checks)."""
    from .installed import _PIP_INSTALL

    text = doc.get("text") or ""
    # the file's own installs (a notebook's `!pip install transformers==4.46.0`, a job's `pip install ...`) and its
    # PEP 723 inline metadata (`# /// script` ... `# dependencies = ["transformers==4.55.2"]` ... `# ///`, which
    # `uv run` installs), then the repository's dependency files
    own = [m.group(1) for m in _PIP_INSTALL.finditer(text)] + _INLINE_METADATA.findall(text)
    found = [m for chunk in own for m in _TRANSFORMERS_REQ.finditer(chunk)] or _pins(doc, _TRANSFORMERS_REQ)
    before, after = False, False
    for m in found:
        for op, major, minor in _BOUND.findall(m.group(1)):
            major, minor = int(major), int(minor or 0)
            if op in ("==", "===", "=", "~=", "^"):
                before, after = before or major < 5, after or major >= 5
            elif op in ("<", "<="):
                before = before or (major, minor) <= (5, 0) and not (op == "<=" and major == 5)
            elif op in (">", ">="):
                after = after or major >= 5
    if not before and not after and s.get("transformers_4"):
        before = True
    if before != after:
        return "float32" if before else "auto"
    return None


def _trl_config(doc: dict) -> bool:
    """The file configures a TRL trainer: a YAML (TrlParser reads YAML; transformers' run_*.py examples take JSON or
    flags), a `trl <cmd>` / TRL script command line, or a script that builds a TRL config (SFTConfig(...))."""
    if doc["fmt"] == "yaml":
        return not doc["keys"] & ACCELERATE_KEYS
    if doc["fmt"] == "text":
        from . import config_data

        named = doc["args"].get("config")
        # a --config YAML that is not here may set bf16 / fp16 itself
        return _trl_command(doc) and (not isinstance(named, str) or config_data(doc, named) is not None)
    if doc["fmt"] == "python":
        import ast

        from .pyscript import tree

        from .pyscript.dataclass_args import trl_parser_classes

        t = tree(doc.get("python") or "")
        return t is not None and (any(
            isinstance(n, ast.Call) and (n.func.attr if isinstance(n.func, ast.Attribute) else
                                         n.func.id if isinstance(n.func, ast.Name) else "") in TRL_CONFIGS
            for n in walked(t)) or bool(trl_parser_classes(t) & TRL_CONFIGS))
        # (or a TRL config a TrlParser / HfArgumentParser fills: `TrlParser((ScriptArguments, SFTConfig, ModelConfig))`,
        # trl/scripts/sft.py:126; cfg83)
    return False


def _base(doc: dict) -> str:
    import os

    return os.path.dirname(os.path.abspath(doc["path"]))


# TRL's scripts (trl/scripts/*.py and the examples/scripts/*.py variants: sft.py, dpo.py, grpo.py, sft_gpt_oss.py ...)
# and transformers' examples (examples/pytorch/*/run_*.py): the scripts whose HfArgumentParser fields this reader
# reads as transformers' own
_HF_SCRIPT = re.compile(r"^(run_\w+|(sft|dpo|grpo|orpo|kto|cpo|ppo|rloo|reward_modeling|prm|gkd|xpo|bco|nash_md|online_dpo)"
                        r"(_\w+)?)\.py$")


# transformers' Trainer-based example scripts (huggingface/transformers examples/pytorch/*/run_*.py): HfArgumentParser
# over ModelArguments, DataTrainingArguments and TrainingArguments
EXAMPLES = {"run_clm", "run_mlm", "run_plm", "run_fim", "run_glue", "run_xnli", "run_ner", "run_swag", "run_qa",
            "run_seq2seq_qa", "run_summarization", "run_translation", "run_classification", "run_image_classification",
            "run_semantic_segmentation", "run_object_detection", "run_instance_segmentation", "run_mae", "run_mim",
            "run_audio_classification", "run_speech_recognition_ctc", "run_speech_recognition_ctc_adapter",
            "run_speech_recognition_seq2seq", "run_clip", "run_wav2vec2_pretraining_no_trainer"}


def _options(cmd) -> set:
    from .shell import parse_options

    return set(parse_options(cmd.args).values)


def hf_script(cmd) -> bool:
    """The script a command runs is one of TRL's or transformers' own: a module or a path through trl/, or a script
    named like theirs (sft.py, run_clm.py) whose options are their dataclasses' fields (fields_evidence, or only
    `--config recipe.yaml`, which TrlParser reads). A user's own sft.py takes options of its own (--model_name,
    --use_lora, --sft_data_path) that HfArgumentParser would refuse."""
    if (cmd.module or "").startswith(("trl.", "transformers.")) or \
            any(re.search(r"(^|[/\\])trl[/\\]", w) for w in cmd.words):
        return True
    if not _HF_SCRIPT.match(cmd.script or ""):
        return False
    if "." in (cmd.module or "") and not cmd.module.startswith("examples.scripts."):
        # `python -m chess_llm.train.sft`: a module of the user's own package, whatever its last part is called; TRL's
        # scripts run as modules are trl.scripts.* (above) or, from a TRL checkout, examples.scripts.*
        return False
    opts = _options(cmd)
    if _example(cmd) and len(opts & HF_FIELDS) >= MIN_FIELDS:
        # one of transformers' own examples: its ModelArguments / DataTrainingArguments fields (--dataset_config_name,
        # --source_lang, --max_source_length ...) sit beside TrainingArguments', which are enough to tell it
        return True
    return bool(fields_evidence(opts)) or ("config" in opts and opts <= HF_FIELDS)


def _example(cmd) -> bool:
    return os.path.splitext(os.path.basename(cmd.script or ""))[0] in EXAMPLES


def _example_load(doc: dict, s: dict) -> dict:
    """The marks _run_dtype reads for a command line of one of transformers' Trainer-based examples that gives the
    model by name and no dtype: the script loads it with transformers' own default (run_clm.py, huggingface/transformers
    @00d481d1 examples/pytorch/language-modeling/run_clm.py: ModelArguments.dtype defaults to None, and main() passes
    `dtype=model_args.dtype if model_args.dtype in ["auto", None] else getattr(torch, model_args.dtype)` to
    AutoModelForCausalLM.from_pretrained; the examples of before the option load with no dtype at all), as a script's
    own `from_pretrained(name)` does (_python_settings' load_default / load_float32_checkpoint). {} for any other
    command (a --torch_dtype / --dtype given is read by dtype_from; TRL's scripts build their load from ModelConfig)."""
    cmd = doc.get("command")
    model = s.get("model_name_or_path")
    if doc["fmt"] != "text" or cmd is None or not _example(cmd) or "_no_trainer" in (cmd.script or "") or \
            not hf_script(cmd) or _trl_command(doc) or not isinstance(model, str) or "torch_dtype" in s or "dtype" in s:
        return {}
    return {"load_default": True, "load_float32_checkpoint": bool(_FLOAT32_CHECKPOINTS.search(model))}


# the alignment-handbook's scripts (scripts/run_{sft,dpo,orpo,cpt}.py): H4ArgumentParser.parse_yaml_and_args reads a
# recipe YAML given as the first argument (src/alignment/configs.py), the recipes living under recipes/
_HANDBOOK_SCRIPT = re.compile(r"^run_(sft|dpo|orpo|cpt|kto|ppo|rm|reward_modeling)\.py$")


def handbook_run(cmd, doc: dict | None = None) -> str | None:
    """`accelerate launch ... scripts/run_sft.py recipes/x/sft/config_qlora.yaml` (or a recipe of the user's own, with
    the handbook's recipes/ or the handbook named elsewhere on the line, or one that is here and laid out as the
    handbook's recipes are: `accelerate launch run_dpo.py v1231.yaml`, round 51): the recipe's name, else None."""
    if not _HANDBOOK_SCRIPT.match(cmd.script or "") or not cmd.args or \
            not cmd.args[0].lower().endswith((".yaml", ".yml")):
        return None
    if not any(re.search(r"(^|[/\\])recipes[/\\]|handbook", w, re.IGNORECASE) for w in cmd.words) and \
            not (doc is not None and _handbook_recipe(doc, cmd.args[0])):
        return None
    return re.split(r"[/\\]", cmd.args[0])[-1]


# the keys only the handbook's recipes have (ModelArguments / DataArguments of src/alignment/configs.py: the datasets'
# mixer, old and new spellings), beside the model they train
_HANDBOOK_KEYS = {"dataset_mixer", "train_dataset_mixer", "eval_dataset_mixer", "dataset_mixture"}


def _handbook_recipe(doc: dict, path: str) -> bool:
    """The YAML a launch hands the handbook's script is here and is a handbook recipe: a model_name_or_path and the
    handbook's dataset mixer."""
    from . import config_data

    data = config_data(doc, path)
    return isinstance(data, dict) and "model_name_or_path" in data and bool(_HANDBOOK_KEYS & set(data))


# A model's config.json (PretrainedConfig.to_dict: configuration_utils.py) names its class (`architectures`) or its
# family (`model_type`) beside its dimensions; generate()'s defaults (generation_config.json) and a tokenizer's or
# processor's config carry `transformers_version` too, but none of these
MODEL_DIMENSIONS = {"hidden_size", "num_attention_heads", "num_hidden_layers", "intermediate_size", "vocab_size",
                    "head_dim", "num_key_value_heads", "max_position_embeddings", "d_model", "n_embd", "n_layer",
                    "n_head", "text_config", "vision_config"}


# A model's dimensions are every model framework's words (GPT-NeoX's and MaxText's YAMLs, Megatron-LM's --num-attention-heads,
# LitGPT's and users' own model configs): transformers' own only in the layout transformers itself saves, where
# PretrainedConfig.to_dict writes `transformers_version` (configuration_utils.py) and save_pretrained the model's class
# (`architectures`); anywhere else they are shared evidence.
_DIMENSION_KEYS = {"num_attention_heads", "num_key_value_heads", "max_position_embeddings", "rope_theta", "rms_norm_eps",
                   "intermediate_size", "vocab_size"}


def _own_keys(s: dict) -> set:
    return STRONG_KEYS if {"architectures", "transformers_version"} & set(s) else STRONG_KEYS - _DIMENSION_KEYS


def model_layout(s: dict) -> bool:
    """A mapping laid out as a transformers model's config.json: `architectures`, or `model_type` with a dimension."""
    return "architectures" in s or ("model_type" in s and bool(MODEL_DIMENSIONS & set(s)))


def _command_view(doc: dict) -> dict | None:
    """A notebook's (or a Python wrapper's) training command read as the command line it is (`!trl sft --model_name_or_path
    ... --attn_implementation flash_attention_2 --bf16`, `!accelerate launch run_clm.py ...`), for a file whose own
    Python says nothing of transformers: what a launch script of that line would say (an Unsloth notebook's commands
    are Unsloth's)."""
    if doc["fmt"] != "python" or doc.get("command") is None or unsloth_script(doc.get("python") or ""):
        return None
    return {**doc, "fmt": "text"}


def score(doc: dict) -> "Score":
    sc = _score(doc)
    view = _command_view(doc) if not sc else None
    return _score(view) if view is not None else sc


def _score(doc: dict) -> "Score":
    if doc["fmt"] == "python":
        src = doc.get("python") or ""
        if not _PY_IMPORT.search(src) or unsloth_script(src):
            return NOTHING  # (an Unsloth script is Unsloth's)
        from .others import imported_framework
        from .pyscript import tree

        # the convention's evidence, whatever keywords the calls carry: a language model loaded through transformers
        # or transformers' / TRL's trainer configured (round 6a; real/TRAINERS.md "Round 6a"). A diffusion script's
        # text encoders, or a model a framework's own loop trains (Lightning, verl, NeMo ...), is not a transformers
        # run of its own: there only a transformers / TRL trainer configured counts (cfg44)
        t = tree(src)
        if t is not None and own_loop(doc, attn=False):
            return NOTHING  # a training loop of the user's own: no trainer's run (detect() says what it is)
        calls = _transformers_calls(t, models=not (_DIFFUSERS.search(src) or imported_framework(doc) or
                                                    own_trainer(t))) if t is not None else []
        sc = Score()
        if not calls:
            return sc
        s = {k: v for k, v in _python_settings(doc).items() if k not in _MARKS}
        if s:
            sc.add("transformers / TRL script (" + ", ".join(sorted(set(s) - _NOTES)[:3]) + ")")
        else:
            # a model loaded, or a trainer configured, with transformers' defaults is transformers' run all the same:
            # `AutoModelForCausalLM.from_pretrained(path)` with no attn_implementation gets transformers' default
            # attention (sdpa where the model supports it) and the checkpoint's / float32 dtype, nothing to require
            sc.add("transformers / TRL script (" + ", ".join(sorted(set(calls))[:2]) + ", defaults)")
        return sc
    if doc["fmt"] not in ("yaml", "json", "text"):
        return NOTHING
    cmd = doc.get("command")
    if doc["fmt"] == "text" and cmd is not None and cmd.program in OTHER_CLIS:
        return NOTHING  # another trainer's own CLI: its options are that trainer's, whatever HF names they share
    s = _settings(doc)
    if doc["fmt"] != "text" and not model_layout(s):
        # `transformers_version` is written into every file transformers saves (generation_config.json,
        # preprocessor_config.json, a processor's or a tokenizer's config): the model's evidence only beside the
        # model's own layout
        s = {k: v for k, v in s.items() if k != "transformers_version"}
    parser = _parsed_by(doc, s)
    if parser is not None and parser["kind"] == "own":
        return NOTHING  # the repository's own script reads it into its own settings (cfg77; configs.detect says so)
    if doc["fmt"] != "text" and parser is None and not (
            {"model_name_or_path", "architectures", "transformers_version"} & set(s)
            or doc["keys"] & ACCELERATE_KEYS or model_from_command_line(s)):
        # a TRL / transformers-examples YAML is parsed into the script's dataclasses (trl/scripts/utils.py:303-338 TrlParser.parse_args_and_config, HfArgumentParser)
        # and the model comes from ModelConfig.model_name_or_path: a YAML without it (another trainer's
        # pretrained_model_name_or_path) is not one of theirs, whatever dataset_name or lora_alpha it shares
        return score_keys(set(s), (), STRONG_KEYS | SHARED_KEYS, COMMON_KEYS)
    recipe = handbook_run(cmd, doc) if doc["fmt"] == "text" and cmd is not None else None
    if recipe:
        return Score().add(f"alignment-handbook {cmd.script} {recipe}")
    if doc["fmt"] == "text" and cmd is not None and cmd.script and not hf_script(cmd):
        # a command line's options are parsed by the script it runs: HfArgumentParser fills TrainingArguments /
        # SFTConfig fields (per_device_train_batch_size, bf16, packing ...) for every script built on the HF Trainer
        # (a user's own train.py, ParetoQ's, FastChat's), and what attention such a script loads is in its own code.
        # Only TRL's and transformers' own scripts make those fields transformers' evidence.
        return score_keys(set(s), (), STRONG_KEYS | SHARED_KEYS, COMMON_KEYS)
    sc = score_keys(set(s), _own_keys(s), STRONG_KEYS | SHARED_KEYS, COMMON_KEYS)
    fields = fields_evidence(_options(cmd) if doc["fmt"] == "text" and cmd is not None else
                             set(s) if doc["fmt"] != "text" else ())
    if fields:
        sc.add(fields)
    elif parser is not None:
        sc.add(f"parsed by the repository's {parser['script']} ({parser['how']})")
    lora = lora_without_peft(s) if doc["fmt"] != "text" and parser is None and sc.own and not model_layout(s) else []
    if lora:
        # a file that would be read on its TRL-shaped keys sets LoRA fields TRL would never apply (PEFT_ONLY_FIELDS):
        # its keys are some loader's own, not TrlParser's; refused, saying so (detect(): Score.refused)
        sc = score_keys(set(s), (), STRONG_KEYS | SHARED_KEYS, COMMON_KEYS)
        sc.own, sc.own_points = [], 0.0
        sc.refused = (f"it sets LoRA ({', '.join(lora[:3])}) without use_peft, the switch TRL's ModelConfig applies "
                      f"LoRA by (get_peft_config returns None without it), so its TrainingArguments / TRL-like keys are "
                      f"the schema of a loader of its own (a script of its repository that reads the file), which the "
                      f"file does not name; `attn-doctor check --config` on that script reads the run it starts")
        return sc
    if doc["fmt"] == "text":
        if cmd is not None and _example(cmd) and hf_script(cmd) and not _trl_command(doc):
            # transformers' own example scripts (examples/pytorch/*/run_*.py: run_clm.py, run_translation.py ...) parse
            # TrainingArguments with HfArgumentParser: under their names and with those fields (not a lone --config,
            # which a repository's own run_sft.py takes too: round 6a), the script is the evidence, not a foreign
            # script sharing its options (configs._foreign_script)
            sc.add(f"{cmd.script}: transformers' example script with its dataclasses' fields")
        if _trl_command(doc):
            # named with the script it runs: TRL's example name under TRL's options is the evidence, so the script is
            # not taken for a foreign one that happens to share an option (configs._foreign_script), as sft.py is not
            # (open-r1's `accelerate launch ... src/open_r1/grpo.py --config recipe.yaml`, TrlParser reading the recipe)
            run = cmd if cmd is not None and cmd.script and hf_script(cmd) else \
                next((c for c in doc.get("commands") or [] if _trl_own_script(c)), None)
            sc.add(f"{run.script}: trl command" if run is not None else "trl command")
    elif doc["keys"] & ACCELERATE_KEYS and "attn_implementation" in s:
        sc.add("accelerate parallelism_config_sp_attn_implementation")
    return sc


def _parsed_by(doc: dict, s: dict) -> dict | None:
    """Which script of the file's repository parses this YAML / JSON and how (parsed_by.parsed_by: TrlParser /
    HfArgumentParser of TRL's / transformers' classes -> the trainer's fields; yaml.safe_load with the values taken by
    name -> the script's own settings), looked for only in a file of at least MIN_FIELDS TrainingArguments / TRL fields (session 18, cfg77:
    round 72m's ALIRE-HES-SO sft.yaml, main.py's TrlParser; round 68m's AounAbdullah qlora_7b.yaml, its
    scripts/train_sft.py's yaml.safe_load)."""
    if doc["fmt"] not in ("yaml", "json") or len({str(k) for k in s} & HF_FIELDS) < MIN_FIELDS:
        return None
    from .parsed_by import parsed_by

    return parsed_by(doc)


def _run_dtype(doc: dict, s: dict, kw: dict, model_config: bool) -> str | None:
    """The dtype the run computes in: its autocast, else its weights' dtype, where this file says it (read() below)."""
    truthy = (lambda v: v is True or str(v).lower() == "true")
    dtype = dtype_from(s)
    if dtype is None and s.get("weights_upcast") and not s.get("amp_unknown") and not s.get("args_unseen") and \
            (not _trl_config(doc) or s.get("bf16") is False and not truthy(s.get("fp16"))):
        # float32 weights (prepare_model_for_kbit_training) and TrainingArguments' own bf16 / fp16 default False: no
        # autocast, the run is float32. A TRL config turns bf16 on only when it is left None (below); one given
        # bf16=False (and no fp16) autocasts under no TRL version (round 86m's Abhay557 SFTConfig(fp16=False,
        # bf16=False) over a 4-bit model: bitsandbytes' Linear4bit hands back its input's float32, modules.py forward)
        dtype = "float32"
    if s.get("bf16") is None and not truthy(s.get("fp16")) and not model_config and \
            ("dtype" in {**kw, **s} or s.get("dtype_named") or trl_pinned_at_least(doc, (0, 19))) and \
            not s.get("amp_unknown") and _trl_config(doc):
        # trl/trainer/base_config.py:104-105 (huggingface/trl@f2cd577): every TRL config sets `self.bf16 = not (self.fp16)
        # if self.bf16 is None`, so a TRL run that names neither trains under bf16 autocast (TrainingArguments' own
        # default stays False). That is TRL >= 0.19 (32ffa1170, 2025-06-13); the `dtype` key (ModelConfig's and
        # from_pretrained's, renamed from torch_dtype in 208e9f7df 2025-09-03) says the file is written for such a TRL,
        # and so does the repository's own pin of TRL at 0.19 or later (trl_pinned_at_least: round 68m's Shine1i
        # fine_tune.py, pyproject.toml `trl[vllm]>=0.25.1`; cfg71). Without either the version is unknown: TRL before
        # 0.19 kept bf16 False (the checkpoint's / torch_dtype's dtype).
        dtype = "bfloat16"
    if dtype is None and _weights_decide(doc, s) and \
            (s.get("load_float32_checkpoint") or transformers_load_default(doc, s) == "float32"):
        # the model loaded with no dtype and no autocast (TrainingArguments' bf16 / fp16 default False; a TRL config
        # only with bf16 given False, above) under a transformers before 5.0: its float32 default is the run's dtype.
        # From 5.0, or where the release is not known, the load is the checkpoint's dtype: float32 for a family
        # published in float32 (_FLOAT32_CHECKPOINTS), otherwise not known here: None
        dtype = "float32"
    return dtype


def _weights_decide(doc: dict, s: dict) -> bool:
    """The model is loaded with no dtype and nothing autocasts (TrainingArguments' bf16 / fp16 default False; a TRL config
    only with bf16 given False): the run computes in what from_pretrained loads by default (transformers_load_default)."""
    return bool(s.get("load_default")) and not s.get("amp_unknown") and not s.get("args_unseen") and \
        not s.get("default_dtype_set") and (not _trl_config(doc) or s.get("bf16") is False)


# transformers' release from which from_pretrained with no dtype loads the checkpoint's own dtype ("auto") rather than
# float32: huggingface/transformers#42805 ("Default auto", merged 2025-12-11, superseding #34919), first released in
# 5.0.0 (modeling_utils.py:3934-3935 `if dtype is None: dtype = "auto"`); 4.57.1 keeps float32 (modeling_utils.py:
# 4628-4629, _get_dtype :1287-1291)
AUTO_DTYPE_FROM = (5, 0)


def _dtype_by_release(doc: dict, s: dict) -> dict | None:
    """A reading's `dtype_by_release` (checks/trainer.py resolves it with the transformers of the environment checked):
    the model is loaded with no dtype, nothing autocasts, and neither the file nor its repository shows the transformers
    release (transformers_load_default is None): float32 weights before AUTO_DTYPE_FROM, the checkpoint's own dtype
    from it. The reading's dtype stays unknown (the labels' convention: the file does not say it); None otherwise."""
    if not _weights_decide(doc, s) or s.get("load_float32_checkpoint") or transformers_load_default(doc, s) is not None:
        return None
    model = s.get("model_name_or_path")
    flag = doc["fmt"] == "text"
    return {"package": "transformers", "from": ".".join(map(str, AUTO_DTYPE_FROM)), "before": "float32", "after": None,
            "model": model if isinstance(model, str) else None,
            "setting": "no --torch_dtype" if flag else "no torch_dtype / dtype at from_pretrained(...)",
            "pin": "--torch_dtype float32" if flag else "torch_dtype=torch.float32"}


def _dtype_by_gpu(doc: dict, s: dict, kw: dict, model_config: bool) -> dict | None:
    """The run's dtype on a GPU that does bfloat16 and on one that does not, where the script leaves its bf16 / fp16 (or
    its model's dtype) to a bf16 probe alone (_open_by_gpu): _run_dtype with each answer put in. None when anything
    else is open too, or when both GPUs would run the same."""
    gpu = {a: g for a, g in (s.get("by_gpu") or {}).items() if s.get(a, "?") == "?"}  # ("?" values are dropped)
    if not gpu or s.get("amp_other"):
        return None
    got = {}
    for side in ("yes", "no"):
        put = {a: (g[side][6:] if isinstance(g[side], str) and g[side].startswith("torch.") else g[side])
               for a, g in gpu.items()}
        t = {k: v for k, v in s.items() if k != "amp_unknown"}
        got[side] = _run_dtype(doc, {**t, **put}, kw, model_config)
    if got["yes"] == got["no"]:
        return None
    return by_gpu_reading(got["yes"], got["no"], gpu, unsloth=unsloth_script(doc.get("python") or ""))


def by_gpu_reading(yes: str | None, no: str | None, gpu: dict, unsloth: bool = False) -> dict:
    """A reading's `dtype_by_gpu` (checks/trainer.py resolves it with the GPUs of the machine checked): the dtype where
    the probe answers True and where it answers False (None: not known from the file), the probes and the settings
    as written. `emulated`: a probe is PyTorch's own torch.cuda.is_bf16_supported() with its default
    including_emulation=True (torch/cuda/__init__.py:191-211, torch 2.13), which from torch 2.3 answers True on a GPU
    below compute capability 8.0 too wherever a bfloat16 tensor can be made there (a T4, a V100: software-emulated
    bfloat16; pytorch/pytorch#124996 shows 2.2.2 answering False on a V100) -- unless the script imports Unsloth, which
    replaces it with one whose including_emulation defaults to False (unslothai/unsloth@015bdef unsloth/_gpu_init.py:
    328-336). Unsloth's is_bfloat16_supported() is compute capability >= 8.0 (unsloth/models/_utils.py:2153-2157,
    2860-2861)."""
    probes = sorted({p for g in gpu.values() for p in g["probes"]})
    emulated = not unsloth and any(p.split("(")[0].rsplit(".", 1)[-1] == "is_bf16_supported" and
                                   "including_emulation=False" not in p for p in probes)
    return {"bfloat16_gpu": yes, "other_gpu": no, "probes": probes, "emulated": emulated,
            "settings": [f"{a}={g['written']}" for a, g in sorted(gpu.items())]}


def open_reading(opened: dict) -> dict | None:
    """A reading's `dtype_open` where the bf16 probe takes part in a setting but something the file does not hold
    decides it too (pyscript.gpu_open, by setting): the probes, the settings as written and the parts not known here.
    Said instead of a guess: the run's dtype is the GPU's and that unknown's."""
    opened = {a: g for a, g in opened.items() if g}
    if not opened:
        return None
    return {"probes": sorted({p for g in opened.values() for p in g["probes"]}),
            "settings": [f"{a}={g['written']}" for a, g in sorted(opened.items())],
            "unknown": sorted({u for g in opened.values() for u in g["unknown"]})}


def read(doc: dict) -> dict:
    view = _command_view(doc)
    if view is not None and not _score(doc):
        doc = view  # the notebook's command line is the evidence score() found (above)
    s = _settings(doc)
    if _loads_by_name_only(doc):
        s = {k: v for k, v in s.items() if k not in _MODEL_LOAD_KEYS}
    s = {**s, **_example_load(doc, s)}
    model_config = "architectures" in s or "transformers_version" in s
    kw = s.get("model_init_kwargs") if isinstance(s.get("model_init_kwargs"), dict) else {}
    raw, setting = None, None
    for key, src in (("attn_implementation", s), ("_attn_implementation", s), ("attn_implementation", kw)):
        if isinstance(src.get(key), str) and src[key].strip():
            raw, setting = src[key], (f"model_init_kwargs.{key}" if src is kw else key)
            break
    if raw is None and str(s.get("use_flash_attention_2")).lower() == "true":
        # the alignment-handbook's ModelArguments before attn_implementation (2023-24 recipes): use_flash_attention_2
        # true → from_pretrained(attn_implementation="flash_attention_2") (src/alignment/model_utils.py), as
        # transformers' own from_pretrained(use_flash_attention_2=True) did before it was removed
        raw, setting = "flash_attention_2", "use_flash_attention_2"
    # transformers' flash_attention_4 runs flash_attn.cute (FA4: utils/import_utils.py is_flash_attn_4_available checks
    # the flash-attn-4 distribution); ms-swift passes the same name through to it (modelscope/ms-swift@3602360
    # swift/arguments/base_args/model_args.py:78, sft_args.py:192). Not in NAMES: axolotl refuses it.
    entries = [entry(raw, f"{setting}: {raw}", {"flash_attention_4": "cute"})] if raw else []
    if entries and not entries[0]["known"]:
        entries[0]["fix"] = f"attn_implementation: {entries[0]['suggestion']}"
    name = entries[0]["name"] if entries else None
    truthy = (lambda v: v is True or str(v).lower() == "true")
    packing = truthy(s.get("packing")) and str(s.get("packing_strategy", "bfd")) in ("bfd", "bfd_split")
    padding_free = truthy(s.get("padding_free")) or packing
    traps = []
    if padding_free and (name or "") not in FLASH_VARIANTS:
        traps.append({"setting": "padding_free: true" if truthy(s.get("padding_free")) else "packing: true (bfd)",
                      "attn": name or "the model's default (sdpa)"})
    dtype = _run_dtype(doc, s, kw, model_config)
    by_gpu = _dtype_by_gpu(doc, s, kw, model_config) if dtype is None else None
    dtype_open = open_reading(s.get("gpu_open") or {}) if dtype is None and by_gpu is None else None
    by_release = _dtype_by_release(doc, s) if dtype is None and by_gpu is None and dtype_open is None else None
    return {
        "trainer": "transformers", "trainer_title": "transformers" if model_config else TITLE,
        "format": "cmdline" if doc["fmt"] == "text" else doc["fmt"],  # (python: a script read with ast)
        "family": s.get("model_type") if model_config else None,
        "head_dims": head_dims(s) if model_config else model_head_dims(s.get("model_name_or_path"), _base(doc)),
        "mixed_precision": None, "dtype": dtype, "attention": entries,
        "compile": compile_of(s) if not model_config else {"enabled": None, "mode": None, "setting": None},
        "batch_size": as_int(s.get("per_device_train_batch_size")) if "per_device_train_batch_size" in s else None,
        "packing": traps,
        "sage_training": False,
        **({"dtype_by_gpu": by_gpu} if by_gpu else {}),
        **({"dtype_open": dtype_open} if dtype_open else {}),
        **({"dtype_by_release": by_release} if by_release else {}),
        "fixes": {"packing": "attn_implementation: flash_attention_2   # or padding_free: false and packing: false",
                  "compile": "torch_compile: true", "use_default": "attn_implementation: sdpa"},
    }


def parse(path: str, text: str) -> dict:
    from . import make_doc

    return read(make_doc(path, text))
