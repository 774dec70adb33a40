"""SimpleTuner: config.json, config.toml, config.env, or a saved `simpletuner train` / train.py command line.

Names read from bghira/SimpleTuner bc8e6ab (2026-08-22):
- attention_mechanism choices: simpletuner_sdk/server/services/field_registry/sections/advanced.py (the
  argparse parser is built from these, so any other value is refused: "invalid choice");
- how each maps to diffusers' dispatcher: helpers/training/attention_backend.py (_DIFFUSERS_BACKEND_TARGETS);
  sageattention* replaces F.scaled_dot_product_attention with a wrapper that ignores attn_mask, and is
  used for validation only unless sageattention_usage is training or training+inference;
- xformers is refused on compute capability 9.0+: attention_backend.py xformers_compute_capability_error;
- config.env keys: helpers/configuration/env_file.py (env_to_args_map, TRAINER_EXTRA_ARGS);
- JSON/TOML keys are the CLI flags without `--` (a leading `--` is allowed): helpers/configuration/cli_utils.py;
- torch.compile: dynamo_backend (default "no") and dynamo_mode (documentation/OPTIONS.md, "Torch Dynamo");
- mixed_precision defaults to bf16 (field_registry/sections/advanced.py default_value);
- the older launch scripts' env files (sdxl-env.sh, config/config.env sourced by train_sdxl.sh / train.sh, up to
  37c22eda1 2024-08-31): train.sh passed --enable_xformers_memory_efficient_attention unless USE_XFORMERS was
  exactly "false" (054eef3bc train_sdxl.sh:178-180, a9d6932c1 train.sh:292-294), the model came from
  STABLE_DIFFUSION_3 / PIXART_SIGMA / KOLORS / SMOLDIT / FLUX / STABLE_DIFFUSION_LEGACY=true (SDXL otherwise), and
  xformers reached only the UNet models (a9d6932c1 helpers/training/trainer.py:1348-1376 skips sd3, pixart_sigma,
  flux, smoldit, kolors). From 2024-08-31 env_file.py maps USE_XFORMERS=true to that flag; SimpleTuner removed the
  flag on 2025-04-05 (c0843e77d), so the current parser refuses it: --attention_mechanism=xformers replaces it.
An attention_mechanism left unset is SimpleTuner's default (diffusers = PyTorch SDPA): nothing is required.
"""

from __future__ import annotations

import json
import os
import re
import shlex

from . import _ENV_LINE, NOTHING, Score, args_of, as_bool, as_int, attention, diffusers, dtype_of, env_of, given

TITLE = "SimpleTuner"
MECHANISMS = (
    "diffusers", "xformers", "sla", "sageattention", "sageattention-int8-fp16-triton",
    "sageattention-int8-fp16-cuda", "sageattention-int8-fp8-cuda", "flash-attn", "flash-attn-hub", "flash-attn-2",
    "flash-attn-varlen-hub", "flash-attn-3", "flash-attn-3-hub", "flash-attn-3-varlen", "flash-attn-3-varlen-hub",
    "flash-attn-4-hub", "flex", "metal-flash-attention", "metal-flash-attention-int8", "metal-flash-attention-int4",
    "native", "cudnn", "native-efficient", "native-flash", "native-math", "native-npu", "native-xla",
)
# SimpleTuner name -> diffusers AttentionBackendName value (the names it routes through diffusers)
TO_DIFFUSERS = {
    "flash-attn": "flash", "flash-attn-hub": "flash_hub", "flash-attn-2": "flash_varlen",
    "flash-attn-varlen-hub": "flash_varlen_hub", "flash-attn-3": "_flash_3", "flash-attn-3-hub": "_flash_3_hub",
    "flash-attn-3-varlen": "_flash_varlen_3", "flash-attn-3-varlen-hub": "_flash_3_varlen_hub",
    "flash-attn-4-hub": "flash_4_hub", "flex": "flex", "native": "native", "cudnn": "_native_cudnn",
    "native-efficient": "_native_efficient", "native-flash": "_native_flash", "native-math": "_native_math",
    "native-npu": "_native_npu", "native-xla": "_native_xla",
}
FROM_DIFFUSERS = {v: k for k, v in TO_DIFFUSERS.items()}
# Mage-Flow's names it keeps and those it turns into a Hub varlen kernel (mageflow/model.py:264-331)
MAGEFLOW_AS_IS = {"flash-attn-varlen-hub", "flash-attn-3-varlen", "flash-attn-3-varlen-hub", "flash-attn-4-hub"}
MAGEFLOW_FA2 = {"fa2", "flash-attn-2", "flash-attn-2-hub", "flash-attention-2", "flash-attention-2-hub",
                "flash-attn-varlen", "flash-attention-varlen", "flash-attention-varlen-hub", "flash-varlen-hub",
                "flash2", "flash2-hub"}
