"""Issue 24, helper cfg115 (session 27): a user's settings kept in another file of the repository.

Gathering the files the rounds' labels were written from (benchmarks/results/configs-user-modules-s27.md) let the
readers follow most of them as they are (pyscript.user_modules' cross-module reading, the TRL pin of
hf_transformers.trl_pinned_at_least, Hydra's defaults list, a launch's YAML). One shape was left (round 57m's
AliB0239 src/trainer.py): a helper whose parameter defaults to a settings object of the user's own module,
`def build_training_args(train_cfg: TrainingConfig = training_config)` with `training_config = TrainingConfig()` in
src/config.py, handed on by a caller that takes the same default (`build_trainer(..., train_cfg=training_config)` ->
`build_training_args(train_cfg)`). Two changes read it: a caller handing on its own parameter of the same name no
longer counts as passing another value (script_constants._parameter_defaults), and an attribute of a parameter whose
default is a module's settings object reads that object's field (values.value, MODULE_CONSTANTS).

Every variant is written here (none is a file of a round). The first fails without the change (checked: both changes
reverted, dtype None); the near misses read None before and after.
"""

from __future__ import annotations

import pytest

from configs_corpus import put, trainer_reading

_SETTINGS = '''
from dataclasses import dataclass


@dataclass
class RunConfig:
    epochs: int = 2
    fp16: bool = False
    bf16: bool = {bf16}


run_config = RunConfig()
'''

_TRAINER = '''
from trl import SFTConfig, SFTTrainer
from settings import RunConfig, run_config


def make_args(cfg: RunConfig = run_config) -> SFTConfig:
    return SFTConfig(output_dir="out", num_train_epochs=cfg.epochs, bf16=cfg.bf16, fp16=cfg.fp16)


def make_trainer(model, data, cfg: RunConfig = run_config) -> SFTTrainer:
    args = make_args({handed})
    return SFTTrainer(model=model, args=args, train_dataset=data)
'''


@pytest.mark.parametrize("bf16,dtype", [("True", "bfloat16"), ("False", None)])
def test_a_parameter_defaulting_to_the_modules_settings_object_reads_its_fields(tmp_path, bf16, dtype):
    put(tmp_path, "settings.py", _SETTINGS.format(bf16=bf16))
    got = trainer_reading(put(tmp_path, "trainer.py", _TRAINER.format(handed="cfg")))
    # (bf16 False: no autocast, over a model this file does not load: the weights' dtype, unknown)
    assert got == ("transformers", [], dtype), got


@pytest.mark.parametrize("handed", ["RunConfig(bf16=False)", "other"])
def test_a_caller_handing_another_object_leaves_it_unknown(tmp_path, handed):
    """`make_args(RunConfig(bf16=False))` / `make_args(other)`: not the default's object, so not its field."""
    put(tmp_path, "settings.py", _SETTINGS.format(bf16="True"))
    assert trainer_reading(put(tmp_path, "trainer.py", _TRAINER.format(handed=handed)))[2] != "bfloat16"
