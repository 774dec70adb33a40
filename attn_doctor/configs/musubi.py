"""musubi-tuner and blissful-tuner: a `--config_file` TOML, or a saved command line
(`accelerate launch ... wan_train_network.py --sdpa ...`).

Names read from kohya-ss/musubi-tuner 30c658c (2026-06-24): src/musubi_tuner/training/parser_common.py
(--sdpa --flash_attn --sage_attn --xformers --flash3 --split_attn, --compile, --compile_mode with choices
default | reduce-overhead | max-autotune | max-autotune-no-cudagraphs, --dynamo_backend/--dynamo_mode,
--mixed_precision no | fp16 | bf16, read_config_from_file: TOML sections are flattened, CLI flags override
the TOML, and unknown keys become attributes nobody reads), training/trainer_base.py (refuses --sage_attn for
training; picks the first of sdpa, flash_attn, sage_attn, xformers, flash3; none set is a ValueError),
hunyuan_model/attention.py (xformers asserts "Xformers only supports splitting" without --split_attn) and
docs/hunyuan_video.md, zimage.md, hunyuan_video_1_5.md (xformers needs --split_attn).
blissful-tuner's `--cute` / `cute = true`, `compile`, `compile_mode`: /work/shared/seeds/cute-training-guide.en.md
(blissful.py tells a blissful-tuner file from a musubi-tuner one; this module reads both).
Detection (score): musubi-tuner's own keys (dit, task, t5, sage_attn, flash_attn, flash3, fp8_scaled, ...) and
scripts (wan_train_network.py, ...) weigh most; keys it shares with sd-scripts (sdpa, xformers, network_module,
dataset_config, ...) little; its own networks.lora_<model> modules count as its own.
The dataset TOML's batch_size ([general] or [[datasets]]) is read when dataset_config exists on this machine.
"""

from __future__ import annotations

import os
import re
import shlex

from ..model import UsageError
from . import NOTHING, as_bool, attention, dtype_of, given, load_toml, read_text

TITLE = "musubi-tuner"
# argparse dest -> attn-doctor backend, in the order trainer_base.py tries them (cute: blissful-tuner)
FLAGS = {"sdpa": "sdpa", "flash_attn": "fa2", "sage_attn": "sage", "xformers": "xformers", "flash3": "fa3",
         "cute": "cute"}
BOOL_FLAGS = set(FLAGS) | {"split_attn", "compile", "compile_fullgraph", "dynamo_fullgraph", "dynamo_dynamic"}
# Spellings users write that musubi-tuner's parser does not have (the guides' `--flash-attn` among them).
NEAR_MISSES = {
    "flash-attn": "--flash_attn", "sage-attn": "--sage_attn", "split-attn": "--split_attn", "flash-3": "--flash3",
    "flash_attn3": "--flash3", "flash_attn_3": "--flash3", "flash-attn-3": "--flash3", "sageattn": "--sage_attn",
    "sage_attention": "--sage_attn", "flex": None, "flex_attn": None, "flex-attn": None, "flash_attn4": "--cute",
    "flash4": "--cute",
}
# Families by training script (…_train_network.py / …_train.py), and their attention head dims.
SCRIPTS = {"wan": "wan", "hv": "hunyuan_video", "hv_1_5": "hunyuan_video_1_5", "fpack": "framepack",
           "qwen_image": "qwen_image", "zimage": "zimage", "flux_kontext": "flux_kontext", "flux_2": "flux_2",
           "ideogram4": "ideogram4", "kandinsky5": "kandinsky5", "krea2": "krea2", "hidream_o1": "hidream_o1"}
HEAD_DIMS = {"wan": [128], "hunyuan_video": [128], "framepack": [128], "qwen_image": [128], "zimage": [128],
             "flux_kontext": [128], "flux_2": [128], "ideogram4": [256]}
# networks.lora_<x> modules, for a TOML that names no script (networks.lora itself is HunyuanVideo's).
NETWORKS = {"lora_wan": "wan", "lora_qwen_image": "qwen_image", "lora_framepack": "framepack",
            "lora_zimage": "zimage", "lora_flux": "flux_kontext", "lora_flux_2": "flux_2",
            "lora_hv_1_5": "hunyuan_video_1_5", "lora_ideogram4": "ideogram4", "lora": "hunyuan_video"}
_SCRIPT = re.compile(r"(?:^|[\s/])((?:[a-z0-9_]+?)_train(?:_network)?)\.py\b")
_WAN_TASK = re.compile(r"^(t2v|i2v|t2i|flf2v|ti2v)-", re.IGNORECASE)


