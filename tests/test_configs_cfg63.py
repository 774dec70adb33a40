"""Round 61m read as training material (helper cfg63): the dtype misses it showed, each a mechanism read on variants
written here (other names, spellings, layouts), and the neighbours that must keep their reading.

- TrainingArguments' keywords filtered against the installed signature (`kw = {k: v for k, v in kw.items() if k in
  inspect.signature(TrainingArguments.__init__).parameters}`, round 61m's ahmadqhaliff `train_qwen3vl_qlora.py`
  l.301-327): the comprehension keeps the fields of a TrainingArguments / TRL config (every release takes bf16 /
  fp16), so `fp16: True` reaches the call; a filter against a model class's from_pretrained (whose attn_implementation
  and torch_dtype go through **kwargs) or against anything else says nothing;
- an autocast switch read from a settings file that is not here with a default that turns it on (`fp16=t.get("fp16",
  True), bf16=t.get("bf16", False)`, round 61m's CatalinMoldova `src/train_lora.py` l.56-57; `bool(deep_get(config,
  "training.fp16", True))`, round 49m's CodeDaoVietNam): the defaults are the precision the script is written for;
  defaults that leave both switches off, or a switch computed otherwise, say nothing (round 17's convention);
- keywords a function of the script builds and returns (`TrainingArguments(**build_kwargs(cfg))` of `def
  build_kwargs(cfg): kwargs = {...}; return kwargs`, round 49m's CodeDaoVietNam l.38-63 / l.141-142);
- a settings object the script imports from its own repository, built at that module's top level (`settings =
  FineTuningSettings()` of a pydantic BaseSettings, round 61m's shubh2016shiv `icd10_fine_tune/config/settings.py`
  l.118 / l.331), read as `settings.field`: the class's literal defaults; with `dtype = dtype or settings.X` of a
  parameter that defaults to None and `dtype_map.get(dtype, torch.float16)` (its `training/model_loader.py` l.174,
  l.229-246) the dtype is the map's entry for that default (and `x = x or DEFAULT` of any parameter left at a false
  default is DEFAULT: main stopped on such a name as "too deeply nested", reading it as itself);
- (the dtype field over the training rounds) the mixed precision `accelerate launch` gives a transformers script
  (`--mixed_precision`, its --config_file's `mixed_precision`, or ACCELERATE_MIXED_PRECISION exported): accelerate puts
  it in the script's environment and TrainingArguments takes it when the script sets neither bf16 nor fp16
  (transformers 5.24 training_args.py:1612-1618); for a TRL config only bf16 is release-proof (TRL >= 0.19 turns bf16
  on itself unless fp16);
- (round 61m's refusals) docker / podman's `--entrypoint PROGRAM` runs PROGRAM with the words after the image, and a
  verl recipe module (`-m recipe.dapo.main_dapo`) with overrides of verl's actor_rollout_ref section is verl; a module
  of settings classes (pydantic models, dataclasses) with an object of them is a Python settings module, not a trainer
  config."""

from __future__ import annotations

from pathlib import Path

import pytest

from attn_doctor import configs
from configs_corpus import read, reading


def _write(base: Path, rel: str, text: str) -> Path:
    p = base / rel
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(text, encoding="utf-8")
    return p


# -- keywords filtered against the installed signature -----------------------------------------------------------------

FILTERED = '''import inspect
{imports}
from peft import LoraConfig, get_peft_model{kbit_import}
from transformers import {model_cls}, {args_cls}, Trainer


def main():
    model = {model_cls}.from_pretrained("org/some-model", {load_kw})
{kbit}    model = get_peft_model(model, LoraConfig(r=8))
    {name} = {{
        "output_dir": "out",
        "learning_rate": 1e-4,
        {amp}
        "evaluation_strategy": "steps",
        "report_to": "none",
    }}
    {params} = {sig}
    if "evaluation_strategy" not in {params}:
        {name}["eval_strategy"] = {name}.pop("evaluation_strategy")
    {filtered} = {{{k}: {v} for {k}, {v} in {name}.items() if {cond}}}
    args = {args_cls}(**{filtered})
    Trainer(model=model, args=args).train()


if __name__ == "__main__":
    main()
'''


