"""Nerogar OneTrainer: its training config JSON (what the UI saves and `scripts/train.py --config-path` reads;
the presets in training_presets/*.json are partial ones).

Read from Nerogar/OneTrainer 23df383 (2026-08-19):
- modules/util/config/TrainConfig.py: `attention_mechanism` (default SDP), `train_dtype` (default FLOAT_16),
  `batch_size` (default 1), `compile` (default false), `model_type` (default STABLE_DIFFUSION_15);
- modules/util/enum/AttentionMechanism.py: SDP | FLASH | CUDNN | FLEX; modules/util/config/BaseConfig.py from_dict
  looks the name up (`AttentionMechanism[value]`) inside a try whose except prints `Could not set attention_mechanism
  as X` and keeps the default SDP: any other value (older OneTrainer's DEFAULT and XFORMERS, removed 2025-03-08 in
  482333fc, XFORMERS being the default before) trains with SDPA;
- modules/modelSetup/BaseModelSetup.py _set_attention_backend: SDP -> diffusers' "native", FLASH -> "flash"
  (with a warning for models that pass a mask: "FLASH attention might fail ... batch size > 1"), CUDNN ->
  "_native_cudnn", FLEX -> "flex", set on the UNet/transformer with set_attention_backend();
- modules/util/checkpointing_util.py: `compile` compiles each checkpointed block (fullgraph=True, default mode);
- its launch line `python scripts/train.py --config-path X.json [--preset-path P.json] [--config-value KEY=VALUE ...]`
  (scripts/train.py:16-37, modules/util/args/TrainArgs.py:22-25: the preset first, the config over it, then each
  --config-value): read through those files when they are here.
"""

from __future__ import annotations

from . import NOTHING, SHARED, STRONG, Score, as_int, diffusers, score_keys

TITLE = "OneTrainer"
MECHANISMS = {"SDP": "native", "FLASH": "flash", "CUDNN": "_native_cudnn", "FLEX": "flex"}
# Names only OneTrainer's TrainConfig uses (Nerogar/OneTrainer@23df383 modules/util/config/TrainConfig.py;
# `__version` is BaseConfig.to_dict's, BaseConfig.py:32).
STRONG_KEYS = {"output_model_destination", "output_model_format", "timestep_distribution", "__version",
               "concept_file_name", "workspace_dir", "layer_offload_fraction", "fallback_train_dtype",
               "enable_autocast_cache", "dynamic_timestep_shifting", "latent_caching", "temp_device"}
# TrainConfig names other frameworks use as well (weight_dtype: invoke-training, MaxText, diffusers' scripts;
# train_dtype / output_dtype / training_method: any trainer's words; base_model_name: torchtune's checkpointer):
# OneTrainer's own only with OneTrainer's value, the name of one of its enums as BaseConfig writes it (str(enum):
# modules/util/enum/DataType.py, TrainingMethod.py), e.g. "BFLOAT_16", "LORA" -- not "bfloat16", "lora".
ENUM_KEYS = {"train_dtype": "DataType", "weight_dtype": "DataType", "output_dtype": "DataType",
             "training_method": "TrainingMethod"}
ENUMS = {"DataType": {"NONE", "FLOAT_8", "FLOAT_16", "FLOAT_32", "BFLOAT_16", "TFLOAT_32", "INT_8", "NFLOAT_4",
                      "FLOAT_W8A8", "INT_W8A8", "FLOAT_W8A8_COMPRESSED", "INT_W8A8_COMPRESSED", "GGUF", "GGUF_A8_FLOAT",
                      "GGUF_A8_INT"},
         "TrainingMethod": {"FINE_TUNE", "LORA", "EMBEDDING", "FINE_TUNE_VAE"}}
# a model part's section (TrainConfig.py TrainModelPartConfig): OneTrainer's own with one of the part's own fields
PART_OWN_FIELDS = {"stop_training_after", "stop_training_after_unit", "train_embedding", "dropout_probability"}
SHARED_KEYS = {"attention_mechanism", "model_type", "compile", "text_encoder", "text_encoder_2", "vae", "transformer",
               "learning_rate_scheduler", "optimizer", "cache_dir", "concepts", "samples", "backup_after",
               "train_device", "base_model_name"}