MAGEFLOW_FA3 = {"fa3", "flash-attn-3", "flash-attn-3-hub", "flash-attention-3", "flash-attention-3-hub",
                "flash-attention-3-varlen", "flash-attention-3-varlen-hub", "flash3", "flash3-hub", "flash3-varlen",
                "flash3-varlen-hub"}
MAGEFLOW_FA4 = {"fa4", "flash-attn-4", "flash-attention-4", "flash-attention-4-hub", "flash4", "flash4-hub"}
# Families whose model is a UNet: diffusers' UNet attention processors call F.scaled_dot_product_attention
# directly (AttnProcessor2_0), so a backend set through diffusers' dispatcher never reaches them.
UNET_FAMILIES = {"sd1x", "sd2x", "sdxl", "kolors", "deepfloyd"}
# Attention head dims of each family's model (diffusers' transformer defaults, read 2026-08).
HEAD_DIMS = {
    "flux": [128], "flux2": [128], "chroma": [128], "sd3": [64], "wan": [128], "qwen_image": [128],
    "ltxvideo": [64], "hunyuanvideo": [128], "hidream": [128], "auraflow": [256], "pixart_sigma": [72],
    "sana": [32], "cosmos2image": [128], "sdxl": [64], "sd2x": [64], "kolors": [64], "sd1x": [40, 80, 160],
}
# Keys only SimpleTuner uses (the CLI flags without `--`), keys it shares with other trainers, common ones.
STRONG_KEYS = {"model_family", "data_backend_config", "sageattention_usage", "base_model_precision", "model_flavour",
               "lora_type", "validation_resolution", "validation_guidance", "validation_num_inference_steps",
               "user_prompt_library", "caption_dropout_probability",
               "resolution_type", "aspect_bucket_rounding", "minimum_image_size", "disable_benchmark",
               "base_model_default_dtype", "webhook_config", "validation_seed", "flow_schedule_shift",
               "aspect_bucket_worker_count", "init_lora", "lora_alpha_style"}
# dynamo_mode is shared: accelerate's own launch option and musubi-tuner's / sd-scripts' flag of the same name;
# tracker_project_name / tracker_run_name: accelerate's trackers, which diffusers' examples and x-flux name too
SHARED_KEYS = {"tracker_project_name", "tracker_run_name", "pretrained_model_name_or_path", "train_batch_size", "model_type", "dynamo_backend", "dynamo_mode", "lora_rank",
               "validation_prompt", "checkpointing_steps", "max_train_steps", "attention_mechanism", "vae_batch_size",
               "num_train_epochs", "lr_warmup_steps", "hub_model_id", "validation_steps", "resolution"}
COMMON_KEYS = {"mixed_precision", "output_dir", "seed", "learning_rate", "lr_scheduler", "optimizer", "report_to",
               "gradient_checkpointing", "push_to_hub", "gradient_accumulation_steps"}
ENV_KEYS = ("MODEL_FAMILY", "MODEL_TYPE", "MODEL_NAME", "TRAINER_EXTRA_ARGS", "TRAIN_BATCH_SIZE", "MIXED_PRECISION",
            "DATALOADER_CONFIG", "TRAINING_DYNAMO_BACKEND", "TRAINER_DYNAMO_BACKEND")


def _started(doc: dict) -> dict:
    """A Python wrapper's or a notebook's `simpletuner train ...` (subprocess.run([...]), `!simpletuner train`) read as
    the same line in a launch script: the shell view of the lines it starts (cfg80, ENTRYPOINTS.md); any other doc as
    it is."""
    if doc["fmt"] == "python" and doc.get("expanded") and any(
            c.program == "simpletuner" and not c.script and (c.sub or [""])[0] == "train"
            for c in doc.get("commands") or []):
        return {**doc, "fmt": "text", "text": doc["expanded"]}
    return doc


