"""Issue 24, helper cfg87 (session 21): a Hydra app's config composed as Hydra composes it (an advice-safety finding of
session 20's review). A script `@hydra.main(config_path=..., config_name=...)` launched with `model=qwen` was read from
its primary YAML alone: the chosen group file (conf/model/qwen.yaml: attn_implementation flash_attention_2) was not
merged, and the script's getter default (`cfg.model.get("attn_implementation", "sdpa")`) showed as the run's reading.
Now (pyscript/hydra_compose.py, settings_files.hydra_composed, configs._hydra_overrides):

1. the primary config's defaults list is composed (each group's chosen file under its package, `_self_` where it is
   written, last where it is not), the launch's overrides winning (`group=option`, `key=value`, `+key=value`,
   `+group=option`, `~group`); an `override /group: option` of an appended experiment file and its `# @package
   _global_` header are followed; `${a.b}` interpolations are settled;
2. a group file the composition needs that is not here (an option not in the checkout, one a shell variable picks)
   leaves what it could set unknown, never the script's getter default, and the reading names the file;
3. the primary YAML alone, no group chosen, reads as before; a group the defaults list does not name (`optimizer=adamw`
   where Hydra asks for `+optimizer=adamw`) or a key the composed config lacks stays refused.
Every file here is written by cfg87 for these tests."""

from __future__ import annotations

import pytest

from attn_doctor import configs
from attn_doctor.configs.pyscript.hydra_compose import UNSEEN, Refused, compose, header_package
from configs_corpus import put, trainer_reading

SCRIPT = '''import hydra
from omegaconf import DictConfig
from transformers import AutoModelForCausalLM, Trainer, TrainingArguments


@hydra.main(version_base=None, config_path="../conf", config_name="config")
def main(cfg: DictConfig):
    model = AutoModelForCausalLM.from_pretrained(
        cfg.model.name, attn_implementation=cfg.model.get("attn_implementation", "sdpa"))
    args = TrainingArguments(output_dir=cfg.output_dir, bf16=cfg.training.get("bf16", False))
    Trainer(model=model, args=args).train()


if __name__ == "__main__":
    main()
'''
PRIMARY = "defaults:\n  - model: llama\n  - training: base\n  - _self_\n\noutput_dir: outputs\n"
FILES = {
    "conf/model/llama.yaml": "name: meta-llama/Llama-3.1-8B\n",
    "conf/model/qwen.yaml": "name: Qwen/Qwen2.5-7B\nattn_implementation: flash_attention_2\n",
    "conf/model/eager.yaml": "name: google/gemma-2-9b\nattn_implementation: eager\n",
    "conf/training/base.yaml": "bf16: false\n",
    "conf/training/qlora.yaml": "bf16: true\n",
}


def _repo(tmp_path, primary=PRIMARY, drop=(), **extra):
    put(tmp_path, "src/train.py", SCRIPT)
    put(tmp_path, "conf/config.yaml", primary)
    for rel, text in {**FILES, **{"conf/" + k.replace("__", "/") + ".yaml": v for k, v in extra.items()}}.items():
        if rel not in drop:
            put(tmp_path, rel, text)


def _launch(tmp_path, line):
    return put(tmp_path, "scripts/run.sh", "#!/bin/bash\nset -e\n" + line + "\n")


# -- 1. composition ------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("line, want", [
    ("python src/train.py model=qwen", ("transformers", ["fa2"], None)),  # (main: sdpa, the getter's default)
    ("python src/train.py model=qwen training=qlora", ("transformers", ["fa2"], "bfloat16")),
    ("python src/train.py training=qlora", ("transformers", ["sdpa"], "bfloat16")),
    ("python src/train.py model=eager training.bf16=true", ("transformers", [], "bfloat16")),
    ("python src/train.py model=eager model.attn_implementation=flash_attention_2", ("transformers", ["fa2"], None)),
    ("python src/train.py +model.attn_implementation=flash_attention_2", ("transformers", ["fa2"], None)),
    ("python src/train.py ++training.bf16=true model=qwen", ("transformers", ["fa2"], "bfloat16")),
])
def test_a_launch_reads_the_config_hydra_composes(tmp_path, line, want):
    _repo(tmp_path)
    assert trainer_reading(_launch(tmp_path, line)) == want


def test_the_defaults_list_alone_is_composed(tmp_path):
    """The script alone runs with its defaults list's choices: qwen's file sets flash_attention_2."""
    _repo(tmp_path, primary=PRIMARY.replace("model: llama", "model: qwen").replace("training: base", "training: qlora"))
    assert trainer_reading(tmp_path / "src/train.py") == ("transformers", ["fa2"], "bfloat16")


@pytest.mark.parametrize("self_first, want", [(True, ["fa2"]), (False, [])])
def test_self_decides_whether_the_primary_or_the_group_wins(tmp_path, self_first, want):
    """`_self_` first: the group file (qwen: flash_attention_2) merges over the primary's own model keys; absent (Hydra
    >= 1.1: last), the primary's eager wins."""
    primary = ("defaults:\n  - _self_\n  - model: qwen\n" if self_first else "defaults:\n  - model: qwen\n") + \
        "model:\n  attn_implementation: eager\ntraining:\n  bf16: false\noutput_dir: out\n"
    _repo(tmp_path, primary=primary)
    assert trainer_reading(tmp_path / "src/train.py")[1] == want


