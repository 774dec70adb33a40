"""kohya-ss sd-scripts: a `--config_file` TOML, or a saved command line (`accelerate launch ...
sdxl_train_network.py --sdpa ...`).

Read from kohya-ss/sd-scripts 48d368f (2026-02-16):
- library/train_util.py add_training_arguments: `--mem_eff_attn`, `--xformers`, `--sdpa`, `--torch_compile`,
  `--dynamo_backend` (default inductor; compile only with --torch_compile: prepare_accelerator passes
  dynamo_backend="NO" to Accelerator otherwise, so `accelerate launch --dynamo_backend X` compiles nothing), `--mixed_precision no|fp16|bf16`,
  `--full_bf16`/`--full_fp16`, `--train_batch_size`; read_config_from_file: the TOML's sections are flattened
  and its keys become argparse attributes, so an unknown key is silently never read (the command line's
  unknown flags stop argparse: "unrecognized arguments");
- train_util.replace_unet_modules: mem_eff_attn (sd-scripts' own pure-PyTorch FlashAttention function) wins
  over xformers, which wins over sdpa; with none of them library/original_unet.py's CrossAttention runs the
  plain baddbmm + softmax attention (the whole score matrix in memory);
- library/flux_models.py and sd3_models.py call torch's scaled_dot_product_attention whatever the flags; Lumina's
  (library/lumina_models.py:370-380) does unless `--use_sage_attn` (sageattn) or `--use_flash_attn` (FlashAttention 2);
- hunyuan_image_train_network.py and library/anima_train_utils.py: `--attn_mode torch|xformers|flash|sageattn|sdpa`
  ("xformers requires --split_attn. sageattn does not support training"); without it their LoRA scripts take xformers
  for `--xformers`, else torch (hunyuan_image_train_network.py:389-393, anima_train_network.py:105-109).
"""

from __future__ import annotations

import re

from . import COMPILE_MODES, NOTHING, STRONG, as_bool, as_int, attention, dtype_of, given, score_keys

TITLE = "sd-scripts"
STRONG_KEYS = {"mem_eff_attn", "save_model_as", "clip_skip", "v2", "v_parameterization",
               "full_bf16", "full_fp16", "ae", "clip_l", "clip_g", "t5xxl", "network_train_unet_only",
               "network_train_text_encoder_only", "max_token_length", "shuffle_caption", "enable_bucket",
               "bucket_reso_steps", "min_bucket_reso", "max_bucket_reso", "attn_mode", "train_data_dir",
               "reg_data_dir", "caption_extension", "keep_tokens", "unet_lr",
               "cache_text_encoder_outputs", "no_half_vae", "apply_t5_attn_mask", "model_prediction_type",
               "guidance_scale_flux", "sdxl", "in_json", "lowram", "highvram", "cache_latents"}
# torch_compile: also transformers' TrainingArguments flag (a user's HF-Trainer train.py --torch_compile True)
# prior_loss_weight, text_encoder_lr: diffusers' example scripts' options too (train_dreambooth.py --prior_loss_weight,
# train_dreambooth_lora_sdxl.py --text_encoder_lr)
SHARED_KEYS = {"prior_loss_weight", "text_encoder_lr", "torch_compile", "sdpa", "xformers", "split_attn", "network_module", "network_dim", "network_alpha",
               "network_args", "pretrained_model_name_or_path", "dataset_config", "blocks_to_swap", "timestep_sampling",
               "discrete_flow_shift", "fp8_base", "output_name", "optimizer_type", "max_train_epochs",
               "save_every_n_epochs", "dynamo_backend", "train_batch_size", "sample_prompts", "sample_sampler",
               "persistent_data_loader_workers", "max_data_loader_n_workers", "logging_dir", "vae",
               "noise_offset", "resolution", "optimizer_args", "network_weights", "save_precision"}
COMMON_KEYS = {"mixed_precision", "learning_rate", "seed", "output_dir", "gradient_checkpointing",
               "gradient_accumulation_steps", "lr_scheduler", "max_train_steps"}
# Training scripts (without .py) and their model family; UNet families run original_unet's attention.
SCRIPTS = {"train_network": "sd1x", "train_db": "sd1x", "fine_tune": "sd1x", "train_textual_inversion": "sd1x",
           "sdxl_train_network": "sdxl", "sdxl_train": "sdxl", "sdxl_train_textual_inversion": "sdxl",
           "sdxl_train_control_net": "sdxl", "sdxl_train_control_net_lllite": "sdxl", "train_control_net": "sd1x",
           "flux_train_network": "flux", "flux_train": "flux", "flux_train_control_net": "flux",
           "sd3_train_network": "sd3", "sd3_train": "sd3", "lumina_train_network": "lumina2", "lumina_train": "lumina2",
           "hunyuan_image_train_network": "hunyuan_image", "anima_train_network": "anima", "anima_train": "anima"}
UNET = {"sd1x", "sd2x", "sdxl"}
# sd-scripts' older script names it still ships as shims (kohya-ss/sd-scripts@48d368f train_controlnet.py: "deprecated.
# Please use train_control_net.py", importing setup_parser and train from it, renamed in abff4b0e #1821)
SCRIPT_ALIASES = {"train_controlnet": "train_control_net"}
# Akegarasu/lora-scripts (a GUI over sd-scripts) keeps the script in its saved TOMLs as model_train_type and runs
# trainer_mapping[model_train_type] (default "sd-lora") with --config_file (mikazuki/app/api.py:43-53, 133-134 at
# fdefba9); sd-scripts itself ignores the key (read_config_from_file keeps keys argparse does not define)
LORA_SCRIPTS_TYPES = {"sd-lora": "train_network", "sdxl-lora": "sdxl_train_network", "sd-dreambooth": "train_db",
                      "sdxl-finetune": "sdxl_train", "sd3-lora": "sd3_train_network", "flux-lora": "flux_train_network",
                      "flux-finetune": "flux_train"}
