"""Files attn-doctor does not read, told apart by their own evidence so they are refused rather than read as
some trainer's (configs/__init__.py detect()): other training frameworks' configs and command lines, and the
dataset configs trainers take beside their training config.

Each recogniser names only what its framework alone has (a section layout, a script or CLI name, keys no
trainer attn-doctor reads uses), the way a reader's own evidence is told; the keys are those of the frameworks'
own documentation and example configs.
"""

from __future__ import annotations

import os
import re

from . import STRONG, Score


def _sections(data) -> dict:
    return data if isinstance(data, dict) else {}


def _dict(data: dict, key: str) -> dict:
    v = data.get(key)
    return v if isinstance(v, dict) else {}


def nemo(doc: dict) -> Score:
    """NVIDIA NeMo (and NeMo-Aligner): a Hydra YAML with `trainer:` and `exp_manager:` sections, megatron model keys."""
    s = Score()
    d = _sections(doc["data"])
    if "exp_manager" in d:
        s.add("exp_manager:")
    model = _dict(d, "model")
    for k in ("megatron_amp_O2", "mcore_gpt", "tensor_model_parallel_size", "restore_from_path", "nemo_path"):
        if k in model or k in d:
            s.add(f"model.{k}")
            break
    if s.own and "trainer" in d:
        s.add("trainer:", 1.0)
    return s


_LIGHTNING_CLASS = re.compile(r"^(lightning\.pytorch|pytorch_lightning|lightning)(\.trainer)*(\.trainer)?\.Trainer$")


# Ultralytics YOLO's training arguments (ultralytics/cfg/default.yaml, written to runs/<task>/<name>/args.yaml by every
# run): task / mode values of its own, and hyperparameter names no trainer attn-doctor reads has (lr0, lrf, mosaic,
# hsv_h ...; the same names in a YOLOv5 / YOLOv8 hyp.yaml)
_YOLO_TASKS = frozenset({"detect", "segment", "classify", "pose", "obb"})
_YOLO_MODES = frozenset({"train", "val", "predict", "export", "track", "benchmark"})
_YOLO_HYP = frozenset({"imgsz", "lr0", "lrf", "mosaic", "close_mosaic", "hsv_h", "hsv_s", "hsv_v", "fliplr", "flipud",
                       "warmup_bias_lr", "copy_paste", "mixup", "nbs", "overlap_mask", "mask_ratio", "anchor_t",
                       "obj_pw", "cls_pw", "iou_t", "fl_gamma"})


def ultralytics(doc: dict) -> Score:
    """Ultralytics YOLO: its args.yaml / default.yaml (task: detect|segment|..., mode: train|val|...) or a hyp.yaml."""
    s = Score()
    d = _sections(doc["data"])
    if str(d.get("task")) in _YOLO_TASKS and str(d.get("mode")) in _YOLO_MODES:
        s.add(f"task: {d['task']}, mode: {d['mode']}")
    hyp = sorted(_YOLO_HYP & set(d))
    if len(hyp) >= 3:
        s.add(", ".join(hyp[:3]))
    return s


# Oumi's TrainingConfig YAML (oumi-ai/oumi src/oumi/core/configs: ModelParams.torch_dtype_str, TrainingParams.trainer_type
# of its TrainerType enum): model / data / training / peft sections
_OUMI_TRAINERS = frozenset({"TRL_SFT", "TRL_DPO", "TRL_GRPO", "TRL_KTO", "HF", "OUMI", "VERL_GRPO"})


def oumi(doc: dict) -> Score:
    """Oumi: model.torch_dtype_str, training.trainer_type (TRL_SFT, TRL_DPO, HF, OUMI ...)."""
    s = Score()
    d = _sections(doc["data"])
    if "torch_dtype_str" in _dict(d, "model"):
        s.add("model.torch_dtype_str")
    if str(_dict(d, "training").get("trainer_type", "")).upper() in _OUMI_TRAINERS:
        s.add(f"training.trainer_type: {_dict(d, 'training')['trainer_type']}")
    return s


def h2o_llmstudio(doc: dict) -> Score:
    """H2O LLM Studio's experiment cfg.yaml (h2oai/h2o-llmstudio llm_studio/python_configs: llm_backbone, problem_type
    text_causal_language_modeling, architecture.backbone_dtype, environment.mixed_precision_dtype)."""
    s = Score()
    d = _sections(doc["data"])
    if "llm_backbone" in d:
        s.add("llm_backbone")
    if "backbone_dtype" in _dict(d, "architecture"):
        s.add("architecture.backbone_dtype")
    if str(d.get("problem_type", "")).startswith("text_") and "language_modeling" in str(d.get("problem_type")):
        s.add(f"problem_type: {d['problem_type']}")
    return s


def mochi_finetuner(doc: dict) -> Score:
    """Genmo's Mochi 1 LoRA fine-tuner (genmo/mochi demos/fine_tuner/configs/lora.yaml): init_checkpoint_path,
    train_data_dir, attention_mode, training.num_qkv_checkpoint / num_ff_checkpoint."""
    s = Score()
    d = _sections(doc["data"])
    if "init_checkpoint_path" in d and {"attention_mode", "train_data_dir", "single_video_mode"} & set(d):
        s.add("init_checkpoint_path / attention_mode")
    training = _dict(d, "training")
    if {"num_qkv_checkpoint", "num_ff_checkpoint", "num_post_attn_checkpoint"} & set(training):
        s.add("training.num_qkv_checkpoint")
    return s


def lightning(doc: dict) -> Score:
    """PyTorch Lightning's LightningCLI config: `trainer:` (accelerator, devices, precision ...) beside `model:` /
    `data:` given as class_path / init_args, or `seed_everything`; or a Hydra trainer group file that instantiates
    Lightning's Trainer (`_target_: lightning.pytorch.trainer.Trainer`, the lightning-hydra-template layout)."""
    s = Score()
    d = _sections(doc["data"])
    for where in (d, _dict(d, "trainer")):
        target = where.get("_target_") or where.get("class_path")
        if isinstance(target, str) and _LIGHTNING_CLASS.match(target.strip()):
            s.add(f"_target_: {target.strip()}")
            return s
    trainer = _dict(d, "trainer")
    # Lightning Trainer's own argument names; max_steps / logger / max_epochs alone are in every framework's trainer
    # section (verl's and EasyR1's trainer.logger, max_steps), so one of the others is needed
    if trainer and set(trainer) & {"accelerator", "devices", "precision", "strategy", "gpus", "num_nodes", "callbacks",
                                   "accumulate_grad_batches", "check_val_every_n_epoch", "log_every_n_steps"} or \
            any(isinstance(v, dict) and "class_path" in v for v in trainer.values()):  # LightningCLI's logger: class_path
        s.add("trainer: (Lightning Trainer arguments)")
        if "seed_everything" in d or "class_path" in _dict(d, "model") or "init_args" in _dict(d, "model"):
            s.add("seed_everything / model.class_path")
    return s


# Lightning Trainer's own arguments (Lightning-AI/pytorch-lightning src/lightning/pytorch/trainer/trainer.py,
# Trainer.__init__; pytorch_lightning's the same names): the ones no other framework's config uses at its top level
# (transformers' TrainingArguments say max_grad_norm / eval_steps / logging_steps, LitGPT's recipes train: / eval:
# sections, NeMo's and LightningCLI's keep these under trainer:, read by lightning() above)
_LIGHTNING_TRAINER_ONLY = frozenset({
    "val_check_interval", "check_val_every_n_epoch", "limit_train_batches", "limit_val_batches", "limit_test_batches",
    "limit_predict_batches", "enable_progress_bar", "enable_model_summary", "enable_checkpointing",
    "gradient_clip_algorithm", "gradient_clip_val", "accumulate_grad_batches", "num_sanity_val_steps", "fast_dev_run",
    "overfit_batches", "reload_dataloaders_every_n_epochs", "default_root_dir", "use_distributed_sampler",
    "detect_anomaly", "barebones", "sync_batchnorm"})


def lightning_trainer_args(doc: dict) -> Score:
    """A Lightning Trainer's keyword arguments kept as a file of their own (a project's configs/trainer/default.yaml,
    passed as `Trainer(**cfg)` by the project's code; round 147m's litgpt-fork file): three or more of the Trainer's
    own argument names at the top level, with nothing under a section (a config whose sections hold them is another
    recogniser's: lightning(), nemo())."""
    s = Score()
    d = _sections(doc["data"])
    found = sorted(k for k in d if k in _LIGHTNING_TRAINER_ONLY)
    if len(found) >= 3:
        s.add(", ".join(found[:3]))  # (STRONG, not more: a trainer's file with more own evidence stays its)
    return s


def deepspeed(doc: dict) -> Score:
    """A DeepSpeed config JSON (the file --deepspeed names): zero_optimization, train_micro_batch_size_per_gpu."""
    s = Score()
    d = _sections(doc["data"])
    # train_batch_size + gradient_accumulation_steps alone are every trainer's names; DeepSpeed's own config
    # (deepspeed/runtime/config.py) carries its switches as sections: "fp16": {"enabled": ...}, "optimizer":
    # {"type": ..., "params": ...}
    sections = any(isinstance(d.get(k), dict) and ({"enabled", "type"} & set(d[k]))
                   for k in ("fp16", "bf16", "optimizer", "scheduler"))
    for k in ("zero_optimization", "train_micro_batch_size_per_gpu", "zero_allow_untested_optimizer",
              "gradient_accumulation_steps" if "train_batch_size" in d and sections else ""):
        if k and k in d:
            s.add(k)
    return s


def accelerate_config(doc: dict) -> Score:
    """An accelerate config (accelerate launch --config_file): compute_environment, distributed_type."""
    s = Score()
    d = _sections(doc["data"])
    if "parallelism_config_sp_attn_implementation" in str(d):
        return s  # transformers' reader reads its sequence-parallel attention (hf_transformers.py)
    if "compute_environment" in d or ("distributed_type" in d and "num_processes" in d):
        s.add("compute_environment / distributed_type")
    return s


def torchtitan(doc: dict) -> Score:
    """torchtitan's TOML: [job] dump_folder, [parallelism], [training] local_batch_size / seq_len, [model] flavor."""
    s = Score()
    d = _sections(doc["data"])
    if "dump_folder" in _dict(d, "job"):
        s.add("[job] dump_folder")
    par = _dict(d, "parallelism")
    # torchtitan's [parallelism] names its degrees (data_parallel_shard_degree, tensor_parallel_degree ...:
    # torchtitan/config/job_config.py Parallelism); a bare `parallelism:` section is many frameworks' (nanotron's dp/tp/pp)
    if any(isinstance(k, str) and k.endswith("_degree") for k in par) or "flavor" in _dict(d, "model"):
        s.add("[parallelism] / [model] flavor")
    return s


def nanotron(doc: dict) -> Score:
    """Hugging Face nanotron's YAML (examples/config_tiny_llama.yaml; src/nanotron/config/config.py Config):
    general / checkpoints / parallelism (dp, tp, pp) / tokens / data_stages sections."""
    s = Score()
    d = _sections(doc["data"])
    if isinstance(d.get("data_stages"), list):
        s.add("data_stages:")
    par = _dict(d, "parallelism")
    if {"dp", "tp", "pp"} <= set(par):
        s.add("parallelism: dp / tp / pp")
    if s.own and {"general", "tokens"} & set(d):
        s.add("general / tokens", 1.0)
    return s


def nemo_rl(doc: dict) -> Score:
    """NVIDIA NeMo-RL's YAML (examples/configs/grpo_math_1B.yaml, sft.yaml, dpo.yaml): an algorithm section (grpo /
    sft / dpo / distillation / rm) beside policy: (dtensor_cfg / megatron_cfg) and cluster: (gpus_per_node, num_nodes)."""
    s = Score()
    d = _sections(doc["data"])
    policy, cluster = _dict(d, "policy"), _dict(d, "cluster")
    if policy and {"dtensor_cfg", "megatron_cfg", "generation", "train_global_batch_size"} & set(policy):
        s.add("policy: (dtensor_cfg / megatron_cfg / generation)")
    if cluster and {"gpus_per_node", "num_nodes"} <= set(cluster):
        s.add("cluster: gpus_per_node / num_nodes")
    algo = [k for k in ("grpo", "sft", "dpo", "distillation", "rm") if isinstance(d.get(k), dict)]
    if s.own and algo:
        s.add(f"{algo[0]}:", 1.0)
    return s


def easyr1(doc: dict) -> Score:
    """EasyR1 (hiyouga's verl fork) config: worker: with actor / rollout / ref sections beside algorithm: / trainer:."""
    s = Score()
    worker = _dict(_sections(doc["data"]), "worker")
    if worker and len({"actor", "rollout", "ref", "reward"} & set(worker)) >= 2:
        s.add("worker: actor / rollout / ref")
    return s


_MAXTEXT_PARALLEL = re.compile(r"^(ici|dcn)_\w+_parallelism$")


def maxtext(doc: dict) -> Score:
    """MaxText's YAML (src/maxtext/configs/base.yml and the files naming it as base_config): per_device_batch_size,
    max_target_length, remat_policy, ici_* / dcn_* parallelism."""
    s = Score()
    d = _sections(doc["data"])
    base = d.get("base_config")
    if isinstance(base, str) and base.strip().endswith((".yml", ".yaml")):
        s.add(f"base_config: {base.strip()}")
    par = sorted(k for k in d if isinstance(k, str) and _MAXTEXT_PARALLEL.match(k))
    if par:
        s.add(par[0])
    if {"per_device_batch_size", "max_target_length", "remat_policy"} <= set(d):
        s.add("per_device_batch_size / max_target_length / remat_policy")
    return s


def levanter(doc: dict) -> Score:
    """Levanter's YAML (config/*.yaml, examples/sft/*.yaml): trainer.mp a jmp policy (p=f32,c=bfloat16), data with
    train_urls / cache_dir, supervised_data."""
    s = Score()
    d = _sections(doc["data"])
    trainer, data = _dict(d, "trainer"), _dict(d, "data")
    mp = trainer.get("mp")
    if isinstance(mp, str) and re.match(r"^[pco]=\w+(,[pco]=\w+)*$", mp.replace(" ", "")):
        s.add(f"trainer.mp: {mp}")
    if "cache_dir" in data and ({"train_urls", "configs", "tokenizer"} & set(data)) and trainer:
        s.add("data: train_urls / cache_dir")
    if isinstance(d.get("supervised_data"), dict):
        s.add("supervised_data:")
    return s


def mergekit(doc: dict) -> Score:
    """A mergekit merge config (merge_method with models: or slices:): merges checkpoints, trains nothing."""
    s = Score()
    d = _sections(doc["data"])
    if isinstance(d.get("merge_method"), str) and ("models" in d or "slices" in d):
        s.add(f"merge_method: {d['merge_method']}")
    return s


def lm_eval_task(doc: dict) -> Score:
    """An lm-evaluation-harness task YAML (lm_eval/tasks/*/*.yaml): task: with doc_to_text / output_type /
    metric_list: an evaluation, no training."""
    s = Score()
    d = _sections(doc["data"])
    if "task" in d and len({"doc_to_text", "doc_to_target", "output_type", "metric_list", "fewshot_split"} & set(d)) >= 2:
        s.add("task: with doc_to_text / output_type / metric_list")
    return s