def _filtered(**kw) -> str:
    d = dict(imports="import torch", kbit_import="", model_cls="AutoModelForCausalLM", args_cls="TrainingArguments",
             load_kw="torch_dtype=torch.float16", kbit="", name="targs_kwargs", amp='"fp16": True,',
             params="sig_params", sig="set(inspect.signature(TrainingArguments.__init__).parameters)",
             filtered="targs_kwargs", k="k", v="v", cond="k in sig_params")
    d.update(kw)
    if "args_cls" in kw and "sig" not in kw:
        d["sig"] = d["sig"].replace("TrainingArguments", kw["args_cls"])
    return FILTERED.format(**d)


@pytest.mark.parametrize("kw,want", [
    # round 61m's shape: the same name filtered in place, a QLoRA load whose weights prepare_model_for_kbit_training
    # casts to float32 (without the filter's keys: read float32)
    (dict(kbit_import=", prepare_model_for_kbit_training", load_kw="torch_dtype=torch.float16, load_in_4bit=True",
          kbit="    model = prepare_model_for_kbit_training(model)\n", model_cls="AutoModelForVision2Seq"), "float16"),
    # bf16, another name, the signature's parameters as a dict view, a new name for the filtered dict
    (dict(amp='"bf16": True,', name="kw", params="allowed", sig="inspect.signature(TrainingArguments).parameters",
          filtered="clean", k="key", v="val", cond="key in allowed"), "bfloat16"),
    # dataclasses' fields, with None values dropped beside it; Seq2SeqTrainingArguments
    (dict(amp='"fp16": None, "bf16": True,', args_cls="Seq2SeqTrainingArguments",
          imports="import dataclasses\nimport torch",
          sig="{f.name for f in dataclasses.fields(Seq2SeqTrainingArguments)}",
          cond="k in sig_params and v is not None"), "bfloat16"),
    # the parameters in a name of their own, their keys
    (dict(sig="inspect.signature(TrainingArguments.__init__).parameters", cond="k in sig_params.keys()",
          load_kw=""), "float16"),
    # the class's __dataclass_fields__, a TRL config
    (dict(imports="import torch\nfrom trl import SFTConfig", args_cls="SFTConfig", amp='"fp16": True, "bf16": False,',
          sig="SFTConfig.__dataclass_fields__", load_kw=""), "float16"),
])
def test_keywords_filtered_against_the_signature_of_training_arguments(tmp_path, kw, want):
    assert read(tmp_path, "train_vl.py", _filtered(**kw)) == ("transformers", [], want, "none")


@pytest.mark.parametrize("kw", [
    # a filter of the user's own (which keys it keeps is its own business), a test on the value, a signature of
    # something that is no TrainingArguments: what the call gets is not said here
    dict(cond='k in ("output_dir", "learning_rate")'),
    dict(cond="v"),
    dict(sig="set(inspect.signature(my_trainer_args).parameters)"),
])
def test_other_filters_say_nothing(tmp_path, kw):
    assert read(tmp_path, "train.py", _filtered(load_kw="", amp='"bf16": True,', **kw))[2] == ""


def test_a_filter_against_from_pretrained_drops_what_its_kwargs_take(tmp_path):
    """from_pretrained takes attn_implementation through **kwargs: a script that keeps only the named parameters of
    its signature drops it, so nothing is required by it."""
    text = '''import inspect
import torch
from transformers import AutoModelForCausalLM, TrainingArguments, Trainer

load = {"attn_implementation": "flash_attention_2", "torch_dtype": torch.bfloat16}
load = {k: v for k, v in load.items() if k in inspect.signature(AutoModelForCausalLM.from_pretrained).parameters}
model = AutoModelForCausalLM.from_pretrained("org/m", **load)
Trainer(model=model, args=TrainingArguments(output_dir="o", bf16=True)).train()
'''
    assert read(tmp_path, "train.py", text) == ("transformers", [], "bfloat16", "none")


# -- an autocast switch's default, of a settings file that is not here -------------------------------------------------

SWITCHES = '''import yaml
from trl import SFTConfig, SFTTrainer
from transformers import AutoModelForCausalLM


def train_from_config(config_path):
    with open(config_path) as f:
        cfg = yaml.safe_load(f)
    {pre}t = cfg["training"]
    model = AutoModelForCausalLM.from_pretrained(cfg["model_name"])
    args = SFTConfig(
        output_dir=cfg["output_dir"],
        max_steps=t["max_steps"],
        {switches}
    )
    SFTTrainer(model=model, args=args, train_dataset=None).train()
'''