# sd-scripts' (and kohya_ss') data and model tools: captioning, tagging, latents, LoRA merging and extraction, inference.
# A script that runs only these starts no training (round 8m: a pod's prep script running finetune/make_captions.py
# with --caption_extension, kohya-ss/sd-scripts finetune/ and networks/ at 48d368f)
TOOLS = {"make_captions", "make_captions_by_git", "tag_images_by_wd14_tagger", "prepare_buckets_latents",
         "merge_captions_to_metadata", "merge_dd_tags_to_metadata", "clean_captions_and_tags", "blip", "hypernetwork_nai",
         "extract_lora_from_models", "extract_lora_from_dylora", "merge_lora", "svd_merge_lora", "resize_lora",
         "sdxl_merge_lora", "flux_merge_lora", "flux_extract_lora", "merge_lora_old", "lora_interrogator",
         "check_lora_weights", "convert_diffusers20_original_sd", "convert_flux_lora", "detect_face_rotate", "canny",
         "resize_images_to_resolution", "show_metadata", "cache_latents", "cache_text_encoder_outputs",
         "gen_img_diffusers", "gen_img", "sdxl_gen_img", "sdxl_minimal_inference", "flux_minimal_inference",
         "sd3_minimal_inference", "latent_upscaler", "upscale"}
OWN_NETWORKS = {"lora_sd3", "lora_lumina", "lora_fa", "dylora", "oft", "lora_hunyuan_image", "lora_anima", "oft_flux"}
# --attn_mode values (hunyuan_image, anima) -> attn-doctor backend
ATTN_MODES = {"torch": "sdpa", "sdpa": "sdpa", "xformers": "xformers", "flash": "fa2", "sageattn": "sage"}
# Flags people write that sd-scripts does not have (musubi-tuner's, or hyphenated): the nearest real one.
NEAR_MISSES = {"flash_attn": "--sdpa", "flash-attn": "--sdpa", "sage_attn": "--sdpa", "flash3": "--sdpa",
               "flex_attention": "--sdpa", "flex": "--sdpa", "mem-eff-attn": "--mem_eff_attn",
               "torch-compile": "--torch_compile", "compile": "--torch_compile",
               # misspellings of its own names (round 50): argparse takes an unambiguous prefix on a command line
               # (--xformer is --xformers there), but a TOML key must be spelled in full or it is never read
               "xformer": "--xformers", "use_xformers": "--xformers", "x_formers": "--xformers",
               "enable_xformers_memory_efficient_attention": "--xformers", "spda": "--sdpa", "sdpa_attention": "--sdpa",
               "use_sdpa": "--sdpa", "mem_eff": "--mem_eff_attn", "mem_eff_attention": "--mem_eff_attn"}
_SCRIPT = re.compile(r"([A-Za-z0-9_]+)\.py$")
# accelerate launch options sd-scripts overrides with its own (prepare_accelerator, library/train_util.py:5466-5500)
LAUNCHER_OVERRIDDEN = {"mixed_precision", "dynamo_backend", "dynamo_mode", "dynamo_use_fullgraph", "dynamo_use_dynamic"}
# Scripts that also give the VAE xformers with --xformers (vae.set_use_memory_efficient_attention_xformers(
# args.xformers): train_network.py:185 (and the trainers built on it that keep load_target_model:
# sdxl_train_network.py:65), sdxl_train.py:268, train_textual_inversion.py:377 (sdxl_train_textual_inversion.py
# inherits its train()). diffusers' VAE then needs xformers whatever --mem_eff_attn did to the UNet.
VAE_XFORMERS = {"train_network", "sdxl_train_network", "sdxl_train", "train_textual_inversion",
                "sdxl_train_textual_inversion"}
# kohya_ss GUI saved configs (bmaltais/kohya_ss 45088f0): keys only the GUI writes, and the sd-scripts script each
# of its tabs runs (kohya_gui/lora_gui.py:1779-1792, dreambooth_gui.py:882-889, finetune_gui.py:1061-1072,
# textual_inversion_gui.py:750-753).
GUI_KEYS = {"LoRA_type", "flux1_checkbox", "sd3_checkbox", "sdxl_checkbox", "model_list", "lora_network_weights",
            "conv_dim", "conv_alpha", "use_wandb", "wandb_api_key", "caption_metadata_filename", "stop_text_encoder_training",
            "lr_warmup", "num_cpu_threads_per_process", "additional_parameters", "extra_accelerate_launch_args",
            "sample_every_n_steps", "sample_every_n_epochs", "train_on_input", "epoch", "save_every_n_epochs",
            "lycoris_preset", "factor", "block_dims", "block_alphas", "dynamo_use_fullgraph"}
GUI_ATTENTION = {"xformers": "xformers", "sdpa": "sdpa", "none": None}


_KNOWN: set = set()


def known_keys() -> set:
    """Every option any sd-scripts training script defines (configs/options.py), the kohya_ss GUI's `sdxl` switch,
    and a dataset config's keys (a --config_file TOML may carry its dataset along)."""
    if not _KNOWN:
        from .others import DATASET_KEYS
        from .shell import every_option

        _KNOWN.update(every_option("sd-scripts") | DATASET_KEYS | {"sdxl", "datasets", "general"})
    return _KNOWN


# model weights as the trainers save and load them (a file sd-scripts' --pretrained_model_name_or_path, --vae, --ae,
# --clip_l, --t5xxl, --qwen3 ... would take)
WEIGHTS_FILE = re.compile(r"\.(safetensors|ckpt|pth|pt|sft|bin|gguf)$", re.IGNORECASE)