def sgm_targets(doc: dict) -> Score:
    """A Stability generative-models / SwissArmyTransformer (CogVideoX SAT) model config: model: sections
    (network_config, denoiser_config, conditioner_config, first_stage_config ...) each naming a `target:` class, either
    directly under model: or under model.params: as sgm's instantiate_from_config takes them (Stability-AI/generative-models
    configs/inference/sd_xl_base.yaml: model.target sgm.models.diffusion.DiffusionEngine, model.params.network_config;
    round 32u: the copy the A1111 Dreambooth extension ships as configs/sdxl-training-default.yaml)."""
    s = Score()
    model = _dict(_sections(doc["data"]), "model")
    target = str(model.get("target") or "").strip()
    # under model.params only for sgm's own classes: CompVis ldm configs (ldm_targets) nest their *_config there too
    for where, prefix in ((model, "model"), (_dict(model, "params") if target.startswith("sgm.") else {}, "model.params")):
        named = sorted(k for k, v in where.items() if isinstance(k, str) and k.endswith("_config") and isinstance(v, dict)
                       and "target" in v)
        if len(named) >= 2:
            s.add(f"{prefix}.{named[0]}.target")
            return s
    return s


# CompVis latent-diffusion's instantiate_from_config (ldm/util.py): model.target names the LightningModule its main.py
# --base builds (ldm.models.diffusion.ddpm.LatentDiffusion; ControlNet's cldm.cldm.ControlLDM, built by its
# tutorial_train.py with pytorch_lightning), model.params its arguments
_LDM_TARGET = re.compile(r"^(ldm|cldm)\.models?\b|^cldm\.cldm\.")


def ldm_targets(doc: dict) -> Score:
    """A latent-diffusion model config (CompVis ldm, its DreamBooth / textual-inversion forks, ControlNet's cldm):
    model.target an ldm / cldm class with model.params beside it (round 32u: XavierXiao's Dreambooth-Stable-Diffusion
    v1-finetune_unfrozen.yaml, lllyasviel/ControlNet models/cldm_v15.yaml)."""
    s = Score()
    model = _dict(_sections(doc["data"]), "model")
    target = model.get("target")
    if isinstance(target, str) and _LDM_TARGET.match(target.strip()) and isinstance(model.get("params"), dict):
        s.add(f"model.target: {target.strip()}")
    return s


def animate_anyone(doc: dict) -> Score:
    """Moore-AnimateAnyone's training configs (MooreThreads/Moore-AnimateAnyone configs/train/stage1.yaml, read by its
    own train_stage_1.py / train_stage_2.py) and the projects built on that layout (TMElyralab/MusePose,
    fudan-generative-vision/hallo2 ...): the accelerate settings under solver: (mixed_precision,
    enable_xformers_memory_efficient_attention, gradient_accumulation_steps, max_train_steps) and weight_dtype at the top.
    diffusers' flag names as YAML keys of their own scripts, which read them with OmegaConf (cfg.solver.*)."""
    s = Score()
    d = _sections(doc["data"])
    solver = _dict(d, "solver")
    if "enable_xformers_memory_efficient_attention" in solver and \
            {"mixed_precision", "gradient_accumulation_steps", "max_train_steps"} & set(solver) and \
            ("weight_dtype" in d or {"data", "noise_scheduler_kwargs"} & set(d)):
        s.add("solver.enable_xformers_memory_efficient_attention + weight_dtype")
    return s


def ltx_video_trainer(doc: dict) -> Score:
    """Lightricks' LTX-Video-Trainer YAML (configs/ltxv_*.yaml, read by its scripts/train.py into LtxvTrainerConfig):
    acceleration.mixed_precision_mode / compile_with_inductor, model.model_source an LTXV checkpoint name."""
    s = Score()
    d = _sections(doc["data"])
    acc = _dict(d, "acceleration")
    if {"mixed_precision_mode", "compile_with_inductor", "load_text_encoder_in_8bit"} & set(acc):
        s.add("acceleration.mixed_precision_mode / compile_with_inductor")
    source = _dict(d, "model").get("model_source")
    if isinstance(source, str) and source.upper().startswith("LTXV"):
        s.add(f"model.model_source: {source}")
    return s


def lavis(doc: dict) -> Score:
    """Salesforce LAVIS' run configs (lavis/projects/*/train/*.yaml, `train.py --cfg-path`) and the projects built on
    its runner (Vision-CAIR/MiniGPT-4 train_configs/*.yaml): model.arch (a registered model name) beside run.task."""
    s = Score()
    d = _sections(doc["data"])
    arch, task = _dict(d, "model").get("arch"), _dict(d, "run").get("task")
    if isinstance(arch, str) and isinstance(task, str):
        s.add(f"model.arch: {arch} + run.task: {task}")
    return s


def lighteval_model(doc: dict) -> Score:
    """A lighteval model config (huggingface/lighteval examples/model_configs/*.yaml, `lighteval accelerate|vllm|...
    MODEL_CONFIG TASKS`): model_parameters: with model_name (and dtype / compile / model_loading_kwargs): an evaluation.
    Or its evaluation config for nanotron checkpoints (examples/nanotron/lighteval_config_override_template.yaml):
    logging: with its EvaluationTracker's own arguments (save_details, results_org, public_run) beside tasks: - named
    before nanotron, whose parallelism: dp / tp / pp the file repeats for loading the checkpoint."""
    s = Score()
    d = _sections(doc["data"])
    params = _dict(d, "model_parameters")
    if "model_name" in params:
        s.add("model_parameters.model_name")
    tracker = {"save_details", "results_org", "public_run"} & set(_dict(d, "logging"))
    if len(tracker) >= 2 and "tasks" in d:
        s.add("logging." + " / ".join(sorted(tracker)) + " + tasks", 2 * STRONG)
    return s


def picotron(doc: dict) -> Score:
    """Hugging Face picotron's run config (template/base_config.json, `train.py --config`): distributed: with
    tp_size / pp_size / dp_size (cp_size) beside model.use_flash_attention / use_fused_adam."""
    s = Score()
    d = _sections(doc["data"])
    dist, model = _dict(d, "distributed"), _dict(d, "model")
    if {"tp_size", "pp_size", "dp_size"} <= set(dist) and {"use_flash_attention", "use_fused_adam"} & set(model):
        s.add("distributed.tp_size / pp_size / dp_size + model.use_flash_attention")
    return s


def latentsync(doc: dict) -> Score:
    """ByteDance LatentSync's configs (configs/unet/*.yaml, configs/syncnet/*.yaml, read by its scripts/train_unet.py /
    train_syncnet.py with OmegaConf): run.mixed_precision_training beside ckpt: (resume_ckpt_path, save_ckpt_steps)."""
    s = Score()
    d = _sections(doc["data"])
    if "mixed_precision_training" in _dict(d, "run") and \
            {"resume_ckpt_path", "save_ckpt_steps", "inference_ckpt_path"} & set(_dict(d, "ckpt")):
        s.add("run.mixed_precision_training + ckpt:")
    return s


def dinov2(doc: dict) -> Score:
    """Meta's DINOv2 SSL configs (dinov2/configs/ssl_default_config.yaml and the train/*.yaml merged over it):
    dino: / ibot: heads, compute_precision: with FSDP mixed_precision per module."""
    s = Score()
    d = _sections(doc["data"])
    if isinstance(d.get("dino"), dict) and isinstance(d.get("ibot"), dict):
        s.add("dino: + ibot:")
    if "compute_precision" in d and isinstance(d.get("compute_precision"), dict):
        s.add("compute_precision:")
    return s


# Composer's precision names (composer/core/precision.py:34-37 of mosaicml/composer at 64051888: fp32, amp_fp16,
# amp_bf16, amp_fp8), which LLM Foundry's YAMLs pass to its Trainer; open_lm's and OpenCLIP's --precision choices
# (open_lm/params.py:493-495 of mlfoundations/open_lm at 9bb92ef1: amp, amp_bf16, amp_bfloat16, bf16, fp16, fp32) share
# amp_bf16 only, so `amp_bfloat16` (round 105's open_lm sagemaker cfg_sample.yaml) is not LLM Foundry's
_COMPOSER_PRECISION = {"amp_fp16", "amp_bf16", "amp_fp8"}


def llm_foundry(doc: dict) -> Score:
    """MosaicML LLM Foundry / Composer YAML: global_train_batch_size, device_train_microbatch_size, amp_bf16."""
    s = Score()
    d = _sections(doc["data"])
    for k in ("global_train_batch_size", "device_train_microbatch_size"):
        if k in d:
            s.add(k)
    if str(d.get("precision", "")) in _COMPOSER_PRECISION:
        s.add(f"precision: {d['precision']}")
    return s


def verl(doc: dict) -> Score:
    s = Score()
    d = _sections(doc["data"])
    if "actor_rollout_ref" in d:
        s.add("actor_rollout_ref:")
    # a Hydra file layered on verl's own config tree (examples/*/config/*.yaml: hydra.searchpath
    # file://verl/trainer/config, defaults: - ppo_trainer)
    path = _dict(d, "hydra").get("searchpath")
    if isinstance(path, list) and any("verl/trainer/config" in str(x) for x in path):
        s.add("hydra.searchpath: verl/trainer/config", 2 * STRONG)  # names verl's own tree: more than a Hydra layout
    # verl's FSDP SFT trainer (python -m verl.trainer.fsdp_sft_trainer, its config trainer/config/sft_trainer.yaml):
    # the model it fine-tunes is model.partial_pretrain, beside the top-level ulysses_sequence_parallel_size /
    # use_remove_padding of verl's examples/sft/*/run_*.sh overrides; a Hydra file layered on it (`defaults:
    # [sft_trainer, _self_]`, round 9's dmitrievaaxx sft_config.yaml) is verl's more than a Hydra layout (cfg66)
    if "partial_pretrain" in _dict(d, "model") and {"ulysses_sequence_parallel_size", "use_remove_padding"} & set(d):
        s.add("model.partial_pretrain + ulysses_sequence_parallel_size / use_remove_padding", 2 * STRONG)
    return s


def detectron2(doc: dict) -> Score:
    """A detectron2 (fvcore / yacs CfgNode) YAML that `train_net.py --config-file FILE` merges over get_cfg(): its
    sections in capitals (MODEL / SOLVER / DATASETS / INPUT), `_BASE_` naming the file it extends, and detectron2's own
    names (MODEL.META_ARCHITECTURE, MODEL.ROI_HEADS, SOLVER.IMS_PER_BATCH) or its model zoo's `detectron2://` weights
    (detectron2/config/defaults.py; configs/*.yaml). cfg66: round 19's XDynames mask_rcnn_barley.yaml."""
    s = Score()
    d = _sections(doc["data"])
    if doc["fmt"] != "yaml":
        return s
    model, solver = _dict(d, "MODEL"), _dict(d, "SOLVER")
    if not (model and (solver or "DATASETS" in d or "INPUT" in d)):
        return s
    if str(model.get("WEIGHTS", "")).startswith("detectron2://"):
        s.add("MODEL.WEIGHTS: detectron2://...")
    if "_BASE_" in d and ({"META_ARCHITECTURE", "ROI_HEADS", "RESNETS", "RPN", "MASK_ON", "KEYPOINT_ON"} & set(model)
                          or "IMS_PER_BATCH" in solver):
        s.add("_BASE_ + MODEL / SOLVER in capitals")
    return s


# mmengine (OpenMMLab 2.x) names, and mmcv 1.x's runtime / schedule names (log_config, checkpoint_config,
# optimizer_config, lr_config, runner, dist_params; mmcv/runner and the repos' configs/_base_/default_runtime.py)
_MMENGINE = re.compile(r"^(_base_\s*=|model\s*=\s*dict\(|optim_wrapper\s*=\s*dict\(|train_cfg\s*=\s*dict\(|"
                       r"default_hooks\s*=\s*dict\(|data_preprocessor\s*=\s*dict\(|log_config\s*=\s*dict\(|"
                       r"checkpoint_config\s*=\s*dict\(|optimizer_config\s*=\s*dict\(|lr_config\s*=\s*dict\(|"
                       r"runner\s*=\s*dict\(|dist_params\s*=\s*dict\()", re.MULTILINE)


def mmengine(doc: dict) -> Score:
    """An OpenMMLab (mmengine / mmcv) Python config: `_base_ = [...]`, `model = dict(type=...)`, `train_cfg = dict(...)`."""
    s = Score()
    if doc["fmt"] != "python" or not doc.get("python"):
        return s
    for m in _MMENGINE.finditer(doc["python"]):
        s.add(m.group(1).rstrip("(").replace(" ", ""))
    return s


def xtuner_config(doc: dict) -> Score:
    """An XTuner config: an mmengine pure-Python config (model = dict(type=SupervisedFinetune ...), train_cfg ...) that
    imports XTuner's own classes (`from xtuner.dataset import process_hf_dataset`, `from xtuner.model import
    SupervisedFinetune`: InternLM/xtuner xtuner/configs/*)."""
    s = mmengine(doc)
    if s.own and re.search(r"^\s*from\s+xtuner[.\s]", doc.get("python") or "", re.MULTILINE):
        return s.add("from xtuner... import")
    return Score()


def opensora_config(doc: dict) -> Score:
    """An Open-Sora training config: an mmengine-style Python config (`_base_ = [...]`) with Open-Sora's own
    `bucket_config` (resolution -> {num_frames: (probability, batch size)}: hpcaitech/Open-Sora configs/diffusion/train/*,
    opensora/datasets/bucket.py) and `grad_ckpt_settings` / `ckpt_every`."""
    src = doc.get("python") or ""
    if doc["fmt"] != "python" or not re.search(r"^bucket_config\s*=", src, re.MULTILINE) or \
            not re.search(r"^(_base_|grad_ckpt_settings|ckpt_every|plugin)\s*=", src, re.MULTILINE):
        return Score()
    s = mmengine(doc)  # (its mmengine-style markers too, so it outweighs the plain mmengine recogniser)
    return s.add("bucket_config = {resolution: {frames: (p, batch)}}")


def wandb_sweep(doc: dict) -> Score:
    """A Weights & Biases sweep config (`wandb sweep FILE`): `method: grid | random | bayes` with a `parameters:` mapping
    of {value | values | min/max | distribution}, beside `metric:`, `program:` or `command:` (wandb's sweep config
    schema). Its keys are the swept script's options, whatever trainer names they share."""
    s = Score()
    d = _sections(doc["data"])
    params = _dict(d, "parameters")
    if str(d.get("method", "")).lower() in ("grid", "random", "bayes") and params and \
            any(isinstance(v, dict) and set(v) & {"value", "values", "min", "max", "distribution"} for v in params.values()):
        s.add(f"method: {d['method']} + parameters:")
        if {"metric", "program", "command", "early_terminate"} & set(d):
            s.add("metric / program / command", 1.0)
    return s


def x_flux(doc: dict) -> Score:
    """XLabs' x-flux trainer config (train_flux_lora_deepspeed.py / train_flux_deepspeed_controlnet.py load it with
    OmegaConf): `model_name: flux-dev | flux-schnell` and a `data_config:` of img_dir / img_size."""
    s = Score()
    d = _sections(doc["data"])
    data = _dict(d, "data_config")
    if str(d.get("model_name", "")).startswith("flux-") and (set(data) & {"img_dir", "img_size"}):
        s.add(f"model_name: {d['model_name']} + data_config.img_dir")
    return s


def ludwig(doc: dict) -> Score:
    """A Ludwig config (ludwig train --config): `model_type: llm | ecd | gbm` with `input_features` / `output_features`
    (ludwig/schema/model_types/*.py). An LLM one names `base_model` and `adapter`, as axolotl's YAML does."""
    s = Score()
    d = _sections(doc["data"])
    if str(d.get("model_type", "")).lower() in ("llm", "ecd", "gbm") and \
            (isinstance(d.get("input_features"), list) or isinstance(d.get("output_features"), list)):
        s.add(f"model_type: {d['model_type']} + input_features / output_features")
    return s