# Keys only musubi-tuner uses, keys it shares with sd-scripts (same author, same TOML/argparse style) or others.
STRONG_KEYS = {"dit", "dit_high_noise", "dit_dtype", "sage_attn", "flash_attn", "flash3",
               "text_encoder1", "text_encoder2", "fp8_scaled", "fp8_t5", "fp8_llm", "vae_cache_cpu",
               "vae_chunk_size", "vae_spatial_tile_sample_min_size",
               "timestep_boundary", "offload_inactive_dit", "num_timestep_buckets", "preserve_distribution_shape",
               "img_in_txt_in_offloading", "compile_fullgraph", "compile_dynamic", "compile_backend"}
# task, t5, clip, guidance_scale, image_encoder: words many configs use (a generation config's guidance_scale, a
# model registry's clip / t5 paths): musubi-tuner's only beside its own keys
SHARED_KEYS = {"task", "t5", "clip", "guidance_scale", "image_encoder",
               "sdpa", "xformers", "split_attn", "network_module", "network_dim", "network_alpha", "network_args",
               "dataset_config", "blocks_to_swap", "timestep_sampling", "discrete_flow_shift", "compile",
               "compile_mode", "dynamo_backend", "dynamo_mode", "fp8_base", "vae", "text_encoder", "output_name",
               "optimizer_type", "max_train_epochs", "save_every_n_epochs", "weighting_scheme", "sample_prompts",
               "persistent_data_loader_workers", "max_data_loader_n_workers", "network_weights", "logging_dir"}
COMMON_KEYS = {"mixed_precision", "learning_rate", "seed", "output_dir", "gradient_checkpointing",
               "gradient_accumulation_steps", "lr_scheduler", "max_train_steps"}
# the network modules musubi-tuner ships (kohya-ss/musubi-tuner@30c658c src/musubi_tuner/networks/*.py)
MUSUBI_NETWORKS = {"lora", "loha", "lokr", "lora_flux", "lora_flux_2", "lora_framepack", "lora_hidream_o1", "lora_hv_1_5",
                   "lora_ideogram4", "lora_kandinsky", "lora_krea2", "lora_qwen_image", "lora_wan", "lora_zimage"}
# networks.<x> modules only musubi-tuner has (networks.lora and lora_flux exist in sd-scripts too)
OWN_NETWORKS = {n for n in NETWORKS if n not in ("lora", "lora_flux")} | {"lora_kandinsky5", "lora_hunyuan_video_1_5"} \
    | (MUSUBI_NETWORKS - {"lora", "lora_flux", "loha", "lokr"})


def own_keys() -> set:
    """musubi-tuner's own option names less those an sd-scripts training script defines too (vae_chunk_size: sd-scripts'
    too, configs/options.py), the mirror of configs/sd_scripts.py own_keys: a key both trainers' parsers take says
    neither."""
    from .shell import every_option

    return STRONG_KEYS - every_option("sd-scripts")


def score(doc: dict) -> "Score":
    from . import STRONG, score_keys

    from . import notebook_command

    if doc["fmt"] not in ("toml", "text") and not notebook_command(doc):
        return NOTHING  # musubi-tuner reads a --config_file TOML and its command line (a notebook's too)
    flat = _flatten(doc["data"]) if doc["fmt"] == "toml" else None
    keys = set(flat) if flat is not None else set(doc["args"])
    sc = score_keys(keys, own_keys() | set(NEAR_MISSES) - {"flex"}, SHARED_KEYS | (STRONG_KEYS - own_keys()),
                    COMMON_KEYS)
    net = (flat if flat is not None else doc["args"]).get("network_module")
    if isinstance(net, str) and net.rsplit(".", 1)[-1] in OWN_NETWORKS:
        sc.add(f"network_module={net}")
    if flat is not None and is_gui_project(flat):
        sc.add(f"model_arch={doc['data'].get('model_arch')} (musubi-tuner GUI project)", 2 * STRONG)
    for s in doc["scripts"]:
        stem = re.sub(r"_train(_network)?\.py$", "", s)
        if s.endswith(("_train_network.py", "_train.py")) and stem in SCRIPTS:
            sc.add(s, 2 * STRONG)
        elif re.sub(r"_generate_(video|image)\.py$", "", s) in SCRIPTS and re.search(r"_generate_(video|image)\.py$", s):
            sc.add(s, 2 * STRONG)  # its generation scripts (wan_generate_video.py ...): --attn_mode
    if doc["fmt"] == "text" and "musubi" in doc["text"].lower() and (
            keys & (STRONG_KEYS | SHARED_KEYS) or sc.own or
            any((c.script or c.module) and "musubi" in " ".join(c.words).lower() and not _other_module(c)
                for c in doc.get("commands") or [])):
        # the name is evidence on a command line (a script under musubi-tuner/, `-m musubi_tuner.x`, options it has):
        # a file that only mentions it (`git clone .../musubi-tuner.git` in an installer, a path in a web UI's
        # start script) runs none of its scripts
        sc.add("musubi")
    runs = [doc["command"]] if doc.get("command") is not None else [c for c in doc.get("commands") or [] if c.script]
    if doc["fmt"] == "text" and runs and all(c.script and not own_script(c.script) and
                                             "musubi" not in " ".join(c.words).lower() for c in runs) and \
            not sc.own_points > STRONG * len(set(keys) & STRONG_KEYS):
        # the command runs a script that is none of musubi-tuner's (python experiment/main.py --flash_attn, an oat /
        # OpenRLHF / LLaVA launcher): its options are that script's own argparse's, so flag names musubi-tuner also
        # has (--flash_attn, --sdpa, --task, --dit) are no evidence of musubi-tuner
        return score_keys(keys, (), STRONG_KEYS | SHARED_KEYS, COMMON_KEYS)
    return sc


