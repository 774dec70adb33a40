"""Issue 24, helper cfg78 (session 19): what round 75m's misses showed, fixed for their mechanism.

1. A launch of a Python Fire script (`python train.py --mode uasft --learning_rate 5e-5` of `fire.Fire(train)`: round
   75m's 1BIMU/UASFT) was refused as options attn-doctor does not read: Fire's flags are the parameters of the function
   it is handed, under their names and with dashes (pyscript.fire_parameters); the function gets the launcher's values
   in place of its defaults. A flag that only the function's **kwargs take, or a Fire of a class, stays refused.
2. A launch giving an option that the script's parser gets from a function of the user's own package (`add_deepspeed_args
   (p)` of `from lib.args import ...`: round 75m's kreuzhofer recipes) was refused: such an option is that helper's,
   its dest argparse's default, its value not known here (a `--bf16` there leaves the autocast unknown). A parser handed
   only to the standard library or to the script's own functions declares nothing unseen.
3. A settings JSON that its script parses with `json.loads(f.read())` and reads by name (round 75m's sarelWeinberger
   cpt_config.json, 20 of 20 TrainingArguments keys) was read as transformers on its keys: parsed_by took json.load but
   not json.loads; now every load / loads of json, tomllib, tomli, toml and yaml's loaders.
4. A script whose model goes through prepare_model_for_kbit_training was read float32 (no autocast) even where its
   Trainer gets TrainingArguments built by a function this file does not show (round 75m's RandomFab train_sft.py,
   fp16 in that module's params.yaml): its bf16 / fp16 are then unknown, not TrainingArguments' defaults.
5. A settings file read through attributes (OmegaConf.load's `cfg.training.bf16`, SimpleNamespace / EasyDict / a config
   class built from the loaded dict, the name rebound to it: round 75m's 1azybug `model_config =
   ReCMLLMConfig(**model_config)`) is read as its keys are.
6. TrainingArguments built by a function of the user's own module (round 75m's REICHIYAN training_utils.build_trainer)
   are read from that module where it is here.
7. Typer and Click commands take a launcher's options as Fire's do (1.), with the defaults typer.Option / click.option
   declare.
Every file here is written by cfg78 for these tests."""

from __future__ import annotations

import pytest

from attn_doctor import configs
from attn_doctor.model import UsageError
from configs_corpus import put as _put, trainer_reading as _read  # (one copy of each helper)

FIRE_SCRIPT = '''import fire
import torch
from transformers import AutoModelForCausalLM, Trainer, TrainingArguments


def {fn}(model_id: str = "Qwen/Qwen2.5-0.5B", use_bf16: bool = False, attn: str = "sdpa", out_dir="out",
         learning_rate: float = 2e-5{extra}):
    model = AutoModelForCausalLM.from_pretrained(model_id, attn_implementation=attn)
    args = TrainingArguments(output_dir=out_dir, bf16=use_bf16, learning_rate=learning_rate{spread})
    Trainer(model=model, args=args).train()


if __name__ == "__main__":
    {fire}({fn})
'''


# -- 1. Python Fire ------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("fire_call", ["fire.Fire", "Fire"])
@pytest.mark.parametrize("launch,want", [
    ("python finetune.py --use-bf16 --attn flash_attention_2 --out_dir /tmp/x", (["fa2"], "bfloat16")),
    ("python3 finetune.py --use_bf16=True --attn=sdpa --learning-rate 1e-4", (["sdpa"], "bfloat16")),
    ("torchrun --nproc_per_node 2 finetune.py --use_bf16 False --model_id ./ckpt", (["sdpa"], None)),
    ('ATTN=eager\naccelerate launch finetune.py --attn "$ATTN_IMPL"', ([], None)),
])
def test_a_fire_script_takes_the_launchers_flags(tmp_path, fire_call, launch, want):
    text = FIRE_SCRIPT.format(fn="main", extra="", spread="", fire=fire_call)
    if fire_call == "Fire":
        text = text.replace("import fire\n", "from fire import Fire\n")
    _put(tmp_path, "finetune.py", text)
    sh = _put(tmp_path, "run.sh", "#!/bin/bash\nset -e\n" + launch + "\n")
    assert _read(sh) == ("transformers", *want)