def mlx_lm(doc: dict) -> Score:
    """An mlx-lm LoRA config (python -m mlx_lm.lora --config FILE, Apple silicon): its own names for the layers to
    adapt and the steps (lora_layers / num_layers, iters, adapter_path or adapter_file, fine_tune_type,
    steps_per_report; mlx_lm/lora.py CONFIG_DEFAULTS)."""
    s = Score()
    d = _sections(doc["data"])
    # (spelt as its command line's options too, `batch-size: 2`, `steps-per-report: 10`, `adapter-path: ./adapters`:
    # round 72m's HueCodes lora_config.yaml; cfg74)
    own = sorted({str(k).replace("-", "_") for k in d} & {
        "lora_layers", "iters", "adapter_path", "adapter_file", "fine_tune_type", "steps_per_report", "steps_per_eval",
        "val_batches", "grad_checkpoint"})
    if len(own) >= 3:
        s.add(", ".join(own[:4]))
    return s


def everydream(doc: dict) -> Score:
    """An EveryDream2 trainer's train.json (python train.py --config train.json): resume_ckpt, data_root, useadam8bit,
    zero_frequency_noise_ratio, disable_textenc_training ... (EveryDream2trainer's train.json and its docs)."""
    s = Score()
    d = _sections(doc["data"])
    own = sorted(set(d) & {"resume_ckpt", "data_root", "useadam8bit", "zero_frequency_noise_ratio",
                           "disable_textenc_training", "ckpt_every_n_minutes", "write_schedule", "rated_dataset",
                           "disable_amp", "cond_dropout"})
    if len(own) >= 3:
        s.add(", ".join(own[:4]))
    return s


def stabletuner(doc: dict) -> Score:
    """StableTuner's saved configuration (its GUI's File > Save, configs/*.json: scripts/configuration_gui.py), keys no
    trainer attn-doctor reads has: send_telegram_updates, auto_balance_concept_datasets, use_latent_cache,
    add_class_images_to_dataset, with_prior_loss_preservation, use_image_names_as_captions."""
    s = Score()
    d = _sections(doc["data"])
    own = sorted(set(d) & {"send_telegram_updates", "auto_balance_concept_datasets", "use_latent_cache",
                           "save_latent_cache", "regenerate_latent_cache", "add_class_images_to_dataset",
                           "with_prior_loss_preservation", "use_image_names_as_captions", "train_epocs"})
    if len(own) >= 3:
        s.add(", ".join(own[:4]))
    return s


_NANOGPT = re.compile(r"^(n_layer|n_head|n_embd|block_size|out_dir|eval_interval|eval_iters|always_save_checkpoint|"
                      r"wandb_run_name|lr_decay_iters|max_iters)\s*=", re.MULTILINE)


def nanogpt(doc: dict) -> Score:
    """A nanoGPT config file: plain module-level assignments that configurator.py exec()s over train.py's globals
    (n_layer, n_head, n_embd, block_size, out_dir, max_iters ...), no imports, no calls."""
    s = Score()
    src = doc.get("python") or ""
    if doc["fmt"] != "python" or re.search(r"^\s*(import|from)\s", src, re.MULTILINE):
        return s
    names = {m.group(1) for m in _NANOGPT.finditer(src)}
    if len(names & {"n_layer", "n_head", "n_embd", "block_size"}) >= 2 and len(names) >= 3:
        s.add(", ".join(sorted(names)[:4]) + " assignments")
    return s


def nanochat(doc: dict) -> Score:
    """A config of nanochat's base_train.py (karpathy/nanochat scripts/base_train.py: its globals, overridden by
    nanochat/configurator.py or a fork's TOML/YAML): the Muon / AdamW learning rates by parameter group (matrix_lr,
    embedding_lr, unembedding_lr), the model's size as `depth`, the token budget (target_param_data_ratio,
    total_batch_size, device_batch_size) and its CORE metric's cadence (core_metric_every). Round 136: a fork's
    train_config.toml of exactly these names."""
    s = Score()
    if doc["fmt"] not in ("toml", "yaml", "json"):
        return s
    d = _sections(doc["data"])
    own = sorted(set(d) & {"matrix_lr", "embedding_lr", "unembedding_lr", "target_param_data_ratio",
                           "core_metric_every", "core_metric_max_per_task", "warmdown_ratio", "final_lr_frac"})
    if len(own) >= 3 and ("depth" in d or "device_batch_size" in d):
        s.add(", ".join(own[:4]))
    return s


# Command lines: (what, program or script test)
_MEGATRON_SCRIPTS = re.compile(r"^pretrain_(gpt|bert|t5|mamba|retro|vlm|ict|vision_\w+)\.py$")
# Megatron-LM's own option names: argparse's hyphenated spelling, which no trainer attn-doctor reads uses
# (NVIDIA/Megatron-LM@d98e8a6 megatron/training/arguments.py: --encoder-num-layers :2378, --group-query-attention :2382,
# --max-position-embeddings :2394, --position-embedding-type :2397, --make-vocab-size-divisible-by :2441,
# --untie-embeddings-and-output-weights :2460, --clip-grad :2615, --use-flash-attn :2910, --min-lr :2991,
# --seq-length :3305; --micro-batch-size, --lr-warmup-fraction, --tensor-model-parallel-size :592-598;
# megatron/core/num_microbatches_calculator.py:283 --global-batch-size)
_MEGATRON_OPTS = frozenset({
    "--num-layers", "--encoder-num-layers", "--decoder-num-layers", "--hidden-size", "--ffn-hidden-size",
    "--num-attention-heads", "--kv-channels", "--group-query-attention", "--num-query-groups",
    "--max-position-embeddings", "--position-embedding-type", "--make-vocab-size-divisible-by",
    "--untie-embeddings-and-output-weights", "--use-flash-attn", "--micro-batch-size", "--global-batch-size",
    "--lr-warmup-fraction", "--lr-decay-style", "--min-lr", "--clip-grad", "--seq-length", "--tokenizer-type",
    "--vocab-extra-ids", "--tensor-model-parallel-size", "--pipeline-model-parallel-size", "--transformer-impl"})
_LONG_OPTION = re.compile(r"(?<![\w-])(--[a-z][a-z0-9]*(?:-[a-z0-9]+)+)")


def _ray_job_module(c) -> str:
    """The module a `ray job submit [options] -- python -m pkg.module ...` command runs on the cluster (Ray's job CLI
    takes the entrypoint after `--`), '' for any other command."""
    if c.program != "ray" or "submit" not in c.args[:3] or "--" not in c.args:
        return ""
    rest = c.args[c.args.index("--") + 1:]
    for i, w in enumerate(rest[:-1]):
        if w == "-m":
            return rest[i + 1]
    return ""


# XLabs x-flux's training scripts (XLabs-AI/x-flux train_flux_deepspeed.py, train_flux_lora_deepspeed.py,
# train_flux_deepspeed_controlnet.py, each `--config train_configs/X.yaml`) and its users' variants of them
_X_FLUX_SCRIPTS = re.compile(r"^train_flux_(lora_)?deepspeed(_\w+)?\.py$")
# NVIDIA NeMo's example scripts (examples/nlp/language_modeling/megatron_gpt_pretraining.py, tuning/
# megatron_gpt_peft_tuning.py, megatron_gpt_finetuning.py ...) take Hydra overrides of their YAML's trainer / model /
# exp_manager sections on the command line
_NEMO_SCRIPTS = re.compile(r"^megatron_\w+\.py$")
_NEMO_OVERRIDE = re.compile(r"^[+~]{0,2}(trainer|model|exp_manager)\.[\w.]+=")
# DeepSpeed-Chat's step scripts' own options (deepspeedai/DeepSpeedExamples applications/DeepSpeed-Chat/training/
# step1_supervised_finetuning/main.py parse_args: --data_split, --lora_dim, --lora_module_name, --only_optimize_lora)
_DS_CHAT_OPTS = ("--data_split", "--lora_dim", "--lora_module_name", "--only_optimize_lora")


# ComfyUI's own launch options (comfyanonymous/ComfyUI comfy/cli_args.py: the attention and VAE precision switches, the
# preview and front-end options); its --highvram / --lowvram share sd-scripts' names but none of these does
_COMFYUI_OPTS = frozenset({"--use-pytorch-cross-attention", "--use-split-cross-attention", "--use-quad-cross-attention",
                           "--use-sage-attention", "--use-flash-attention", "--disable-xformers", "--fp16-vae",
                           "--bf16-vae", "--fp32-vae", "--cpu-vae", "--preview-method", "--front-end-version",
                           "--disable-smart-memory", "--normalvram", "--novram"})
# AUTOMATIC1111's (and Forge's) launch options (modules/cmd_args.py), as COMMANDLINE_ARGS or on launch.py / webui.py
_A1111_OPTS = frozenset({"--opt-sdp-attention", "--opt-sdp-no-mem-attention", "--opt-split-attention",
                         "--opt-sub-quad-attention", "--medvram", "--medvram-sdxl", "--lowvram", "--no-half-vae",
                         "--enable-insecure-extension-access", "--skip-torch-cuda-test", "--xformers-flash-attention"})


# A1111's launchers: webui-user.bat / .sh set COMMANDLINE_ARGS and run webui.bat / webui.sh, which start launch.py;
# modules/launch_utils.py prepares the environment and appends shlex.split(COMMANDLINE_ARGS) to sys.argv
# (AUTOMATIC1111/stable-diffusion-webui webui-user.bat, webui.sh, modules/launch_utils.py). Forge and SD.Next keep them
_A1111_LAUNCHERS = frozenset({"webui.bat", "webui.sh", "webui-user.bat", "webui-user.sh", "launch.py"})
_A1111 = "AUTOMATIC1111's stable-diffusion-webui (an image generation app; it trains nothing)"
# LLaVA's own arguments (haotian-liu/LLaVA@c121f04 llava/train/train.py: ModelArguments :54-66, DataArguments :70-76,
# its TrainingArguments additions :80-112), which LLaVA-NeXT, Video-LLaVA, TinyLLaVA, ShareGPT4V ... keep: no trainer
# attn-doctor reads defines any of them
_LLAVA_OPTS = frozenset({"--mm_projector_type", "--mm_vision_select_layer", "--mm_vision_select_feature",
                         "--mm_use_im_start_end", "--mm_use_im_patch_token", "--mm_patch_merge_type",
                         "--pretrain_mm_mlp_adapter", "--tune_mm_mlp_adapter", "--freeze_mm_mlp_adapter",
                         "--mm_projector_lr", "--group_by_modality_length", "--mpt_attn_impl"})
_LLAVA_SCRIPT = re.compile(r"(^|[/\\])llava[/\\]train[/\\]train(_mem|_xformers)?\.py$")
# Hydra's command line (facebookresearch/hydra hydra/_internal/utils.py get_args_parser): its own flags and, as
# positionals, overrides (`key=value`, `+key=value`, `~key`, `key@pkg=value`); nothing else parses. A script run with
# --config-name / --config-path / --config-dir (or -cn / -cp / -cd) and only Hydra's flags and overrides is a Hydra
# app; users' argparse scripts that define a --config-name of their own take other options beside it
_HYDRA_FLAGS = ("--config-name", "--config-path", "--config-dir", "-cn", "-cp", "-cd")
_HYDRA_VALUED = frozenset(_HYDRA_FLAGS + ("--cfg", "-c", "--package", "-p", "--experimental-rerun"))
_HYDRA_BARE = frozenset({"--help", "-h", "--hydra-help", "--version", "--resolve", "--run", "-r", "--multirun", "-m",
                         "--shell-completion", "-sc", "--info", "-i"})
_HYDRA_OVERRIDE = re.compile(r"^([+]{1,2}|~)?[A-Za-z_][\w.@/-]*(=|$)")


HYDRA_APP = "a Hydra app (the script composes its settings from its own config folder)"


def _hydra_flag(args: list) -> str | None:
    """The Hydra config flag of a command whose every argument Hydra's parser takes, None otherwise."""
    flag, i = None, 0
    while i < len(args):
        w = str(args[i])
        name = w.split("=", 1)[0]
        if w.startswith("-"):
            if name in _HYDRA_VALUED:
                flag = flag or (name if name in _HYDRA_FLAGS else None)
                i += 1 if "=" in w else 2
                continue
            if name not in _HYDRA_BARE:
                return None
        elif not _HYDRA_OVERRIDE.match(w) or ("=" not in w and not w.startswith("~")):
            return None
        i += 1
    return flag


def _hydra_forced(args: list) -> str | None:
    """The first override of a command whose every argument is a Hydra override and one of them uses Hydra's own
    prefix syntax (`+key=value` appends, `++key=value` forces, `~key` deletes: hydra.cc "Override grammar"), None
    otherwise. Plain `key=value` positionals are no Hydra evidence (OmegaConf.from_cli and SkyRL's from_cli_overrides
    take them too), the prefixes are Hydra's alone (round 32u: HALOs' `launch.py loss=dpo ... ++lr=...`)."""
    words = [str(w) for w in args]
    if not words or any(w.startswith("-") or not _HYDRA_OVERRIDE.match(w) or ("=" not in w and not w.startswith("~"))
                        for w in words):
        return None
    return next((w.split("=", 1)[0] + "=..." for w in words if w.startswith(("+", "~"))), None)


def _same_app_training(doc: dict, c) -> tuple[str, str] | None:
    """(script, a shared override key) of another command of the file that runs the training of the same Hydra app as c,
    whose Hydra evidence is a step after or around training: c's script has no `train` in its name, the other's has, and
    every argument of the other is a plain override (key=value) of a key c is given too (the same config tree:
    `experiment=`). Round 147m's pskiers sbatch: `srun python train_trm.py experiment=... data.amaze_root=... train.*=...`,
    then the metrics step `amaze_generate_and_calculate_metrics.py experiment=... +checkpoint=...`, whose `+` alone is
    Hydra's syntax: the refusal names the training script too. None otherwise."""
    if not c.script or "train" in os.path.basename(c.script).lower():
        return None
    keys = {str(w).lstrip("+~").split("=", 1)[0] for w in c.args if "=" in str(w)}
    for o in doc.get("commands") or []:
        if o is c or not o.script or "train" not in os.path.basename(o.script).lower() or not o.args:
            continue
        words = [str(w) for w in o.args]
        shared = [w.split("=", 1)[0] for w in words if w.split("=", 1)[0] in keys]
        if shared and all("=" in w and not w.startswith("-") and _HYDRA_OVERRIDE.match(w) for w in words):
            return o.script, shared[0]
    return None


def _skyrl_overrides(args: list) -> bool:
    """Overrides of SkyRL's config (skyrl_train/config/ppo_base_config.yaml: trainer:, generator:, data:, environment:)
    on a command line: `trainer.<...>=` and `generator.<...>=` both, nothing but key=value."""
    words = [str(w) for w in args if not str(w).startswith(("$", '"$'))]  # ("$@": the caller's further overrides)
    keys = {w.split("=", 1)[0].split(".", 1)[0] for w in words if "=" in w and not w.startswith("-")}
    return {"trainer", "generator"} <= keys and all("=" in w and not w.startswith("-") for w in words)


def _trains_elsewhere(doc: dict, c) -> bool:
    """The file's training command (configs._script_run's doc["command"]) is another command than c, one that runs a
    Python script or module of its own."""
    run = doc.get("command")
    if run is None or run is c or getattr(run, "words", None) == getattr(c, "words", None):
        return False
    mod = run.module or ""
    if mod.startswith(("lm_eval", "lmms_eval")) or run.program in ("lm_eval", "lm-eval", "lmms-eval", "lmms_eval"):
        return False
    return bool(run.script and run.script.endswith(".py") or mod)