def _other_module(cmd) -> bool:
    """`python -m musubi_tuner.X` where X is none of its per-family entry points (own_script: wan_train_network,
    hv_1_5_cache_latents, qwen_image_generate_image ...) nor a *_train[_network] module: a module a fork adds or a
    tool (round 59: a fork's `python -m musubi_tuner.gui_dashboard`, a web GUI) runs no training, so the name on its
    line is no evidence."""
    parts = (cmd.module or "").split(".")
    return len(parts) > 1 and parts[0] == "musubi_tuner" and not own_script(parts[-1] + ".py") and \
        not re.search(r"(^|_)train(_network)?$", parts[-1])  # a fork's family of its own: nanosaur_train_network


def own_script(script: str) -> bool:
    """A script of musubi-tuner's (or a fork's): <family>_train[_network].py, <family>_cache_*.py,
    <family>_generate_*.py ... for the families in SCRIPTS."""
    name = os.path.basename(script)
    return any(name.startswith(f + "_") for f in SCRIPTS)


def read(doc: dict) -> dict:
    if doc["fmt"] == "toml":
        return _parse(doc["path"], doc["text"])
    from .shell import check_options

    base = os.path.dirname(os.path.abspath(doc["path"]))
    cmd = doc.get("command")
    if cmd is None or not cmd.script:
        launcher, settings, misses = _cmdline_settings(_tokens(doc.get("expanded") or doc["text"]))
        errors: list = []
        script = command_script(doc.get("expanded") or doc["text"])
    else:
        from .blissful import OWN_KEYS as BLISSFUL_KEYS

        parsed, errors = check_options("musubi", cmd)
        if "blissful" in " ".join(cmd.words).lower() or {u.lstrip("-") for u in parsed.unknown} & BLISSFUL_KEYS:
            parsed, errors = None, []  # blissful-tuner's scripts have options of their own, not read here
        if parsed is None:
            launcher, settings, misses = _cmdline_settings(cmd.words)
        else:
            launcher, settings = dict(cmd.launcher_args), dict(parsed.values)
            misses = [k.lstrip("-") for k in parsed.unknown if k.lstrip("-") in NEAR_MISSES]
            errors = [e for e in errors if e["name"].lstrip("-") not in NEAR_MISSES]
        if cmd.program == "accelerate":
            from . import with_accelerate_config

            launcher = with_accelerate_config(doc, launcher)  # `accelerate launch --config_file accel.yaml`
        script = os.path.splitext(cmd.script)[0]
    settings, misses = _with_config_file(settings, misses, base, doc)
    cfg = summarize(settings, launcher, misses, "cmdline", script, base)
    cfg["cmdline_errors"] = errors
    from . import conditional_flags

    return conditional_flags(cfg, doc)  # flags the script adds only under a condition it leaves to its caller


_GENERATE = re.compile(r"(?:^|[\s/])([a-z0-9_]+?_generate_(?:video|image))\.py\b")


def command_script(text: str) -> str | None:
    m = _SCRIPT.search(text) or _GENERATE.search(text)
    return m.group(1) if m else None