def foreign_weights(data: dict) -> list[str]:
    """The keys of a --config_file TOML that name a model weights file and that no sd-scripts script defines:
    read_config_from_file would set them on the namespace and nothing would ever load them (library/train_util.py
    read_config_from_file), so the program the file is written for loads its model from keys of its own."""
    from . import flatten
    from .shell import every_option

    # musubi-tuner's TOML is the same flat namespace of argparse options: its weights keys (dit, t5, text_encoder1 ...)
    # are musubi-tuner's own evidence, weighed against sd-scripts' by detect(), not a sign of a third program
    musubi = every_option("musubi")
    flat = flatten(data) if isinstance(data, dict) else {}
    return sorted(k for k, v in flat.items() if k not in known_keys() and k not in musubi and isinstance(v, str)
                  and WEIGHTS_FILE.search(v.strip()))


# The network modules sd-scripts ships (kohya-ss/sd-scripts@48d368f networks/*.py that define create_network); a
# --network_module is imported by name (train_network.py: importlib.import_module(args.network_module)), so a
# `networks.<x>` module sd-scripts does not ship but musubi-tuner does (networks.lora_flux_2, lora_wan, lora_qwen_image
# ..., configs/musubi.py MUSUBI_NETWORKS) would stop sd-scripts with ModuleNotFoundError: a file naming one is written for
# musubi-tuner, whatever sd-scripts option names (save_model_as, cache_latents) it carries along.
NETWORKS = {"lora", "lora_anima", "lora_diffusers", "lora_fa", "lora_flux", "lora_hunyuan_image", "lora_lumina",
            "lora_sd3", "dylora", "oft", "oft_flux", "control_net_lllite", "control_net_lllite_for_train"}


def musubi_network(value) -> bool:
    """A `networks.<x>` network module only musubi-tuner ships."""
    from .musubi import MUSUBI_NETWORKS

    if not isinstance(value, str) or not value.startswith("networks."):
        return False
    name = value.split(".", 1)[1]
    return name in MUSUBI_NETWORKS and name not in NETWORKS


def own_keys() -> set:
    """sd-scripts' own option names less those musubi-tuner's training scripts define too: its full fine-tune scripts
    take --full_bf16 / --full_fp16 (qwen_image_train.py, hv_train.py, zimage_train.py, hidream_o1_train.py at
    kohya-ss/musubi-tuner@30c658c; configs/options.py), so those say sd-scripts no more than musubi-tuner."""
    from .shell import every_option

    return STRONG_KEYS - every_option("musubi")


# a user's renamed copy of a training script (sdxl_train_v2.py, train_network_yf.py) takes sd-scripts' options and adds a
# few of its own at most (6DammK9's --pin_memory): this many options sd-scripts never defines make the script another's
COPY_EXTRA = 3


# a fork of sd-scripts that adds options of its own to one of its scripts (bluvoll/sd-scripts-f2vae's sdxl_train.py with
# --flow_model --flow_use_ot --flow_logit_mean ... beside --fused_optimizer_groups --vae_batch_size, round 139m) is still
# sd-scripts' script: this many options that the script of that name defines in sd-scripts and that neither musubi-tuner's
# nor diffusers' scripts define (configs/options.py) say whose script it is, however many the fork adds
FORK_EVIDENCE = 2


def _own_options(cmd, script: str) -> list[str]:
    """The options a command gives that sd-scripts' script `script` defines (its own and the shared ones, configs/options.py)
    and that no musubi-tuner or diffusers script defines: what only a copy of that sd-scripts script takes."""
    from .shell import every_option, option_names, trainer_options

    mine = set(trainer_options(TITLE, script + ".py") or ())
    theirs = every_option("musubi") | every_option("diffusers")
    return sorted({n for n in option_names(cmd.args) if n in mine and n not in theirs})


def _foreign_options(cmd) -> list[str]:
    """The options a command passes to its script (not its launcher's) that no sd-scripts script defines."""
    from .shell import parse_options

    return sorted(k for k in parse_options(cmd.args).values if k.lstrip("-") not in known_keys())


# options of diffusers' examples that sd-scripts never defines, on a command under one of sd-scripts' names: this many
# are diffusers' script of that name (parse_args() would stop on the first), not a version of sd-scripts with options of
# its own (train_controlnet.py is both projects' name: diffusers' --dataset_name --validation_image ...)
DIFFUSERS_EXTRA = 2


def _diffusers_options(names: list[str]) -> list[str]:
    """The option names that diffusers' example scripts define (configs/options.py), abbreviations aside."""
    from .shell import argparse_takes, every_option

    known = every_option("diffusers")
    return [n for n in names if argparse_takes(n.lstrip("-"), known)]


def _stem(script: str | None) -> str:
    m = _SCRIPT.search(script or "")
    return SCRIPT_ALIASES.get(m.group(1), m.group(1)) if m else ""


def _script(doc: dict) -> str | None:
    cmd = doc.get("command")
    for s in ([cmd.script] if cmd is not None and cmd.script else []) + doc["scripts"]:
        stem = _stem(s)
        if stem in SCRIPTS and (stem == _SCRIPT.search(s).group(1) or _own_alias_evidence(doc, cmd)):
            return stem
    return None


def _own_alias_evidence(doc: dict, cmd) -> bool:
    """An older name sd-scripts shares with another project (train_controlnet.py, diffusers' ControlNet example too) is
    sd-scripts' when the command gives an option only sd-scripts defines (--conditioning_data_dir, --xformers,
    --save_model_as ...) or runs it from sd-scripts' / kohya_ss' folder; with shared options alone it stays the other
    project's, as it was read before sd-scripts' shim was known."""
    from .shell import argparse_takes, every_option, option_names

    if cmd is None:
        return False
    if re.search(r"sd-scripts|kohya", " ".join(cmd.words), re.IGNORECASE):
        return True
    theirs = every_option("diffusers")
    return any(n in known_keys() and not argparse_takes(n, theirs) for n in option_names(cmd.args))