def _a1111_launch(doc: dict) -> str | None:
    """What says a launch file is A1111's (its options in COMMANDLINE_ARGS, or COMMANDLINE_ARGS set for the webui
    launcher it runs), None otherwise."""
    env = doc.get("env") or {}
    if "COMMANDLINE_ARGS" not in env:
        return None
    opts = {w.split("=")[0] for w in str(env["COMMANDLINE_ARGS"]).split() if w.startswith("--")}
    if opts & _A1111_OPTS:
        return "COMMANDLINE_ARGS=" + " ".join(sorted(opts & _A1111_OPTS)[:2])
    for c in doc.get("commands") or []:
        names = [c.program or ""] + ([c.args[0]] if c.program in ("bash", "sh", "call", "&", "source", ".") and
                                     c.args else []) + [c.script or ""]
        hit = next((n for n in names if re.split(r"[\\/]", n)[-1].lower() in _A1111_LAUNCHERS), None)
        if hit:
            return f"COMMANDLINE_ARGS and {re.split(r'[/]', hit.replace(chr(92), '/'))[-1]}"
    return None


# LeRobot's trainer (huggingface/lerobot): the console script lerobot-train, src/lerobot/scripts/lerobot_train.py (once
# lerobot/scripts/train.py), run as a script or a module, configured by draccus' dotted options (--policy.type=act,
# --dataset.repo_id=..., lerobot/configs/train.py TrainPipelineConfig)
_LEROBOT_SCRIPT = re.compile(r"(^|[/\\])lerobot[/\\]scripts[/\\](lerobot_)?train\.py$")
_LEROBOT_MODULES = ("lerobot.scripts.train", "lerobot.scripts.lerobot_train")


# AllenAI's open-instruct (allenai/open-instruct): open_instruct/finetune.py, dpo_tune*.py, grpo_fast.py, ppo*.py, and
# its --dataset_mixer_list option (open_instruct/dataset_transformation.py)
_OPEN_INSTRUCT_SCRIPT = re.compile(r"(^|[/\\])open_instruct[/\\](finetune|dpo_tune\w*|grpo\w*|ppo\w*|reward_modeling)\.py$")


def _lerobot(c, mod: str, opts: set) -> str | None:
    if c.program == "lerobot-train":
        return "lerobot-train"
    if mod in _LEROBOT_MODULES:
        return mod
    word = next((w for w in c.words if _LEROBOT_SCRIPT.search(w)), None)
    if word:
        return word
    if c.script and opts & {"--policy.type", "--policy.path"} and "--dataset.repo_id" in opts:
        return f"{c.script} --policy.type / --dataset.repo_id"
    return None


# ModelScope DiffSynth-Studio's training options (modelscope/DiffSynth-Studio diffsynth/trainers/utils.py, the parsers of
# examples/*/model_training/train.py: --model_id_with_origin_paths, --remove_prefix_in_ckpt, --trainable_models,
# --lora_base_model, --extra_inputs, --use_gradient_checkpointing_offload, --dataset_metadata_path, --data_file_keys),
# and the path of its trainers; two of the options (one alone may be a coincidence) or the path say whose script runs
_DIFFSYNTH_OPTS = frozenset({"--model_id_with_origin_paths", "--remove_prefix_in_ckpt", "--trainable_models",
                             "--lora_base_model", "--extra_inputs", "--use_gradient_checkpointing_offload",
                             "--dataset_metadata_path", "--data_file_keys"})
_DIFFSYNTH_SCRIPT = re.compile(r"(^|/)examples/\w+/model_training/train\.py$")
# Lightricks' LTX trainer's scripts as a launch names them: the LTX-2 monorepo's packages/ltx-trainer/scripts/ (train.py,
# process_dataset.py ...), the package ltx_trainer, the standalone LTX-Video-Trainer checkout's scripts/ under its
# folder's name; its training config (a YAML of its own model, acceleration.mixed_precision_mode ...) is what
# built_on_trainer() knows it by
_LTX_TRAINER_SCRIPT = re.compile(r"(^|/)(ltx[-_]trainer|LTX-Video-Trainer)/scripts/[\w-]+\.py$", re.IGNORECASE)


def command_lines(doc: dict) -> tuple[str, Score] | None:
    s = Score()
    webui = _a1111_launch(doc)
    if webui:
        return _A1111, s.add(webui, 2 * STRONG)
    for c in doc.get("commands") or []:
        if c.program == "megatron":
            return "ms-swift's Megatron-SWIFT", s.add(f"megatron {' '.join(c.sub)}")
        if (c.module or "").startswith("swift.cli._megatron"):
            # the module ms-swift's `megatron` console script runs (swift/cli/_megatron/main.py), as a checkout
            # without the entry point installed starts it: `python -m swift.cli._megatron.main sft ...` (round 55)
            return "ms-swift's Megatron-SWIFT", s.add(f"-m {c.module} {' '.join(c.args[:1])}".strip())
        if c.script and _MEGATRON_SCRIPTS.match(c.script) or any(
                w.startswith(("--tensor-model-parallel-size", "--pipeline-model-parallel-size", "--transformer-impl"))
                for w in c.args):
            return "Megatron-LM", s.add(c.script or "--tensor-model-parallel-size")
        mod = c.module or _ray_job_module(c)
        prog = c.program or ""
        opts = {w.split("=")[0] for w in c.args if w.startswith("--")}
        if prog.startswith("mlx_lm.") or mod.startswith("mlx_lm") or prog == "mlx_lm":
            # mlx-lm's console scripts (mlx_lm.lora, mlx_lm.fuse, mlx_lm.generate) and `python -m mlx_lm.lora`: Apple
            # MLX on Metal, no CUDA attention backend
            return "mlx-lm (Apple MLX)", s.add(mod or prog)
        if mod.startswith("RL2."):
            return "RL2", s.add(mod)
        if c.script and _X_FLUX_SCRIPTS.match(c.script) and any(w == "--config" or w.startswith("--config=")
                                                                  for w in c.args):
            return "XLabs x-flux", s.add(f"{c.script} --config")
        if c.script and any(re.search(r"(^|/)fastchat/train/\w+\.py$", w) for w in c.words):
            return "FastChat", s.add(f"fastchat/train/{c.script}")
        if c.script and _NEMO_SCRIPTS.match(c.script) and any(_NEMO_OVERRIDE.match(w) for w in c.args):
            return "NVIDIA NeMo", s.add(f"{c.script} trainer.* / model.* overrides")
        if c.script == "main.py" and opts & set(_DS_CHAT_OPTS) and "--zero_stage" in opts:
            return "DeepSpeed-Chat", s.add("main.py --zero_stage " + next(w.split("=")[0] for w in c.args
                                                                           if w.split("=")[0] in _DS_CHAT_OPTS))
        if c.script and opts & _COMFYUI_OPTS:
            return "ComfyUI (an image and video generation app; it trains nothing)", s.add(
                f"{c.script} " + " ".join(sorted(opts & _COMFYUI_OPTS)[:2]), 2 * STRONG)
        if opts & _A1111_OPTS:
            return "AUTOMATIC1111's stable-diffusion-webui (an image generation app; it trains nothing)", s.add(
                " ".join(sorted(opts & _A1111_OPTS)[:2]), 2 * STRONG)
        if c.script and "--data_json_file" in opts and opts & {"--image_encoder_path", "--pretrained_ip_adapter_path"}:
            # tencent-ailab IP-Adapter's trainers (tutorial_train.py, tutorial_train_sdxl.py, tutorial_train_plus.py:
            # --data_json_file / --data_root_path / --image_encoder_path / --pretrained_ip_adapter_path) and the projects
            # built on them: options no trainer attn-doctor reads defines, so they say whose script runs, as its name would
            return "tencent-ailab IP-Adapter's trainer", s.add(f"{c.script} --data_json_file --image_encoder_path",
                                                                2 * STRONG)
        if c.script and "--train_data_meta" in opts and \
                opts & {"--video_sample_size", "--image_sample_size", "--video_sample_n_frames"}:
            # aigc-apps' VideoX-Fun family (EasyAnimate, CogVideoX-Fun, Wan-Fun: scripts/*/train*.py): its data options
            # --train_data_meta with --video_sample_size / --image_sample_size, beside kohya's --enable_bucket
            return "aigc-apps VideoX-Fun (EasyAnimate / CogVideoX-Fun)", s.add(f"{c.script} --train_data_meta "
                                                                                "--video_sample_size")
        cosmos_cfg = next((w.split("=", 1)[1] for w in c.args if w.startswith("--config=")), "") or \
            (c.args[c.args.index("--config") + 1] if "--config" in c.args[:-1] else "")
        if c.script and re.match(r"^(\./)?cosmos_(predict|transfer|reason)\w*/", cosmos_cfg.strip("'\"")):
            # NVIDIA Cosmos' post-training: `torchrun -m scripts.train --config=cosmos_predict2/.../config.py --
            # experiment=...` (imaginaire's LazyConfig in the cosmos_predict2 package)
            return "NVIDIA Cosmos (imaginaire)", s.add(f"--config={cosmos_cfg.strip(chr(39) + chr(34))}")
        if mod == "verl.trainer.main" and any(w.startswith(("config=", "worker.")) for w in c.args):
            # EasyR1 (hiyouga's verl fork) keeps verl's package name: `python3 -m verl.trainer.main config=FILE
            # worker.actor.model.model_path=...` (its examples/*.sh: OmegaConf's `config=` file, its `worker:` section),
            # where verl's own entry is verl.trainer.main_ppo with actor_rollout_ref.* overrides (cfg66: round 12u's
            # EasyR1 launchers were refused as verl)
            return "EasyR1 (a verl fork)", s.add(f"{mod} config= / worker.* overrides")
        if mod.startswith("verl.") or c.script == "main_ppo.py" and "verl" in " ".join(c.words):
            return "verl", s.add(mod or "verl.trainer.main_ppo")
        if (mod.startswith("recipe.") or c.script and c.script.startswith("main_")) and \
                any(w.startswith("actor_rollout_ref.") for w in c.args):
            # a recipe of verl's repository (`python3 -m recipe.dapo.main_dapo`, round 61m) with Hydra overrides of
            # verl's own config tree (actor_rollout_ref: its trainer's actor / rollout / reference section)
            return "verl", s.add(f"{mod or c.script} actor_rollout_ref.* overrides")
        if mod.startswith("openrlhf."):
            return "OpenRLHF", s.add(mod)
        if c.script and (_OPEN_INSTRUCT_SCRIPT.search(next((w for w in c.words if w.endswith(c.script)), "")) or
                         mod.startswith("open_instruct.") or "--dataset_mixer_list" in opts):
            return "AllenAI open-instruct", s.add(mod or next(w for w in c.words if w.endswith(c.script)))
        lerobot = _lerobot(c, mod, opts)
        if lerobot:
            return "LeRobot (Hugging Face's robot-learning trainer)", s.add(lerobot)
        if c.program in ("fairseq-train", "fairseq-hydra-train"):
            return "fairseq", s.add(c.program)
        if mod.startswith("EasyLM."):
            return "EasyLM (JAX)", s.add(mod)
        if c.program in ("xtuner",) or mod.startswith("xtuner"):
            return "XTuner", s.add("xtuner")
        if c.program == "autotrain" or mod.startswith("autotrain."):
            # Hugging Face AutoTrain Advanced: `autotrain dreambooth|llm|text-classification ... --model M` (its CLI,
            # autotrain/cli/autotrain.py) or `python -m autotrain.trainers.dreambooth --training_config X`; its own
            # trainers over diffusers / transformers, none of the scripts attn-doctor reads (round 31: a notebook's
            # `%%bash autotrain dreambooth ... --xformers --mixed-precision fp16`)
            return "Hugging Face AutoTrain", s.add(f"autotrain {(c.sub or [''])[0]}".strip() if c.program == "autotrain"
                                                  else mod)
        if mod.startswith(("maxtext.", "MaxText.")) or c.script in ("MaxText/train.py",):
            return "MaxText (JAX)", s.add(mod or c.script)
        evaluation = c.program in ("lmms-eval", "lmms_eval", "lm_eval", "lm-eval") or mod == "lmms_eval" or \
            mod.startswith(("lmms_eval.", "lm_eval"))
        if evaluation and _trains_elsewhere(doc, c):
            # an evaluation step after the file's training launch (round 32u: HALOs' `accelerate launch launch.py
            # loss=dpo ...` then `lm_eval --model hf --model_args pretrained=$CKPT`): the training command is what the
            # file runs to train, and it names the program, not the benchmark run on its checkpoint
            continue
        if c.program in ("lmms-eval", "lmms_eval") or mod == "lmms_eval" or mod.startswith("lmms_eval."):
            # EvolvingLMMs-Lab/lmms-eval: `accelerate launch -m lmms_eval --model M --model_args ... --tasks ...`
            # (its examples/models/*.sh), an lm-evaluation-harness fork for multimodal models
            return "lmms-eval (an evaluation, not training)", s.add(f"{mod or c.program} --model")
        if c.program in ("lm_eval", "lm-eval") or mod.startswith("lm_eval"):
            return "lm-evaluation-harness (an evaluation, not training)", s.add(f"{mod or c.program} --model")
        if c.program in ("mergekit-yaml", "mergekit-moe", "mergekit-multi"):
            return "mergekit (merges checkpoints, trains nothing)", s.add(c.program)
        if mod.startswith(("nemo_rl.", "levanter.", "olmo_core.", "lmflow.", "nanotron.", "fastchat.train",
                           "nanochat.", "skyrl_train.")):
            # (nanochat: its runs/*.sh start with `python -m nanochat.dataset`, then torchrun -m scripts.base_train)
            return _MODULE_TITLES[mod.split(".")[0]], s.add(mod)
        if (mod or c.script) and _skyrl_overrides(c.args):
            # NovaSky SkyRL's launches (examples/train/**/run_*.sh: `uv run ... -m examples.train.<algo>.main_<x>
            # trainer.* generator.* overrides`, parsed by its from_cli_overrides): its config's generator: section
            # (the vLLM / SGLang rollout engine) beside trainer:, which no other framework's overrides pair
            return "NovaSky SkyRL", s.add(f"{mod or c.script} trainer.* / generator.* overrides")
        if c.program == "colossalai":
            return "ColossalAI", s.add("colossalai run")
        plugin = _colossalai_plugin(c.args)
        if c.script and plugin:
            # ColossalAI's examples pick their Booster plugin with --plugin (examples/images/dreambooth
            # train_dreambooth_colossalai.py: choices torch_ddp, torch_ddp_fp16, gemini, low_level_zero -> GeminiPlugin,
            # LowLevelZeroPlugin, TorchDDPPlugin); diffusers' research copy of that script has --placement instead.
            # Weighed as a script name is: it says whose script runs
            return "ColossalAI", s.add(f"{c.script} --plugin {plugin}", 2 * STRONG)
        origin = any(w.startswith("--model_id_with_origin_paths") for w in c.args)
        diffsynth = sorted({w.split("=")[0] for w in c.args if w.startswith("--")} & _DIFFSYNTH_OPTS)
        path = next((w for w in c.words if _DIFFSYNTH_SCRIPT.search(w)), None)
        if origin or c.script and (len(diffsynth) >= 2 or path is not None):
            # DiffSynth-Studio's launch: --model_id_with_origin_paths (its way of naming the model files, alone enough,
            # with or without a script), or, for a launch given its model files by --model_paths, two more of its own
            # options or its trainer's path (round 135m: a Wan2.2-TI2V-5B LoRA launch in a user's copy, refused as
            # "runs train.py")
            return "DiffSynth-Studio", (s.add("--model_id_with_origin_paths") if origin else
                                        s.add(" ".join([path or c.script] + diffsynth[:2]), 2 * STRONG))
        ltx = next((w for w in c.words if _LTX_TRAINER_SCRIPT.search(w)), None) if c.script else None
        if ltx or mod.startswith("ltx_trainer."):
            # a launch of the LTX trainer's own script (round 147m's fxd05 launcher: `accelerate launch ...
            # packages/ltx-trainer/scripts/train.py "$runtime_config_path"` after a config-render step of the user's):
            # its path says whose script runs, as DiffSynth-Studio's does
            return "Lightricks LTX-Video-Trainer", s.add(ltx or mod, 2 * STRONG)
        if c.script == "train.py" and any(w.startswith("--job.config_file") for w in c.args):
            return "torchtitan", s.add("--job.config_file")
        if c.script and c.args and re.match(r"^(\S*/)?config/\w+\.py$", c.args[0]) and \
                all(w.startswith("--") and "=" in w for w in c.args[1:]):
            # nanoGPT: `python train.py config/train_shakespeare_char.py --key=value ...` (configurator.py exec()s the
            # file, then takes only --key=value overrides)
            return "nanoGPT", s.add(f"{c.script} {c.args[0]} --key=value")
        if c.script and (_LLAVA_SCRIPT.search(next((w for w in c.words if w.endswith(c.script)), "")) or
                         len(opts & _LLAVA_OPTS) >= 2):
            return "LLaVA (its llava/train trainer, or a project built on it)", s.add(
                " ".join([c.module or c.script] + sorted(opts & _LLAVA_OPTS)[:2]), 2 * STRONG)
        composer = _composer_run(c) if c.program == "composer" else None
        if composer:
            return composer[0], s.add(composer[1])
        hydra_flag = (_hydra_flag(c.args) or _hydra_forced(c.args)) if c.script or mod else None
        if hydra_flag:
            trains = _same_app_training(doc, c)
            return HYDRA_APP, s.add(
                (f"{trains[0]} {trains[1]}=..., " if trains else "") + f"{mod or c.script} {hydra_flag}")
    # Megatron-LM's options kept in shell variables (MODEL_ARGS="--num-layers 24 --micro-batch-size 4 ...", passed to
    # pretrain_gpt.py on a later line or from another script), read from the file's live (uncommented) lines
    live = "\n".join(ln for ln in (doc.get("text") or "").splitlines() if not ln.lstrip().startswith(("#", "::", "REM ")))
    found = sorted(set(_LONG_OPTION.findall(live)) & _MEGATRON_OPTS)
    if len(found) >= 3:
        return "Megatron-LM", s.add(", ".join(found[:3]))
    return None