@pytest.mark.parametrize("switches,want", [
    ('fp16=t.get("fp16", True),\n        bf16=t.get("bf16", False),', "float16"),
    ('bf16=t.get("bf16", True),\n        fp16=t.get("fp16", False),', "bfloat16"),
    ('bf16=t.get("use_bf16", True),', "bfloat16"),
    ('fp16=getattr(t, "fp16", True),', "float16"),
    ('fp16=bool(t.get("half", True)),', "float16"),
    ('bf16=bool(deep_get(cfg, "training.bf16", True)),', "bfloat16"),
    ('bf16=OmegaConf.select(cfg, "trainer.bf16", default=True),', "bfloat16"),
])
def test_a_switch_whose_default_turns_an_autocast_on(tmp_path, switches, want):
    assert read(tmp_path, "train_lora.py", SWITCHES.format(pre="", switches=switches)) == \
        ("transformers", [], want, "none")


@pytest.mark.parametrize("pre,switches", [
    # defaults that leave both off: the file decides (round 17's JackyJerkyYt)
    ("", 'fp16=t.get("fp16", False),\n        bf16=t.get("bf16", False),'),
    # one switch with an autocast default, the other computed at run time: which one runs is not said
    ("use_bf16 = torch.cuda.is_bf16_supported()\n    ", 'fp16=t.get("fp16", True),\n        bf16=use_bf16,'),
    # a helper whose key names no switch: not a lookup of this one
    ("", 'fp16=pick(t, "precision", True),'),
    # a default that is no literal; a key that is no literal (a name, beside a string argument)
    ("", 'fp16=t.get("fp16", DEFAULT_FP16),'),
    ("", 'fp16=t.get(FP16_KEY, True),'),
    ("", 'fp16=lookup(t, KEY, "mode", True),'),
])
def test_other_switch_defaults_say_nothing(tmp_path, pre, switches):
    assert read(tmp_path, "train_lora.py", SWITCHES.format(pre=pre, switches=switches))[2] == ""


def test_getattr_of_an_option_the_script_declares_is_the_options_value(tmp_path):
    """`getattr(args, "bf16", True)` of an argparse option `--bf16` (store_true, default False): the option's value
    as the script runs with no options, not the getter's default."""
    text = (
        "import argparse\nfrom transformers import AutoModelForCausalLM, Trainer, TrainingArguments\n\n"
        "p = argparse.ArgumentParser()\np.add_argument('--bf16', action='store_true')\n"
        "p.add_argument('--fp16', action='store_true')\nargs = p.parse_args()\n"
        "model = AutoModelForCausalLM.from_pretrained('org/m')\n"
        "targs = TrainingArguments(output_dir='o', bf16=getattr(args, 'bf16', True),\n"
        "                          fp16=getattr(args, 'fp16', False))\n"
        "Trainer(model=model, args=targs).train()\n")
    assert read(tmp_path, "train.py", text) == ("transformers", [], "", "none")
    assert read(tmp_path, "train2.py", text.replace("'--fp16', action='store_true'", "'--fp16', default=True")) == \
        ("transformers", [], "float16", "none")


def test_a_settings_file_that_is_here_decides_over_the_default(tmp_path):
    """The getter's default counts only when the file is not here: a config the script loads by default that turns
    fp16 off and bf16 on is the run's precision."""
    text = SWITCHES.format(pre="", switches='fp16=t.get("fp16", True),\n        bf16=t.get("bf16", False),').replace(
        "def train_from_config(config_path):", "def train_from_config(config_path=\"configs/lora.yaml\"):") + \
        "\n\nif __name__ == \"__main__\":\n    train_from_config()\n"
    _write(tmp_path, "configs/lora.yaml", "model_name: org/m\noutput_dir: out\ntraining:\n  max_steps: 10\n"
                                          "  fp16: false\n  bf16: true\n")
    script = _write(tmp_path, "train_lora.py", text)
    assert reading(configs.load(str(script))) == ("transformers", [], "bfloat16", "none")


# -- keywords a function of the script builds and returns --------------------------------------------------------------

