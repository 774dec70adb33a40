"""Nerogar OneTrainer: its training config JSON (what the UI saves and `scripts/train.py --config-path` reads;
the presets in training_presets/*.json are partial ones).

Read from Nerogar/OneTrainer 23df383 (2026-08-19):
- modules/util/config/TrainConfig.py: `attention_mechanism` (default SDP), `train_dtype` (default FLOAT_16),
  `batch_size` (default 1), `compile` (default false), `model_type` (default STABLE_DIFFUSION_15);
- modules/util/enum/AttentionMechanism.py: SDP | FLASH | CUDNN | FLEX; any other value stops loading the config
  (`'X' is not a valid AttentionMechanism`);
- modules/modelSetup/BaseModelSetup.py _set_attention_backend: SDP -> diffusers' "native", FLASH -> "flash"
  (with a warning for models that pass a mask: "FLASH attention might fail ... batch size > 1"), CUDNN ->
  "_native_cudnn", FLEX -> "flex", set on the UNet/transformer with set_attention_backend();
- modules/util/checkpointing_util.py: `compile` compiles each checkpointed block (fullgraph=True, default mode).
"""

from __future__ import annotations

from . import NOTHING, as_int, diffusers, score_keys

TITLE = "OneTrainer"
MECHANISMS = {"SDP": "native", "FLASH": "flash", "CUDNN": "_native_cudnn", "FLEX": "flex"}
STRONG_KEYS = {"train_dtype", "base_model_name", "output_model_destination", "output_model_format", "training_method",
               "weight_dtype", "timestep_distribution", "__version", "concept_file_name", "workspace_dir",
               "layer_offload_fraction", "fallback_train_dtype", "enable_autocast_cache", "dynamic_timestep_shifting",
               "output_dtype", "latent_caching", "train_device", "temp_device", "unet", "prior", "effnet_encoder"}
SHARED_KEYS = {"attention_mechanism", "model_type", "compile", "text_encoder", "text_encoder_2", "vae", "transformer",
               "learning_rate_scheduler", "optimizer", "cache_dir", "concepts", "samples", "backup_after"}
COMMON_KEYS = {"batch_size", "learning_rate", "resolution", "epochs", "gradient_checkpointing"}
# ModelType -> family (configs/simpletuner.HEAD_DIMS / UNET_FAMILIES names)
FAMILIES = {"STABLE_DIFFUSION_15": "sd1x", "STABLE_DIFFUSION_15_INPAINTING": "sd1x", "STABLE_DIFFUSION_20": "sd2x",
            "STABLE_DIFFUSION_20_BASE": "sd2x", "STABLE_DIFFUSION_20_INPAINTING": "sd2x", "STABLE_DIFFUSION_20_DEPTH": "sd2x",
            "STABLE_DIFFUSION_21": "sd2x", "STABLE_DIFFUSION_21_BASE": "sd2x", "STABLE_DIFFUSION_XL_10_BASE": "sdxl",
            "STABLE_DIFFUSION_XL_10_BASE_INPAINTING": "sdxl", "STABLE_DIFFUSION_3": "sd3", "STABLE_DIFFUSION_35": "sd3",
            "FLUX_DEV_1": "flux", "FLUX_FILL_DEV_1": "flux", "FLUX_2": "flux2", "CHROMA_1": "chroma",
            "QWEN": "qwen_image", "HI_DREAM_FULL": "hidream", "HUNYUAN_VIDEO": "hunyuanvideo", "PIXART_ALPHA": "pixart_sigma",
            "PIXART_SIGMA": "pixart_sigma", "SANA": "sana", "WUERSTCHEN_2": "wuerstchen", "STABLE_CASCADE_1": "wuerstchen",
            "Z_IMAGE": "z_image"}
DTYPES = {"FLOAT_16": "float16", "BFLOAT_16": "bfloat16", "FLOAT_32": "float32", "TFLOAT_32": "float32"}


def launch(cmd) -> str | None:
    """OneTrainer's CLI: `python scripts/train.py --config-path X.json` (modules/util/args/TrainArgs.py); the JSON's path."""
    from .shell import parse_options

    if cmd.script != "train.py" or not any(w.startswith("--config-path") for w in cmd.args):
        return None
    path = parse_options(cmd.args).values.get("config-path")
    return path if isinstance(path, str) else None


def score(doc: dict) -> "Score":
    if doc["fmt"] == "text":
        from . import Score, launch_config

        cmd, _path = launch_config(doc, launch)
        return Score().add("scripts/train.py --config-path X.json") if cmd is not None else NOTHING
    if doc["fmt"] != "json":
        return NOTHING
    sc = score_keys(set(doc["data"]), STRONG_KEYS, SHARED_KEYS, COMMON_KEYS)
    mech, mt = doc["data"].get("attention_mechanism"), doc["data"].get("model_type")
    if isinstance(mech, str) and mech in MECHANISMS:
        sc.add(f"attention_mechanism={mech}")
    if isinstance(mt, str) and (mt in FAMILIES or (mt.isupper() and "_" in mt)):
        sc.add(f"model_type={mt}")
    return sc


def read(doc: dict) -> dict:
    from .simpletuner import HEAD_DIMS, UNET_FAMILIES

    if doc["fmt"] == "text":  # the launch command: the JSON it names, when it is here
        from . import launch_config, named_config, unknown_settings

        _cmd, path = launch_config(doc, launch)
        sub = named_config(doc, path)
        if sub is None or sub["fmt"] != "json" or not score(sub).own:
            return unknown_settings("onetrainer", TITLE)
        return dict(read(sub), format="cmdline")

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
        "mixed_precision": data.get("train_dtype"), "dtype": DTYPES.get(str(data.get("train_dtype", "FLOAT_16"))),
        "attention": [e], "required": required,
        "compile": {"enabled": comp, "mode": "default" if comp else None, "setting": '"compile"'},
        "batch_size": as_int(data.get("batch_size", 1)), "unet": unet,
        "fixes": {"compile": '"compile": true', "use_default": '"attention_mechanism": "SDP"',
                  "mask": '"attention_mechanism": "SDP"   # PyTorch SDPA takes the padding mask'},
    }


def parse(path: str, text: str) -> dict:
    from . import make_doc

    return read(make_doc(path, text))
