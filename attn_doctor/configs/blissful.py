"""blissful-tuner (Sarania/blissful-tuner, musubi-tuner's fork): musubi-tuner's TOML and command line plus
`cute = true` / `--cute` (FlashAttention 4 through `flash_attn.cute`), `compile`, `compile_mode`.

Read from /work/shared/seeds/cute-training-guide.en.md (the CuTE training guide: `--cute` or `cute = true`,
`compile = true`, `compile_mode = "max-autotune-no-cudagraphs"`, and "keep the allocator on the native backend"
with `max-autotune`). The snapshot of Sarania/blissful-tuner read on 2026-11-23 (e4ed1f0, 2026-04-15) has
`--compile_mode` in src/blissful_tuner/blissful_core.py and musubi-tuner's parser otherwise; `--cute` is newer
than that snapshot. The reading itself is musubi.py's: a file is blissful-tuner's when it names `cute`.
"""

from __future__ import annotations

from . import NOTHING, STRONG, Score, musubi

TITLE = "blissful-tuner"
# Training options only blissful-tuner has (its parser beside musubi-tuner 30c658c's: src/blissful_tuner/
# blissful_core.py and the training scripts of the snapshot above).
OWN_KEYS = {"cute", "rope_func", "fp16_accumulation", "fp32_working_dtype", "mixed_precision_transformer",
            "lower_precision_attention", "optimized_compile", "image_edit_training", "image_model_training",
            "use_nabla_attention", "simple_modulation", "tf32_mode", "allow_linear_for_compile",
            # DustyL/blissful-tuner e6393cd (a fork of it) adds mask-weighted loss
            "use_mask_loss", "mask_loss_scale", "mask_min_weight"}


def score(doc: dict) -> "Score":
    if doc["fmt"] == "toml":
        keys = set(musubi._flatten(doc["data"]))
    elif doc["fmt"] == "text":
        keys = set(doc["args"])
    else:
        return NOTHING
    own = sorted(keys & OWN_KEYS)
    if not own and not (doc["fmt"] == "text" and "blissful" in doc["text"].lower()):
        return NOTHING  # without its own keys a file is musubi-tuner's (the same reader)
    sc = musubi.score(doc)
    if not own and not sc.points:
        # the name alone, in a text that runs nothing of musubi-tuner's (a README that lists the trainers a tool reads,
        # attn-doctor's own: nu41) is no command line to read; with a musubi-tuner command or options it is blissful's
        return NOTHING
    mine = own or ["blissful"]
    return Score(sc.points + STRONG * len(mine), mine + [e for e in sc.evidence if e not in mine],
                 mine + [e for e in sc.own if e not in mine], sc.own_points + STRONG * len(mine))


def read(doc: dict) -> dict:
    cfg = musubi.read(doc)
    cfg["trainer_title"] = TITLE
    return cfg


def parse(path: str, text: str) -> dict:
    return musubi.parse(path, text)