def _flatten(data: dict) -> dict:
    """musubi's read_config_from_file: a section's keys join the top level; other values stay as they are."""
    out = {}
    for k, v in data.items():
        if isinstance(v, dict):
            out.update(v)
        else:
            out[k] = v
    return out


def _tokens(text: str) -> list[str]:
    text = text.replace("\\\r\n", " ").replace("\\\n", " ")
    try:
        return shlex.split(text, comments=True)
    except ValueError:
        return text.split()


def _cmdline_settings(tokens: list[str]) -> tuple[dict, dict, list[str]]:
    """(accelerate's options, the script's options, near-miss flags) from a saved command line."""
    launcher: dict = {}
    script: dict = {}
    misses: list[str] = []
    seen_script = False
    i = 0
    while i < len(tokens):
        tok = tokens[i]
        if not seen_script and tok.endswith(".py"):
            seen_script = True
        elif tok.startswith("--") and len(tok) > 2:
            key, eq, value = tok[2:].partition("=")
            target = script if seen_script else launcher
            if seen_script and key in NEAR_MISSES:
                misses.append(key)
            if eq:
                target[key] = value
            elif key == "compile_args" and seen_script:  # blissful-tuner's nargs=4 BACKEND MODE DYNAMIC FULLGRAPH
                target[key] = tokens[i + 1:i + 5]
                i += 4
            elif key in BOOL_FLAGS or i + 1 >= len(tokens) or tokens[i + 1].startswith("-"):
                target[key] = True
            else:
                target[key] = tokens[i + 1]
                i += 1
        i += 1
    return launcher, script, misses


def _candidates(name: str, base: str) -> list[str]:
    """Where a path from the config may be on this machine: as written, beside the config, one level up."""
    if os.path.isabs(name):
        return [name]
    return [name, os.path.join(base, name), os.path.join(os.path.dirname(base), name)]


def _read_side_toml(name: str, base: str, suffix: str = "") -> tuple[str | None, dict | None]:
    """A TOML the config points at (musubi adds .toml to config_file), or (None, None) if not here."""
    if suffix and not name.endswith(suffix):
        name += suffix
    for cand in _candidates(name, base):
        if os.path.isfile(cand):
            try:
                return cand, load_toml(cand, read_text(cand))
            except UsageError:  # it is the job's file, not the one --config named: unreadable means unknown
                return cand, None
    return None, None


# Options only one family's training script defines (kohya-ss/musubi-tuner@30c658c: wan_train_network.py --t5 --clip
# --dit_high_noise --timestep_boundary --offload_inactive_dit; fpack_train_network.py --latent_window_size --f1
# --bulk_decode), and the DiT file names those models ship under (wan2.1_t2v_14B_bf16.safetensors, Wan2.2 ... low_noise)
FAMILY_OPTIONS = {"wan": ("t5", "clip", "dit_high_noise", "timestep_boundary", "offload_inactive_dit"),
                  "framepack": ("latent_window_size", "f1", "bulk_decode")}
_WAN_DIT = re.compile(r"(?:^|[^a-z0-9])wan[-_ ]?2[._]?[12]|(?:^|[^a-z0-9])wan[-_](?:t2v|i2v|ti2v|flf2v)", re.IGNORECASE)


def _family_by_options(s: dict) -> str | None:
    """The model family a settings mapping with no script settles by options only one family's script has, or by a
    Wan DiT file; None when nothing does."""
    for family, keys in FAMILY_OPTIONS.items():
        if any(given(s.get(k)) and s.get(k) is not False for k in keys):
            return family
    dit = s.get("dit")
    if isinstance(dit, str) and _WAN_DIT.search(os.path.basename(dit.replace("\\", "/"))):
        return "wan"
    return None


def _split_needed(family, flags: list[str], batch) -> str | None:
    """Why this run needs --split_attn ("xformers on HunyuanVideo", ...), or None."""
    if "xformers" in flags and XFORMERS_NEEDS_SPLIT.get(family or "") == "always":
        return "xformers on HunyuanVideo (hunyuan_model/attention.py asserts it)"
    need = BATCH_NEEDS_SPLIT.get(family or "")
    if need and any(f in need for f in flags) and batch and batch > 1:
        return f"{'/'.join(f for f in flags if f in need)} on FramePack with batch size {batch}"
    return None


