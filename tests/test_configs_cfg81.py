"""Issue 24, helper cfg81 (session 20): what round 79m's misses showed, fixed for their mechanism.

1. A launch running a script named like a diffusers example (`train_qwen*.py`, `train_flux*.py` ...) with nothing on its
   command line was read as the example (round 79m's Sarouny19 autodl_train.sh: `python train_qwen25_lora.py`, a TRL
   script of the user's own, read as diffusers float32): the examples' argparse requires --pretrained_model_name_or_path,
   so a bare run is never one of them (diffusers.lacks_model_option).
2. A JSON of sd-scripts' option names whose model weights file is under a key sd-scripts has no option for (round 79m's
   Axaxin GUI default.json: `"pretrained_model": "./sd-models/model.ckpt"` beside train_data_dir / network_dim / unet_lr)
   was read as sd-scripts' options written out: the values are not handed on as --key value, the program the file is
   written for maps its own keys (sd_scripts.foreign_weights, which said so of a TOML already, now of such a JSON too).
3. A launch running a user's script that is not here, given nothing but one settings file that is here and reads as a
   claimed trainer's config on its own (round 79m's rohit07cf run_training.sh: `python src/train.py --config
   configs/lora_sft.yaml`, a LLaMA-Factory YAML its wrapper hands to run_exp) is read through that file
   (configs._config_handed); another option beside it, a file that is not here, reads as no trainer's, is made of
   TrainingArguments / TRL fields (every HfArgumentParser script's) or shows fewer than two of its trainer's own keys,
   stays refused.
4. A launch giving a Hydra app of its own only overrides that choose config groups its primary config's defaults list
   names (round 79m's SourabhGothe run_experiment.sh: `python src/train.py model=$MODEL_NAME`) was refused as options
   attn-doctor does not read: the choice changes nothing the script's reading of its primary config alone shows.
   Since cfg87 the script's reader composes the config as Hydra does (configs._hydra_overrides; values set, groups
   written out in the primary file too: tests/test_configs_cfg87.py); an option or a group the defaults list does not
   name stays refused.
5. A dataclass field whose default is another dataclass of its module (`model: ModelConfig = field(default_factory=
   ModelConfig)`) and a function returning the settings object it fills (`def build_config(args) -> Config: cfg =
   Config(); ...; return cfg`) hid the nested defaults (round 79m's mrSvet0zar src/config.py, attn_implementation "sdpa"):
   `cfg.model.attn_implementation` now reads the default, unless the script sets that attribute somewhere.
6. A script importing mlx-tune (Unsloth's API names over Apple's MLX) inside a function (round 79m's gotoplanb app.py)
   was refused as one with no trainer calls: it is refused naming mlx-tune (others._PY_FRAMEWORKS), as mlx-lm's.
Every file here is written by cfg81 for these tests."""

from __future__ import annotations

import json

import pytest

from attn_doctor import configs
from attn_doctor.model import UsageError
from configs_corpus import put as _put, trainer_reading as _read  # (one copy of each helper)


# -- 1. a bare run of a script only named like a diffusers example -------------------------------------------------------

@pytest.mark.parametrize("line", [
    "python train_qwen25_lora.py",
    "accelerate launch train_flux_mine.py",
    "python3 scripts/train_sana_v2.py",
    "CUDA_VISIBLE_DEVICES=0 python train_dreambooth_custom.py",
])
def test_a_bare_run_of_a_name_like_an_example_is_not_the_example(tmp_path, line):
    sh = _put(tmp_path, "launch.sh", "#!/bin/bash\nset -e\nexport TOKENIZERS_PARALLELISM=false\n" + line + "\n")
    assert _read(sh) == "refused"


def test_the_example_with_its_model_option_is_still_the_example(tmp_path):
    sh = _put(tmp_path, "launch.sh", "accelerate launch train_dreambooth_lora_flux.py --pretrained_model_name_or_path "
                                     "black-forest-labs/FLUX.1-dev --instance_data_dir data --mixed_precision bf16\n")
    assert _read(sh)[0] == "diffusers"