def score(doc: dict) -> "Score":
    from . import COMMON, score_keys

    doc = _started(doc)
    if doc["fmt"] == "yaml":
        return NOTHING  # SimpleTuner reads JSON, TOML, config.env and command lines
    if doc["fmt"] == "python" and _in_checkout(doc) and not set(doc["flat"]) & STRONG_KEYS:
        # a Python launcher's command line (launchers.python_commands) with none of SimpleTuner's own options: its
        # entry point run from its checkout, the options being the job's (a serverless handler's per-request config)
        return Score().add("train.py in a SimpleTuner checkout")
    if doc["fmt"] == "text" and _train_sh(doc) is not None:
        from . import STRONG

        return Score().add("train.sh in a SimpleTuner checkout", 2 * STRONG)
    keys = set(doc["flat"]) if doc["fmt"] != "text" else set(doc["args"])
    sc = score_keys(keys, STRONG_KEYS, SHARED_KEYS, COMMON_KEYS)
    mech = doc["flat"].get("attention_mechanism")
    if isinstance(mech, str) and mech.strip() in MECHANISMS and mech.strip() not in ("xformers",):
        sc.add(f"attention_mechanism={mech.strip()}")  # its own lowercase names
    if doc["fmt"] == "text":
        weak = ("MIXED_PRECISION", "TRAIN_BATCH_SIZE", "MODEL_NAME")  # diffusers' READMEs export MODEL_NAME too
        env = [k for k in doc["env"] if (k in ENV_KEYS or k in OLD_ENV_OWN) and k not in weak]
        for k in env:
            sc.add(k)
        for k in doc["env"]:
            if k in weak:
                sc.add(k, COMMON)
        words = doc["words"]
        # `simpletuner` is SimpleTuner's console script (simpletuner/cli/__init__.py main()), wherever the file runs it
        if any(w == "simpletuner" for w in words[:3]) or any("simpletuner" in s.lower() for s in doc["scripts"]) or \
                any(c.program == "simpletuner" and not c.script for c in doc.get("commands") or []):
            sc.add("simpletuner command")
        elif _in_checkout(doc):
            sc.add("train.py in a SimpleTuner checkout")
        if not (set(doc["args"]) & STRONG_KEYS or env or "simpletuner command" in sc.evidence or
                "attention_mechanism" in sc.evidence or "train.py in a SimpleTuner checkout" in sc.evidence):
            return NOTHING  # flags it shares with diffusers' example scripts alone do not make a SimpleTuner command
        cmd = doc.get("command")
        if cmd is not None and cmd.script and os.path.basename(cmd.script) != "train.py" and not env and \
                "simpletuner command" not in sc.evidence:
            # SimpleTuner runs as train.py (or `simpletuner train`): another script's options (a user's
            # my_t2i_train.py --tracker_project_name --validation_seed, names diffusers' examples have too) are its own
            return score_keys(keys, (), STRONG_KEYS | SHARED_KEYS, COMMON_KEYS)
    return sc


# `cd /SimpleTuner && ... python train.py ...`, `python /workspace/SimpleTuner/train.py`: the training command runs
# SimpleTuner's own entry point (train.py at the root of bghira/SimpleTuner) from its checkout
_CHECKOUT = re.compile(r"(?:^|[\s;&|('\"])cd\s+[\"']?[^\s;&|'\"]*simpletuner[^\s;&|'\"/]*/?[\"']?\s*(?:&&|;|$)|"
                       r"[^\s'\"]*simpletuner[^\s'\"/]*/train\.py\b", re.IGNORECASE | re.MULTILINE)


def _in_checkout(doc: dict) -> bool:
    """The file's training command is `python train.py` run from a SimpleTuner checkout (round 31: a RunPod
    handler's `bash -c 'cd /SimpleTuner && source .venv/bin/activate && python train.py ...'`): SimpleTuner's entry
    point, whatever options the job brings."""
    cmd = doc.get("command")
    if cmd is None or not cmd.script or os.path.basename(cmd.script) != "train.py":
        return False
    return bool(_CHECKOUT.search(doc.get("expanded") or doc.get("text") or ""))


def _unwrapped(data: dict) -> dict:
    """The WebUI's saved layout ({"_metadata": {...}, "config": {"--key": value}}, SimpleTuner's config/examples and
    templates) holds the settings under "config"; a plain config.json holds them at the top."""
    inner = data.get("config")
    if isinstance(inner, dict) and ("_metadata" in data or set(data) <= {"config", "_metadata"}):
        return {**{k: v for k, v in data.items() if k not in ("config", "_metadata")}, **inner}
    return data


def looks_like_env(text: str) -> bool:
    return any(_ENV_LINE.match(ln) and _ENV_LINE.match(ln).group(1) in ENV_KEYS for ln in text.splitlines())