# MosaicML Composer's launcher (mosaicml/composer composer/cli/launcher.py _get_parser: `composer [-n N] [--world_size N]
# [--node_rank N] [--master_addr A] [--master_port P] [-m] [-c] TRAINING_SCRIPT ARGS...`): the options before the script,
# those that take a value and the flags; like torchrun it starts the script once per GPU. LLM Foundry's trainer is
# launched through it with a YAML and OmegaConf dotlist overrides (mosaicml/llm-foundry scripts/train/README.md "Single-
# Node training": `composer train.py yamls/pretrain/mpt-125m.yaml train_loader.dataset.split=train_small`; train.py's
# `__main__`: `yaml_path, args_list = sys.argv[1], sys.argv[2:]`, om.merge(om.load(yaml_path), om.from_cli(args_list)))
_COMPOSER_VALUED = {"-n", "--nproc", "--stdout", "--stderr", "--world_size", "--base_rank", "--node_rank",
                    "--master_addr", "--master_port"}
_COMPOSER_FLAGS = {"-v", "--verbose", "-m", "--module_mode", "-c", "--command_mode"}


def _composer_run(c) -> tuple[str, str] | None:
    """(title, evidence) of a `composer` launch of a Python script or module: LLM Foundry's when the script is given a
    YAML first and `key=value` overrides after it (its scripts/train/train.py, or a copy under another folder), MosaicML
    Composer's launcher otherwise; None for any other `composer` (PHP's package manager: `composer install`)."""
    words, module, i = [str(w) for w in c.args], False, 0
    while i < len(words) and words[i].startswith("-"):
        opt = words[i].split("=", 1)[0]
        if opt in _COMPOSER_FLAGS:
            module = module or opt in ("-m", "--module_mode")
        elif opt not in _COMPOSER_VALUED:
            return None  # an option the launcher does not have: not Composer's launcher
        i += 1 if "=" in words[i] or opt in _COMPOSER_FLAGS else 2
    if i >= len(words):
        return None
    target, rest = words[i], words[i + 1:]
    name = re.split(r"[\\/]", target)[-1]
    if not (name.endswith(".py") or module and re.fullmatch(r"[A-Za-z_][\w.]*", target)):
        return None
    if rest and re.search(r"\.ya?ml[\"']?$", rest[0], re.IGNORECASE) and \
            all(re.match(r"^[\"']?[+~]?[A-Za-z_][\w.]*=", w) for w in rest[1:] if not w.startswith("$")):
        yaml_name = re.split(r"[\\/]", rest[0])[-1]
        return "MosaicML LLM Foundry", f"composer {name} {yaml_name}" + (" with key=value overrides" if rest[1:] else "")
    return "MosaicML Composer (its launcher)", f"composer {'-m ' if module else ''}{name}"


_MODULE_TITLES = {"nemo_rl": "NVIDIA NeMo-RL", "levanter": "Levanter (JAX)", "olmo_core": "OLMo-core",
                  "lmflow": "LMFlow", "nanotron": "Hugging Face nanotron", "fastchat": "FastChat",
                  "nanochat": "karpathy's nanochat", "skyrl_train": "NovaSky SkyRL"}

# (examples/language/llama2/pretrain.py at hpcaitech/ColossalAI 974c603: --plugin gemini, gemini_auto, zero2, zero2_cpu,
# hybrid_parallel)
_COLOSSALAI_PLUGINS = {"torch_ddp", "torch_ddp_fp16", "gemini", "low_level_zero", "hybrid_parallel", "torch_fsdp",
                       "3d", "moe_hybrid_parallel", "gemini_auto", "zero2", "zero2_cpu"}


def _colossalai_plugin(args: list) -> str | None:
    """The value of a command's `--plugin X` when X is one of ColossalAI's Booster plugins."""
    for i, w in enumerate(args):
        val = w.split("=", 1)[1] if w.startswith("--plugin=") else args[i + 1] if w == "--plugin" and \
            i + 1 < len(args) else None
        if val is not None and val.strip("'\"").lower() in _COLOSSALAI_PLUGINS:
            return val.strip("'\"").lower()
    return None


def hydra(doc: dict) -> Score:
    """A Hydra app's config (a Lightning-Hydra template, fairseq-hydra, ...): the `defaults:` list Hydra composes the
    config from, a `# @package` directive, or a `hydra:` section (hydra.cc docs, "The Defaults List")."""
    s = Score()
    d = _sections(doc["data"])
    if doc["fmt"] != "yaml":
        return s
    if isinstance(d.get("defaults"), list) and d["defaults"]:
        s.add("defaults: (a Hydra defaults list)")
    if re.search(r"^#\s*@package\s", doc["text"], re.MULTILINE):
        s.add("# @package")
    if isinstance(d.get("hydra"), dict):
        s.add("hydra:")
    return s


def determined(doc: dict) -> Score:
    """A Determined AI experiment config (`det experiment create FILE DIR`): `searcher:` with its `name` (single, grid,
    random, adaptive_asha, custom) and `metric`, beside `entrypoint:` / `hyperparameters:` / `resources.slots_per_trial`
    (Determined's Experiment Configuration Reference). The script it runs is the `entrypoint`'s, not a trainer's."""
    s = Score()
    d = _sections(doc["data"])
    searcher = _dict(d, "searcher")
    if str(searcher.get("name", "")).lower() in ("single", "grid", "random", "adaptive_asha", "custom", "async_halving") \
            and "metric" in searcher and ({"entrypoint", "hyperparameters"} & set(d) or
                                         "slots_per_trial" in _dict(d, "resources")):
        s.add(f"searcher: {{name: {searcher['name']}, metric}} + entrypoint / hyperparameters")
    return s


def glm_finetune_demo(doc: dict) -> Score:
    """THUDM's finetune_demo config for ChatGLM3 / GLM-4 (`python finetune_hf.py DATA_DIR MODEL configs/lora.yaml`):
    FinetuningConfig's data_config {train_file, val_file, test_file, num_proc}, max_input_length, max_output_length,
    training_args (Seq2SeqTrainingArguments), peft_config (THUDM/ChatGLM3@00930ac finetune_demo/finetune_hf.py
    DataConfig, FinetuningConfig.from_file)."""
    s = Score()
    d = _sections(doc["data"])
    if "train_file" in _dict(d, "data_config") and {"max_input_length", "max_output_length"} <= set(d):
        s.add("data_config.train_file + max_input_length / max_output_length")
        if isinstance(d.get("training_args"), dict):
            s.add("training_args:", 1.0)
    return s


_LEAP_DEFAULTS = re.compile(r"^(DEFAULT_|MOE_)[A-Z0-9_]+$")


def leap_finetune(doc: dict) -> Score:
    """A Liquid AI leap-finetune job config (`leap-finetune job_configs/X.yaml`): training_config / peft_config that
    `extends:` a named default (DEFAULT_SFT, DEFAULT_DPO, MOE_SFT ..., DEFAULT_LORA), beside training_type and
    model_name (Liquid4All/leap-finetune@0a4e9f6 src/leap_finetune/config/job_config.py JobConfig,
    config/parser.py TRAINING_TYPE_TO_CONFIG)."""
    s = Score()
    d = _sections(doc["data"])
    for key in ("training_config", "peft_config"):
        ext = _dict(d, key).get("extends")
        if isinstance(ext, str) and _LEAP_DEFAULTS.match(ext.strip()):
            s.add(f"{key}.extends: {ext.strip()}")
            break
    if s.own and {"training_type", "model_name"} & set(d):
        s.add("training_type / model_name", 1.0)
    return s


# invoke-ai/invoke-training@99c673d: `invoke-train --cfg-file X.yaml` reads a pipeline config whose `type` is one of its
# pipelines (src/invoke_training/pipelines/**/config.py `type: Literal[...]`) beside base_output_dir
# (config/base_pipeline_config.py:17)
_INVOKE_PIPELINES = {"SD_LORA", "SDXL_LORA", "SD_TEXTUAL_INVERSION", "SDXL_TEXTUAL_INVERSION", "SDXL_FINETUNE",
                     "SDXL_LORA_AND_TEXTUAL_INVERSION", "SD_DIRECT_PREFERENCE_OPTIMIZATION_LORA", "FLUX_LORA"}


def invoke_training(doc: dict) -> Score:
    s = Score()
    d = _sections(doc["data"])
    if str(d.get("type", "")).strip() in _INVOKE_PIPELINES and "base_output_dir" in d:
        s.add(f"type: {d['type']} + base_output_dir")
    return s


def naifu(doc: dict) -> Score:
    """Mikubill/naifu@0693277: `python trainer.py --config X.yaml` builds the model from `target` (common/trainer.py:22
    get_class(config.target), a `modules.<name>.setup`) and hands `lightning:` to Lightning's Trainer (trainer.py): the
    target says whose config it is, more than the Lightning arguments under it."""
    s = Score()
    d = _sections(doc["data"])
    target = d.get("target")
    if isinstance(target, str) and re.match(r"^modules\.\w+(\.\w+)*\.setup$", target.strip()) and \
            isinstance(d.get("lightning"), dict) and isinstance(d.get("trainer"), dict):
        s.add(f"target: {target.strip()} + lightning:", 2 * STRONG)
    return s


# GPT-NeoX's own argument names (EleutherAI/gpt-neox@ea7aefd configs/neox_arguments.md: NeoXArgsModel /
# NeoXArgsParallelism), written with `_` or `-` (its YAMLs use both)
_NEOX_ARGS = {"attention_config", "pipe_parallel_size", "model_parallel_size", "make_vocab_size_divisible_by",
              "gpt_j_residual", "gpt_j_tied", "rotary_pct", "pos_emb", "no_weight_tying", "output_layer_parallelism",
              "scaled_upper_triang_masked_softmax_fusion", "bias_gelu_fusion", "sliding_window_width",
              "checkpoint_factor", "extra_save_iters", "lr_decay_style", "data_impl", "synchronize_each_layer"}


def gpt_neox(doc: dict) -> Score:
    s = Score()
    own = sorted({str(k).replace("-", "_") for k in _sections(doc["data"])} & _NEOX_ARGS)
    if len(own) >= 3:  # one or two are names other Megatron descendants share (pos_emb, lr_decay_style)
        s.add(", ".join(own[:3]), STRONG * len(own))
    return s


# PaddleNLP's TrainingArguments additions and its llm/ argument dataclasses (hybrid parallelism, its checkpoint
# format, Paddle AMP's O1/O2 levels, src_length): the names its llm/config/*/*_argument.json files, run by
# run_finetune.py, carry beside HF-style ones
_PADDLENLP_ARGS = {"tensor_parallel_degree", "pipeline_parallel_degree", "sharding_parallel_degree",
                   "pipeline_parallel_config", "sharding_parallel_config", "unified_checkpoint", "fp16_opt_level",
                   "src_length", "zero_padding", "dataset_name_or_path", "eval_with_do_generation"}


def paddlenlp(doc: dict) -> Score:
    s = Score()
    own = sorted(set(_sections(doc["data"])) & _PADDLENLP_ARGS)
    if len(own) >= 3:
        s.add(", ".join(own[:3]), STRONG * len(own))
    return s


def gpt_sovits(doc: dict) -> Score:
    """RVC-Boss/GPT-SoVITS@48b1a01: s1_train.py (the GPT stage) reads config["train"] (save_every_n_epoch,
    precision ...), config["model"] (phoneme_vocab_size, head, n_layer, EOS); s2_train.py (SoVITS) hps.train
    (fp16_run, segment_size, c_mel, c_kl), hps.data (n_mel_channels, hop_length) and hps.model."""
    s = Score()
    d = _sections(doc["data"])
    train, model, data = (_dict(d, k) for k in ("train", "model", "data"))
    if {"c_mel", "c_kl"} <= set(train) and "segment_size" in train:
        s.add("train: c_mel / c_kl / segment_size (SoVITS)")
    if {"phoneme_vocab_size", "EOS"} <= set(model) and "save_every_n_epoch" in train:
        s.add("model: phoneme_vocab_size / EOS (GPT stage)")
    if {"n_mel_channels", "hop_length"} <= set(data) and "inter_channels" in model:
        s.add("data: n_mel_channels + model: inter_channels")
    return s


# Stability-AI/stable-audio-tools@50049e3 stable_audio_tools/models/factory.py create_model_from_config: model_type
# (autoencoder, diffusion_uncond, diffusion_cond, diffusion_cond_inpaint, diffusion_autoencoder, lm), with train.py
# reading sample_rate / sample_size beside it
_STABLE_AUDIO_TYPES = {"autoencoder", "diffusion_uncond", "diffusion_cond", "diffusion_cond_inpaint",
                       "diffusion_autoencoder", "lm"}


def stable_audio_tools(doc: dict) -> Score:
    s = Score()
    d = _sections(doc["data"])
    if str(d.get("model_type", "")) in _STABLE_AUDIO_TYPES and {"sample_rate", "sample_size"} <= set(d) and \
            isinstance(d.get("model"), dict):
        s.add(f"model_type: {d['model_type']} + sample_rate / sample_size")
    return s