BUILT = '''from transformers import AutoModelForSeq2SeqLM, Seq2SeqTrainer, Seq2SeqTrainingArguments


def {fn}(config, output_dir):
{body}


def main(config):
    model = AutoModelForSeq2SeqLM.from_pretrained("org/t5")
    training_args = Seq2SeqTrainingArguments(
        **{fn}(config, str(output_dir)){extra}
    )
    Seq2SeqTrainer(model=model, args=training_args).train()
'''


@pytest.mark.parametrize("fn,body,extra,want", [
    ("build_training_args_kwargs", '    kwargs = {\n        "output_dir": output_dir,\n        "fp16": True,\n    }\n'
                                   '    if config.get("eval"):\n        kwargs["eval_strategy"] = "epoch"\n'
                                   '    return kwargs', "", "float16"),
    ("make_args", '    return dict(output_dir=output_dir, bf16=True, learning_rate=1e-4)', "", "bfloat16"),
    # a keyword the call gives after the spread wins over the function's
    ("make_args", '    return {"output_dir": output_dir, "bf16": True}', ", bf16=False, fp16=True", "float16"),
])
def test_keywords_a_function_of_the_script_returns(tmp_path, fn, body, extra, want):
    assert read(tmp_path, "train_lora.py", BUILT.format(fn=fn, body=body, extra=extra)) == \
        ("transformers", [], want, "none")


@pytest.mark.parametrize("body", [
    # two returns: which one runs is the caller's business
    '    if config:\n        return {"output_dir": output_dir, "fp16": True}\n    return {"output_dir": output_dir}',
    # a name the function does not bind itself
    '    return SHARED_KWARGS',
])
def test_a_function_that_returns_something_else_says_nothing(tmp_path, body):
    text = BUILT.format(fn="make_args", body=body, extra="")
    text += '\n\ndef other():\n    SHARED_KWARGS = {"output_dir": "o", "fp16": True}\n    return SHARED_KWARGS\n'
    assert read(tmp_path, "train.py", text)[2] == ""


# -- a settings object of the user's own repository --------------------------------------------------------------------

SETTINGS = '''from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict


class {cls}(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env", env_prefix="APP_")

    use_unsloth: bool = Field(default=True, description="the fast loader")
    {field}
    max_seq_length: int = 1024


{name} = {cls}({kw})
'''

LOADER = '''from typing import Optional

from {module} import {name}{alias}


def load_model_for_training(max_seq_length: Optional[int] = None, dtype: Optional[str] = None):
    max_seq_length = max_seq_length or {obj}.max_seq_length
    dtype = dtype or {obj}.{attr}
    return _load(max_seq_length, dtype)


def _load(max_seq_length, dtype):
    from unsloth import FastLanguageModel
    import torch

    dtype_map = {{"float16": torch.float16, "bfloat16": torch.bfloat16, "float32": torch.float32}}
    torch_dtype = dtype_map.get(dtype, torch.float16)
    return FastLanguageModel.from_pretrained(model_name="org/m", max_seq_length=max_seq_length, dtype=torch_dtype,
                                             load_in_4bit=True)
'''


@pytest.mark.parametrize("field,kw,attr,want", [
    ('bnb_4bit_compute_dtype: str = Field(default="float16", description="compute dtype")', "",
     "bnb_4bit_compute_dtype", "float16"),
    ('compute_dtype: str = Field("bfloat16", description="compute dtype")', "", "compute_dtype", "bfloat16"),
    ('compute_dtype: str = "float32"', 'compute_dtype="bfloat16"', "compute_dtype", "bfloat16"),
])
def test_a_settings_object_of_the_users_own_module(tmp_path, field, kw, attr, want):
    _write(tmp_path, "proj/config/settings.py", SETTINGS.format(cls="FineTuneSettings", field=field, name="settings",
                                                                kw=kw))
    script = _write(tmp_path, "proj/training/model_loader.py", LOADER.format(
        module="proj.config.settings", name="settings", alias="", obj="settings", attr=attr))
    assert reading(configs.load(str(script))) == ("unsloth", [], want, "none")


def test_a_settings_object_imported_under_another_name(tmp_path):
    _write(tmp_path, "app_settings.py", SETTINGS.format(
        cls="Cfg", field='precision: str = Field(default="bfloat16")', name="CONFIG", kw=""))
    script = _write(tmp_path, "loader.py", LOADER.format(module="app_settings", name="CONFIG", alias=" as cfg",
                                                         obj="cfg", attr="precision"))
    assert reading(configs.load(str(script))) == ("unsloth", [], "bfloat16", "none")