def _batch_size(dataset: dict | None) -> int | None:
    if not dataset:
        return None
    sizes = []
    general = dataset.get("general") if isinstance(dataset.get("general"), dict) else {}
    for d in dataset.get("datasets") or [{}]:
        if isinstance(d, dict):
            v = d.get("batch_size", general.get("batch_size", 1))
            if isinstance(v, int):
                sizes.append(v)
    return max(sizes) if sizes else None


def parse(path: str, text: str) -> dict:
    if not path.lower().endswith(".toml"):
        from . import make_doc

        return read(make_doc(path, text))
    return _parse(path, text)


# The musubi-tuner GUI's project file (src/musubi_tuner/gui/gui.py:86-95 writes musubi_project.toml from its fields):
# training runs `accelerate launch --mixed_precision PREC --dynamo_backend=no ... src/musubi_tuner/{zimage|qwen_image}
# _train_network.py ...` with `--mixed_precision PREC` unless "no", `--fp8_base --fp8_scaled` for fp8_scaled, always
# `--sdpa --split_attn`, then the shlex-split `additional_args` (kohya-ss/musubi-tuner@30c658c gui.py:776-801, 885-907,
# 915-921; model_arch choices Qwen-Image / Z-Image-Turbo, gui.py:33-39).
GUI_PROJECT_KEYS = {"model_arch", "vram_size", "comfy_models_dir", "additional_args", "block_swap", "num_epochs"}
GUI_ARCHS = {"Z-Image-Turbo": "zimage", "Qwen-Image": "qwen_image"}


def is_gui_project(settings: dict) -> bool:
    return settings.get("model_arch") in GUI_ARCHS and len(set(settings) & GUI_PROJECT_KEYS) >= 3


def gui_project(p: dict) -> tuple[dict, dict, list[str], str]:
    """(launcher options, script options, near misses, script) of the run the GUI starts from a project file."""
    prec = str(p["mixed_precision"]).strip().lower() if given(p.get("mixed_precision")) else None
    launcher = {"dynamo_backend": "no", **({"mixed_precision": prec} if prec else {})}
    settings = {"sdpa": True, "split_attn": True, "dit": p.get("dit_path"), "dataset_config": "dataset_config.toml"}
    if prec and prec != "no":
        settings["mixed_precision"] = prec
    if as_bool(p.get("fp8_scaled")):
        settings.update(fp8_base=True, fp8_scaled=True)
    extra = p.get("additional_args")
    misses: list[str] = []
    if isinstance(extra, str) and extra.strip():
        _, added, misses = _cmdline_settings(["train.py"] + _tokens(extra))
        settings.update(added)
    return launcher, settings, misses, f"src/musubi_tuner/{GUI_ARCHS[p['model_arch']]}_train_network"


def _parse(path: str, text: str) -> dict:
    base = os.path.dirname(os.path.abspath(path))
    if path.lower().endswith(".toml"):
        settings, launcher, fmt, script = _flatten(load_toml(path, text)), {}, "toml", None
        misses = [k for k in settings if k in NEAR_MISSES and as_bool(settings[k])]
        if is_gui_project(settings):
            launcher, settings, misses, script = gui_project(settings)
    else:
        launcher, settings, misses = _cmdline_settings(_tokens(text))
        fmt, script = "cmdline", command_script(text)
        settings, misses = _with_config_file(settings, misses, base)
    return summarize(settings, launcher, misses, fmt, script, base)


# Which models need --split_attn beside --xformers (or beside any backend with batches of several samples),
# read from musubi-tuner 30c658c: HunyuanVideo's hunyuan_model/attention.py:173 asserts "Xformers only supports
# splitting" whenever its batch carries cu_seqlens (models.py passes them for every text length); FramePack's
# frame_pack/hunyuan_video_packed.py:827 raises "batch_size > 1 is not supported in this configuration. Try
# `--split_attn`" for xformers and SDPA once a batch holds samples of different lengths. Wan, Qwen-Image,
# Z-Image, HunyuanVideo 1.5, FLUX.2, Kandinsky 5 run xformers without it (modules/attention.py builds a
# BlockDiagonalMask; wan/modules/attention.py and flux/flux_models.py split or pad themselves).
XFORMERS_NEEDS_SPLIT = {"hunyuan_video": "always"}
BATCH_NEEDS_SPLIT = {"framepack": ("xformers", "sdpa")}