def fish_speech(doc: dict) -> Score:
    """fishaudio/fish-speech@3dd1f85: `python fish_speech/train.py --config-name X` (Hydra) instantiates its own
    classes, `_target_: fish_speech.*` (fish_speech/configs/*.yaml, lora/*.yaml): that names the framework, more than the
    Lightning trainer arguments beside them."""
    s = Score()
    found = re.search(r"^\s*_target_:\s*(fish_speech\.[\w.]+)", doc.get("text") or "", re.MULTILINE)
    if found and doc["fmt"] == "yaml":
        s.add(f"_target_: {found.group(1)}", 2 * STRONG)
    return s


# CarperAI trlX's TRLConfig (CarperAI/trlx@2318d04 trlx/data/configs.py: the sections method / model / optimizer /
# scheduler / tokenizer / train, loaded by TRLConfig.load_yaml or merged over a default config by TRLConfig.update, the
# override a script's `trlx.train(config=...)` gets): the model keys of its ModelConfig (num_layers_unfrozen,
# model_arch_type, OpenDelta's delta_kwargs), TokenizerConfig.tokenizer_path, TrainConfig's pipeline / trainer /
# checkpoint_interval / rollout_logging_dir / trainer_kwargs, and the PPO / ILQL method fields (trlx/data/
# method_configs.py, trlx/models/modeling_ppo.py PPOConfig, modeling_ilql.py ILQLConfig). Round 138: a fork's
# lora_config.json of model / train / tokenizer / method sections, refused as "settings several trainers share (model)".
_TRLX_MODEL = {"num_layers_unfrozen", "model_arch_type", "delta_kwargs"}
_TRLX_TRAIN = {"pipeline", "trainer", "checkpoint_interval", "rollout_logging_dir", "trainer_kwargs", "orchestrator"}
_TRLX_METHOD = {"ppo_epochs", "num_rollouts", "chunk_size", "init_kl_coef", "cliprange_value", "vf_coef", "scale_reward",
                "ref_mean", "ref_std", "cliprange_reward", "cql_scale", "awac_scale", "steps_for_target_q_sync",
                "two_qs"}


def trlx(doc: dict) -> Score:
    """A trlX config (TRLConfig's sections): one of its ModelConfig's own keys under `model:` beside its tokenizer's
    tokenizer_path, a PPO / ILQL method field under `method:` or TrainConfig's pipeline / trainer under `train:`; a
    `model:` section alone (torchtune, LitGPT and others have one) is not taken for it."""
    s = Score()
    if doc["fmt"] not in ("yaml", "json", "toml"):
        return s
    d = _sections(doc["data"])
    model = sorted(set(_dict(d, "model")) & _TRLX_MODEL)
    rest = ([f"tokenizer.{k}" for k in sorted(set(_dict(d, "tokenizer")) & {"tokenizer_path"})]
            + [f"method.{k}" for k in sorted(set(_dict(d, "method")) & _TRLX_METHOD)]
            + [f"train.{k}" for k in sorted(set(_dict(d, "train")) & _TRLX_TRAIN)])
    if model and rest:
        s.add(", ".join([f"model.{k}" for k in model][:2] + rest[:2]))
    return s


# mistralai/mistral-finetune's TrainArgs (finetune/args.py@14f15e5: model_id_or_path and run_dir, its two fields without
# a default; data: DataArgs with instruct_data / eval_instruct_data, finetune/data/args.py; optim: OptimArgs with
# pct_start; its own ckpt_freq, save_adapters, num_microbatches, no_ckpt, num_ckpt_keep), the YAML `torchrun -m train
# CONFIG` reads. model_id_or_path alone is ms-swift 2.x's name too (ms_swift.SHARED_KEYS)
_MISTRAL_OWN = {"ckpt_freq", "save_adapters", "num_microbatches", "no_ckpt", "num_ckpt_keep"}


def mistral_finetune(doc: dict) -> Score:
    """A mistral-finetune config: its two required fields (model_id_or_path, run_dir) beside its data section's
    instruct_data, its optim section's pct_start or one of its own top-level fields."""
    s = Score()
    if doc["fmt"] not in ("yaml", "json"):
        return s
    d = _sections(doc["data"])
    if not {"model_id_or_path", "run_dir"} <= set(d):
        return s
    rest = ([f"data.{k}" for k in sorted(set(_dict(d, "data")) & {"instruct_data", "eval_instruct_data"})]
            + [f"optim.{k}" for k in sorted(set(_dict(d, "optim")) & {"pct_start"})] + sorted(set(d) & _MISTRAL_OWN))
    if rest:
        s.add(", ".join(["model_id_or_path + run_dir"] + rest[:2]))
    return s


# The recognised files that set up how a run is launched or executed, for whatever trainer it runs: what they are
# (DeepSpeed's config: deepspeed/runtime/config.py DeepSpeedConfig, the file a trainer's --deepspeed names; accelerate's:
# accelerate/commands/config/config_args.py, the file `accelerate launch --config_file` reads)
RUN_SETTINGS = {"a DeepSpeed config": "DeepSpeed's engine settings (the JSON a trainer's --deepspeed names)",
                "an accelerate config": "accelerate launch's settings (the YAML its --config_file names)"}
RECOGNISERS = (("NVIDIA NeMo", nemo), ("PyTorch Lightning (a LightningCLI config)", lightning),
               ("PyTorch Lightning (its Trainer's arguments)", lightning_trainer_args),
               ("a DeepSpeed config", deepspeed), ("an accelerate config", accelerate_config),
               ("torchtitan", torchtitan), ("MosaicML LLM Foundry", llm_foundry), ("verl", verl), ("detectron2", detectron2),
               ("an OpenMMLab (mmengine) config", mmengine), ("XTuner (an mmengine config)", xtuner_config),
               ("Open-Sora (an mmengine-style config)", opensora_config), ("a Weights & Biases sweep config", wandb_sweep),
               ("XLabs x-flux", x_flux), ("nanoGPT", nanogpt), ("karpathy's nanochat", nanochat),
               ("a Hydra config", hydra), ("Ludwig", ludwig),
               ("mlx-lm (Apple MLX)", mlx_lm), ("EveryDream2", everydream), ("StableTuner", stabletuner),
               ("a Determined AI experiment config", determined),
               ("THUDM's ChatGLM3 / GLM-4 finetune_demo (finetune_hf.py)", glm_finetune_demo),
               ("Liquid AI leap-finetune", leap_finetune), ("Hugging Face nanotron", nanotron),
               ("NVIDIA NeMo-RL", nemo_rl), ("EasyR1 (a verl fork)", easyr1), ("MaxText (JAX)", maxtext),
               ("Levanter (JAX)", levanter), ("a mergekit merge config (it trains nothing)", mergekit),
               ("an lm-evaluation-harness task (an evaluation, not training)", lm_eval_task),
               ("a generative-models / SwissArmyTransformer model config (CogVideoX SAT)", sgm_targets),
               ("Ultralytics YOLO (its training arguments: args.yaml / default.yaml / a hyp.yaml)", ultralytics),
               ("a latent-diffusion model config (CompVis ldm / ControlNet cldm, built by its own Lightning script)",
                ldm_targets),
               ("Moore-AnimateAnyone's training config (or a project built on its layout: MusePose, Hallo ...)",
                animate_anyone),
               ("Lightricks LTX-Video-Trainer", ltx_video_trainer),
               ("Salesforce LAVIS (or a project built on its runner: MiniGPT-4 ...)", lavis),
               ("lighteval (a model config for an evaluation, not training)", lighteval_model),
               ("Meta DINOv2", dinov2), ("Hugging Face picotron", picotron), ("ByteDance LatentSync", latentsync),
               ("Oumi", oumi), ("H2O LLM Studio", h2o_llmstudio),
               ("Genmo's Mochi 1 fine-tuner (demos/fine_tuner)", mochi_finetuner),
               ("invoke-training (InvokeAI's trainer)", invoke_training), ("naifu", naifu), ("GPT-NeoX", gpt_neox),
               ("PaddleNLP (PaddlePaddle)", paddlenlp), ("GPT-SoVITS", gpt_sovits),
               ("stable-audio-tools (a model config)", stable_audio_tools), ("fish-speech", fish_speech),
               ("CarperAI trlx (trlX, its RLHF trainer)", trlx), ("Mistral AI's mistral-finetune", mistral_finetune))


def recognise(doc: dict) -> tuple[str, Score] | None:
    """The framework attn-doctor does not read that this file carries the evidence of, if any."""
    best = None
    if doc["fmt"] == "text":
        return command_lines(doc)
    if doc["fmt"] == "python" and doc.get("commands"):
        # a notebook's `!` / %%bash lines and the commands a Python launcher starts are command lines too (round 31: a
        # notebook whose training cell is `%%bash autotrain dreambooth ...`)
        best = command_lines(doc)
        best = best if best and best[1].own else None
    for title, fn in RECOGNISERS:
        sc = fn(doc)
        if sc.own and (best is None or sc.own_points > best[1].own_points):
            best = (title, sc)
    return best


# Files that are no training configuration at all, told by their own layout, so the refusal can say what they are.
# the calls that load a model (transformers' / diffusers' from_pretrained, from_config, from_single_file; the
# quantization libraries' from_quantized) or run one (generate): a module whose values are these runs at import
_MODEL_RUNS = frozenset({"from_pretrained", "from_config", "from_single_file", "from_quantized", "generate"})


def _settings_module(doc: dict) -> bool:
    """A .py file that is only `NAME = value` assignments (beside imports and a docstring): no call statement, no
    function or class, nothing run. The project's own code imports it for its values (`from configs import lr_r`);
    no trainer takes it as a config. Values that load a model or run one (`model = X.from_quantized(...)`,
    `outputs = model.generate(...)`: round 105's AutoAWQ examples/generate.py, an inference script written as
    assignments) are a script that runs at import, not values (_MODEL_RUNS)."""
    import ast

    from .pyscript import _call_name, tree

    if doc["fmt"] != "python" or not doc["name"].endswith(".py"):
        return False
    t = tree(doc.get("python") or "")
    if t is None or not t.body:
        return False
    assigns = 0
    for n in t.body:
        if isinstance(n, (ast.Assign, ast.AnnAssign)):
            if n.value is not None and any(isinstance(c, ast.Call) and _call_name(c) in _MODEL_RUNS
                                           for c in ast.walk(n.value)):
                return False
            assigns += 1
        elif not (isinstance(n, (ast.Import, ast.ImportFrom)) or
                  isinstance(n, ast.Expr) and isinstance(n.value, ast.Constant)):
            return False
    return assigns >= 5


# the bases and decorators of a settings class: pydantic's models (BaseSettings reads the environment and .env too),
# a dataclass, attrs, a typed dict
_SETTINGS_BASES = {"BaseSettings", "BaseModel", "TypedDict", "NamedTuple"}
_SETTINGS_DECORATORS = {"dataclass", "define", "frozen", "attrs", "s"}
# the calls that make a module more than settings (a method that builds a trainer, its arguments, a LoRA / model config,
# loads a model or trains): its fields' helpers (Path, Field, field, str ...) and validators are not among them
_TRAINING_CALLS = re.compile(r"(Trainer|TrainingArguments|Config|from_pretrained|train|fit)$")


def _settings_class_module(doc: dict) -> bool:
    """A .py file that defines its project's settings as classes (round 61m: a pydantic BaseSettings with 40 fields,
    validators and path helpers, and `settings = FineTuningSettings()` at the end), beside imports, a docstring and
    NAME = value assignments: every class a settings class (_SETTINGS_BASES / _SETTINGS_DECORATORS) and five fields
    with defaults at least among them; no statement runs anything but building those classes, and no method calls a
    trainer, a TrainingArguments / config class or from_pretrained. The project's own code imports it; no trainer
    takes it as a config."""
    import ast

    from .pyscript import _call_name, tree

    if doc["fmt"] != "python" or not doc["name"].endswith(".py"):
        return False
    t = tree(doc.get("python") or "")
    if t is None or not t.body:
        return False
    classes = {n.name for n in t.body if isinstance(n, ast.ClassDef)}
    fields = 0
    for n in t.body:
        if isinstance(n, ast.ClassDef):
            bases = {b.attr if isinstance(b, ast.Attribute) else getattr(b, "id", None) for b in n.bases}
            decos = {_call_name(d) if isinstance(d, ast.Call) else
                     (d.attr if isinstance(d, ast.Attribute) else getattr(d, "id", None)) for d in n.decorator_list}
            if not (bases & (_SETTINGS_BASES | classes) or decos & _SETTINGS_DECORATORS):
                return False
            fields += sum(isinstance(st, ast.AnnAssign) and st.value is not None for st in n.body)
        elif isinstance(n, (ast.Assign, ast.AnnAssign)):
            v = n.value
            if isinstance(v, ast.Call) and not (isinstance(v.func, ast.Name) and v.func.id in classes):
                return False  # a top-level call that is not one of its settings classes: something runs at import
        elif not (isinstance(n, (ast.Import, ast.ImportFrom)) or
                  isinstance(n, ast.Expr) and isinstance(n.value, ast.Constant)):
            return False
    if not classes or fields < 5:
        return False
    return not any(isinstance(c, ast.Call) and _TRAINING_CALLS.search(_call_name(c) or "") and
                   _call_name(c) not in classes and _call_name(c) != "SettingsConfigDict" for c in ast.walk(t))


def hydra_output(doc: dict) -> str | None:
    """The files Hydra writes into every run's output folder (outputs/DATE/TIME/.hydra/ or multirun/.../.hydra/:
    config.yaml, the composed config; hydra.yaml, Hydra's own; overrides.yaml, the command line's overrides; Hydra docs
    "Output/Working directory"): a record of a run of the app, by their folder."""
    parts = re.split(r"[\\/]", str(doc.get("path") or ""))
    if len(parts) >= 2 and parts[-2] == ".hydra" and doc["name"] in ("config.yaml", "hydra.yaml", "overrides.yaml"):
        return f"the {doc['name']} a Hydra run saved (.hydra/{doc['name']}: what the app ran with, written into its output folder)"
    return None


# `import modal` / `from modal import App`, then an app object: Modal's own names (modal.App, and modal.Stub before 0.64)
_MODAL_APP = re.compile(r"(^|[^\w.])(modal\.)?(App|Stub)\(", re.MULTILINE)
_COMFYUI_WORDS = re.compile(r"comfy-cli|comfy launch|comfy install|ComfyUI", re.IGNORECASE)


def _imports(src: str) -> list:
    return [m.group(1) or m.group(2) for m in
            re.finditer(r"^\s*(?:from\s+([\w.]+)\s+import|import\s+([\w.]+))", src, re.MULTILINE)]


def job_spec(doc: dict) -> str | None:
    """What a Python file that defines a cloud job rather than a training run is: a Baseten Training job spec
    (truss_train.definitions: TrainingProject, TrainingJob, Runtime start_commands; Baseten's training docs), a Modal
    app (modal.App with the functions Modal runs in its containers), a RunPod serverless worker
    (runpod.serverless.start). None for anything else."""
    if doc["fmt"] != "python":
        return None
    src = doc.get("python") or ""
    roots = {m.split(".")[0] for m in _imports(src)}
    if "truss_train" in roots:
        return "a Baseten Training job spec (truss_train: a TrainingJob whose start_commands run the training in its image)"
    if "modal" in roots and _MODAL_APP.search(src):
        what = "a Modal app (modal.App: functions Modal runs in containers on its GPUs)"
        if _COMFYUI_WORDS.search(src):
            what += " that runs ComfyUI (an image and video generation app; it trains nothing)"
        return what
    if "runpod" in roots and re.search(r"runpod\.serverless\.start\(", src):
        return "a RunPod serverless worker (runpod.serverless.start: a handler for the endpoint's requests)"
    return None