def test_a_fire_launch_is_named_as_such(tmp_path):
    _put(tmp_path, "train.py", FIRE_SCRIPT.format(fn="train", extra="", spread="", fire="fire.Fire"))
    sh = _put(tmp_path, "train.sh", "python train.py --use_bf16 --learning_rate 5e-5\n")
    ev = configs.load(str(sh))["detected"]["evidence"]
    assert any("Python Fire command line" in e for e in ev)


@pytest.mark.parametrize("launch", [
    "python train.py --use_bf16 --gradient_accumulation_steps 4",  # only **kwargs takes it
    "python train.py --use_bf16 --no-such-option 1",
    "python train.py positional_word",
])
def test_flags_no_parameter_names_stay_refused(tmp_path, launch):
    _put(tmp_path, "train.py", FIRE_SCRIPT.format(fn="train", extra=", **kwargs", spread=", **kwargs", fire="fire.Fire"))
    assert _read(_put(tmp_path, "train.sh", launch + "\n")) == "refused"


def test_a_fire_of_a_class_or_of_everything_declares_nothing(tmp_path):
    cls = FIRE_SCRIPT.format(fn="main", extra="", spread="", fire="fire.Fire").replace(
        "    fire.Fire(main)", "    class Cli:\n        run = staticmethod(main)\n    fire.Fire(Cli)")
    _put(tmp_path, "a/train.py", cls)
    assert _read(_put(tmp_path, "a/train.sh", "python train.py run --use_bf16\n")) == "refused"
    _put(tmp_path, "b/train.py", FIRE_SCRIPT.format(fn="main", extra="", spread="", fire="fire.Fire").replace(
        "fire.Fire(main)", "fire.Fire()"))
    assert _read(_put(tmp_path, "b/train.sh", "python train.py main --use_bf16\n")) == "refused"


def test_the_fire_scripts_own_reading_is_unchanged(tmp_path):
    p = _put(tmp_path, "finetune.py", FIRE_SCRIPT.format(fn="main", extra="", spread="", fire="fire.Fire"))
    assert _read(p) == ("transformers", ["sdpa"], None)


# -- 2. options a parser gets from a helper of the user's own package ----------------------------------------------------

HELPED = '''import argparse
import torch
{imp}
from transformers import AutoModelForCausalLM
from trl import SFTConfig, SFTTrainer


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--model_name", default="google/gemma-3-1b-it")
    {call}
    args = p.parse_known_args()[0]
    model = AutoModelForCausalLM.from_pretrained(args.model_name, dtype=torch.bfloat16, attn_implementation="eager")
    cfg = SFTConfig(output_dir="out", bf16={bf16}, deepspeed=args.ds_config)
    SFTTrainer(model=model, args=cfg).train()


if __name__ == "__main__":
    main()
'''


@pytest.mark.parametrize("imp,call", [
    ("from lib.args import add_common_args, add_deepspeed_args", "add_common_args(p)\n    add_deepspeed_args(p)"),
    ("from .cli import add_deepspeed_args", "add_deepspeed_args(parser=p)"),
    ("import recipe_utils", "recipe_utils.args.add_deepspeed_args(p)"),
    ("import deepspeed", "deepspeed.add_config_arguments(p)"),
])
def test_an_option_the_helper_declares_is_taken_with_its_value_unknown(tmp_path, imp, call):
    _put(tmp_path, "recipes/r1/train.py", HELPED.format(imp=imp, call=call, bf16="True"))
    sh = _put(tmp_path, "recipes/r1/launch.sh", 'DIR="$(cd "$(dirname "$0")" && pwd)"\n'
              'exec torchrun --nproc_per_node=1 "$DIR/train.py" --ds_config "$DIR/ds.json" --zero-stage 3 "$@"\n')
    assert _read(sh) == ("transformers", [], "bfloat16")