# The generation scripts (wan_generate_video.py, hv_generate_video.py, fpack_generate_video.py, qwen_image_generate_image.py
# ...) take --attn_mode instead of the training flags: default "torch", choices flash / flash2 / flash3 / torch / sdpa /
# sageattn / xformers (kohya-ss/musubi-tuner@30c658c src/musubi_tuner/wan_generate_video.py:212-216,
# hv_generate_video.py:483; modules/attention.py:145-254: torch = F.scaled_dot_product_attention, flash = flash_attn).
ATTN_MODES = {"torch": "sdpa", "sdpa": "sdpa", "flash": "fa2", "flash2": "fa2", "flash3": "fa3", "sageattn": "sage",
              "xformers": "xformers"}


# The attention flag a training script runs when several are set: an elif chain takes the first of sdpa, flash_attn,
# sage_attn, xformers, flash3 (kohya-ss/musubi-tuner@30c658c src/musubi_tuner/training/trainer_base.py:1501-1510;
# hv_train.py:791-798, qwen_image_train.py:240-249, zimage_train.py:175-184 alike); HiDream-O1's full fine-tune takes
# "flash" if --flash_attn else "torch" (hidream_o1_train.py:184). `cute` (blissful-tuner) is outside that chain.
CHAIN = ("sdpa", "flash_attn", "sage_attn", "xformers", "flash3")

# Kandinsky 5's visual self-attention runs torch's flex_attention with a nabla BlockMask when the task's AttentionConfig
# says type "nabla" or the run forces it (kohya-ss/musubi-tuner@30c658c src/musubi_tuner/kandinsky5_train_network.py:81-96
# --force_nabla_attention, 127-131, 865; kandinsky5/models/nn.py:11, 322-335, 349-350; blissful-tuner@e4ed1f0
# kandinsky5_train_network.py:67-72, 646-650 --use_nabla_attention); the text and cross attention keep the chain's backend.
# Tasks whose config is nabla: kandinsky5/configs.py:385-407, 777-799, 916-938, 1055-1077, 1320-1342, 1486-1508,
# 1652-1674, 1818-1840.
NABLA_TASKS = {"k5-lite-t2v-10s-sd", "k5-pro-t2v-5s-hd", "k5-pro-t2v-10s-sd", "k5-pro-t2v-10s-hd", "k5-pro-i2v-5s-hd",
               "k5-lite-t2v-10s-distil-sd", "k5-lite-t2v-10s-nocfg-sd", "k5-lite-t2v-10s-pretrain-sd"}
NABLA_FLAGS = ("force_nabla_attention", "use_nabla_attention")


def _runs(flags: list[str], script: str | None) -> list[str]:
    """The flags whose backend the run calls: the first of CHAIN that is set (and cute)."""
    chain = ("flash_attn", "sdpa") if os.path.basename(str(script or "")) == "hidream_o1_train" else CHAIN
    first = next((k for k in chain if k in flags), None)
    return [k for k in flags if k == first or k not in CHAIN]