def test_a_bare_run_handing_on_the_callers_options_says_nothing_either_way(tmp_path):
    """`"$@"` may hold the model option: the name decides, as before."""
    sh = _put(tmp_path, "launch.sh", 'accelerate launch train_dreambooth_lora_flux.py "$@"\n')
    assert _read(sh)[0] == "diffusers"


# -- 2. a weights file under a key of the program's own ------------------------------------------------------------------

GUI_JSON = {"train_data_dir": "./train/x", "output_name": "x", "output_dir": "./out", "max_train_epochs": "10",
            "network_dim": "32", "network_alpha": "16", "unet_lr": "1e-4", "text_encoder_lr": "1e-5",
            "save_model_as": "safetensors", "batch_size": "2"}


@pytest.mark.parametrize("key,weights", [("pretrained_model", "./sd-models/model.ckpt"),
                                         ("base_model_path", "D:/models/sdxl_base.safetensors"),
                                         ("checkpoint", "/workspace/ckpt/anime-v3.SAFETENSORS")])
def test_an_options_json_loading_its_model_from_a_key_of_its_own_is_not_sd_scripts(tmp_path, key, weights):
    p = _put(tmp_path, "gui_configs/default.json", json.dumps({key: weights, **GUI_JSON}))
    assert _read(p) == "refused"


def test_the_same_json_naming_the_model_as_sd_scripts_does_is_sd_scripts(tmp_path):
    p = _put(tmp_path, "params.json", json.dumps({"pretrained_model_name_or_path": "./sd-models/model.ckpt", **GUI_JSON}))
    assert _read(p)[0] == "sd-scripts"


# -- 3. a wrapper not here, handed one settings file that is -------------------------------------------------------------

LF_YAML = """model_name_or_path: Qwen/Qwen2.5-1.5B-Instruct
stage: sft
do_train: true
finetuning_type: lora
lora_target: all
dataset: my_data
template: qwen
cutoff_len: 2048
per_device_train_batch_size: 2
gradient_accumulation_steps: 8
learning_rate: 1.0e-4
num_train_epochs: 3.0
bf16: true
{extra}"""


@pytest.mark.parametrize("line", [
    "python src/train.py --config configs/sft.yaml",
    "python src/train.py --config=configs/sft.yaml",
    "python3 src/train.py configs/sft.yaml",
    'FORCE_TORCHRUN=1 deepspeed --num_gpus 2 src/train.py --config_file configs/sft.yaml "$@"',
])
def test_a_wrapper_handed_only_a_trainers_config_reads_as_that_config(tmp_path, line):
    _put(tmp_path, "configs/sft.yaml", LF_YAML.format(extra="flash_attn: fa2\n"))
    sh = _put(tmp_path, "scripts/run.sh", "#!/usr/bin/env bash\nset -euo pipefail\n" + line + "\n")
    assert _read(sh) == ("llama-factory", ["fa2"], "bfloat16")
    assert _read(tmp_path / "configs/sft.yaml") == _read(sh)


@pytest.mark.parametrize("line,yaml_text", [
    ("python src/train.py --config configs/sft.yaml --lr 1e-5", LF_YAML.format(extra="")),  # an option of its own
    ("python src/train.py --config configs/missing.yaml", LF_YAML.format(extra="")),  # the file is not here
    ("python src/train.py --config configs/sft.yaml", "epochs: 3\nlr: 0.0001\nbatch: 8\nmodel: my-net\n"),  # no trainer's
    ("python src/train.py --config configs/sft.yaml configs/other.yaml", LF_YAML.format(extra="")),  # two files
    # TrainingArguments / TRL fields: every HfArgumentParser script's, the user's own train.py among them
    ("python train.py --config configs/sft.yaml", "model_name_or_path: Qwen/Qwen2.5-1.5B\ndataset_name: x/y\n"
                                                  "attn_implementation: flash_attention_2\nbf16: true\n"),
    # one LLaMA-Factory name beside another program's keys
    ("python src/run.py --config configs/sft.yaml", "model_name_or_path: gpt2\nstage: sft\nmax_epochs: 3\nlr: 0.1\n"),
])
def test_a_wrapper_given_more_or_other_than_a_trainers_config_stays_refused(tmp_path, line, yaml_text):
    _put(tmp_path, "configs/sft.yaml", yaml_text)
    _put(tmp_path, "configs/other.yaml", yaml_text)
    sh = _put(tmp_path, "scripts/run.sh", "#!/usr/bin/env bash\n" + line + "\n")
    assert _read(sh) == "refused"


