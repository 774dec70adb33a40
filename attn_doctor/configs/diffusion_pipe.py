"""tdrussell diffusion-pipe: its training TOML (`train.py --deepspeed --config examples/main_example.toml`).

Read from tdrussell/diffusion-pipe 8f83dbf (2026-08-20):
- there is no attention setting: each model's code picks it (nothing is required where that is PyTorch SDPA). Most call PyTorch's scaled_dot_product_attention
  (the diffusers and ComfyUI model code in models/ and utils/patches.py); Wan calls models/wan/attention.py
  flash_attention() directly, which asserts FLASH_ATTN_2_AVAILABLE (it takes FlashAttention 3's
  flash_attn_interface first when that imports), and HunyuanImage imports flash_attn_no_pad (FlashAttention 2), HunyuanVideo's hyvideo submodule runs
  attention(mode='flash') (flash_attn_varlen_func); HiDream (models/hidream.py:19) runs the HiDream-I1 submodule's
  transformer (submodules/HiDream @ 2658624: hi_diffusers/models/transformers/transformer_hidream_image.py:59,131 set
  HiDreamAttnProcessor_flashattn on every block, whose attention_processor.py:5-10 imports flash_attn_interface's
  flash_attn_func and else flash_attn's, no other path), and diffusion-pipe sets no other processor;
- train.py: `compile` (default false) runs pipeline_model.compile(dynamic=True), torch.compile's default mode;
  `micro_batch_size_per_gpu` is the batch; [model] `type` and `dtype` (the compute dtype; transformer_dtype
  such as float8 only stores the weights).
- a fork's own [model] keys train.py never reads (round 141m, RicemanT/diffusion-pipe-mageflow-ft@40bf63a, its own
  model type 'mage_flow'): `compile_blocks = true` wraps every transformer block's forward in torch.compile(mode=
  model.compile_mode, default 'default'; utils/mageflow_execution.py compile_block_forward, validated against the
  top-level `compile`, which it refuses beside it); `attention_backend` 'sdpa' (default) / 'flash_attn_2' /
  'flash_attn_3' (utils/mageflow_attention.py resolve_flash_attention: flash_attn's or flash_attn_3's
  flash_attn_varlen_func, no fallback). Upstream has neither key, nor that model type: read for a [model] type upstream
  does not have (the fork's own model, whose code reads them); upstream's model types ignore both.
- its launch line (README "Launching training", train.py:42-57): `[NCCL_P2P_DISABLE=1 ...] deepspeed --num_gpus=N
  train.py --deepspeed --config X.toml` (`--config` is train.py's, `--deepspeed` comes from
  deepspeed.add_config_arguments), plus train.py's own --resume_from_checkpoint, --regenerate_cache, --cache_only,
  --trust_cache, --i_know_what_i_am_doing, --dump_dataset, --reset_dataloader. Such a line (a run.sh, a notebook's
  `!` line) is read through the TOML it names when that file is here; otherwise only the trainer is known.
"""

from __future__ import annotations

import os

from . import NOTHING, STRONG, Score, as_int, attention, score_keys

TITLE = "diffusion-pipe"
STRONG_KEYS = {"micro_batch_size_per_gpu", "pipeline_stages", "partition_method", "eval_micro_batch_size_per_gpu",
               "caching_batch_size", "video_clip_mode", "transformer_path", "llm_path",
               "checkpoint_every_n_minutes", "eval_every_n_epochs", "eval_before_first_step",
               "eval_gradient_accumulation_steps", "timestep_sample_method", "transformer_dtype", "activation_checkpointing",
               "save_every_n_steps_dp", "disable_block_swap_for_eval", "x_axis_examples", "gradient_release",
               "eval_every_n_steps", "eval_datasets"}
# steps_per_print is DeepSpeed's own config key (deepspeed/runtime/config.py), which diffusion-pipe passes through
# to deepspeed.initialize: every DeepSpeed config and GPT-NeoX YAML holds it
SHARED_KEYS = {"steps_per_print", "save_every_n_epochs", "blocks_to_swap", "save_dtype", "gradient_clipping", "adapter", "model",
               "optimizer", "monitoring", "dataset", "diffusers_path", "ckpt_path", "vae_path", "clip_path",
               "compile", "epochs"}