def test_a_helpers_precision_flag_leaves_the_autocast_unknown(tmp_path):
    # (weights loaded in the checkpoint's dtype: with the autocast unknown nothing says the run's precision)
    text = HELPED.format(imp="from lib.args import add_common_args", call="add_common_args(p)", bf16="args.bf16")
    _put(tmp_path, "train.py", text.replace("dtype=torch.bfloat16, ", ""))
    assert _read(_put(tmp_path, "run.sh", "python train.py --bf16 --ds_config ds.json\n")) == ("transformers", [], None)


@pytest.mark.parametrize("imp,call", [
    ("import copy", "copy.deepcopy(p)"),
    ("", "print(p)"),
    ("", "add_args(p)"),  # the script's own function (defined below): its add_argument calls are read
])
def test_a_parser_handed_to_no_helper_of_the_users_still_refuses_unknown_options(tmp_path, imp, call):
    text = HELPED.format(imp=imp, call=call, bf16="True").replace(
        "def main():", 'def add_args(p):\n    p.add_argument("--seed", type=int, default=1)\n\n\ndef main():')
    _put(tmp_path, "train.py", text)
    assert _read(_put(tmp_path, "run.sh", "python train.py --ds_config ds.json\n")) == "refused"


# -- 3. settings parsed from their text --------------------------------------------------------------------------------

_KEYS = ('"model_name_or_path": "org/m", "output_dir": "out", "per_device_train_batch_size": 2, '
         '"gradient_accumulation_steps": 8, "learning_rate": 1e-05, "num_train_epochs": 1, "save_strategy": "steps", '
         '"save_steps": 500, "logging_steps": 1, "warmup_ratio": 0.1, "weight_decay": 0.01, "max_steps": 100')

OWN_READ = '''import argparse
import {mod}
from transformers import AutoModelForCausalLM, Trainer, TrainingArguments

p = argparse.ArgumentParser()
p.add_argument("--config", default="{name}")
args = p.parse_args()
with open(args.config, "r", encoding="utf8") as f:
    config = {parse}
model = AutoModelForCausalLM.from_pretrained(config["model_name_or_path"])
targs = TrainingArguments(output_dir=config["output_dir"], learning_rate=config.get("learning_rate", 1e-5))
Trainer(model=model, args=targs).train()
'''


@pytest.mark.parametrize("name,mod,parse,how", [
    ("cpt_config.json", "json", "json.loads(f.read())", "json.loads"),
    ("run_config.json", "json", "json.load(f)", "json.load"),
    ("run.toml", "tomllib", "tomllib.loads(f.read())", "tomllib.loads"),
])
def test_a_settings_file_its_script_parses_from_text_and_reads_by_name_is_refused(tmp_path, name, mod, parse, how):
    body = "{" + _KEYS + "}" if name.endswith(".json") else "\n".join(
        f"{k.strip().strip(chr(34))} = {v.strip()}" for k, v in (kv.split(":", 1) for kv in _KEYS.split(", ")))
    cfg = _put(tmp_path, "training/ds/" + name, body + "\n")
    _put(tmp_path, "training/ds/train.py", OWN_READ.format(mod=mod, name=name, parse=parse))
    _put(tmp_path, "README.md", "# a user's repository\n")
    if name.endswith(".toml"):
        # a TOML file of these keys is not one a trainer's reader takes on its keys alone; the parse is what is checked
        from attn_doctor.configs.parsed_by import _kind
        assert _kind(OWN_READ.format(mod=mod, name=name, parse=parse)) == ("own", how)
        return
    with pytest.raises(UsageError) as err:
        configs.load(str(cfg))
    assert f"reads it with {how}()" in str(err.value) and "\n" not in str(err.value)


