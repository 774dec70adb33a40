"""Issue 24, review rev21 (session 21): cfg87's Hydra composition leaves the fields of a group file that is not here
unknown (never the script's getter default), but only for the lookups written `cfg.model.get(...)` /
`getattr(cfg.model, ...)`. The same lookup written another way still showed the getter's default as the run's reading:
`OmegaConf.select(cfg, "model.attn_implementation", default=...)`, `cfg.get("model", {}).get(...)`,
`cfg["model"].get(...)`, the plain copy `OmegaConf.to_container(cfg)` looked into, a user's own dotted getter
(`deep_get(cfg, "training.bf16", True)`), and a precision word so looked up and then compared. Each is read here with
its group file not here (unknown, the file named) and, beside it, with the file here (what the file says, never the
getter's default). And with the file here, `getattr(cfg.model, "attn_implementation", D)`, `OmegaConf.select(cfg, "model.
attn_implementation", default=D)` and `OmegaConf.to_container(cfg)["model"].get(...)` read D whatever the file said (sdpa
shown as fa2): now the composed config's entry, D only where the config is known whole and lacks the key. Every file here
is written by rev21 for these tests."""

from __future__ import annotations

import pytest

from attn_doctor import configs
from configs_corpus import put, trainer_reading

HEAD = '''import hydra
from omegaconf import DictConfig, OmegaConf
from transformers import AutoModelForCausalLM, Trainer, TrainingArguments


def deep_get(d, path, default=None):
    for part in path.split("."):
        if part not in d:
            return default
        d = d[part]
    return d


@hydra.main(version_base=None, config_path="../conf", config_name="config")
def main(cfg: DictConfig):
'''
TAIL = '''    Trainer(model=model, args=args).train()


if __name__ == "__main__":
    main()
'''
LOOKUPS = {
    "select": ('OmegaConf.select(cfg, "model.attn_implementation", default="flash_attention_2")',
               'OmegaConf.select(cfg, "training.bf16", default=True)'),
    "get-chain": ('cfg.get("model", {}).get("attn_implementation", "flash_attention_2")',
                  'cfg.get("training", {}).get("bf16", True)'),
    "subscript": ('cfg["model"].get("attn_implementation", "flash_attention_2")',
                  'cfg["training"].get("bf16", True)'),
    "container": ('OmegaConf.to_container(cfg, resolve=True)["model"].get("attn_implementation", "flash_attention_2")',
                  'OmegaConf.to_container(cfg, resolve=True)["training"].get("bf16", True)'),
    "getattr": ('getattr(cfg.model, "attn_implementation", "flash_attention_2")', 'getattr(cfg.training, "bf16", True)'),
    "own-getter": ('deep_get(cfg, "model.attn_implementation", "flash_attention_2")',
                   'deep_get(cfg, "training.bf16", True)'),
}
PRIMARY = "defaults:\n  - model: llama\n  - training: base\n  - _self_\n\noutput_dir: outputs\n"


def _app(tmp_path, attn: str, bf16: str, here: bool):
    body = (f"    model = AutoModelForCausalLM.from_pretrained(\"x\", attn_implementation={attn})\n"
            f"    args = TrainingArguments(output_dir=\"o\", bf16={bf16})\n")
    put(tmp_path, "src/train.py", HEAD + body + TAIL)
    put(tmp_path, "conf/config.yaml", PRIMARY)
    if here:
        put(tmp_path, "conf/model/llama.yaml", "name: a/b\nattn_implementation: sdpa\n")
        put(tmp_path, "conf/training/base.yaml", "bf16: false\n")
    return tmp_path / "src/train.py"


@pytest.mark.parametrize("form", sorted(LOOKUPS))
def test_a_lookup_into_a_group_file_not_here_is_unknown(tmp_path, form):
    """(main: fa2 and bfloat16, the getter's defaults, for every form but getattr's)"""
    cfg = configs.load(str(_app(tmp_path, *LOOKUPS[form], here=False)))
    assert cfg["required"] == [] and cfg["dtype"] is None, form
    assert "../conf/model/llama.yaml" in cfg["unread"]


@pytest.mark.parametrize("form", ["get-chain", "subscript", "select", "getattr", "container"])
def test_a_lookup_into_a_group_file_here_reads_the_file(tmp_path, form):
    """sdpa and no bf16, as conf/model/llama.yaml and conf/training/base.yaml say (main: fa2 and bfloat16 for select,
    getattr and container, the getters' defaults)."""
    assert trainer_reading(_app(tmp_path, *LOOKUPS[form], here=True)) == ("transformers", ["sdpa"], None)


@pytest.mark.parametrize("form", ["select", "getattr"])
def test_a_key_the_composed_config_lacks_reads_the_getters_default(tmp_path, form):
    """The files here set neither key: the getter's default is what the run reads."""
    path = _app(tmp_path, *LOOKUPS[form], here=True)
    put(tmp_path, "conf/model/llama.yaml", "name: a/b\n")
    put(tmp_path, "conf/training/base.yaml", "lr: 0.0001\n")
    assert trainer_reading(path) == ("transformers", ["fa2"], "bfloat16")


def test_a_precision_word_looked_up_in_a_missing_group_file_is_unknown(tmp_path):
    """`precision = cfg.training.get("precision", "bf16")` then `bf16=precision == "bf16"`: the comparison on the
    getter's default is not the run's when training's file is not here (main: bfloat16)."""
    body = ('    precision = cfg.training.get("precision", "bf16")\n'
            '    model = AutoModelForCausalLM.from_pretrained("x")\n'
            '    args = TrainingArguments(output_dir="o", bf16=precision == "bf16")\n')
    put(tmp_path, "src/train.py", HEAD + body + TAIL)
    put(tmp_path, "conf/config.yaml", PRIMARY)
    cfg = configs.load(str(tmp_path / "src/train.py"))
    assert cfg["dtype"] is None and "../conf/training/base.yaml" in cfg["unread"]