def read(doc: dict) -> dict:
    from ..model import UsageError

    doc = _started(doc)
    fmt = doc["fmt"]
    if fmt in ("json", "toml"):
        return summarize({str(k).lstrip("-"): v for k, v in _unwrapped(doc["data"]).items()}, fmt)
    if fmt == "python" and _in_checkout(doc) and not set(doc["flat"]) & STRONG_KEYS:
        # its train.py run with the options a job brings at run time (score: a serverless handler): only the trainer
        from . import unknown_settings

        return unknown_settings("simpletuner", TITLE)
    if fmt != "text":
        raise UsageError(f"--config: SimpleTuner has no {fmt.upper()} configs (config.json, config.toml, config.env)")
    sh = _train_sh(doc)
    if sh is not None:
        # `cd SimpleTuner && ENV=NAME bash train.sh`: its train.py takes the job from config/NAME/config.json, .toml or
        # .env under the checkout (config/ without ENV) (load_config / json_file._candidate_json_paths); read through it
        # when it is here, else only the trainer
        from . import unknown_settings

        env, roots = sh
        found = _config_files(doc, env, roots)
        if found is None:
            return unknown_settings("simpletuner", TITLE)
        return summarize(found[0], "cmdline")
    if looks_like_env(doc["text"]) and not _bare_train_py(doc):
        # (a launch script that runs train.py, however many variables it sets, is no config.env: below)
        return summarize(env_settings(doc["text"]), "env")
    found = _env_config(doc)
    if found is not None:  # `simpletuner train [--env NAME]`: the config.json / .toml / .env it trains with is here
        s, how = found
        s.update({k: v for k, v in args_settings(_tokens(doc["text"])).items() if k not in ("env", "example")})
        return summarize(s, "cmdline")
    named = _config_path(doc)
    if named is not None:
        # `simpletuner [train] config_path=X` (simpletuner/cli/train.py:192-193 _extract_cli_override, also spelt
        # --config_path / --config-path): the job's settings are that file's; read through it when it is here
        from . import config_data, unknown_settings

        data = config_data(doc, named)
        if data is None:
            return unknown_settings("simpletuner", TITLE)
        return summarize({str(k).lstrip("-"): v for k, v in data.items()}, "cmdline")
    if _bare_train_py(doc):
        # train.py run with no option of its own (SimpleTuner's older train.sh: `accelerate launch
        # --mixed_precision="${MIXED_PRECISION}" ... train.py` after `source config/config.env`): train.py's
        # load_config() takes the job from config/config.json, .toml or .env (bghira/SimpleTuner@bc8e6ab
        # simpletuner/helpers/configuration/loader.py:85-122, auto_detect_config_backend :37-54); accelerate's
        # --mixed_precision holds a variable that file sets. Read through it when it is here, else only the trainer
        from . import unknown_settings

        found = _config_files(doc, None)
        if found is None:
            return unknown_settings("simpletuner", TITLE)
        return summarize(found[0], "cmdline")
    return summarize(args_settings(_tokens(doc["text"])), "cmdline")


# the variables SimpleTuner's configuration loader takes the environment name from, in its order
# (simpletuner/helpers/configuration/loader.py load_config, json_file.load_json_config)
_ENV_NAMES = ("SIMPLETUNER_ENVIRONMENT", "SIMPLETUNER_ENV", "ENV")


def _train_sh(doc: dict) -> tuple[str | None, list[str]] | None:
    """(the environment name, the folders the config may be under) of a `[ENV=NAME] bash train.sh` / `./train.sh` run
    from a SimpleTuner checkout (the script `cd`s into a folder named SimpleTuner): SimpleTuner's own launch script,
    whose train.py loads config/NAME/config.json|toml|env relative to that folder (round 55). None for any other."""
    if not _CHECKOUT.search(doc.get("expanded") or doc.get("text") or ""):
        return None
    for c in doc.get("commands") or []:
        target = None
        if c.program in ("bash", "sh") and c.args:
            target = next((a for a in c.args if not a.startswith("-")), None)
        elif c.program.endswith("train.sh") and not c.script:
            target = c.program
        if target is None or os.path.basename(target) != "train.sh":
            continue
        seen = c.environment()  # (train.sh runs in a shell of its own: only what is exported reaches it)
        env = next((str(seen[k]) for k in _ENV_NAMES if seen.get(k)), None)
        base = os.path.dirname(os.path.abspath(doc["path"]))
        roots = []
        for m in re.finditer(r"(?:^|[\s;&|(])cd\s+[\"']?([^\s;&|'\"]*simpletuner[^\s;&|'\"/]*)/?", doc.get("text") or "",
                             re.IGNORECASE):
            where = m.group(1)
            roots += [where] if os.path.isabs(where) else [os.path.join(base, where), os.path.join(base, "..", where)]
        return (env if env and env != "default" else None), roots
    return None