def is_gui(doc: dict) -> bool:
    """A kohya_ss GUI saved config: JSON with the GUI's own keys or its attention dropdown's values."""
    if doc["fmt"] != "json":
        return False
    d = doc["data"]
    if set(d) & {"LoRA_type", "flux1_checkbox", "sd3_checkbox", "sdxl_checkbox", "model_list"}:
        return True
    if isinstance(d.get("xformers"), str) and d["xformers"] in GUI_ATTENTION and "mem_eff_attn" in d:
        return True
    # older GUIs saved "xformers": true/false (and before 2023-01-08, a4262c0a, no "mem_eff_attn" beside it); sd-scripts
    # itself reads no JSON, so sd-scripts' own options in one beside the attention switch are a GUI save
    return isinstance(d.get("xformers"), bool) and len(set(d) & STRONG_KEYS) >= 3 and _mostly_options(d)


def _mostly_options(d: dict) -> bool:
    """Half or more of a JSON object's keys are sd-scripts options or kohya_ss GUI fields."""
    keys = [str(k).lstrip("-") for k in d]
    return bool(keys) and 2 * sum(1 for k in keys if k in known_keys() or k in GUI_KEYS) >= len(keys)


def is_options_json(doc: dict) -> bool:
    """sd-scripts' options written out as plain JSON (a notebook's or a wrapper's parameter file, the values it passes
    to the script as --key value): no GUI fields, but three or more options only sd-scripts has and mostly its
    options. sd-scripts reads TOML, not JSON, so this is what the command line those values make will do."""
    if doc["fmt"] != "json" or is_gui(doc) or not isinstance(doc["data"], dict):
        return False
    d = doc["data"]
    # a model weights file under a key no sd-scripts script defines (`"pretrained_model": "./sd-models/model.ckpt"`,
    # round 79m's Axaxin GUI JSON, whose program writes its own launch script from it): the values are not handed on
    # as --key value, the program the file is written for maps its own keys (foreign_weights, as for a TOML; cfg81)
    return len({str(k).lstrip("-") for k in d} & STRONG_KEYS) >= 3 and _mostly_options(d) and not foreign_weights(d)


def gui_script(d: dict) -> str:
    """The sd-scripts script the GUI tab that saved this config runs."""
    sdxl = d.get("sdxl") is True or d.get("sdxl_checkbox") is True
    flux, sd3 = d.get("flux1_checkbox") is True, d.get("sd3_checkbox") is True
    hyimage, anima, lumina = (d.get(k) is True for k in ("hunyuan_image_checkbox", "anima_checkbox", "lumina_checkbox"))
    if "LoRA_type" in d:
        # the newer tabs (bmaltais/kohya_ss@45088f0 kohya_gui/lora_gui.py:1779-1792): HunyuanImage, Anima, Lumina
        return "sdxl_train_network" if sdxl else "flux_train_network" if flux else "sd3_train_network" if sd3 \
            else "hunyuan_image_train_network" if hyimage else "anima_train_network" if anima \
            else "lumina_train_network" if lumina else "train_network"
    if "token_string" in d or "num_vectors_per_token" in d:
        return "sdxl_train_textual_inversion" if sdxl else "train_textual_inversion"
    if "train_dir" in d or "image_folder" in d or "caption_metadata_filename" in d:
        # finetune_gui.py:1061-1072
        return "sdxl_train" if sdxl else "sd3_train" if sd3 else "flux_train" if flux else "anima_train" if anima \
            else "lumina_train" if lumina else "fine_tune"
    return "sdxl_train" if sdxl else "sd3_train" if sd3 else "flux_train" if flux else "train_db"


def gui_settings(d: dict) -> dict:
    """A GUI config as the sd-scripts options it passes (the attention dropdown becomes --xformers / --sdpa; a
    boolean `xformers` from older GUIs is converted the way common_gui.py:482-487 does)."""
    s = dict(d)
    x = d.get("xformers")
    if isinstance(x, bool):
        x = "xformers" if x else "none"
    s["xformers"] = x == "xformers"
    s["sdpa"] = x == "sdpa" or d.get("sdpa") is True
    # the GUI's "dynamo_backend" only becomes `accelerate launch --dynamo_backend` (class_accelerate_launch.py:152-154),
    # which sd-scripts overrides (see read()): only a torch_compile the GUI passes (its Anima tab) compiles
    s["torch_compile"] = as_bool(d.get("torch_compile"))
    # the newer tabs' own fields become sd-scripts options only with their checkbox (kohya_gui/lora_gui.py:2473-2482,
    # 2507-2508, 2536; finetune_gui.py:1434-1435): --attn_mode (Anima's "torch" passes none), --split_attn,
    # --use_flash_attn / --use_sage_attn, Anima's legacy --torch_compile
    if d.get("anima_checkbox") is True:
        mode = d.get("anima_attn_mode")
        s["attn_mode"] = mode if given(mode) and mode != "torch" else None
        s["split_attn"] = d.get("anima_split_attn")
        s["torch_compile"] = as_bool(d.get("anima_torch_compile")) or s["torch_compile"]
    elif d.get("hunyuan_image_checkbox") is True:
        s["attn_mode"] = d.get("hunyuan_attn_mode") if given(d.get("hunyuan_attn_mode")) else None
        s["split_attn"] = d.get("hunyuan_split_attn")
    elif d.get("lumina_checkbox") is True:
        s["use_flash_attn"] = d.get("lumina_use_flash_attn")
        s["use_sage_attn"] = d.get("lumina_use_sage_attn")
    s["dynamo_backend"] = str(d.get("dynamo_backend") or "inductor").strip().lower()
    extra = d.get("additional_parameters")
    if isinstance(extra, str) and extra.strip():
        # "Additional parameters" go on the command line after `--config_file config_lora-*.toml` as the GUI writes them,
        # double quotes removed and split on white space (bmaltais/kohya_ss@45088f0 kohya_gui/common_gui.py:1339-1342,
        # lora_gui.py:2588-2597), and a command-line option wins over the TOML: "--sdpa" there turns SDPA on,
        # "--torch_compile --dynamo_backend inductor" compiles, whatever the dropdowns say
        from .shell import parse_options, trainer_options

        table = trainer_options("sd-scripts", gui_script(d) + ".py")
        for k, v in parse_options(extra.replace('"', "").split(), table).values.items():
            s[k] = v
    return s