@pytest.mark.parametrize("field,kw,caller", [
    # the module is not here (the flat layout of round 61m): nothing said
    (None, "", ""),
    # a default_factory, a value computed at import
    ('compute_dtype: str = Field(default_factory=lambda: "bfloat16")', "", ""),
    ('compute_dtype: str = os.environ.get("DT", "bfloat16")', "", ""),
    # built with keywords spread from elsewhere
    ('compute_dtype: str = "bfloat16"', "**OVERRIDES", ""),
    # a caller in the script passes dtype: the parameter is not left at its default
    ('compute_dtype: str = "bfloat16"', "", '\n\ndef main(d):\n    return load_model_for_training(dtype=d)\n'),
])
def test_settings_objects_that_say_nothing(tmp_path, field, kw, caller):
    if field is not None:
        _write(tmp_path, "proj/config/settings.py", "import os\n" + SETTINGS.format(
            cls="S", field=field, name="settings", kw=kw))
    script = _write(tmp_path, "proj/training/model_loader.py", LOADER.format(
        module="proj.config.settings", name="settings", alias="", obj="settings", attr="compute_dtype") + caller)
    assert reading(configs.load(str(script)))[2] == ""


def test_a_name_that_defaults_itself_does_not_loop(tmp_path):
    """`x = x or y` read with nothing known about y stays unknown (and ends)."""
    text = LOADER.format(module="nowhere.settings", name="settings", alias="", obj="settings", attr="compute_dtype")
    text = text.replace("dtype = dtype or settings.compute_dtype", "dtype = dtype or dtype")
    assert read(tmp_path, "loader.py", text)[2] == ""


# -- the mixed precision accelerate launch puts in the script's environment --------------------------------------------

HF_SCRIPT = '''from datasets import load_dataset
from transformers import AutoModelForCausalLM, {args_cls}, {trainer}{extra_import}

model = AutoModelForCausalLM.from_pretrained("org/small-model")
args = {args_cls}(output_dir="out", per_device_train_batch_size=4, learning_rate=2e-5{kw})
{trainer}(model=model, args=args, train_dataset=load_dataset("org/data", split="train")).train()
'''


def _hf(args_cls="TrainingArguments", trainer="Trainer", kw="") -> str:
    extra = ""
    if args_cls.endswith("Config"):
        extra = f"\nfrom trl import {args_cls}, {trainer}"
        text = HF_SCRIPT.replace(", {args_cls}, {trainer}", "")
        return text.format(extra_import=extra, args_cls=args_cls, trainer=trainer, kw=kw)
    return HF_SCRIPT.format(extra_import=extra, args_cls=args_cls, trainer=trainer, kw=kw)


@pytest.mark.parametrize("script,launch,accel,want", [
    (_hf(), "accelerate launch --mixed_precision bf16 train.py\n", None, "bfloat16"),
    (_hf(), "accelerate launch --mixed_precision=fp16 --num_processes 2 train.py --seed 1\n", None, "float16"),
    (_hf("Seq2SeqTrainingArguments", "Seq2SeqTrainer"),
     "accelerate launch --config_file configs/accel.yaml train.py\n",
     "compute_environment: LOCAL_MACHINE\ndistributed_type: MULTI_GPU\nmixed_precision: fp16\nnum_processes: 2\n",
     "float16"),
    # the flag over the config file's value
    (_hf(), "accelerate launch --config_file configs/accel.yaml --mixed_precision bf16 train.py\n",
     "distributed_type: MULTI_GPU\nmixed_precision: fp16\n", "bfloat16"),
    # the variable exported to a plain python run
    (_hf(), "#!/bin/bash\nexport ACCELERATE_MIXED_PRECISION=bf16\npython train.py\n", None, "bfloat16"),
    # a TRL config: bf16 whatever its release (>= 0.19 sets bf16 itself unless fp16)
    (_hf("SFTConfig", "SFTTrainer"), "accelerate launch --mixed_precision bf16 train.py\n", None, "bfloat16"),
    # the script's own switch wins over the launcher's
    (_hf(kw=", bf16=True"), "accelerate launch --mixed_precision fp16 train.py\n", None, "bfloat16"),
    (_hf(kw=", fp16=True"), "accelerate launch --mixed_precision bf16 train.py\n", None, "float16"),
])
def test_the_launchers_mixed_precision_reaches_training_arguments(tmp_path, script, launch, accel, want):
    _write(tmp_path, "train.py", script)
    if accel is not None:
        _write(tmp_path, "configs/accel.yaml", accel)
    sh = _write(tmp_path, "run.sh", launch)
    assert reading(configs.load(str(sh))) == ("transformers", [], want, "none")