COMMON_KEYS = {"batch_size", "learning_rate", "resolution", "epochs", "gradient_checkpointing"}
PARTS = {"unet", "prior", "effnet_encoder", "text_encoder", "text_encoder_2", "vae", "transformer"}
# ModelType -> family (configs/simpletuner.HEAD_DIMS / UNET_FAMILIES names)
FAMILIES = {"STABLE_DIFFUSION_15": "sd1x", "STABLE_DIFFUSION_15_INPAINTING": "sd1x", "STABLE_DIFFUSION_20": "sd2x",
            "STABLE_DIFFUSION_20_BASE": "sd2x", "STABLE_DIFFUSION_20_INPAINTING": "sd2x", "STABLE_DIFFUSION_20_DEPTH": "sd2x",
            "STABLE_DIFFUSION_21": "sd2x", "STABLE_DIFFUSION_21_BASE": "sd2x", "STABLE_DIFFUSION_XL_10_BASE": "sdxl",
            "STABLE_DIFFUSION_XL_10_BASE_INPAINTING": "sdxl", "STABLE_DIFFUSION_3": "sd3", "STABLE_DIFFUSION_35": "sd3",
            "FLUX_DEV_1": "flux", "FLUX_FILL_DEV_1": "flux", "FLUX_2": "flux2", "CHROMA_1": "chroma",
            "QWEN": "qwen_image", "HI_DREAM_FULL": "hidream", "HUNYUAN_VIDEO": "hunyuanvideo", "PIXART_ALPHA": "pixart_sigma",
            "PIXART_SIGMA": "pixart_sigma", "SANA": "sana", "WUERSTCHEN_2": "wuerstchen", "STABLE_CASCADE_1": "wuerstchen",
            "Z_IMAGE": "z_image"}
# ModelType's members (Nerogar/OneTrainer@23df383 modules/util/enum/ModelType.py), the value its configs carry
MODEL_TYPES = set(FAMILIES) | {"ANIMA", "KREA_2", "ERNIE", "IDEOGRAM_4"}
DTYPES = {"FLOAT_16": "float16", "BFLOAT_16": "bfloat16", "FLOAT_32": "float32", "TFLOAT_32": "float32"}
# Models whose transformer OneTrainer keeps out of fp16: with train_dtype FLOAT_16 it runs under an autocast to
# fallback_train_dtype (default BFLOAT_16) (Nerogar/OneTrainer@23df383 modules/modelSetup/BaseHiDreamSetup.py:49,
# BaseHunyuanVideoSetup.py:49 disable_fp16_autocast=True; modules/util/dtype_util.py:55-72; TrainConfig.py:1074-1075)
FP16_FALLBACK = {"HI_DREAM_FULL", "HUNYUAN_VIDEO"}


def _dtype(data: dict, model_type: str) -> str | None:
    train = str(data.get("train_dtype", "FLOAT_16"))
    if train == "FLOAT_16" and model_type in FP16_FALLBACK:
        train = str(data.get("fallback_train_dtype", "BFLOAT_16"))
    return DTYPES.get(train)


def launch(cmd) -> dict | None:
    """The options of OneTrainer's CLI, `python scripts/train.py --config-path X.json [--preset-path P.json]
    [--config-value KEY=VALUE ...]` ({config_path, preset_path, config_values}), or None for other commands."""
    if cmd.script != "train.py":
        return None
    opts: dict = {"config_values": []}
    i = 0
    while i < len(cmd.args):
        w = cmd.args[i]
        key, eq, val = w.partition("=")
        if key in ("--config-path", "--preset-path", "--config-value"):
            if not eq:
                val = cmd.args[i + 1] if i + 1 < len(cmd.args) else ""
                i += 1
            if key == "--config-value":
                opts["config_values"].append(val)
            else:
                opts[key[2:].replace("-", "_")] = val
        i += 1
    # Hydra's `--config-path DIR --config-name NAME` is another thing: OneTrainer's --config-path is a JSON file
    if str(opts.get("config_path", "")).lower().endswith(".json") and \
            not any(w.startswith(("--config-name", "-cn")) for w in cmd.args):
        return opts
    return None


