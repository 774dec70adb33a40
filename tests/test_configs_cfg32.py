"""Issue 24, helper cfg32 (session 8): a setting's VALUE as the trainer's own loader resolves it, by mechanism, across
readers. The variant files (tests/data/config_values_cfg32/, each written for this test and saying what it fakes) put
the value that matters behind one mechanism each: a Python name bound earlier, a ternary on the device, the private
`_attn_implementation=` keyword, a dict of keywords unpacked into from_pretrained, os.environ.get with a default,
argparse defaults and choices; YAML anchors / aliases / merge keys, OmegaConf `${...}`, a Hydra `defaults:` list; shell
`${VAR:-default}`, a sourced file's exports, bash arrays; a TOML --config_file under command-line overrides; LLaMA-Factory
and axolotl YAML under command-line overrides. The audit table is benchmarks/results/configs-value-resolution-s8.md."""

from __future__ import annotations

from pathlib import Path

import pytest

from attn_doctor import configs
from attn_doctor.model import UsageError

DATA = Path(__file__).resolve().parent / "data" / "config_values_cfg32"


def reading(name: str) -> tuple:
    c = configs.load(str(DATA / name))
    return c["detected"]["trainer"], c["required"], c["dtype"] or "", c["compile_mode"] or "none"


# file -> (trainer, required, dtype, compile_mode) as the trainer's own loader resolves the values; read right on main
# (87c7372) already: these guard that the mechanisms keep working
RIGHT_ON_MAIN = {
    "py_name_bound.py": ("transformers", ["fa2"], "bfloat16", "none"),
    "py_device_ternary.py": ("transformers", ["fa2"], "bfloat16", "none"),
    "py_kwargs_dict.py": ("transformers", ["fa2"], "bfloat16", "none"),
    "py_argparse_default.py": ("transformers", ["fa2"], "bfloat16", "none"),
    "argparse_launch.sh": ("transformers", ["sdpa"], "float16", "none"),
    "trl_anchor.yaml": ("transformers", ["fa2"], "bfloat16", "none"),
    "axolotl_alias.yaml": ("axolotl", ["sdpa"], "bfloat16", "none"),
    "axolotl_anchor_merge.yaml": ("axolotl", ["fa2"], "bfloat16", "default"),
    "axolotl_override.sh": ("axolotl", ["fa2"], "bfloat16", "default"),
    "llamafactory_anchor.yaml": ("llama-factory", ["fa2"], "bfloat16", "none"),
    # LLaMA-Factory's read_args does not resolve ${...} (OmegaConf.to_container without resolve=True): the literal
    # string reaches flash_attn, which is no AttentionFunction: no backend required, the entry says so
    "llamafactory_interp.yaml": ("llama-factory", [], "bfloat16", "none"),
    "llamafactory_override.sh": ("llama-factory", ["fa2"], "float16", "none"),
    "aitoolkit_anchor.yaml": ("ai-toolkit", [], "bfloat16", "none"),
    "musubi_var_default.sh": ("musubi", ["fa2"], "bfloat16", "none"),
    "musubi_array.sh": ("musubi", ["sage"], "bfloat16", "max-autotune"),
    "musubi_override.sh": ("musubi", ["sdpa"], "float16", "none"),
    "sdscripts_override.sh": ("sd-scripts", ["xformers"], "float16", "none"),
    "sdscripts_var_default.sh": ("sd-scripts", ["sdpa"], "float16", "none"),
}


@pytest.mark.parametrize("name", sorted(RIGHT_ON_MAIN))
def test_value_resolved_as_the_trainer_resolves_it(name):
    assert reading(name) == RIGHT_ON_MAIN[name]


def test_llamafactory_unresolved_interpolation_is_named_unknown():
    c = configs.load(str(DATA / "llamafactory_interp.yaml"))
    assert [(a["name"], a["known"]) for a in c["attention"]] == [("${attn}", False)]


def test_hydra_defaults_list_is_refused_not_read_as_trl():
    with pytest.raises(UsageError, match="Hydra"):
        configs.load(str(DATA / "trl_hydra_defaults.yaml"))