@pytest.mark.parametrize("script,launch", [
    # a TRL config under fp16: TRL before 0.19 trains fp16, 0.19 and later bf16 (bf16 = not fp16): not said here
    (_hf("SFTConfig", "SFTTrainer"), "accelerate launch --mixed_precision fp16 train.py\n"),
    # "no", a value the shell decides, a config file that is not here, a variable only set in the shell
    (_hf(), "accelerate launch --mixed_precision no train.py\n"),
    (_hf(), 'accelerate launch --mixed_precision "$PREC" train.py\n'),
    (_hf(), "accelerate launch --config_file /elsewhere/accel.yaml train.py\n"),
    (_hf(), "ACCEL=1\nACCELERATE_MIXED_PRECISION=bf16\npython train.py\n"),
])
def test_launches_that_leave_the_precision_unsaid(tmp_path, script, launch):
    _write(tmp_path, "train.py", script)
    sh = _write(tmp_path, "run.sh", launch)
    assert reading(configs.load(str(sh)))[2] == ""


def test_the_script_alone_has_no_launchers_precision(tmp_path):
    assert read(tmp_path, "train.py", _hf()) == ("transformers", [], "", "none")


# -- a container's --entrypoint, and verl's recipes (round 61m's refusal of kingjameschan's DAPO launcher) -------------

@pytest.mark.parametrize("text,words", [
    # round 61m's shape: the entrypoint a program, the module after the image
    ("docker run --rm --gpus all -e A=1 -v /d:/d --workdir /opt/verl --entrypoint python3 my/verl:v1 \\\n"
     "    -m recipe.dapo.main_dapo algorithm.adv_estimator=grpo actor_rollout_ref.model.path=/m \\\n"
     "    actor_rollout_ref.rollout.name=vllm trainer.total_epochs=2\n", ("verl", "recipe.dapo.main_dapo")),
    # --entrypoint=..., podman, another recipe
    ("podman run -it --entrypoint=/usr/bin/python img:latest -m recipe.prime.main_prime "
     "actor_rollout_ref.actor.optim.lr=1e-6 data.train_files=t.parquet\n", ("verl", "recipe.prime.main_prime")),
])
def test_a_verl_recipe_run_through_a_containers_entrypoint_is_refused_as_verl(tmp_path, text, words):
    from configs_corpus import refusal

    msg = refusal(tmp_path, "run_grpo.sh", text)
    assert all(w in msg for w in words), msg


def test_an_entrypoint_runs_a_claimed_script_as_well(tmp_path):
    """`docker run --entrypoint accelerate IMAGE launch train.py`: the command in the container is accelerate's."""
    _write(tmp_path, "train.py", _hf())
    sh = _write(tmp_path, "run.sh", "docker run --rm --gpus all --entrypoint accelerate trainer:1 launch "
                                    "--mixed_precision bf16 train.py\n")
    assert reading(configs.load(str(sh))) == ("transformers", [], "bfloat16", "none")


def test_a_recipe_module_without_verls_overrides_is_not_verl(tmp_path):
    from configs_corpus import refusal

    msg = refusal(tmp_path, "run.sh", "python -m recipe.sft.main_sft data.train_files=t.parquet trainer.epochs=1\n")
    assert "verl" not in msg


# -- a module of settings classes (round 61m's refusal of shubh2016shiv's settings.py) ---------------------------------

SETTINGS_MODULE = '''"""Settings of the project."""
from pathlib import Path
{imports}


{deco}class {cls}({base}):
    """All tunable values."""
{config}
    model_id: str = {field}("org/model")
    use_unsloth: bool = {field}(True)
    load_in_4bit: bool = {field}(True)
    compute_dtype: str = {field}("float16")
    lora_r: int = {field}(16)
    output_dir: Path = {field}(Path("outputs"))

{method}
{tail}'''