def _bare_train_py(doc: dict) -> bool:
    """The file runs SimpleTuner's train.py and every such command passes it no option."""
    runs = [c for c in doc.get("commands") or [] if c.script == "train.py" and not c.module]
    return bool(runs) and not any(a.startswith("-") for c in runs for a in c.args)


def _config_path(doc: dict) -> str | None:
    """The config file a `simpletuner` command line names with config_path (key=value, --config_path X / =X)."""
    for c in doc.get("commands") or []:
        if c.program != "simpletuner" or c.script:
            continue
        words = list(c.sub) + list(c.args)
        for i, w in enumerate(words):
            key, eq, val = w.lstrip("-").partition("=")
            if key.replace("-", "_") != "config_path":
                continue
            if eq:
                return val
            if w.startswith("--") and i + 1 < len(words):
                return words[i + 1]
    return None


def _env_config(doc: dict) -> tuple[dict, str] | None:
    """The settings of the config `simpletuner train [--env NAME]` runs: config/NAME/config.json|toml|env (config/ without
    --env), relative to the launch file or one level up (simpletuner/cli/__init__.py:115-140 --env / --example;
    cli/train.py:45-75 picks config.json, then config.toml, then config.env)."""
    cmd = doc.get("command")
    if cmd is None or cmd.program != "simpletuner" or cmd.sub[:1] != ["train"]:
        return None
    words = cmd.args
    env = next((w.split("=", 1)[1] for w in words if w.startswith("--env=")), None)
    if env is None and "--env" in words and words.index("--env") + 1 < len(words):
        env = words[words.index("--env") + 1]
    if any(w in ("--example", "-e") or w.startswith("--example=") for w in words):
        return None  # a built-in example: its config ships with SimpleTuner, not beside this file
    return _config_files(doc, env)


def _config_files(doc: dict, env: str | None, roots: list | None = None) -> tuple[dict, str] | None:
    """The settings of config/[ENV/]config.json|toml|env relative to the launch file or one level up (or the folders
    given first: the checkout a launcher cds into), in the order SimpleTuner picks them, or None when none is here
    (or it cannot be read)."""
    from . import load_json, load_toml, read_text

    base = os.path.dirname(os.path.abspath(doc["path"]))
    for root in [*(roots or []), base, os.path.dirname(base)]:
        d = os.path.join(root, "config", env) if env else os.path.join(root, "config")
        for name, kind in (("config.json", "json"), ("config.toml", "toml"), ("config.env", "env")):
            path = os.path.join(d, name)
            if not os.path.isfile(path):
                continue
            try:
                text = read_text(path)
                if kind == "env":
                    return env_settings(text), path
                data = load_json(path, text) if kind == "json" else load_toml(path, text)
            except Exception:  # the job's file, not one this line can be read through
                return None
            if isinstance(data, dict):
                return {str(k).lstrip("-"): v for k, v in data.items()}, path
            return None
    return None


def parse(path: str, text: str) -> dict:
    from . import make_doc

    return read(make_doc(path, text))


# Variables only the older launch scripts (train_sdxl.sh / train.sh, 2023-08 to 2024-08) read: a file that sets
# them was written for those scripts (env_file.py, which replaced them, ignores them).
OLD_ENV_KEYS = {"STABLE_DIFFUSION_3", "PIXART_SIGMA", "KOLORS", "SMOLDIT", "FLUX", "AURA_FLOW", "STABLE_DIFFUSION_LEGACY",
                "CONTROLNET", "INSTANCE_DIR", "STATE_PATH", "SEEN_STATE_PATH", "PURE_BF16", "DEBUG_EXTRA_ARGS",
                "DELETE_ERRORED_IMAGES", "DELETE_SMALL_IMAGES", "EMA_DECAY", "MIN_SNR_GAMMA", "USE_XFORMERS"}
# ... of which these name nothing another trainer's scripts use (INSTANCE_DIR, FLUX are in diffusers' READMEs too)
OLD_ENV_OWN = {"STABLE_DIFFUSION_3", "PIXART_SIGMA", "KOLORS", "SMOLDIT", "AURA_FLOW", "STABLE_DIFFUSION_LEGACY",
               "STATE_PATH", "SEEN_STATE_PATH", "PURE_BF16", "USE_XFORMERS", "DELETE_ERRORED_IMAGES", "DELETE_SMALL_IMAGES"}