VSCODE_LAUNCH = "a VS Code launch configuration (.vscode/launch.json: how the editor starts and debugs programs)"


def vscode_launch(d: dict) -> bool:
    """VS Code's .vscode/launch.json: {version, configurations: [{type, request: launch|attach, name ...}]}."""
    confs = d.get("configurations")
    return isinstance(confs, list) and bool(confs) and all(
        isinstance(c, dict) and c.get("request") in ("launch", "attach") and "type" in c for c in confs)


# JSON with comments, as VS Code reads its settings: `//` and `/* */` comments and a comma before `}` / `]` outside
# strings (a string is matched first, and kept)
_JSONC_COMMENT = re.compile(r'("(?:[^"\\\n]|\\.)*")|//[^\n]*|/\*.*?\*/', re.DOTALL)
_JSONC_COMMA = re.compile(r'("(?:[^"\\\n]|\\.)*")|,(?=\s*[}\]])')


def vscode_launch_text(text: str) -> bool:
    """The same, for the launch.json VS Code writes with comments and trailing commas (JSON with comments, which json
    refuses): the text read as VS Code reads it, then asked vscode_launch."""
    import json

    plain = _JSONC_COMMENT.sub(lambda m: m.group(1) or "", text.lstrip("\ufeff"))
    try:
        d = json.loads(_JSONC_COMMA.sub(lambda m: m.group(1) or "", plain))
    except (ValueError, RecursionError):
        return False
    return isinstance(d, dict) and vscode_launch(d)


def truss_config(d: dict) -> bool:
    """A Baseten Truss config.yaml (a model server: model_name, resources.accelerator / use_gpu, and how it is built
    and started: base_image, docker_server, requirements, model_metadata, secrets; Truss's config reference)."""
    res = _dict(d, "resources")
    return ("model_name" in d or "model_metadata" in d) and bool({"accelerator", "use_gpu"} & set(res)) and \
        bool({"docker_server", "base_image", "model_class_name", "model_module_dir", "python_version",
              "model_metadata", "secrets", "external_package_dirs"} & set(d))


# what a module of argparse definitions calls: the parser's own methods, and the builtins its type= / default= use
_ARGPARSE_CALLS = frozenset({"ArgumentParser", "add_argument", "add_argument_group", "add_mutually_exclusive_group",
                             "add_subparsers", "add_parser", "set_defaults", "parse_args", "parse_known_args"})
_ARGPARSE_BUILTINS = frozenset({"int", "float", "str", "bool", "list", "tuple", "dict", "set", "len", "range", "print"})


def _argparse_module(doc: dict) -> bool:
    """A .py file that only defines its project's command-line options (flags.py, arguments.py, options.py): imports,
    a docstring and functions whose every call builds an argparse parser (ArgumentParser, add_argument, parse_args) and
    three add_argument calls at least; nothing trains, nothing runs at import. The project's scripts import it."""
    import ast

    from .pyscript import tree

    if doc["fmt"] != "python" or not doc["name"].endswith(".py"):
        return False
    t = tree(doc.get("python") or "")
    if t is None or not t.body:
        return False
    funcs = set()
    for n in t.body:
        if isinstance(n, ast.FunctionDef):
            funcs.add(n.name)
        elif not (isinstance(n, (ast.Import, ast.ImportFrom)) or
                  isinstance(n, ast.Expr) and isinstance(n.value, ast.Constant)):
            return False
    adds = 0
    for n in ast.walk(t):
        if isinstance(n, ast.Call):
            f = n.func
            name = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else None
            if name not in _ARGPARSE_CALLS and name not in _ARGPARSE_BUILTINS and name not in funcs:
                return False  # (its own functions call each other: parse() -> get_parser().parse_args())
            adds += name == "add_argument"
    return bool(funcs) and adds >= 3


def _deepspeed_inference(doc: dict) -> bool:
    """A script that hands its model to DeepSpeed's inference engine only (deepspeed.init_inference, deepspeed/__init__.py
    :328: kernel injection and tensor parallelism for generation), never to its training engine (deepspeed.initialize)
    and never runs a backward pass: it serves or evaluates a model, it trains nothing (round 107m: PsycoLLM's run.py,
    `deepspeed --num_gpus=2 run.py` for a chat loop)."""
    if doc["fmt"] != "python":
        return False
    src = doc.get("python") or ""
    return _engine_used(src, "deepspeed", ("init_inference",)) and not _engine_used(src, "deepspeed", ("initialize",)) \
        and not re.search(r"\.backward\s*\(", src)


def what_file(doc: dict) -> str | None:
    """What a file no reader claims is, when its layout says so (a CI workflow, a compose file, a ComfyUI graph ...)."""
    if _deepspeed_inference(doc):
        return ("a DeepSpeed inference script (deepspeed.init_inference serves the model: no trainer calls, it trains "
                "nothing)")
    if _settings_module(doc):
        return "a Python settings module (only NAME = value assignments, which the project's own code imports)"
    if _settings_class_module(doc):
        return ("a Python settings module (settings classes with field defaults, no trainer calls: the project's own "
                "code imports it)")
    if _argparse_module(doc):
        return ("a module of argparse definitions (the command-line options of the project's own scripts, which "
                "import it)")
    d = doc["data"] if isinstance(doc.get("data"), dict) else None
    if d is None:
        return None
    jobs = _dict(d, "jobs")
    if jobs and ("on" in d or True in d) and any(isinstance(j, dict) and ({"runs-on", "steps", "uses"} & set(j))
                                                for j in jobs.values()):
        return "a GitHub Actions workflow"  # (PyYAML reads the key `on` as True)
    services = _dict(d, "services")
    if services and all(isinstance(v, dict) for v in services.values()) and \
            any({"image", "build", "command", "environment"} & set(v) for v in services.values()):
        return "a Docker Compose file"
    if isinstance(d.get("apiVersion"), str) and isinstance(d.get("kind"), str):
        return f"a Kubernetes manifest (kind: {d['kind']})"
    if isinstance(d.get("dependencies"), list) and ("channels" in d or "name" in d) and \
            set(d) <= {"name", "channels", "dependencies", "prefix", "variables"}:
        return "a conda environment file"
    if isinstance(d.get("build"), dict) and ({"predict", "train"} & set(d)) and \
            set(d["build"]) & {"gpu", "python_version", "python_packages", "python_requirements", "cuda"}:
        return "Replicate's cog.yaml (a model's build and predict entry points)"
    nodes = list(d.values())
    if nodes and len(nodes) >= 2 and all(isinstance(v, dict) and "class_type" in v and "inputs" in v for v in nodes):
        return "a ComfyUI workflow (API format)"
    if isinstance(d.get("nodes"), list) and "links" in d and ("last_node_id" in d or "version" in d):
        return "a ComfyUI workflow"
    if isinstance(d.get("peft_type"), str) and ({"r", "lora_alpha", "target_modules", "base_model_name_or_path"} & set(d)):
        return f"a PEFT adapter config ({d['peft_type']}: what was trained, saved beside the adapter's weights)"
    if vscode_launch(d):
        return VSCODE_LAUNCH
    if truss_config(d):
        return "a Baseten Truss config (how a model server is built and deployed: it serves, it does not train)"
    if isinstance(d.get("log_history"), list) and "global_step" in d:
        return "a Hugging Face Trainer state file (trainer_state.json, written by a run)"
    if generation_config(d):
        return ("a transformers generation config (generation_config.json: generate()'s defaults, saved beside a "
                "model's weights)")
    if "_class_name" in d and "_diffusers_version" in d:
        return f"a diffusers model or pipeline config ({d['_class_name']})"
    from .ai_toolkit import OTHER_JOBS
    from .llamafactory import export_config, infer_config

    job = str(d.get("job", "")).strip()
    if job in OTHER_JOBS and isinstance(d.get("config"), dict):
        return f"an ai-toolkit `job: {job}` config (it {OTHER_JOBS[job]}; it does not train)"
    if export_config(d) and ({"model_name_or_path", "adapter_name_or_path", "template"} & set(d)):
        return "a LLaMA-Factory export config (`llamafactory-cli export` merges an adapter or quantises; it does not train)"
    if infer_config(d):
        return ("a LLaMA-Factory inference config (`llamafactory-cli chat` / `api` / `webchat` load a model and adapter "
                "with it; it names no dataset, stage or training argument, so it does not train)")
    if "images_data_url" in d:
        return "the input of a fal.ai training endpoint (images_data_url)"
    if "input_images" in d and ({"trigger_word", "autocaption", "lora_rank", "steps"} & set(d)):
        return "the input of a Replicate training model (input_images)"
    return None


# GenerationConfig's own fields (huggingface/transformers src/transformers/generation/configuration_utils.py
# GenerationConfig.__init__): what `save_pretrained` writes to generation_config.json beside transformers_version
GENERATION_FIELDS = frozenset({
    "_from_model_config", "bos_token_id", "eos_token_id", "pad_token_id", "decoder_start_token_id", "max_length",
    "max_new_tokens", "min_length", "min_new_tokens", "do_sample", "num_beams", "num_beam_groups", "temperature",
    "top_k", "top_p", "min_p", "typical_p", "repetition_penalty", "length_penalty", "no_repeat_ngram_size",
    "cache_implementation", "use_cache", "num_return_sequences", "forced_bos_token_id", "forced_eos_token_id",
    "suppress_tokens", "begin_suppress_tokens", "forced_decoder_ids", "early_stopping", "max_time", "stop_strings",
    "guidance_scale", "return_dict_in_generate", "output_scores", "output_attentions", "output_hidden_states"})


def generation_config(d: dict) -> bool:
    """generation_config.json: `transformers_version` with GenerationConfig's fields and no model layout (no
    `architectures`, no `model_type`); a model's config.json also holds bos/eos token ids, beside its architecture."""
    return "transformers_version" in d and not {"architectures", "model_type"} & set(d) and \
        (bool(GENERATION_FIELDS & set(d)) or set(d) <= {"transformers_version", "_from_model_config"})


def built_on_trainer(doc: dict) -> tuple[str, str] | None:
    """(what, evidence) for a TOML written for a program built on sd-scripts' option names (a fork, a wrapper) rather
    than for sd-scripts: it has sd-scripts' options (network_dim, dataset_config, enable_bucket ...) and loads its model
    weights from a key no sd-scripts script defines (sd_scripts.foreign_weights), which sd-scripts would never read."""
    from . import flatten, sd_scripts

    if doc["fmt"] != "toml" or not isinstance(doc.get("data"), dict):
        return None
    weights = sd_scripts.foreign_weights(doc["data"])
    # sd-scripts' option names that only it and a few trainers use (network_dim, enable_bucket, cache_latents ...), not
    # the ones every program has (output_dir, seed, guidance_scale)
    if not weights or len(set(flatten(doc["data"])) & (sd_scripts.STRONG_KEYS | sd_scripts.SHARED_KEYS)) < 3:
        return None
    return ("a trainer built on sd-scripts' options (a fork or a wrapper of it)",
            f"it loads its model from {', '.join(weights[:2])}, " + ("keys" if len(weights) > 1 else "a key") + " no sd-scripts script defines")


# Python packages of frameworks attn-doctor does not read: a script importing one (and no reader claiming it) is that
# framework's script
_PY_FRAMEWORKS = (("nemo", "NVIDIA NeMo"), ("nemo_run", "NVIDIA NeMo"), ("lightning", "PyTorch Lightning"),
                  ("pytorch_lightning", "PyTorch Lightning"), ("mmengine", "OpenMMLab (mmengine)"),
                  ("mmcv", "OpenMMLab (mmcv)"), ("megatron", "Megatron"), ("verl", "verl"), ("openrlhf", "OpenRLHF"),
                  ("torchtitan", "torchtitan"), ("colossalai", "ColossalAI"), ("fairseq", "fairseq"),
                  ("composer", "MosaicML Composer"), ("llmfoundry", "MosaicML LLM Foundry"), ("EasyLM", "EasyLM"),
                  ("flax", "JAX / Flax"), ("jax", "JAX"), ("keras", "Keras"), ("tensorflow", "TensorFlow"),
                  ("nanotron", "nanotron"), ("deepspeed", "DeepSpeed"), ("xtuner", "XTuner"), ("diffsynth", "DiffSynth-Studio"),
                  ("olmo_core", "OLMo-core"), ("olmo", "OLMo"), ("nemo_rl", "NVIDIA NeMo-RL"), ("levanter", "Levanter"),
                  ("maxtext", "MaxText"), ("MaxText", "MaxText"), ("lmflow", "LMFlow"), ("opensora", "Open-Sora"),
                  ("easydel", "EasyDeL"), ("fastchat", "FastChat"), ("mergekit", "mergekit"),
                  ("lm_eval", "lm-evaluation-harness"), ("sat", "SwissArmyTransformer"),
                  ("detectron2", "detectron2"),  # cfg66: round 19's detectron2 plain_train_net.py copies
                  # cfg81: round 79m's gotoplanb app.py, `import mlx_tune as mt` inside its worker (mlx-tune: Unsloth's
                  # API names over Apple's MLX; mlx-lm's own trainer), no CUDA attention backend under either
                  ("mlx_tune", "mlx-tune (Apple MLX)"), ("mlx_lm", "mlx-lm (Apple MLX)"),
                  # cfg105: post-training compression libraries over transformers models (round 105's examples of
                  # llm-compressor, NVIDIA Model Optimizer, Optimum Quanto, AutoGPTQ and AutoAWQ): the script loads a
                  # model (through transformers, or through the library's own `AutoGPTQForCausalLM` /
                  # `AutoAWQForCausalLM`, which wrap a transformers model: auto_gptq/modeling/auto.py:69 at 9f7d3707,
                  # awq/models/auto.py:60 at 88e4c76b) and the library's own engine calibrates and quantizes it
                  # (`model.quantize(...)`: auto_gptq/modeling/_base.py:177, awq/models/base.py:137,
                  # gptqmodel/models/base.py:804 at f4c327a1 for GPTQModel, AutoGPTQ's successor; optimum-quanto's
                  # quantize, optimum/quanto/quantize.py:55 at e33f8202, and QuantizedModelForCausalLM.quantize,
                  # models/transformers_models.py:69; AutoRound(model, ...).quantize(), auto_round/autoround.py:722
                  # at b9f3d007): no transformers Trainer's run. Where a script also configures one (AutoAWQ's
                  # examples/train.py: transformers' Trainer over an AWQ model), the trainer's calls still count.
                  # The libraries with many helpers count only where their engine is called (_ENGINE_CALLS).
                  ("llmcompressor", "LLM Compressor"), ("modelopt", "NVIDIA Model Optimizer"),
                  ("optimum.quanto", "Optimum Quanto"), ("auto_gptq", "AutoGPTQ"), ("gptqmodel", "GPTQModel"),
                  ("awq", "AutoAWQ"), ("auto_round", "AutoRound"))