COMMON_KEYS = {"output_dir", "warmup_steps", "gradient_accumulation_steps", "dtype", "lr", "type", "rank"}
# [model] type -> family (configs/simpletuner.HEAD_DIMS names) and what its attention needs
TYPES = {"flux": "flux", "ltx-video": "ltxvideo", "hunyuan-video": "hunyuanvideo", "sdxl": "sdxl", "cosmos": "cosmos",
         "lumina_2": "lumina2", "wan": "wan", "chroma": "chroma", "hidream": "hidream", "sd3": "sd3",
         "cosmos_predict2": "cosmos2image", "anima": "anima", "omnigen2": "omnigen2", "qwen_image": "qwen_image",
         "hunyuan_image": "hunyuan_image", "auraflow": "auraflow", "z_image": "z_image", "hunyuan_video_15": "hunyuanvideo",
         "flux2": "flux2", "ernie_image": "ernie_image", "ltx2": "ltxvideo", "ideogram4": "ideogram4", "krea2": "krea2",
         "minimax_h3": "minimax_h3"}
FLASH_ATTN = {"wan": "models/wan/attention.py flash_attention()", "hunyuan_image": "flash_attn_no_pad",
              "hunyuan-video": "hyvideo attention(mode='flash')",
              "hidream": "hi_diffusers HiDreamAttnProcessor_flashattn (flash_attn_func)"}
# a fork's [model] attention_backend (module doc: the Mage-Flow fork's names) -> backend; 'sdpa' is PyTorch's, nothing
# required
FORK_BACKENDS = {"sdpa": None, "flash_attn_2": "fa2", "flash_attn_3": "fa3"}
DTYPES = {"bfloat16": "bfloat16", "float16": "float16", "float32": "float32", "bf16": "bfloat16", "fp16": "float16"}


# train.py's argparse (train.py:42-57): --config and its own options, with deepspeed.add_config_arguments' --deepspeed,
# --deepspeed_config, --deepscale, --deepscale_config (kinds as shell.parse_options takes them)
TRAIN_OPTIONS = {"config": "1", "local_rank": "1", "resume_from_checkpoint": "?", "reset_dataloader": "f",
                 "reset_optimizer": "f", "reset_optimizer_params": "f", "regenerate_cache": "f", "cache_only": "f",
                 "trust_cache": "f", "i_know_what_i_am_doing": "f", "master_port": "1", "dump_dataset": "1",
                 "deepspeed": "f", "deepspeed_config": "1", "deepscale": "f", "deepscale_config": "1"}
# the options only diffusion-pipe's train.py has beside --config: with one of them a train.py run without the deepspeed
# launcher (or its --deepspeed flag) is still diffusion-pipe's
OWN_OPTIONS = {"regenerate_cache", "cache_only", "trust_cache", "i_know_what_i_am_doing", "dump_dataset",
               "reset_dataloader", "reset_optimizer_params"}


def launch(cmd) -> str | None:
    """The TOML of a diffusion-pipe launch: `[deepspeed --num_gpus N] train.py --deepspeed --config X.toml` (README
    "Launching training"); None for a train.py that names no TOML, or that neither the deepspeed launcher, its
    --deepspeed flag nor one of train.py's own options says is diffusion-pipe's."""
    from .shell import parse_options

    if cmd.script != "train.py":
        return None
    from .shell import known

    values = parse_options(cmd.args, TRAIN_OPTIONS).values
    cfg = values.get("config")
    if isinstance(cfg, str) and not known(cfg) and cmd.program == "deepspeed" and values.get("deepspeed") is True:
        # the README's line word for word with the TOML in a variable the script does not set (a container's
        # `--config ${CONFIG_PATH}`, round 8m): the launch is diffusion-pipe's, its settings are not here
        return cfg
    if not (isinstance(cfg, str) and cfg.endswith(".toml")):
        return None
    return cfg if values.get("deepspeed") is True or cmd.program == "deepspeed" or set(values) & OWN_OPTIONS else None