@pytest.mark.parametrize("kw", [
    # round 61m's shape: pydantic BaseSettings, its model_config, a validator and helpers, the object at the end
    dict(imports="from pydantic import Field, field_validator\nfrom pydantic_settings import BaseSettings, "
                 "SettingsConfigDict", deco="", cls="FineTuningSettings", base="BaseSettings",
         config='    model_config = SettingsConfigDict(env_file=".env", env_prefix="FT_")\n', field="Field",
         method='    @field_validator("output_dir")\n    @classmethod\n'
                '    def check(cls, v):\n        return Path(v)\n\n'
                '    def logs_dir(self) -> Path:\n        return self.output_dir / "logs"\n',
         tail="settings = FineTuningSettings()\n"),
    # dataclasses (round 57m's pywood21 src/config.py), no object
    dict(imports="from dataclasses import dataclass, field", deco="@dataclass\n", cls="TrainCfg", base="",
         config="", field="", method="", tail=""),
    # a pydantic BaseModel with an object built with keywords
    dict(imports="from pydantic import BaseModel, Field", deco="", cls="Cfg", base="BaseModel", config="",
         field="Field", method="", tail='CFG = Cfg(lora_r=8)\nNAME = "run-1"\n'),
])
def test_a_module_of_settings_classes_is_refused_as_one(tmp_path, kw):
    from configs_corpus import refusal

    msg = refusal(tmp_path, "settings.py", SETTINGS_MODULE.format(**kw).replace("(()", "(").replace("class TrainCfg():",
                                                                                                 "class TrainCfg:"))
    assert "Python settings module" in msg and "no trainer calls" in msg and "not a trainer config" in msg, msg


@pytest.mark.parametrize("method,tail", [
    # a method that builds the TrainingArguments, or a LoRA config: not only settings
    ("    def to_training_args(self):\n        return TrainingArguments(output_dir=str(self.output_dir))\n", ""),
    ("    def lora(self):\n        return LoraConfig(r=self.lora_r)\n", ""),
    # something runs at import
    ("", "settings = FineTuningSettings()\nprint(settings)\nmain(settings)\n"),
    ("", "settings = load_settings()\n"),
])
def test_a_settings_module_that_does_more_is_not_called_one(tmp_path, method, tail):
    text = SETTINGS_MODULE.format(imports="from pydantic import Field\nfrom pydantic_settings import BaseSettings",
                                  deco="", cls="FineTuningSettings", base="BaseSettings", config="", field="Field",
                                  method=method, tail=tail)
    with pytest.raises(Exception) as err:
        configs.load(str(_write(tmp_path, "settings.py", text)))
    assert "Python settings module" not in str(err.value)


# -- `x = x or DEFAULT` of a parameter left at its default -------------------------------------------------------------

UNLESS_GIVEN = '''from typing import Optional
from transformers import AutoModelForCausalLM, Trainer, TrainingArguments


def load(name: str, {param}):
    {line}
    return AutoModelForCausalLM.from_pretrained(name, attn_implementation=attn_impl)


model = load("org/m"{call})
Trainer(model=model, args=TrainingArguments(output_dir="o", bf16=True)).train()
'''


@pytest.mark.parametrize("param,line,call,want", [
    # main (009e5212) stopped on these with "too deeply nested": the name read as itself
    ("attn_impl: Optional[str] = None", 'attn_impl = attn_impl or "flash_attention_2"', "", ["fa2"]),
    ("attn_impl=''", 'attn_impl = attn_impl or "sdpa"', "", ["sdpa"]),
    ("*, attn_impl=None", 'attn_impl = attn_impl or "flex_attention"', "", ["flex"]),
    # a caller passes it: the default is not what runs
    ("attn_impl=None", 'attn_impl = attn_impl or "flash_attention_2"', ', attn_impl="eager"', []),
    ("attn_impl=None", 'attn_impl = attn_impl or "flash_attention_2"', ', "eager"', []),
    # a default that is true is what runs, not the fallback
    ('attn_impl="eager"', 'attn_impl = attn_impl or "flash_attention_2"', "", []),
])
def test_a_parameter_that_falls_back_when_left_out(tmp_path, param, line, call, want):
    assert read(tmp_path, "train.py", UNLESS_GIVEN.format(param=param, line=line, call=call)) == \
        ("transformers", want, "bfloat16", "none")