def summarize(s: dict, launcher: dict, misses: list[str], fmt: str, script: str | None, base: str) -> dict:
    cmd = fmt == "cmdline"
    flags = [k for k in FLAGS if as_bool(s.get(k))]
    runs = _runs(flags, script)
    # a flag another one overrides is kept (config.musubi-several-backends names it) but calls nothing: kind "unused"
    entries = [attention(f"--{k}" if cmd else f"{k} = true", f"--{k}" if cmd else k, FLAGS[k],
                         kind="local" if k in runs else "unused") for k in flags]
    generate = bool(script) and "_generate_" in os.path.basename(str(script))
    if generate and not flags and given(s.get("attn_mode")):
        mode = str(s["attn_mode"]).strip().lower()
        b = ATTN_MODES.get(mode)
        entries.append(attention(f"--attn_mode {mode}", "--attn_mode", b, known=b is not None,
                                 suggestion="torch", fix="--attn_mode torch"))
    for k in misses:
        hint = NEAR_MISSES[k] or "--sdpa"  # musubi-tuner has no FlexAttention flag: SDPA is the nearest
        entries.append(attention(f"--{k}" if cmd else f"{k} = true", f"--{k}" if cmd else k, None, known=False,
                                 suggestion=NEAR_MISSES[k], fix=hint if cmd else f"{hint[2:]} = true"))
    family = None
    if script:
        stem = re.sub(r"_train(_network)?$|_generate_(video|image)$", "", os.path.basename(script))
        family = SCRIPTS.get(stem, stem)
    elif isinstance(s.get("task"), str) and _WAN_TASK.match(s["task"]):
        family = "wan"
    else:
        net = NETWORKS.get(s["network_module"].rsplit(".", 1)[-1]) if isinstance(s.get("network_module"), str) else None
        # a TOML that names no script (its command line does): networks.lora is HunyuanVideo's module, but a Wan run
        # whose TOML says `network_module = "networks.lora"` or none at all still carries options only wan_train_network.py
        # has (t5, clip, dit_high_noise ...) or a Wan DiT: that is the model the run trains (round 50: such a Wan TOML with
        # xformers was told HunyuanVideo's "add --split_attn")
        family = net if net not in (None, "hunyuan_video") else _family_by_options(s) or net
    if family == "kandinsky5":  # generation too: kandinsky5/generation_utils.py:99
        forced = next((k for k in NABLA_FLAGS if as_bool(s.get(k))), None)
        task = str(s.get("task") or "").strip().lower()
        if forced or task in NABLA_TASKS:
            name = (f"--{forced}" if cmd else f"{forced} = true") if forced else f"task {task} (nabla attention)"
            entries.append(attention(name, f"--{forced}" if forced else "--task", "flex"))
    compile_on = as_bool(s.get("compile"))
    mode = s.get("compile_mode") if isinstance(s.get("compile_mode"), str) else None
    if not compile_on and as_bool(s.get("optimized_compile")):
        # blissful-tuner's Wan trainer: --optimized_compile torch.compiles each block's _forward and the time embedding
        # with --compile_args BACKEND MODE DYNAMIC FULLGRAPH (default inductor default None False) (Sarania/blissful-tuner
        # @e4ed1f0 src/musubi_tuner/wan_train_network.py:784-795, 485; wan/modules/model.py:1033-1045)
        ca = s.get("compile_args")
        ca = ca.split() if isinstance(ca, str) else ca if isinstance(ca, list) else []
        compile_on, mode = True, str(ca[1]) if len(ca) > 1 else "default"
    dyn = str(s.get("dynamo_backend") or "NO")
    if not compile_on and dyn.upper() not in ("NO", "NONE", "FALSE"):
        # TorchDynamoPlugin(mode=args.dynamo_mode) (training/accelerator_setup.py:104-111): mode None takes
        # ACCELERATE_DYNAMO_MODE, which `accelerate launch --dynamo_mode M` sets (huggingface/accelerate@16cb6eb
        # utils/dataclasses.py:1098-1099)
        mode = s.get("dynamo_mode") if isinstance(s.get("dynamo_mode"), str) else \
            launcher.get("dynamo_mode") if isinstance(launcher.get("dynamo_mode"), str) else None
        compile_on = True
    elif not compile_on and str(launcher.get("dynamo_backend") or "no").upper() not in ("NO", "NONE", "FALSE"):
        # --dynamo_backend NO (the default) leaves dynamo_plugin None (training/accelerator_setup.py:104-120), so
        # Accelerator builds TorchDynamoPlugin() from the ACCELERATE_DYNAMO_* variables `accelerate launch
        # --dynamo_backend X --dynamo_mode M` sets (huggingface/accelerate utils/launch.py:184-193, accelerator.py:326-329)
        compile_on = True
        mode = launcher.get("dynamo_mode") if isinstance(launcher.get("dynamo_mode"), str) else None
    if not compile_on and s.get("config_file_unread") and \
            not {"compile", "optimized_compile", "dynamo_backend"} & set(s) and "dynamo_backend" not in launcher:
        compile_on = None  # the --config_file TOML that may turn it on is not here: unknown, not off
    mp = s.get("mixed_precision") if given(s.get("mixed_precision")) else launcher.get("mixed_precision")
    mp = str(mp).strip().lower() if given(mp) else None
    dataset = None
    if given(s.get("dataset_config")):
        _, dataset = _read_side_toml(str(s["dataset_config"]), base)
    fixes = {
        "compile": "compile = true" if not cmd else "--compile",
        "split_attn": "split_attn = true   # in the TOML" if not cmd else "--split_attn",
        "sage": ("sdpa = true   # instead of sage_attn = true" if not cmd else "--sdpa   # instead of --sage_attn"),
        "one_backend": ("keep exactly one of: " + ", ".join(f"{k} = true" for k in flags)) if not cmd
        else ("keep exactly one of: " + " ".join(f"--{k}" for k in flags)),
        "no_backend": "sdpa = true   # or flash_attn / flash3 / xformers / cute" if not cmd
        else "--sdpa   # or --flash_attn / --flash3 / --xformers / --cute",
    }
    return {
        "trainer": "musubi", "trainer_title": "blissful-tuner" if "cute" in flags else TITLE, "format": fmt,
        "script": script,
        "family": family, "head_dims": HEAD_DIMS.get(family or ""), "mixed_precision": mp, "dtype": dtype_of(mp),
        "attention": entries,
        "compile": {"enabled": compile_on, "mode": mode, "setting": "compile" if not cmd else "--compile"},
        "batch_size": _batch_size(dataset),
        "split_attn": as_bool(s.get("split_attn")),
        "split_attn_needed": _split_needed(family, runs, _batch_size(dataset)),  # the backend that runs
        "sage_training": "sage_attn" in flags and not generate,  # sageattn is for inference
        "generation": generate,  # --attn_mode defaults to torch (SDPA): no backend flag is needed
        "config_file_unread": bool(s.get("config_file_unread")),
        "fixes": fixes,
        # the dtype the attention's tensors have where it is not the mixed-precision one (checks/trainer.py)
        **_float32_attention(family, script, mp, s, generate, fixes, cmd),
    }