OLD_FAMILIES = (("STABLE_DIFFUSION_3", "sd3"), ("PIXART_SIGMA", "pixart_sigma"), ("KOLORS", "kolors"),
                ("SMOLDIT", "smoldit"), ("FLUX", "flux"), ("AURA_FLOW", "auraflow"), ("STABLE_DIFFUSION_LEGACY", "sd2x"))
# Families the old --enable_xformers_memory_efficient_attention reached (trainer.py a9d6932c1:1348-1376)
OLD_XFORMERS_FAMILIES = {"sdxl", "sd1x", "sd2x", "deepfloyd"}
# the variables train.sh itself reads from config/config.env to build its `accelerate launch` (bghira/SimpleTuner@d4e9492c3
# train.sh:4 sources the file, :6-63 VENV_PATH, DISABLE_LD_OVERRIDE, TRAINING_NUM_PROCESSES / _NUM_MACHINES,
# TRAINING_DYNAMO_BACKEND, ENV, CONFIG_BACKEND / CONFIG_TYPE, :83 DISABLE_UPDATES, :93-100 ACCELERATE_CONFIG_PATH,
# ACCELERATE_EXTRA_ARGS): an env of these alone sets no training option, and train.sh then takes the job from
# config/config.json, else config.toml, beside it (:66-79, CONFIG_BACKEND json before toml before env)
LAUNCH_ENV = {"TRAINING_NUM_PROCESSES", "TRAINING_NUM_MACHINES", "TRAINING_DYNAMO_BACKEND", "TRAINER_DYNAMO_BACKEND",
              "ACCELERATE_EXTRA_ARGS", "ACCELERATE_CONFIG_PATH", "VENV_PATH", "DISABLE_LD_OVERRIDE", "DISABLE_UPDATES",
              "CONFIG_BACKEND", "CONFIG_TYPE", "ENV"}


def env_settings(text: str) -> dict:
    """config.env → settings, the way env_file.py maps them (TRAINER_EXTRA_ARGS holds the other flags), and the
    older launch scripts' switches (USE_XFORMERS, STABLE_DIFFUSION_3=true ...) as those scripts read them."""
    env = env_of(text)
    out: dict = {}
    old = any(k in env for k in OLD_ENV_KEYS - {"USE_XFORMERS"})
    use_x = str(env.get("USE_XFORMERS", "")).strip().lower()
    if old:
        family = next((fam for var, fam in OLD_FAMILIES if str(env.get(var, "")).lower() == "true"), None)
        out["model_family"] = env.get("MODEL_FAMILY") or family or "sdxl"
        if use_x != "false":
            out["_old_xformers"] = "USE_XFORMERS=true" if use_x == "true" else "USE_XFORMERS unset (on by default)"
    elif use_x == "true":
        out["_env_xformers"] = "USE_XFORMERS=true"
    for var, key in (("MODEL_FAMILY", "model_family"), ("TRAIN_BATCH_SIZE", "train_batch_size"),
                     ("MIXED_PRECISION", "mixed_precision"), ("MODEL_TYPE", "model_type"),
                     ("BASE_MODEL_PRECISION", "base_model_precision")):  # helpers/configuration/env_file.py:92
        if env.get(var) and not (var == "MODEL_FAMILY" and old):
            out[key] = env[var]
    dyn = env.get("TRAINING_DYNAMO_BACKEND") or env.get("TRAINER_DYNAMO_BACKEND")
    if dyn:
        out["dynamo_backend"] = dyn
    out.update(args_settings(_tokens(env.get("TRAINER_EXTRA_ARGS", ""))))
    if env and set(env) <= LAUNCH_ENV:
        out["_launch_env"] = True  # the launch's environment only: the job's mixed_precision is in the config beside
    return out


def _tokens(text: str) -> list[str]:
    text = text.replace("\\\n", " ")
    try:
        return shlex.split(text, comments=True)
    except ValueError:
        return text.split()


def args_settings(tokens: list[str]) -> dict:
    """`--key=value`, `--key value` and bare `--flag` tokens → {key: value}; a value may start with one
    dash (`--seed -1`)."""
    return args_of(tokens, flag="--")


def _fix(fmt: str, key: str, value) -> str:
    """A setting in the syntax of the file it goes into."""
    if fmt == "json":
        return f'"{key}": {json.dumps(value)}   # in config.json'
    if fmt == "toml":
        return f"{key} = {json.dumps(value)}   # in config.toml"
    if fmt == "env" and key == "dynamo_backend":
        return f"TRAINING_DYNAMO_BACKEND={value}   # in config.env"
    if fmt == "env":
        return f'TRAINER_EXTRA_ARGS+=" --{key}={value}"   # in config.env'
    return f"--{key}={value}"