def _model(data: dict) -> dict:
    """The [model] table of diffusion-pipe's TOML: one with `type`, which train.py reads unconditionally
    (config['model']['type'] picks the model class); a [model] table without it (another program's transformer_path /
    vae_path) is not diffusion-pipe's layout."""
    model = data.get("model") if isinstance(data, dict) else None
    return model if isinstance(model, dict) and "type" in model else {}


def _own(sub) -> bool:
    """A TOML diffusion-pipe's own keys or [model] table say is its."""
    return sub is not None and sub["fmt"] == "toml" and bool(set(sub["data"]) & STRONG_KEYS or _model(sub["data"]))


def score(doc: dict) -> "Score":
    if doc["fmt"] in ("text", "python"):  # a launch script, or a notebook's `!` lines
        from . import launch_config, named_config

        _cmd, cfg = launch_config(doc, launch)
        if not cfg:
            return NOTHING
        sub = named_config(doc, cfg)
        if sub is not None and not _own(sub):
            return NOTHING  # the TOML is here and is not diffusion-pipe's: that train.py is some other project's
        return Score().add(f"train.py --deepspeed --config {os.path.basename(cfg)} (diffusion-pipe's launch line)",
                           2 * STRONG)
    if doc["fmt"] != "toml":
        return NOTHING
    sc = score_keys(set(doc["data"]) | set(_model(doc["data"])), STRONG_KEYS, SHARED_KEYS, COMMON_KEYS)
    model = doc["data"].get("model")
    if isinstance(model, dict) and str(model.get("type", "")) in TYPES:
        sc.add(f"[model] type = {model['type']}")
    return sc


def read(doc: dict) -> dict:
    if doc["fmt"] in ("text", "python"):  # the launch command: the TOML it names, when it is here
        from . import launch_config, named_config, unknown_settings

        _cmd, cfg = launch_config(doc, launch)
        sub = named_config(doc, cfg)
        if not _own(sub):  # the TOML that says which model, dtype and compile is not here
            return unknown_settings("diffusion-pipe", TITLE, "compile",
                                    {"compile": "compile = true   # top level of the training TOML"})
        return dict(read(sub), format="cmdline")
    data = doc["data"]
    model = data.get("model") if isinstance(data.get("model"), dict) else {}
    mtype = str(model.get("type") or "").strip()
    family = TYPES.get(mtype, mtype or None)
    from .simpletuner import HEAD_DIMS

    if mtype in FLASH_ATTN:
        entries = [attention(FLASH_ATTN[mtype], f"[model] type = '{mtype}'", "fa2")]
    else:
        entries = []  # the model's own code calls PyTorch SDPA: nothing was chosen, nothing is required
    backend = str(model.get("attention_backend") or "").strip().lower()
    fork = bool(mtype) and mtype not in TYPES  # a model type upstream does not have: the fork's own code reads [model]
    if FORK_BACKENDS.get(backend) and fork:
        entries = [attention(backend, f"[model] attention_backend = '{backend}'", FORK_BACKENDS[backend])]
    comp = data.get("compile") is True
    setting = "compile"
    blocks = fork and model.get("compile_blocks") is True
    if blocks:
        # the fork compiles each block itself (module doc): its [model] compile_mode, 'default' when unset
        comp, setting = True, "[model] compile_blocks"
    mode = str(model.get("compile_mode") or "default").strip() if blocks else "default"
    return {
        "trainer": "diffusion-pipe", "trainer_title": TITLE, "format": "toml",
        "family": family, "head_dims": HEAD_DIMS.get(family or ""), "mixed_precision": model.get("dtype"),
        "dtype": DTYPES.get(str(model.get("dtype", "")).strip().lower()),
        "attention": entries,
        "compile": {"enabled": comp, "mode": mode if comp else None, "setting": setting},
        "batch_size": as_int(data.get("micro_batch_size_per_gpu", 1)),
        "fixes": {"compile": "compile = true   # top level of the training TOML"},
    }


def parse(path: str, text: str) -> dict:
    from . import make_doc

    return read(make_doc(path, text))