def test_an_appended_global_experiment_overrides_the_model_group(tmp_path):
    """`+experiment=fast` of a `# @package _global_` file whose own defaults list says `override /model: qwen`
    (the lightning-hydra-template layout) and sets training.bf16 at the root's package."""
    _repo(tmp_path, experiment__fast="# @package _global_\ndefaults:\n  - override /model: qwen\n\ntraining:\n"
                                     "  bf16: true\n")
    assert trainer_reading(_launch(tmp_path, "python src/train.py +experiment=fast")) == \
        ("transformers", ["fa2"], "bfloat16")


def test_an_interpolation_is_settled(tmp_path):
    _repo(tmp_path, primary=PRIMARY + "attn: flash_attention_2\n",
          model__interp="name: x/y\nattn_implementation: ${attn}\n")
    assert trainer_reading(_launch(tmp_path, "python src/train.py model=interp"))[1] == ["fa2"]


# -- 2. a group file that is not here ------------------------------------------------------------------------------------

@pytest.mark.parametrize("line, missing", [
    ("python src/train.py model=mistral", "../conf/model/mistral.yaml"),
    ("python src/train.py model=$MODEL_NAME", "../conf/model/$MODEL_NAME.yaml"),
])
def test_a_chosen_group_file_not_here_leaves_its_fields_unknown(tmp_path, line, missing):
    """Not sdpa (the script's getter default, main's reading): the missing file decides, and the reading names it."""
    _repo(tmp_path)
    cfg = configs.load(str(_launch(tmp_path, line)))
    assert cfg["required"] == [] and missing in cfg["unread"]


def test_a_default_group_file_not_here_leaves_its_fields_unknown(tmp_path):
    _repo(tmp_path, drop=("conf/model/llama.yaml", "conf/training/base.yaml"))
    cfg = configs.load(str(tmp_path / "src/train.py"))
    assert cfg["required"] == [] and cfg["dtype"] is None
    assert set(cfg["unread"]) >= {"../conf/model/llama.yaml", "../conf/training/base.yaml"}


def test_a_value_set_after_a_missing_group_is_known(tmp_path):
    """`model.attn_implementation=eager` is set after composition: known, whatever the missing file holds."""
    _repo(tmp_path)
    cfg = configs.load(str(_launch(tmp_path, "python src/train.py model=mistral "
                                              "model.attn_implementation=flash_attention_2")))
    assert cfg["required"] == ["fa2"]


# -- 3. what stays as it was ---------------------------------------------------------------------------------------------

def test_a_primary_without_groups_reads_its_own_keys(tmp_path):
    """(main read sdpa here: `cfg.model.get(...)` of a loaded mapping was not looked up, the getter's default shown)"""
    put(tmp_path, "src/train.py", SCRIPT)
    put(tmp_path, "conf/config.yaml", "model:\n  name: a/b\n  attn_implementation: flash_attention_2\ntraining:\n"
                                      "  bf16: true\noutput_dir: o\n")
    assert trainer_reading(tmp_path / "src/train.py") == ("transformers", ["fa2"], "bfloat16")


@pytest.mark.parametrize("line", [
    "python src/train.py optimizer=adamw",  # a group the defaults list does not name: Hydra asks for +optimizer=adamw
    "python src/train.py training.epochs=3",  # a key the composed config lacks: Hydra asks for +training.epochs=3
    "python src/train.py model.attn_implementation=eager",  # (llama.yaml has no such key)
    "python src/train.py model=qwen --lr 3",  # an option
])
def test_what_hydra_refuses_stays_refused(tmp_path, line):
    _repo(tmp_path, optimizer__adamw="lr: 0.001\n")
    assert trainer_reading(_launch(tmp_path, line)) == "refused"


# -- the composition on its own ------------------------------------------------------------------------------------------

def _loader(files: dict):
    def load(rel):
        if rel not in files:
            return None
        import yaml

        return yaml.safe_load(files[rel]) or {}, header_package(files[rel])
    return load


def test_compose_packages_lists_and_optional():
    files = {
        "config.yaml": "defaults:\n  - db@backup: mysql\n  - optional extra: none\n  - cache: [redis, mem]\n"
                       "  - base\n  - _self_\nx: 1\n",
        "db/mysql.yaml": "host: h\n",
        "cache/redis.yaml": "a: 1\n",
        "cache/mem.yaml": "# @package _group_\nb: 2\n",
        "base.yaml": "x: 0\ny: 2\n",
    }
    out, missing = compose(_loader(files), "config", [])
    assert out == {"backup": {"host": "h"}, "cache": {"a": 1, "b": 2}, "x": 1, "y": 2} and missing == []


def test_compose_missing_and_deleted_groups():
    files = {"config.yaml": "defaults:\n  - model: a\n  - data: d\n", "data/d.yaml": "n: 1\n"}
    out, missing = compose(_loader(files), "config", ["~data"])
    assert out == {"model": {UNSEEN: True}} and missing == ["model/a.yaml"]
    with pytest.raises(Refused):
        compose(_loader(files), "config", ["data.m=2"])