def _mageflow_mechanism(mech: str) -> str:
    """The attention_mechanism Mage-Flow's model rewrites `mech` to (its _normalise_mageflow_attention_config)."""
    m = mech.strip().lower().replace("_", "-")
    if m in MAGEFLOW_AS_IS:
        return m
    if m in MAGEFLOW_FA2:
        return "flash-attn-varlen-hub"
    if m in MAGEFLOW_FA3:
        return "flash-attn-3-varlen-hub"
    if m in MAGEFLOW_FA4:
        return "flash-attn-4-hub"
    return "flash-attn-varlen-hub"  # unset, auto, or a mechanism it overrides: the recommended one off Hopper/Blackwell


def summarize(s: dict, fmt: str) -> dict:
    if fmt != "env" and as_bool(s.get("enable_xformers_memory_efficient_attention")) and not s.get("_env_xformers"):
        # the same removed flag written straight into config.json / config.toml / the command line (SimpleTuner before
        # c0843e77d, 2025-04-05): today's parse_args refuses it, older releases ran xformers on UNet models
        s = dict(s, _env_xformers='"enable_xformers_memory_efficient_attention": true' if fmt == "json" else
                 "enable_xformers_memory_efficient_attention = true" if fmt == "toml" else
                 "--enable_xformers_memory_efficient_attention")
    mech_raw = s.get("attention_mechanism")
    mech = str(mech_raw).strip() if given(mech_raw) else "diffusers"
    setting = f"attention_mechanism={mech}" if given(mech_raw) else "attention_mechanism (default)"
    family = str(s["model_family"]).strip() if given(s.get("model_family")) else None
    usage = str(s.get("sageattention_usage") or "inference").strip().lower()
    entries = []
    required: list[str] = []
    sage_training = False
    if family == "mageflow":
        # Mage-Flow's packed varlen attention: check_user_config rewrites attention_mechanism, every flash name to
        # its Hub varlen kernel and anything else (unset, diffusers, sage, xformers) to the GPU's recommended one
        # (flash-attn-varlen-hub; 3-varlen-hub on sm90, 4-hub on sm100) (bghira/SimpleTuner@bc8e6ab
        # simpletuner/helpers/models/mageflow/model.py:245-353): a kernel the `kernels` package fetches, never a wheel
        resolved = _mageflow_mechanism(mech if given(mech_raw) else "")
        if resolved != mech or not given(mech_raw):
            setting = f"{setting} (Mage-Flow runs {resolved})"
        mech = resolved
    if mech not in MECHANISMS:
        hint = diffusers.suggest(mech, MECHANISMS)
        entries.append(attention(mech, setting, None, known=False, suggestion=hint,
                                 fix=_fix(fmt, "attention_mechanism", hint or "diffusers")))
    elif mech == "diffusers":
        entries.append(attention(mech, setting, "sdpa"))
        if given(mech_raw):
            required.append("sdpa")  # asked for by name; left unset it is the default nobody chose
    elif mech.startswith("sageattention") and family == "sana":
        # Sana's model setup turns SageAttention off: "not supported with SageAttention at this point. Disabling
        # SageAttention." and sets attention_mechanism to "diffusers" (bghira/SimpleTuner@bc8e6ab
        # simpletuner/helpers/models/sana/model.py:273-278): its own SDPA runs, nothing to install, no sage note
        pass
    elif mech.startswith("sageattention"):
        # A wrapper around F.scaled_dot_product_attention that calls sageattn(q, k, v, is_causal=...) and
        # drops attn_mask; by default it runs for validation only and training keeps SDPA.
        sage_training = usage in ("training", "training+inference")
        entries.append(attention(mech, setting, "sage", masks="dropped"))
        required = ["sage"]  # validation runs it (and training too with sageattention_usage=training*)
    elif mech == "xformers":
        entries.append(attention(mech, setting, "xformers"))
        required.append("xformers")
    elif mech in TO_DIFFUSERS:
        e = diffusers.entry(TO_DIFFUSERS[mech], setting)
        e["name"] = mech
        if e["mask_alternative"]:
            e["mask_alternative"] = FROM_DIFFUSERS.get(e["mask_alternative"], "diffusers")
        entries.append(e)
        if e["kind"] == "local" and e["backend"]:
            required.append(e["backend"])
    else:  # sla, metal-flash-attention*: their own packages or Apple GPUs, nothing attn-doctor checks
        entries.append(attention(mech, setting, None, kind="other"))
    unet = family in UNET_FAMILIES
    if unet and entries and entries[0]["via_diffusers"] and entries[0]["known"] and given(mech_raw):
        required = ["sdpa"]  # the dispatcher's backend never reaches a UNet; SDPA is what runs
    old_x = s.get("_old_xformers") if not given(mech_raw) else None
    if old_x and family in OLD_XFORMERS_FAMILIES:
        # the older train.sh: --enable_xformers_memory_efficient_attention, enable_xformers_memory_efficient_attention()
        entries = [attention("xformers", f"{old_x} (train.sh's --enable_xformers_memory_efficient_attention)",
                             "xformers")]
        required = ["xformers"]
    removed_flag = None
    if s.get("_env_xformers") and not given(mech_raw):
        removed_flag = s["_env_xformers"]
        if family in UNET_FAMILIES or family is None:
            entries = [attention("xformers", f"{removed_flag} (--enable_xformers_memory_efficient_attention)",
                                 "xformers")]
            required = ["xformers"]
    dyn = s.get("dynamo_backend")
    dyn = str(dyn).strip().lower() if given(dyn) else "no"
    enabled = dyn not in ("no", "none", "false")
    mode = s.get("dynamo_mode")
    mode = str(mode).strip() if given(mode) else None
    if mode and mode.lower() == "auto":
        # "auto" passes no mode: TorchDynamoPlugin's default (bghira/SimpleTuner@bc8e6ab
        # simpletuner/helpers/training/trainer.py:1071-1078)
        mode = None
    if dyn == "cudagraphs":
        mode = "reduce-overhead"  # Dynamo's cudagraphs backend captures CUDA graphs (cudagraph trees) too
    mp = s.get("mixed_precision")
    # SimpleTuner's default (as train_batch_size 4), except under a launch env whose job is in another file (LAUNCH_ENV)
    mp = str(mp).strip().lower() if given(mp) else None if s.get("_launch_env") else "bf16"
    bmp = s.get("base_model_precision")
    quantized = given(bmp) and str(bmp).strip().lower() != "no_change"
    # weight_dtype: bf16 / fp16 as mixed_precision says, else float32 (a quantised LoRA base may keep bf16)
    # (bghira/SimpleTuner@bc8e6ab simpletuner/helpers/configuration/cmd_args.py:1108-1113)
    if mp == "no" and given(s.get("quantization_config")):
        quantized = True  # model_is_quantized (cmd_args.py:952): a quantization_config quantises too
    # is_quantized needs a LoRA (cmd_args.py:1108; model_type default "full"); base_model_default_dtype defaults to bf16
    # (simpletuner_sdk/server/services/field_registry/sections/model.py:1234-1250)
    lora = "lora" in str(s.get("model_type") or "full").strip().lower()
    keep_bf16 = str(s.get("base_model_default_dtype") or "bf16").strip().lower() == "bf16"
    dtype = dtype_of(mp) or (("bfloat16" if quantized and lora and keep_bf16 else "float32") if mp == "no" else None)
    if mp == "fp8":
        # Accelerator(mixed_precision="fp8") turns native AMP on (huggingface/accelerate@16cb6eb accelerator.py:598-603)
        # and its autocast for fp8 is bf16 (utils/modeling.py:2085-2091); SimpleTuner adds only the TorchAO float8
        # recipe for the Linear layers (trainer.py:1010-1016): attention's q/k/v are bf16
        dtype = "bfloat16"
    alt = entries[0]["mask_alternative"] if entries else None
    return {
        "trainer": "simpletuner", "trainer_title": TITLE, "format": fmt,
        "family": family, "head_dims": HEAD_DIMS.get(family or ""), "mixed_precision": mp, "dtype": dtype,
        "attention": entries, "required": required,
        "compile": {"enabled": enabled, "mode": mode, "setting": f"dynamo_backend={dyn}"},
        "batch_size": as_int(s["train_batch_size"]) if given(s.get("train_batch_size")) else 4,
        "sage_training": sage_training, "sage_usage": usage if mech.startswith("sageattention") else None,
        "removed_flag": removed_flag,
        "unet": unet,
        "fixes": {
            "compile": _fix(fmt, "dynamo_backend", "inductor"),
            "use_default": _fix(fmt, "attention_mechanism", "diffusers"),
            "sage": _fix(fmt, "sageattention_usage", "inference"),
            "mask": _fix(fmt, "attention_mechanism", alt) if alt else None,
            "removed_flag": 'USE_XFORMERS=false   # then: TRAINER_EXTRA_ARGS+=" --attention_mechanism=xformers"'
            if fmt == "env" else _fix(fmt, "attention_mechanism", "xformers") + "   # instead of the removed flag",
        },
    }