# -- 4. a Hydra app given only config-group choices ----------------------------------------------------------------------

HYDRA_SCRIPT = '''import unsloth
import hydra
from omegaconf import DictConfig
from unsloth import FastLanguageModel
from trl import SFTTrainer
from transformers import TrainingArguments


@hydra.main(version_base=None, config_path="../conf", config_name="{name}")
def main(cfg: DictConfig):
    model, tok = FastLanguageModel.from_pretrained(cfg.model.name, load_in_4bit=True)
    model = FastLanguageModel.get_peft_model(model, r=16)
    args = TrainingArguments(output_dir="out", bf16=cfg.training.bf16, fp16=not cfg.training.bf16)
    SFTTrainer(model=model, tokenizer=tok, args=args).train()


if __name__ == "__main__":
    main()
'''
HYDRA_CONF = "defaults:\n  - model: llama3\n  - training: base\n  - _self_\n\noutput_dir: outputs\n"


@pytest.mark.parametrize("name", ["config", "config.yaml"])
@pytest.mark.parametrize("line", [
    "python src/train.py model=$MODEL_NAME",
    "python src/train.py model=qwen training=strict",
    'PYTHONPATH=. python src/train.py training="$PROFILE"',
])
def test_a_hydra_app_given_only_group_choices_reads_as_the_script(tmp_path, name, line):
    _put(tmp_path, "src/train.py", HYDRA_SCRIPT.format(name=name.replace(".yaml", "")) if name == "config" else
         HYDRA_SCRIPT.format(name=name))
    _put(tmp_path, "conf/config.yaml", HYDRA_CONF)
    sh = _put(tmp_path, "scripts/run.sh", "#!/bin/bash\nset -e\n" + line + "\n")
    got = _read(sh)
    assert got != "refused" and got[0] == "unsloth"
    assert got == _read(tmp_path / "src/train.py")


@pytest.mark.parametrize("line", [
    "python src/train.py optimizer=adamw",  # a group the defaults list does not name (Hydra asks for +optimizer=)
    "python src/train.py model=qwen --epochs 3",  # an option
])
def test_a_hydra_app_given_what_hydra_refuses_stays_refused(tmp_path, line):
    _put(tmp_path, "src/train.py", HYDRA_SCRIPT.format(name="config"))
    _put(tmp_path, "conf/config.yaml", HYDRA_CONF)
    sh = _put(tmp_path, "scripts/run.sh", "#!/bin/bash\n" + line + "\n")
    assert _read(sh) == "refused"


def test_a_hydra_app_whose_config_is_not_here_stays_refused(tmp_path):
    _put(tmp_path, "src/train.py", HYDRA_SCRIPT.format(name="config"))
    sh = _put(tmp_path, "scripts/run.sh", "#!/bin/bash\npython src/train.py model=qwen\n")
    assert _read(sh) == "refused"


# -- 5. nested dataclass defaults ----------------------------------------------------------------------------------------

CONFIG_MODULE = '''from dataclasses import dataclass, field


@dataclass
class ModelSettings:
    name: str = "Qwen/Qwen2.5-3B-Instruct"
    attn: str = "{attn}"
    compute_dtype: str = "bfloat16"


@dataclass
class TrainSettings:
    lr: float = 2e-4


@dataclass
class Settings:
    model: ModelSettings = field(default_factory=ModelSettings)
    train: TrainSettings = field(default_factory=TrainSettings)
'''