def score(doc: dict) -> "Score":
    if doc["fmt"] in ("text", "python"):  # a launch script, or a notebook's `!` lines
        from . import launch_config

        cmd, _opts = launch_config(doc, launch)
        return Score().add("scripts/train.py --config-path (OneTrainer's launch line)", 2 * STRONG) \
            if cmd is not None else NOTHING
    if doc["fmt"] != "json":
        return NOTHING
    # OneTrainer's model parts (unet, prior, text_encoder, vae ...) are sections of settings (modules/util/config/
    # TrainConfig.py TrainModelPartConfig); a diffusers model_index.json names the same parts as [library, class] lists
    data = doc["data"]
    keys = {k for k, v in data.items() if k not in PARTS or isinstance(v, dict)}
    sc = score_keys(keys, STRONG_KEYS, SHARED_KEYS, COMMON_KEYS)
    for k in sorted(keys & set(ENUM_KEYS)):  # own with OneTrainer's value, shared with any other
        own = isinstance(data[k], str) and data[k] in ENUMS[ENUM_KEYS[k]]
        sc.add(f"{k}={data[k]}" if own else k, STRONG if own else SHARED)
    for k in sorted(keys & {"unet", "prior", "effnet_encoder"}):
        own = bool(PART_OWN_FIELDS & set(data[k]))
        sc.add(f"{k} (a model part's section)" if own else k, STRONG if own else SHARED)
    mech, mt = data.get("attention_mechanism"), data.get("model_type")
    if isinstance(mech, str) and mech in MECHANISMS:
        sc.add(f"attention_mechanism={mech}")
    if isinstance(mt, str) and mt in MODEL_TYPES:
        sc.add(f"model_type={mt}")
    elif isinstance(mt, str) and mt.isupper() and "_" in mt:
        # an upper-case name of OneTrainer's style it does not list (a fork's new model): any enum-minded tool's too
        sc.add(f"model_type={mt}", SHARED)
    return sc


def read(doc: dict) -> dict:
    from .simpletuner import HEAD_DIMS, UNET_FAMILIES

    if doc["fmt"] in ("text", "python"):  # the launch command: the JSON it names, when it is here
        from . import config_data, launch_config, named_config, unknown_settings

        _cmd, opts = launch_config(doc, launch)
        sub = named_config(doc, (opts or {}).get("config_path"))
        if sub is None or sub["fmt"] != "json" or not score(sub).own:
            # the config that says which attention, dtype and compile is not here (or is not OneTrainer's)
            return unknown_settings("onetrainer", TITLE, "compile")
        data = {**(config_data(doc, opts.get("preset_path")) or {}), **sub["data"]}
        for kv in opts.get("config_values") or []:
            key, _, value = str(kv).partition("=")
            if key and "." not in key:  # top-level keys only (dot notation reaches nested objects)
                low = value.strip().lower()
                data[key] = True if low == "true" else False if low == "false" else value
        return dict(read(dict(sub, data=data)), format="cmdline")

    data = doc["data"]
    raw = data.get("attention_mechanism", "SDP")
    mech = str(raw).strip()
    setting = f'"attention_mechanism": "{mech}"'
    if mech in MECHANISMS:
        e = diffusers.entry(MECHANISMS[mech], setting)
        e["name"] = mech
        if e["mask_alternative"]:
            e["mask_alternative"] = "SDP"  # OneTrainer has no varlen names: SDPA takes the mask
    else:
        from difflib import get_close_matches

        hint = (get_close_matches(mech.upper(), list(MECHANISMS), n=1, cutoff=0.3) or ["SDP"])[0]
        e = diffusers.entry("?", setting)
        e.update(name=mech, suggestion=hint, via_diffusers=False, fix=f'"attention_mechanism": "{hint}"')
    mt = str(data.get("model_type") or "STABLE_DIFFUSION_15")
    family = FAMILIES.get(mt)
    unet = family in UNET_FAMILIES
    required = [e["backend"]] if e["known"] and e["backend"] and "attention_mechanism" in data else []
    if unet and e["known"] and required:
        required = ["sdpa"]  # set_attention_backend never reaches the UNet's AttnProcessor2_0
    comp = data.get("compile") is True
    return {
        "trainer": "onetrainer", "trainer_title": TITLE, "format": "json",
        "family": family, "head_dims": HEAD_DIMS.get(family or ""),
        "mixed_precision": data.get("train_dtype"), "dtype": _dtype(data, mt),
        "attention": [e], "required": required,
        "compile": {"enabled": comp, "mode": "default" if comp else None, "setting": '"compile"'},
        "batch_size": as_int(data.get("batch_size", 1)), "unet": unet,
        "fixes": {"compile": '"compile": true', "use_default": '"attention_mechanism": "SDP"',
                  "mask": '"attention_mechanism": "SDP"   # PyTorch SDPA takes the padding mask'},
    }


def parse(path: str, text: str) -> dict:
    from . import make_doc

    return read(make_doc(path, text))