def test_the_same_keys_handed_whole_or_read_alone_stay_transformers(tmp_path):
    cfg = _put(tmp_path, "a/conf/run.json", "{" + _KEYS + "}\n")
    _put(tmp_path, "a/train.py", OWN_READ.format(mod="json", name="conf/run.json", parse="json.loads(f.read())")
         .replace('TrainingArguments(output_dir=config["output_dir"], learning_rate=config.get("learning_rate", 1e-5))',
                  "TrainingArguments(**config)"))
    _put(tmp_path, "a/README.md", "x\n")
    assert _read(cfg)[0] == "transformers"
    alone = _put(tmp_path, "b/run.json", "{" + _KEYS + "}\n")
    assert _read(alone)[0] == "transformers"


# -- 4. TrainingArguments built out of sight ---------------------------------------------------------------------------

UPCAST = '''import torch
from peft import LoraConfig, get_peft_model, prepare_model_for_kbit_training
from transformers import AutoModelForCausalLM, BitsAndBytesConfig, Trainer, TrainingArguments
{imp}

model = AutoModelForCausalLM.from_pretrained("Qwen/Qwen3-1.7B-Base", torch_dtype=torch.float16,
                                             quantization_config=BitsAndBytesConfig(load_in_4bit=True))
model = prepare_model_for_kbit_training(model)
model = get_peft_model(model, LoraConfig(r=8))
{args}
{trainer}
trainer.train()
'''


@pytest.mark.parametrize("imp,args,trainer", [
    ("from src.training.utils_training import define_training_arguments",
     'training_args = define_training_arguments(stage="sft")', "trainer = Trainer(model=model, args=training_args)"),
    ("from helpers import make_args", "", "trainer = Trainer(model, make_args())"),
    ("from helpers import make_args",
     "class WeightedTrainer(Trainer):\n    pass\nta = make_args()", "trainer = WeightedTrainer(model=model, args=ta)"),
])
def test_upcast_weights_with_arguments_built_elsewhere_leave_the_dtype_unknown(tmp_path, imp, args, trainer):
    p = _put(tmp_path, "train_sft.py", UPCAST.format(imp=imp, args=args, trainer=trainer))
    assert _read(p) == ("transformers", [], None)


@pytest.mark.parametrize("args,trainer", [
    ('ta = TrainingArguments(output_dir="out")', "trainer = Trainer(model=model, args=ta)"),
    ("", "trainer = Trainer(model=model)"),
])
def test_upcast_weights_with_default_arguments_stay_float32(tmp_path, args, trainer):
    p = _put(tmp_path, "train_sft.py", UPCAST.format(imp="", args=args, trainer=trainer))
    assert _read(p) == ("transformers", [], "float32")


# -- 5. a loaded settings file read through attributes ------------------------------------------------------------------

ATTR = '''import json
import yaml
from omegaconf import OmegaConf
from types import SimpleNamespace
from easydict import EasyDict
from transformers import AutoModelForCausalLM, Trainer, TrainingArguments
from modeling import RunConfig


def load_json(path):
    with open(path, "r") as f:
        obj = json.load(f)
    return obj


{load}
model = AutoModelForCausalLM.from_pretrained({model})
args = TrainingArguments({args})
Trainer(model=model, args=args).train()
'''
_SETTINGS = {"model_id": "gpt2", "training": {"output_dir": "out", "fp16": True, "per_device_train_batch_size": 2}}