def score(doc: dict) -> "Score":
    from . import flatten

    if is_gui(doc):
        sc = score_keys(set(doc["data"]), GUI_KEYS | STRONG_KEYS, SHARED_KEYS, COMMON_KEYS)
        x = doc["data"].get("xformers")
        if isinstance(x, str):
            sc.add(f"xformers: {x!r} (the kohya_ss GUI's attention choice)")
        return sc
    if is_options_json(doc):
        sc = score_keys({str(k).lstrip("-") for k in doc["data"]}, STRONG_KEYS, SHARED_KEYS, COMMON_KEYS)
        sc.add("sd-scripts options as JSON (mostly sd-scripts' own option names)")
        return sc
    from . import notebook_command

    if doc["fmt"] not in ("toml", "text") and not notebook_command(doc):
        return NOTHING  # (a notebook's `!python anima_train_network.py ...` lines are a launch script)
    text = doc["fmt"] != "toml"
    cmd = doc.get("command")
    if text and cmd is not None and not cmd.script:
        return NOTHING  # sd-scripts has no CLI: a command that runs no .py (trl sft, llamafactory-cli ...) is not its
    if text and not _script(doc) and any(_stem(c.script) in TOOLS for c in doc.get("commands") or [] if c.script):
        return NOTHING  # only its tools run (captioning, tagging, merging): no training to read
    keys = set(flatten(doc["data"])) if doc["fmt"] == "toml" else set(doc["args"])
    if doc["fmt"] == "toml" and len(keys - known_keys()) >= len(keys & known_keys()):
        # read_config_from_file (library/train_util.py:4760-4761) sets every key of a --config_file TOML on the argparse
        # namespace and argparse ignores the ones it does not define: a TOML half of whose keys sd-scripts has no
        # option for (NewBie's base_model_path, gemma3_prompt, num_epochs ...) is written for another trainer, and
        # the sd-scripts names in it (enable_bucket, train_data_dir) are no longer sd-scripts' own evidence
        return score_keys(keys, (), STRONG_KEYS | SHARED_KEYS, COMMON_KEYS)
    if doc["fmt"] == "toml" and foreign_weights(doc["data"]):
        # the model the file trains is loaded from a key no sd-scripts script defines (a fork's anima_transformer =
        # ".../anima_transformer.safetensors"): sd-scripts would never read those weights, the program that does is
        # another one built on sd-scripts' option names, whose enable_bucket / network_dim are then its own
        return score_keys(keys, (), STRONG_KEYS | SHARED_KEYS, COMMON_KEYS)
    # (no command trains by name: the one that runs a .py script with options is the job, as configs._script_run says)
    runs = cmd if cmd is not None else next((c for c in doc.get("commands") or [] if c.script and
                                             c.script.endswith(".py") and not c.module and
                                             any(a.startswith("--") for a in c.args)), None)
    script = _script(doc)
    foreign = _foreign_options(runs) if runs is not None and runs.script else []
    if text and runs is not None and runs.script and script and _stem(runs.script) == script and \
            (len(_diffusers_options(foreign)) >= DIFFUSERS_EXTRA or
             len(foreign) >= COPY_EXTRA and len(keys - known_keys()) > len(keys & known_keys()) and
             len(_own_options(runs, script)) < FORK_EVIDENCE):
        # a script under one of sd-scripts' own names given options sd-scripts never defines (parse_args() stops on the
        # first) which are diffusers' examples' own: diffusers' script saved under that name (its textual_inversion
        # example as tools/train_textual_inversion.py, run with --learnable_property --placeholder_token
        # --initializer_token --scale_lr), whose --train_data_dir / --resolution are then diffusers', not sd-scripts'
        # evidence. A few options no trainer defines say nothing of whose script it is (round 6b keeps
        # train_network.py --foo --bar ... sd-scripts'); more of them than of sd-scripts' own do (PixArt-alpha's
        # train_scripts/train_controlnet.py CONFIG.py --work-dir --resume_from, under sd-scripts' older ControlNet name)
        return score_keys(keys, (), STRONG_KEYS | SHARED_KEYS, COMMON_KEYS)
    if text and runs is not None and runs.script and not script and \
            (len(keys - known_keys()) >= len(keys & known_keys()) or len(foreign) >= COPY_EXTRA):
        # the same on a command line: the script it runs parses its options (parse_args() stops on one it does not
        # define), so a script that is none of sd-scripts' and takes at least as many options sd-scripts has not
        # (VideoX-Fun's train_lora.py --train_data_meta --video_sample_size ... --enable_bucket), or more than a renamed
        # copy adds (EasyAnimate's train_lora.py --config_path --video_sample_size --checkpointing_steps ... beside
        # sd-scripts' --enable_bucket / --train_data_dir), is another trainer's, whose --enable_bucket are its own
        return score_keys(keys, (), STRONG_KEYS | SHARED_KEYS, COMMON_KEYS)
    if musubi_network((flatten(doc["data"]) if doc["fmt"] == "toml" else doc["args"]).get("network_module")):
        return score_keys(keys, (), STRONG_KEYS | SHARED_KEYS, COMMON_KEYS)
    sc = score_keys(keys, own_keys(), SHARED_KEYS | (STRONG_KEYS - own_keys()), COMMON_KEYS)
    flat = flatten(doc["data"]) if doc["fmt"] == "toml" else doc["args"]
    net = flat.get("network_module")
    if isinstance(net, str) and net.rsplit(".", 1)[-1] in OWN_NETWORKS:
        sc.add(f"network_module={net}")
    if doc["fmt"] == "toml" and {"network_module", "pretrained_model_name_or_path"} <= keys and \
            keys - set(NEAR_MISSES) <= known_keys():  # (a misspelt `spda = true` beside them is still a user's slip)
        # a --config_file TOML naming both the model to load and the LoRA module to train, every key of it an sd-scripts
        # option: sd-scripts has both (train_util.py add_sd_models_arguments, train_network.py setup_parser);
        # musubi-tuner loads --dit and has no pretrained_model_name_or_path, diffusers' examples and SimpleTuner have no
        # network_module (configs/options.py). (A key of the user's own beside them: some program of theirs.)
        sc.add("network_module with pretrained_model_name_or_path")
    sections = _argument_sections(doc)
    if len(sections) >= 2:
        # read_config_from_file joins a TOML's tables into one namespace whatever they are called (library/train_util.py
        # read_config_from_file: "combine all sections into one"), and the sd-scripts notebooks and GUIs users copy
        # write them as [model_arguments] [additional_network_arguments] [optimizer_arguments] [training_arguments]
        # [saving_arguments] ...: that layout with sd-scripts' option names in it is an sd-scripts --config_file
        sc.add(f"[{'] ['.join(sections[:3])}] (sd-scripts' --config_file sections)")
    if script:
        sc.add(f"{script}.py", 2 * STRONG)
    # the repository's name in a launch script supports its options or script (`cd kohya_ss/sd-scripts; accelerate launch
    # "$SCRIPT" --xformers ...`); a file that passes no option and runs no sd-scripts script (an installer that clones
    # kohya_ss, then makes a venv) starts no sd-scripts training whatever it names
    if text and (keys or script) and re.search(r"sd-scripts|kohya_ss", doc["text"]):
        sc.add("sd-scripts")
    return sc