def _float32_attention(family, script, mp, s: dict, generate: bool, fixes: dict, cmd: bool) -> dict:
    """{attention_dtype: "float32", attention_dtype_why} when the run hands the attention float32 tensors (and the fix
    line, into `fixes`), else nothing (the mixed-precision dtype, or not known).
    Z-Image's trainers load the DiT in float32 unless mixed precision is fp16 / bf16 (kohya-ss/musubi-tuner@30c658c
    src/musubi_tuner/zimage_train_network.py:42-44; zimage_train.py:107 unless --full_bf16), and with mixed precision
    "no" accelerate's autocast is off: q, k and v come out of the DiT's float32 linears and modules/attention.py:82-300
    hands them to the backend as they are. `--use_32bit_attention` changes nothing here: it only skips casting q and k
    to v's dtype (zimage/zimage_model.py:190-192), and all three share one dtype (the same linears, the same autocast;
    RMSNorm and the rotary embedding cast back to their input's dtype, zimage_model.py:90-99, 136-141). The other
    architectures load the DiT in bfloat16 by default (training/trainer_base.py:1474)."""
    if family != "zimage" or generate or mp != "no" or as_bool(s.get("fp8_base")):
        return {}  # (an fp8 DiT's linears are patched: not read here)
    if os.path.basename(str(script or "")) == "zimage_train" and as_bool(s.get("full_bf16")):
        return {}
    fixes["attention_dtype"] = ("--mixed_precision bf16   # or --sdpa / --xformers, which take float32" if cmd else
                                "mixed_precision = \"bf16\"   # or sdpa / xformers = true, which take float32")
    return {"attention_dtype": "float32", "attention_dtype_why": "Z-Image's DiT in float32 without mixed precision"}


def _with_config_file(settings: dict, misses: list, base, doc: dict | None = None) -> tuple[dict, list]:
    """A command line's --config_file TOML merged under its flags (flags on the command line win), or
    `config_file_unread` when that file is not there to read (a launcher's `doc`: found where its run finds it,
    references.locate, and named in doc["unread"] when it is not). doc["files"]: what the launch script itself writes
    before it runs the command (`cat > train.toml <<EOF ... EOF`, shell.Script.files): that text is the TOML the run reads."""
    from .references import note_unread, spelt

    value = settings.get("config_file")
    if doc is not None and isinstance(value, str):
        value = spelt(doc, value)  # `"$SCRIPT_DIR/../configs/x.toml"`: the launcher's folder put in
    from .copies import copied_from

    # a copy the script makes under a name settled at run time (`cp base.toml "$TMP"`, configs/copies.py) is read
    copied = doc is not None and isinstance(value, str) and bool(value) and copied_from(doc, value) is not None
    if not given(value) and not copied:
        if doc is not None and value not in (None, "", True):
            note_unread(doc, value)  # `--config_file "$1"`: the caller's file
        return settings, misses
    name = str(value)
    if doc is not None:
        # what the launch script writes itself, else where its run finds it (musubi adds .toml to config_file); the
        # job's file, unreadable, is unknown
        from . import config_data

        toml = config_data(doc, name, ".toml")
    else:  # a command line given alone: beside it or one level up (a launcher's doc: where locate looked)
        _, toml = _read_side_toml(name, base, ".toml")
    if toml is None:
        if doc is not None:
            note_unread(doc, name)
        return dict(settings, config_file_unread=True), misses
    merged = _flatten(toml)
    misses = misses + [k for k in merged if k in NEAR_MISSES and as_bool(merged[k]) and k not in misses]
    merged.update(settings)
    return merged, misses