@pytest.mark.parametrize("load", [
    'cfg = OmegaConf.load("conf/run.yaml")',
    'with open("conf/run.yaml") as f:\n    raw = yaml.safe_load(f)\ncfg = SimpleNamespace(**raw)',
    'cfg = EasyDict(load_json("conf/run.json"))',
    'cfg = load_json("conf/run.json")\ncfg = RunConfig(**cfg)',  # round 75m's 1azybug: the name bound twice
    'cfg = RunConfig(**load_json("conf/run.json"))',
])
@pytest.mark.parametrize("args", ["**cfg.training", 'output_dir="o", fp16=cfg.training.fp16'])
def test_settings_read_as_attributes_of_the_loaded_file(tmp_path, load, args):
    import json as _json

    _put(tmp_path, "conf/run.json", _json.dumps(_SETTINGS))
    _put(tmp_path, "conf/run.yaml", "model_id: gpt2\ntraining:\n  output_dir: out\n  fp16: true\n")
    p = _put(tmp_path, "train.py", ATTR.format(load=load, model="cfg.model_id", args=args))
    assert _read(p) == ("transformers", [], "float16")


@pytest.mark.parametrize("load", [
    'cfg = load_json("conf/missing.json")',  # the file is not here
    'cfg = load_json("conf/run.json")\ncfg = RunConfig(**cfg)\ncfg = RunConfig(**cfg)',  # bound three times
    'cfg = RunConfig(load_json("conf/run.json"), strict=True)',  # a class given more than the dict
])
def test_attributes_of_what_the_file_does_not_settle_stay_unknown(tmp_path, load):
    import json as _json

    _put(tmp_path, "conf/run.json", _json.dumps(_SETTINGS))
    p = _put(tmp_path, "train.py", ATTR.format(load=load, model='"gpt2"', args='output_dir="o", fp16=cfg.training.fp16'))
    assert _read(p) == ("transformers", [], None)


# -- 6. TrainingArguments built by a function of the user's own module --------------------------------------------------

HELPER_MODULE = '''import torch
{imp}

USE_BF16 = {use_bf16}


def build_trainer(model, tokenizer, dataset, out_dir="out", fp16_flag=True):
    args = TrainingArguments(output_dir=out_dir, fp16={fp16}, bf16=USE_BF16)
{second}    return Trainer(model=model, args=args, train_dataset=dataset, tokenizer=tokenizer)
'''
CALLER = '''import torch
from transformers import AutoModelForCausalLM, AutoTokenizer, BitsAndBytesConfig
from peft import LoraConfig, get_peft_model, prepare_model_for_kbit_training
from {where} import build_trainer

bnb = BitsAndBytesConfig(load_in_4bit=True, bnb_4bit_compute_dtype=torch.bfloat16)
model = AutoModelForCausalLM.from_pretrained("TinyLlama/TinyLlama-1.1B-Chat-v1.0", quantization_config=bnb,
                                             torch_dtype=torch.float16)
model = prepare_model_for_kbit_training(model)
model = get_peft_model(model, LoraConfig(r=8))
trainer = build_trainer(model, AutoTokenizer.from_pretrained("TinyLlama/TinyLlama-1.1B-Chat-v1.0"), None)
trainer.train()
'''
_HF = "from transformers import Trainer, TrainingArguments"


@pytest.mark.parametrize("module,where,use_bf16,fp16,want", [
    ("training_utils.py", "training_utils", "False", "torch.cuda.is_available()", "float16"),
    ("src/training/utils_training.py", "src.training.utils_training", "False", "not USE_BF16", "float16"),
    ("training_utils.py", "training_utils", "True", "False", "bfloat16"),
    ("training_utils.py", "training_utils", "False", "False", "float32"),  # upcast weights, no autocast
    # the caller's parameter: the script's one call leaves it out, so its default True (cfg94: as Python binds a
    # call's arguments; was None, "not known here", before the calls were read)
    ("training_utils.py", "training_utils", "False", "fp16_flag", "float16"),
])
def test_arguments_a_helper_of_the_users_own_builds(tmp_path, module, where, use_bf16, fp16, want):
    _put(tmp_path, module, HELPER_MODULE.format(imp=_HF, use_bf16=use_bf16, fp16=fp16, second=""))
    p = _put(tmp_path, "train_qlora.py", CALLER.format(where=where))
    assert _read(p) == ("transformers", [], want)