_ARGUMENT_SECTION = re.compile(r"^[a-z][a-z0-9_]*_arguments$")


def _argument_sections(doc: dict) -> list[str]:
    """The `*_arguments` tables of a TOML (model_arguments, additional_network_arguments, training_arguments ...) whose
    keys are mostly sd-scripts options; [] for any other file."""
    data = doc.get("data")
    if doc["fmt"] != "toml" or not isinstance(data, dict):
        return []
    names = [k for k, v in data.items() if isinstance(v, dict) and _ARGUMENT_SECTION.match(str(k))]
    keys = {k for n in names for k in data[n]}
    return names if keys and len(keys & known_keys()) * 2 > len(keys) else []


def _runtime_options(cmd) -> bool:
    """A command whose options are all a string the script computes at run time (`accelerate launch train_network.py
    $PY_VALUE`: the whole option string built in Python), none written out."""
    if cmd is None or not cmd.script:
        return False
    return bool(cmd.args) and all(w == "$PY_VALUE" for w in cmd.args)


def _training_config(data: dict) -> bool:
    """A dict a script dumps that is an sd-scripts training config: sd-scripts' own options (its sections flattened),
    the precision or an attention switch among them."""
    from . import flatten

    keys = set(flatten(data)) if isinstance(data, dict) else set()
    return bool(keys & {"mixed_precision", "xformers", "sdpa", "mem_eff_attn", "full_bf16", "full_fp16"}) and \
        len(keys & known_keys()) * 2 > len(keys)