NESTED_SCRIPTS = {
    "module level": '''import torch
from transformers import AutoModelForCausalLM, Trainer, TrainingArguments
from {mod} import Settings

cfg = Settings()
model = AutoModelForCausalLM.from_pretrained(cfg.model.name, attn_implementation=cfg.model.attn,
                                             torch_dtype=torch.bfloat16)
Trainer(model=model, args=TrainingArguments(output_dir="o", bf16=True)).train()
''',
    "annotated parameter": '''import torch
from transformers import AutoModelForCausalLM, Trainer, TrainingArguments
from {mod} import Settings


def load(s: Settings):
    return AutoModelForCausalLM.from_pretrained(s.model.name, attn_implementation=s.model.attn, torch_dtype=torch.bfloat16)


def main():
    s = Settings()
    Trainer(model=load(s), args=TrainingArguments(output_dir="o", bf16=True)).train()


main()
''',
    "returned by a builder": '''import argparse
import torch
from transformers import AutoModelForCausalLM, Trainer, TrainingArguments
from {mod} import Settings


def build(args) -> Settings:
    cfg = Settings()
    if args.model:
        cfg.model.name = args.model
    if args.lr is not None:
        cfg.train.lr = args.lr
    return cfg


def load(cfg: Settings):
    return AutoModelForCausalLM.from_pretrained(cfg.model.name, attn_implementation=cfg.model.attn,
                                                torch_dtype=torch.bfloat16)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--model")
    p.add_argument("--lr", type=float)
    cfg = build(p.parse_args())
    Trainer(model=load(cfg), args=TrainingArguments(output_dir="o", bf16=True, learning_rate=cfg.train.lr)).train()


if __name__ == "__main__":
    main()
''',
}


@pytest.mark.parametrize("shape", sorted(NESTED_SCRIPTS))
@pytest.mark.parametrize("attn,want", [("sdpa", ["sdpa"]), ("flash_attention_2", ["fa2"])])
@pytest.mark.parametrize("mod,at", [("src.config", "src/config.py"), ("settings", "settings.py")])
def test_a_nested_dataclass_default_is_read(tmp_path, shape, attn, want, mod, at):
    _put(tmp_path, at, CONFIG_MODULE.format(attn=attn))
    p = _put(tmp_path, "train.py", NESTED_SCRIPTS[shape].format(mod=mod))
    assert _read(p) == ("transformers", want, "bfloat16")


@pytest.mark.parametrize("setting", ['cfg.model.attn = "flash_attention_2"', 'setattr(cfg.model, "attn", "eager")'])
def test_a_nested_default_the_script_sets_is_not_read_as_the_default(tmp_path, setting):
    _put(tmp_path, "src/config.py", CONFIG_MODULE.format(attn="sdpa"))
    text = NESTED_SCRIPTS["returned by a builder"].format(mod="src.config").replace(
        "    return cfg\n", f"    {setting}\n    return cfg\n")
    p = _put(tmp_path, "train.py", text)
    assert _read(p)[1] != ["sdpa"]


def test_a_nested_dataclass_not_here_reads_nothing(tmp_path):
    p = _put(tmp_path, "train.py", NESTED_SCRIPTS["module level"].format(mod="src.config"))
    assert _read(p) == ("transformers", [], "bfloat16")


# -- 6. Apple MLX's trainers ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("imp", ["import mlx_tune as mt", "from mlx_tune import FastLanguageModel, DPOTrainer",
                                 "from mlx_lm import lora"])
def test_a_script_of_an_mlx_trainer_is_refused_naming_it(tmp_path, imp):
    p = _put(tmp_path, "app.py", "import json\n\n\ndef work(job):\n    " + imp + "\n    return job\n")
    with pytest.raises(UsageError, match="mlx"):
        configs.load(str(p))