@pytest.mark.parametrize("imp,second,present", [
    (_HF, "", False),  # the module is not here
    (_HF, "    args = TrainingArguments(output_dir=out_dir, bf16=True)\n", True),  # two builds: which one is not said
    ("from mylib.args import TrainingArguments, Trainer", "", True),  # a class of another package of that name
])
def test_a_helper_that_does_not_settle_the_arguments_is_not_taken(tmp_path, imp, second, present):
    if present:
        _put(tmp_path, "training_utils.py", HELPER_MODULE.format(imp=imp, use_bf16="False", fp16="True", second=second))
    p = _put(tmp_path, "train_qlora.py", CALLER.format(where="training_utils"))
    assert _read(p) == ("transformers", [], None)


# -- 7. the same mechanism in Typer and Click ----------------------------------------------------------------------------

TYPER = '''from pathlib import Path

import typer
from transformers import AutoModelForCausalLM, Trainer, TrainingArguments

app = typer.Typer()


@app.command()
def main(model_id: str = "Qwen/Qwen2.5-0.5B", bf16: bool = False, attn_impl: str = "sdpa", out: Path = Path("out"),
         epochs: int = typer.Option(1, help="epochs")):
    model = AutoModelForCausalLM.from_pretrained(model_id, attn_implementation=attn_impl)
    args = TrainingArguments(output_dir=str(out), bf16=bf16, num_train_epochs=epochs)
    Trainer(model=model, args=args).train()


if __name__ == "__main__":
    app()
'''
CLICK = '''import click
from transformers import AutoModelForCausalLM, Trainer, TrainingArguments


@click.command()
@click.option("--model-id", default="Qwen/Qwen2.5-0.5B")
@click.option("--bf16/--no-bf16", default=False)
@click.option("--attn", "attn_impl", default="sdpa", type=str)
@click.option("--compile", "use_compile", is_flag=True)
@click.option("--epochs", type=int, default=1)
def main(model_id, bf16, attn_impl, use_compile, epochs):
    model = AutoModelForCausalLM.from_pretrained(model_id, attn_implementation=attn_impl)
    args = TrainingArguments(output_dir="out", bf16=bf16, num_train_epochs=epochs, torch_compile=use_compile)
    Trainer(model=model, args=args).train()


if __name__ == "__main__":
    main()
'''


@pytest.mark.parametrize("script,launch,want", [
    (TYPER, "--bf16 --attn-impl flash_attention_2 --out /tmp/o --epochs 3", (["fa2"], "bfloat16")),
    (TYPER, "--no-bf16 --model-id ./ckpt", (["sdpa"], None)),
    (CLICK, "--bf16 --attn flash_attention_2 --epochs 2", (["fa2"], "bfloat16")),
    (CLICK, "--no-bf16 --model-id x", (["sdpa"], None)),
])
def test_typer_and_click_commands_take_the_launchers_options(tmp_path, script, launch, want):
    _put(tmp_path, "train.py", script)
    assert _read(_put(tmp_path, "run.sh", f"python train.py {launch}\n")) == ("transformers", *want)


@pytest.mark.parametrize("script,launch", [
    (TYPER, "--attn_impl sdpa"),  # Typer spells parameters with dashes only
    (TYPER, "--epochs"),  # an option that takes a value, given none
    (CLICK, "--attn_impl sdpa"),  # Click's option is --attn
    (CLICK, "--compile=true"),  # a flag takes no value
])
def test_what_typer_or_click_would_reject_stays_refused(tmp_path, script, launch):
    _put(tmp_path, "train.py", script)
    assert _read(_put(tmp_path, "run.sh", f"python train.py {launch}\n")) == "refused"


def test_a_click_commands_defaults_are_its_options_defaults(tmp_path):
    cfg = configs.load(str(_put(tmp_path, "train.py", CLICK)))
    assert cfg["required"] == ["sdpa"] and cfg["compile_mode"] == "none"