def read(doc: dict) -> dict:
    from . import config_data, flatten, notebook_command

    from .shell import check_options

    cmd = doc["fmt"] == "text" or notebook_command(doc)
    unread = False  # a --config_file TOML the command names but this machine does not have
    gui = is_gui(doc)
    misses: list[str] = []
    errors: list[dict] = []
    script = _script(doc)
    if gui:
        s = gui_settings(doc["data"])
        script = gui_script(doc["data"])
    elif cmd:
        s = dict(doc["args"])
        if doc.get("command") is not None and doc["command"].script and script:
            parsed, errors = check_options("sd-scripts", doc["command"])
            # the launcher's --mixed_precision and --dynamo_* never reach the run: prepare_accelerator gives Accelerator
            # the script's own mixed_precision (default "no", library/train_util.py:3981-3984, 5496) and dynamo_backend
            # (and `accelerate launch --config_file accel.yaml` names accelerate's own YAML, not sd-scripts' --config_file
            # TOML, which comes after the script)
            launcher = {k: v for k, v in doc["command"].launcher_args.items()
                        if k not in LAUNCHER_OVERRIDDEN and k != "config_file"}
            s = {**launcher, **parsed.values}
            errors = [e for e in errors if e["name"].lstrip("-") not in NEAR_MISSES]
        misses = [k for k in s if k in NEAR_MISSES]
        cf = s.get("config_file")
        if cf is None and _runtime_options(doc.get("command")):
            # the options are a string the script builds at run time (round 28: kohya-trainer notebooks' `!{final_args}`
            # with train_args = train(train_conf)): the settings are the training config it writes (the one among the
            # dicts it dumps that holds sd-scripts' training options), else unknown, never sd-scripts' defaults
            written = [d for t, d in doc.get("dumped") or [] if not isinstance(t, str) and _training_config(d)]
            unread = len(written) != 1
            if not unread:
                merged = flatten(written[0])
                merged.update(s)
                s = merged
        elif given(cf) or cf not in (None, "", True):
            # read_config_from_file adds .toml when the name has none (library/train_util.py:4700-4761); the file is
            # the one the script writes itself (a heredoc, a notebook cell's Python), else the one on this machine.
            # A name settled only at run time (`--config_file={config_path}` in a notebook's f-string, `"$CFG"`) is
            # still a config file the run reads: the one the script writes when it writes one (dumped_for), else
            # unread, never sd-scripts' defaults
            name = str(cf) if str(cf).endswith(".toml") else f"{cf}.toml"
            data = config_data(doc, name)
            unread = data is None
            if data is not None:
                merged = flatten(data)
                misses += [k for k in merged if k in NEAR_MISSES and as_bool(merged[k]) and k not in misses]
                merged.update(s)
                s = merged
    else:  # a --config_file TOML, or the same options as JSON (is_options_json)
        s = flatten(doc["data"])
        misses = [k for k in s if k in NEAR_MISSES and as_bool(s[k])]
    if not script and str(s.get("model_train_type")) in LORA_SCRIPTS_TYPES:
        # a TOML a lora-scripts GUI saved: its model_train_type is the script the GUI runs it with
        script = LORA_SCRIPTS_TYPES[str(s.get("model_train_type"))]
    family = SCRIPTS.get(script or "")
    net = str(s.get("network_module") or "")
    if not family:
        if "lora_lumina" in net or given(s.get("gemma2")):
            # before `ae`: Lumina takes the FLUX autoencoder too (--ae beside --gemma2, library/lumina_train_util.py)
            family = "lumina2"
        elif "lora_flux" in net or given(s.get("ae")) or (given(s.get("t5xxl")) and not given(s.get("clip_g"))):
            family = "flux"
        elif "lora_sd3" in net or given(s.get("clip_g")):
            family = "sd3"
        elif "lora_hunyuan_image" in net:  # networks/lora_hunyuan_image.py, networks/lora_anima.py: their DiTs'
            family = "hunyuan_image"
        elif "lora_anima" in net:
            family = "anima"
        else:
            family = "sd2x" if as_bool(s.get("v2")) else None  # SD 1.x/2.x or SDXL: a UNet either way
    unet = family in UNET or family is None
    if family == "sd1x" and as_bool(s.get("v2")):
        family = "sd2x"
    as_json = gui or doc["fmt"] == "json"
    flag = (lambda k: f"--{k}") if cmd else (lambda k: f'"{k}": true') if as_json else (lambda k: f"{k} = true")
    entries = []
    mode = s.get("attn_mode") if given(s.get("attn_mode")) else None
    if mode is not None:
        b = ATTN_MODES.get(str(mode).strip().lower())
        entries.append(attention(f"attn_mode={mode}", "--attn_mode" if cmd else "attn_mode", b, known=b is not None,
                                 fix="--attn_mode torch" if cmd else 'attn_mode = "torch"'))
    elif family == "lumina2" and (as_bool(s.get("use_sage_attn")) and script != "lumina_train"
                                  or as_bool(s.get("use_flash_attn"))):
        # Lumina's JointAttention takes sageattn, then flash_attn_varlen_func, else SDPA (kohya-ss/sd-scripts@48d368f
        # library/lumina_models.py:323, 370-380, 531); lumina_train_network.py:60-61 passes both switches,
        # lumina_train.py:301 only --use_flash_attn. Sage "only supports inference" (lumina_models.py:868).
        if as_bool(s.get("use_sage_attn")) and script != "lumina_train":
            entries.append(attention(flag("use_sage_attn"), "use_sage_attn", "sage",
                                     fix="--use_flash_attn" if cmd else "use_flash_attn = true"))
        else:
            entries.append(attention(flag("use_flash_attn"), "use_flash_attn", "fa2"))
    elif family in ("hunyuan_image", "anima") and script != "anima_train" and as_bool(s.get("xformers")):
        # attn_mode = "torch", "xformers" with --xformers, --attn_mode over both (kohya-ss/sd-scripts@48d368f
        # hunyuan_image_train_network.py:389-393, anima_train_network.py:105-109; anima_train.py:243 reads attn_mode only)
        entries.append(attention(flag("xformers"), "xformers", "xformers"))
    elif unet and script in (None, "fine_tune", "sdxl_train") and as_bool(s.get("diffusers_xformers")):
        # --diffusers_xformers (defined by fine_tune.py:533 and sdxl_train.py:921 only, so a renamed script taking it is
        # a copy of one of them) turns on diffusers' xformers in the U-Net (fine_tune.py:167-169) or the VAE
        # (sdxl_train.py:258-262) and skips replace_unet_modules, so --xformers / --sdpa / --mem_eff_attn do nothing
        # (kohya-ss/sd-scripts@48d368f fine_tune.py:170-174, sdxl_train.py:263-268)
        entries.append(attention(flag("diffusers_xformers"), "diffusers_xformers (diffusers' xformers)", "xformers"))
    elif not unet:
        entries.append(attention("scaled_dot_product_attention", f"{family} model (always PyTorch SDPA)", "sdpa"))
    elif as_bool(s.get("mem_eff_attn")):
        entries.append(attention(flag("mem_eff_attn"), "mem_eff_attn", None, kind="builtin"))  # pure PyTorch
        if as_bool(s.get("xformers")) and (script in VAE_XFORMERS or script is None and doc["fmt"] == "toml"):
            entries.append(attention(flag("xformers"), "xformers (the VAE's attention)", "xformers"))
    elif as_bool(s.get("xformers")):
        entries.append(attention(flag("xformers"), "xformers", "xformers"))
    elif as_bool(s.get("sdpa")):
        entries.append(attention(flag("sdpa"), "sdpa", "sdpa"))
    for k in misses:
        entries.append(attention(flag(k), f"--{k}" if cmd else k, None, known=False, suggestion=NEAR_MISSES[k],
                                 fix=NEAR_MISSES[k] if cmd else f"{NEAR_MISSES[k][2:]} = true"))
    mp = s.get("mixed_precision")
    mp = str(mp).strip().lower() if given(mp) else "no"
    dt = dtype_of(mp) or ("bfloat16" if as_bool(s.get("full_bf16")) else "float16" if as_bool(s.get("full_fp16"))
                          else "float32")
    if as_bool(s.get("full_fp16")) and mp != "fp16" or \
            not as_bool(s.get("full_fp16")) and as_bool(s.get("full_bf16")) and mp != "bf16":
        # "full_fp16 requires mixed precision='fp16'" / "full_bf16 requires mixed precision='bf16'": the training
        # scripts assert it before the first step (kohya-ss/sd-scripts@48d368f train_network.py:814-823, sdxl_train.py
        # :458-469), so the run never gets to attention (round 31: a wrapper whose defaults are fp16 with --full_bf16)
        dt = None
    if unread and not given(s.get("mixed_precision")):
        # the TOML that would say is not here. The launcher's --mixed_precision is overridden by the TOML's value (or
        # sd-scripts' default "no"), so it is only the user's intent: reported as the best guess, never as fact
        hint = doc["command"].launcher_args.get("mixed_precision") if doc.get("command") is not None else None
        mp = str(hint).strip().lower() if given(hint) and dtype_of(hint) else None
        dt = dtype_of(mp) if mp else None
    elif s.get("mixed_precision") not in (None, "", True) and not given(s.get("mixed_precision")):
        mp, dt = None, None  # `--mixed_precision "$prec"`: a shell variable the script never settles
    elif s.get("mixed_precision") == "" and not as_json:
        # `mixed_precision = ""` (a template's blank): read_config_from_file puts the TOML's "" on the Namespace as it
        # is (kohya-ss/sd-scripts library/train_util.py read_config_from_file: argparse.Namespace(**ignore_nesting_dict)
        # then parse_args(namespace=...), which checks no choices for it), and prepare_accelerator hands it to
        # Accelerator(mixed_precision=""), which raises "Unknown mixed_precision mode" (huggingface/accelerate
        # src/accelerate/accelerator.py Accelerator.__init__: "" is no PrecisionType); on a command line argparse
        # refuses "" as an invalid choice. The run stops before the first step: no dtype reaches attention. (A GUI's
        # JSON is not this: kohya_ss passes --mixed_precision only when it is set, so sd-scripts' "no" runs.)
        mp, dt = None, None
    # prepare_accelerator (library/train_util.py:5466-5500, since v0.8.0 62e75165 2023-12-27) hands Accelerator its own
    # dynamo_backend: "NO" unless --torch_compile, then --dynamo_backend (default inductor). An `accelerate launch
    # --dynamo_backend X` (or the GUI's dynamo setting, which becomes one) is overridden and compiles nothing.
    comp = as_bool(s.get("torch_compile")) if not (unread and "torch_compile" not in s) else None
    dyn = str(s.get("dynamo_backend") or "inductor").strip().lower()
    # with --torch_compile, Accelerator(dynamo_backend=...) builds TorchDynamoPlugin(backend=...) whose mode comes from
    # ACCELERATE_DYNAMO_MODE (huggingface/accelerate@16cb6eb accelerator.py:326-327, utils/dataclasses.py:1098-1099): the
    # launcher's --dynamo_mode (the GUI's "dynamo_mode" becomes one) is the compile's mode
    if gui:
        launch_mode = doc["data"].get("dynamo_mode")
    else:
        launch_mode = doc["command"].launcher_args.get("dynamo_mode") if cmd and doc.get("command") is not None else None
    launch_mode = str(launch_mode).strip() if given(launch_mode) and str(launch_mode).strip() in COMPILE_MODES else None
    from .simpletuner import HEAD_DIMS

    from . import conditional_flags

    return conditional_flags({
        "trainer": "sd-scripts", "trainer_title": "kohya_ss GUI (sd-scripts)" if gui else TITLE,
        "format": "cmdline" if cmd else "json" if as_json else "toml", "script": script, "cmdline_errors": errors,
        "family": family, "head_dims": HEAD_DIMS.get(family or ""), "mixed_precision": mp, "dtype": dt,
        "attention": entries,
        "compile": {"enabled": comp, "mode": ("reduce-overhead" if dyn == "cudagraphs" else launch_mode or "default")
                    if comp else None,
                    "setting": "--torch_compile" if cmd else "torch_compile"},
        "batch_size": as_int(s.get("train_batch_size", 1)), "unet": unet and mode is None,
        "split_attn": as_bool(s.get("split_attn")), "config_file_unread": unread,
        "sage_training": mode is not None and ATTN_MODES.get(str(mode).strip().lower()) == "sage" or
        any(e["setting"] == "use_sage_attn" for e in entries),
        "fixes": {"sdpa": "--sdpa" if cmd else '"xformers": "sdpa"   # the GUI\'s CrossAttention choice' if gui
                  else '"sdpa": true' if as_json else "sdpa = true   # in the TOML",
                  "sage": ("drop --use_sage_attn   # or --use_flash_attn" if cmd else "use_sage_attn = false")
                  if family == "lumina2" else "--attn_mode torch" if cmd else 'attn_mode = "torch"   # instead of sageattn',
                  "split_attn": "--split_attn" if cmd else "split_attn = true"},
    }, doc)


def parse(path: str, text: str) -> dict:
    from . import make_doc

    return read(make_doc(path, text))