# Frameworks a script may import for a helper while another loop trains: the framework is the run's only where the
# script hands its model to the framework's own engine. DeepSpeed: deepspeed.initialize (deepspeed/__init__.py:93,
# "engine: DeepSpeed runtime engine which wraps the client model for distributed training") or init_inference (:328).
# Its other names are helpers a transformers Trainer's, accelerate's or a user's own loop uses as well: zero.Init /
# zero.GatheredParameters (deepspeed/runtime/zero/__init__.py:8-9: gathering ZeRO-3 shards to save LoRA weights, round
# 47m's LennoxC gemma3_finetune.py under `accelerate launch` with a DeepSpeed accelerate config), ops.adam's
# DeepSpeedCPUAdam, init_distributed, utils' zero_to_fp32.
# LLM Compressor: a transformers model loaded by the script (or its name) handed to its post-training compression
# entry points, oneshot / Oneshot (src/llmcompressor/entrypoints/oneshot.py:53 `class Oneshot`, :316 `def
# oneshot(model: str | PreTrainedModel, ...)`) or model_free_ptq (entrypoints/model_free/__init__.py:45), exported at
# the package's top (src/llmcompressor/__init__.py:29) and from llmcompressor.entrypoints; vllm-project/llm-compressor at
# ab1ba3ef. Its calibration passes are the engine's, not a transformers Trainer's; its modifiers (GPTQModifier,
# QuantizationModifier) alone are a recipe's parts, which a script may import to write a recipe file.
# NVIDIA Model Optimizer (modelopt): its quantization, calibration and sparsity entry points take the model
# (modelopt/torch/quantization/model_quant.py:53 calibrate, :136 quantize, :240 auto_quantize;
# modelopt/torch/sparsity/weight_sparsity/sparsification.py:32 sparsify; NVIDIA/TensorRT-Model-Optimizer at 5a4242fa,
# imported as `import modelopt.torch.quantization as mtq`); its export and opt helpers alone (saving a checkpoint the
# script's own trainer tuned) are not its run.
_ENGINE_CALLS = {"deepspeed": ("initialize", "init_inference"),
                 "llmcompressor": ("oneshot", "Oneshot", "model_free_ptq"),
                 "modelopt": ("quantize", "calibrate", "auto_quantize", "sparsify")}


def _engine_used(src: str, root: str, calls: tuple = ()) -> bool:
    """Whether a script calls the engine of the framework `root` (_ENGINE_CALLS, or only `calls`), under any name it
    imports it as: `deepspeed.initialize(`, `import deepspeed as ds` + `ds.initialize(`, `from deepspeed import
    initialize [as x]`, and through the package's modules that export it (`from llmcompressor.entrypoints import
    oneshot`, `import llmcompressor.entrypoints as ep` + `ep.oneshot(`, `llmcompressor.entrypoints.oneshot(`)."""
    calls = calls or _ENGINE_CALLS[root]
    owners = {root}
    package = rf"{re.escape(root)}(?:\.\w+)*"
    for m in re.finditer(rf"^\s*import\s+{package}\s+as\s+(\w+)", src, re.MULTILINE):
        owners.add(m.group(1))
    bare = set()
    for m in re.finditer(rf"^[ \t]*from\s+{package}\s+import[ \t]+(?:\(([^)]*)\)|([^(\n#;]+))", src,
                         re.MULTILINE):
        for part in (m.group(1) or m.group(2)).split(","):
            words = part.split()
            if words and words[0] in calls:
                bare.add(words[-1] if len(words) == 3 and words[1] == "as" else words[0])
    owned = "|".join(re.escape(o) for o in sorted(owners))
    named = "|".join(re.escape(c) for c in calls)
    if re.search(rf"(?<![\w.])(?:{owned})(?:\.\w+)*\.(?:{named})\s*\(", src):
        return True
    return any(re.search(rf"(?<![\w.]){re.escape(b)}\s*\(", src) for b in bare)


def imported_framework(doc: dict) -> tuple[str, str] | None:
    """(framework, the import line's module) of a Python script that imports a framework attn-doctor does not read
    (for one with an engine, _ENGINE_CALLS: a script that hands its model to that engine)."""
    src = doc.get("python") or ""
    roots = []
    for m in re.finditer(r"^\s*(?:from\s+([\w.]+)\s+import|import\s+([\w.]+))", src, re.MULTILINE):
        roots.append(m.group(1) or m.group(2))
    for root, title in _PY_FRAMEWORKS:
        if root in _ENGINE_CALLS and not _engine_used(src, root):
            continue
        for mod in roots:
            if mod == root or mod.startswith(root + "."):
                return title, mod
    return None


SCRIPT_FILES = (".sh", ".bash", ".bat", ".cmd", ".ps1")


# the installers set-up scripts download and run (Miniconda / Anaconda / Miniforge, Docker's get-docker.sh, NVIDIA's
# .run installers): running one hands the setup over to no training
INSTALLER_SCRIPT = re.compile(r"^(?:(?:mini|ana)conda|miniforge|mambaforge|micromamba)[\w.-]*\.sh$|^get-docker\.sh$|"
                              r"^cuda_[\w.]+\.run$", re.IGNORECASE)
# a package manager's shell hook, sourced so that `conda activate ENV` works in a non-interactive shell
# (`source ~/miniconda3/etc/profile.d/conda.sh`; mamba.sh beside it in Miniforge, micromamba's `shell hook` file): it
# defines shell functions and trains nothing, so the launch goes on to the command after it (round 130m)
SHELL_HOOK = re.compile(r"(?:^|[\\/])etc[\\/]profile\.d[\\/][\w.-]+\.sh$|(?:^|[\\/])(?:conda|mamba|micromamba)\.sh$",
                        re.IGNORECASE)


def runs_other_script(doc: dict) -> str | None:
    """The shell script a launch script hands over to, when it runs no program itself: `bash scripts/train_sft.sh`,
    `sh $(dirname "$0")/run_g.sh --task-flag X`, a script run by its path (`/workspace/x/train_t2v.sh`, `./run.sh`),
    cmd.exe's `call %~dp0run.bat` / `run.bat`, PowerShell's `& .\\run.ps1`. Its file name, as the user reads it."""
    for c in doc.get("commands") or []:
        target = None
        if c.program in ("bash", "sh", "zsh", "source", ".", "call", "&", "powershell", "pwsh") and c.args:
            target = next((a for a in c.args if not a.startswith("-")), None)
        elif c.program.lower().endswith(SCRIPT_FILES) and not c.script:
            target = c.program
        if target and INSTALLER_SCRIPT.match(re.split(r"[\\/]", target)[-1]):
            continue  # `bash ~/miniconda.sh -b -p ~/miniconda3`: an installer the setup downloads, no launch (round 50)
        if target and c.program in ("source", ".") and SHELL_HOOK.search(target):
            continue  # `source ~/miniconda3/etc/profile.d/conda.sh`: conda's shell functions, no launch (round 130m)
        if target and target.lower().endswith(SCRIPT_FILES):
            # as written (scripts/train_sft.sh), but a folder a variable or `$(dirname "$0")` names is not the user's
            return re.split(r"[\\/]", target)[-1] if re.search(r"[$%`]", target) else target
    return None


def handed_python_script(doc: dict, target: str) -> str | None:
    """The Python script a launch hands the shell script it runs as an argument (`bash train.sh tasks/train_x.py
    configs/x.yaml --train.lr 1e-5`: a framework's wrapper that runs `torchrun ... "$@"`), as written; None when it
    hands none."""
    for c in doc.get("commands") or []:
        words = [c.program, *c.args]
        at = next((i for i, w in enumerate(words) if w.endswith(target)), None)
        if at is not None:
            return next((a for a in words[at + 1:] if not a.startswith("-") and a.lower().endswith(".py")), None)
    return None


# Dataset configs (sd-scripts' and musubi-tuner's --dataset_config): [general] and [[datasets]] of image/video
# folders. Keys from sd-scripts library/config_util.py and musubi-tuner dataset/config_utils.py.
DATASET_KEYS = {"image_dir", "image_directory", "video_directory", "cache_directory", "class_tokens", "num_repeats",
                "is_reg", "target_frames", "frame_extraction", "frame_stride", "frame_sample", "image_jsonl_file",
                "video_jsonl_file", "control_directory", "metadata_file", "subsets", "conditioning_data_dir",
                "bucket_no_upscale", "enable_bucket", "resolution", "batch_size", "caption_extension", "keep_tokens"}
TRAINING_KEYS = {"network_module", "pretrained_model_name_or_path", "dit", "output_dir", "learning_rate",
                 "mixed_precision", "optimizer_type", "max_train_epochs", "max_train_steps", "sdpa", "xformers",
                 "dataset_config", "task", "vae", "t5", "save_every_n_epochs"}
MUSUBI_DATASET_KEYS = {"image_directory", "video_directory", "cache_directory", "target_frames", "frame_extraction",
                       "image_jsonl_file", "video_jsonl_file", "control_directory"}


# diffusion-pipe's dataset TOML (the file a training config's `dataset = '...'` names): [[directory]] tables with a
# path, and the bucketing and caption keys of tdrussell/diffusion-pipe utils/dataset.py, at the top or per [[directory]]
# (it reads each as directory_config.get(KEY, dataset_config.get(KEY)); `size_buckets`, explicit [width, height, frames]
# buckets that replace resolutions / ar buckets, since 8743be6; round 69's robotics user's configs bucket only that way)
DIFFUSION_PIPE_DATASET_KEYS = {"resolutions", "enable_ar_bucket", "min_ar", "max_ar", "num_ar_buckets", "frame_buckets",
                               "ar_buckets", "size_buckets", "shuffle_tags", "cache_shuffle_num",
                               "cache_shuffle_delimiter"}


# LLaMA-Factory's dataset registry, data/dataset_info.json (LLaMA-Factory data/README.md): each dataset's name mapped to
# where it is (file_name, hf_hub_url, ms_hub_url, om_hub_url, script_url, cloud_file_name) and how to read it
# (formatting, columns, tags, ranking, subset, split); a training YAML's `dataset:` names entries of it
DATASET_INFO_WHERE = frozenset({"file_name", "hf_hub_url", "ms_hub_url", "om_hub_url", "script_url", "cloud_file_name"})


def dataset_registry(d) -> bool:
    return isinstance(d, dict) and bool(d) and all(
        isinstance(v, dict) and DATASET_INFO_WHERE & set(v) for v in d.values())


# ms-swift's --custom_dataset_info file (ms-swift docs "Custom Dataset": a list of {ms_dataset_id | hf_dataset_id |
# dataset_path, subsets, split, columns, tags})
SWIFT_DATASET_WHERE = frozenset({"ms_dataset_id", "hf_dataset_id", "dataset_path"})


def swift_dataset_info(data) -> bool:
    return isinstance(data, list) and bool(data) and all(
        isinstance(x, dict) and SWIFT_DATASET_WHERE & set(x) for x in data)


def wandb_run_record(doc: dict) -> str | None:
    """A Weights & Biases run's config record (the `config.yaml` wandb writes into wandb/run-*/files/ as the run goes:
    wandb/sdk/internal/handler.py and sdk/lib/config_util.py save every item of `wandb.config` as `KEY: {value: V}`,
    with `desc: null` beside it in older clients and `wandb_version: 1` at the top; a transformers run logs its model
    config and TrainingArguments there, a Lightning or diffusers run its own): every entry is such a wrapper, so no
    trainer's parser reads it (each setting would be a mapping). What it says is what a past run was given."""
    if doc["fmt"] not in ("yaml", "json"):
        return None
    d = _sections(doc["data"])
    items = {k: v for k, v in d.items() if k != "wandb_version"}
    if len(items) < 3 or not all(isinstance(v, dict) and "value" in v and set(v) <= {"value", "desc"}
                                 for v in items.values()):
        return None
    return ("a Weights & Biases run's config record (wandb/run-*/files/config.yaml: the settings a past run logged, "
            "each under `value:`), not a trainer config: give attn-doctor the config or command line the run was "
            "started with")


# The kohya_ss GUI's own settings file (bmaltais/kohya_ss@45088f0 `config example.toml`, copied to config.toml;
# kohya_gui/class_gui_config.py:14-38 KohyaSSGUIConfig loads it, and the GUI's tabs read `model.models_dir`
# (class_source_model.py:59), `server.allowed_paths` (class_gui_config.py:85-89), ... as the values their fields start
# from): keys no training script takes, each the GUI's own (the folders its pickers open, how it runs the scripts),
# in its sections or at the top level as the first version had them (6386a720, 2024-03-16: models_dir, config_dir)
GUI_SETTINGS_KEYS = {("settings", "use_shell"), ("server", "allowed_paths"), ("model", "models_dir"),
                     ("configuration", "config_dir")}


def gui_settings(doc: dict) -> str | None:
    """What to say of the kohya_ss GUI's own config.toml (GUI_SETTINGS_KEYS: two of them, in their sections or at the
    top level), or None. Its [model] / [folders] / [basic] / [advanced] values (save_model_as, train_data_dir,
    mixed_precision, xformers) are sd-scripts' names, but no run is started from this file: the GUI fills its fields
    from it, and a run is what the GUI then saves (its JSON) or prints (the accelerate launch line)."""
    if doc["fmt"] != "toml":
        return None
    d = _sections(doc["data"])
    found = [f"{sec}.{key}" if key in _dict(d, sec) else key for sec, key in sorted(GUI_SETTINGS_KEYS)
             if key in _dict(d, sec) or key in d]
    if len(found) < 2:
        return None
    return (f"a settings file of the kohya_ss GUI itself (its config.toml: {', '.join(found)}: the values its fields "
            "start from), not a trainer config: give attn-doctor the config the GUI saves for a run (its JSON) or the "
            "command it prints")


def dataset_config(doc: dict) -> str | None:
    """What to say of a dataset config, or None when the file is not one."""
    if doc["fmt"] not in ("toml", "json"):
        return None
    d = _sections(doc["data"])
    if doc["fmt"] == "json" and dataset_registry(d):
        return ("a dataset registry (LLaMA-Factory's dataset_info.json: dataset names mapped to their files, columns and "
                "formatting), not a trainer config: give attn-doctor the training YAML whose `dataset:` names them")
    dirs = d.get("directory")
    if isinstance(dirs, list) and dirs and all(isinstance(x, dict) and "path" in x for x in dirs) \
            and set(d).union(*dirs) & DIFFUSION_PIPE_DATASET_KEYS \
            and not {"model", "optimizer", "output_dir", "epochs"} & set(d):
        return ("a dataset config (diffusion-pipe's: [[directory]] of image/video folders and its bucketing), not a "
                "training config: give attn-doctor the training TOML whose `dataset =` names this file")
    sets = d.get("datasets")
    if not (isinstance(sets, list) and sets and all(isinstance(x, dict) for x in sets)):
        return None
    keys = set(_dict(d, "general"))
    for x in sets:
        keys |= set(x)
        for sub in x.get("subsets") or []:
            if isinstance(sub, dict):
                keys |= set(sub)
    # sd-scripts' read_config_from_file (library/train_util.py:4700-4761) flattens every table of a --config_file TOML into
    # the argparse namespace and keeps a [[datasets]] array as one inert attribute, so a file that also holds
    # training options in some other table ([training_args] xformers = true ...) is a training config that carries
    # its dataset along, not a dataset config
    other = set(d) - {"general", "datasets"}
    for k in list(other):
        if isinstance(d[k], dict):
            other |= set(d[k])
    if not keys & DATASET_KEYS or other & TRAINING_KEYS or keys & TRAINING_KEYS:
        return None
    whose = "musubi-tuner's" if keys & MUSUBI_DATASET_KEYS else "sd-scripts'"
    # none of a dataset config's settings reaches attention: the datasets' schemas (kohya-ss/musubi-tuner@30c658c
    # src/musubi_tuner/dataset/config_utils.py ConfigSanitizer, kohya-ss/sd-scripts@48d368f library/config_util.py) are
    # folders, captions, resolution, buckets, batch size, repeats and frames; the backend, the dtype and compile are the
    # training command's (or its --config_file's) options, so the file alone says nothing attn-doctor checks
    return (f"a dataset config ({whose} --dataset_config: [[datasets]] of image/video folders), not a training "
            f"config: none of its settings ({', '.join(sorted(keys & DATASET_KEYS)[:4])} ...) chooses the attention "
            f"backend, the dtype or compile; give attn-doctor the training command line or its --config_file TOML")
