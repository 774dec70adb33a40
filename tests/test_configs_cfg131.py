"""cfg131 (session 32): SimpleTuner's Mage-Flow family rewrites attention_mechanism to a Hub varlen kernel.

Mage-Flow's model (bghira/SimpleTuner@bc8e6ab simpletuner/helpers/models/mageflow/model.py:245-353, run from
check_user_config :359) keeps flash-attn-varlen-hub / flash-attn-3-varlen(-hub) / flash-attn-4-hub, turns the other
flash names into the matching Hub varlen kernel, and overrides anything else (unset, diffusers, sageattention,
xformers) with the recommended one (flash-attn-varlen-hub off Hopper/Blackwell). A Hub kernel is fetched by the
`kernels` package, so nothing local is required. Other families keep the mechanism as written (near misses).
"""

from __future__ import annotations

import json

from attn_doctor import configs

BASE = {"model_family": "mageflow", "model_type": "lora", "lora_type": "standard",
        "data_backend_config": "config/multidatabackend.json", "mixed_precision": "bf16", "train_batch_size": 1}

# (family, attention_mechanism or None, required, attention name, kind)
CASES = [
    ("mageflow", None, [], "flash-attn-varlen-hub", "hub"),
    ("mageflow", "diffusers", [], "flash-attn-varlen-hub", "hub"),
    ("mageflow", "flash-attn-2", [], "flash-attn-varlen-hub", "hub"),
    ("mageflow", "FLASH_ATTN_2", [], "flash-attn-varlen-hub", "hub"),
    ("mageflow", "flash-attn-varlen-hub", [], "flash-attn-varlen-hub", "hub"),
    ("mageflow", "flash-attn-3", [], "flash-attn-3-varlen-hub", "hub"),
    ("mageflow", "flash-attn-3-hub", [], "flash-attn-3-varlen-hub", "hub"),
    ("mageflow", "flash-attn-4-hub", [], "flash-attn-4-hub", "hub"),
    ("mageflow", "xformers", [], "flash-attn-varlen-hub", "hub"),
    ("mageflow", "sageattention", [], "flash-attn-varlen-hub", "hub"),
    ("mageflow", "flash-attn", [], "flash-attn-varlen-hub", "hub"),  # not in its list: overridden
    # near misses: the one local name Mage-Flow keeps, and other families, read as written
    ("mageflow", "flash-attn-3-varlen", ["fa3"], "flash-attn-3-varlen", "local"),
    ("flux", "flash-attn-2", ["fa2"], "flash-attn-2", "local"),
    ("ltxvideo2", "xformers", ["xformers"], "xformers", "local"),
    ("cosmos3", "flash-attn-3", ["fa3"], "flash-attn-3", "local"),
    ("cosmos3", "flash-attn-3-hub", [], "flash-attn-3-hub", "hub"),
]


def test_mageflow_attention_is_its_hub_varlen_kernel(tmp_path):
    bad = []
    for i, (family, mech, required, name, kind) in enumerate(CASES):
        doc = dict(BASE, model_family=family)
        if mech is not None:
            doc["attention_mechanism"] = mech
        path = tmp_path / f"config{i}.json"
        path.write_text(json.dumps(doc, indent=2))
        cfg = configs.load(str(path))
        a = cfg["attention"][0] if cfg["attention"] else {}
        got = (cfg["trainer"], cfg["required"], a.get("name"), a.get("kind"))
        if got != ("simpletuner", required, name, kind):
            bad.append(f"{family} {mech}: {got}")
        if family == "mageflow" and kind == "hub" and (mech or "").lower().replace("_", "-") != name \
                and "Mage-Flow runs" not in a.get("setting", ""):
            bad.append(f"{family} {mech}: the setting does not say what Mage-Flow runs: {a.get('setting')}")
    assert not bad, "\n".join(bad)
