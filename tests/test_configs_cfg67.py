"""Round 64m read as training material (helper cfg67): each miss it showed is a mechanism, read here on variants
written for this file (other names, spellings, layouts, trainers), with the neighbours that must keep their reading.

- a settings file the script loads through a function of its own called without arguments (`config = load_config()`
  of `def load_config(config_path="config/training_config.yaml")`, round 64m's Joshua-Peter7 finetune_phi4.py): the
  parameter's default is the file;
- a settings file named from the script's own location (`--config` defaulting to `str(Path(__file__).parent /
  "config.yaml")`, round 64m's eduardd76 fine_tuning/train.py; `os.path.join(os.path.dirname(__file__), ...)`,
  `.parent.parent / "configs" / ...`): the file beside (or above) the script, wherever attn-doctor runs from;
- a settings module the script imports whose top-level `if` the module settles itself (`ENV =
  os.environ.get("LORA_ENV", "a800").lower()` then `if ENV == "a800": TORCH_DTYPE = "bfloat16" else: ...`, round 64m's
  zyy469 config.py): the taken branch's literals, the variable unset as an argparse default is the value with no
  options; a test the module cannot settle (a GPU query) says nothing;
- Unsloth's `SFTConfig(fp16=train_cfg.get("fp16", False), bf16=train_cfg.get("bf16", True))` of a settings file that
  is not here (round 64m's neuraforce scripts/train.py, --config required): the getter's defaults are the precision
  the script is written for, as cfg63 reads them for transformers;
- a shell variable a machine probe picks (`if python -c "import flash_attn"; then ATTN_IMPL=flash_attn; else
  ATTN_IMPL=sdpa; fi` then `swift sft --attn_impl "${ATTN_IMPL}"`, round 64m's luckyIITR train_1_5b.sh): whichever the
  machine has, so nothing is required (and so for `ATTN=sdpa` before an `if PROBE; then ATTN=flash_attn; fi`); a
  caller's variable keeps the reading it had;
- (refusals) a script whose transformers model is a frozen feature extractor beside heads of its own (round 64m's
  qlccz185 classanddetect.py), and a script that hands its transformers model to a trainer of its own repository
  (round 64m's vivekvar-dl train_gspo.py: `from gspo_implementation import GSPOTrainer`): no trainer attn-doctor reads.
  A frozen model given to peft or to an adapter injection of the script's own, and a Trainer subclass of the user's
  own configured with TrainingArguments, stay transformers."""

from __future__ import annotations

from pathlib import Path

import pytest

from attn_doctor import configs
from configs_corpus import read, reading, refusal


def _write(base: Path, rel: str, text: str) -> Path:
    p = base / rel
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(text, encoding="utf-8")
    return p


def _load(path: Path) -> tuple:
    return reading(configs.load(str(path)))


# -- a loader of the script's own, called with its parameter's default -------------------------------------------------

LOADER = '''import yaml
from unsloth import FastLanguageModel
from trl import SFTTrainer
from transformers import TrainingArguments


def {loader}({param}="{default}"):
    with open({param}) as fh:
        return yaml.safe_load(fh)


def run(cfg):
    model, tok = FastLanguageModel.from_pretrained(cfg["model"]["name"], dtype=None, load_in_4bit=True)
    targs = cfg["train"]["args"]
    SFTTrainer(model=model, tokenizer=tok, args=TrainingArguments(
        output_dir="out", fp16=not targs["bf16"], bf16=targs["bf16"])).train()


if __name__ == "__main__":
    cfg = {loader}()
    run(cfg)
'''


@pytest.mark.parametrize("loader,param,default,where", [
    ("load_config", "config_path", "config/training_config.yaml", "scripts/training/train.py"),
    ("read_settings", "path", "settings.yaml", "train.py"),
    ("get_cfg", "cfg_file", "conf/run.yml", "src/train.py"),
])
@pytest.mark.parametrize("bf16,want", [("false", "float16"), ("true", "bfloat16")])
def test_a_loader_called_without_arguments_reads_its_default_file(tmp_path, loader, param, default, where, bf16, want):
    _write(tmp_path, default, f"model:\n  name: org/m\ntrain:\n  args:\n    bf16: {bf16}\n")
    script = _write(tmp_path, where, LOADER.format(loader=loader, param=param, default=default))
    assert _load(script) == ("unsloth", [], want, "none")


def test_a_loader_default_whose_file_is_not_here_says_nothing(tmp_path):
    script = _write(tmp_path, "train.py", LOADER.format(loader="load_config", param="p", default="missing.yaml"))
    assert _load(script) == ("unsloth", [], "", "none")


# -- a settings file named from the script's own location --------------------------------------------------------------

BESIDE = '''import argparse
import os
from pathlib import Path

import torch
import yaml
from transformers import AutoModelForCausalLM, Trainer, TrainingArguments


def load(p):
    with open(p) as f:
        return yaml.safe_load(f)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", default={default})
    args = ap.parse_args()
    cfg = load(args.config)
    model = AutoModelForCausalLM.from_pretrained("org/m", torch_dtype=torch.float32)
    t = cfg["training"]
    Trainer(model=model, args=TrainingArguments(output_dir="o", bf16=t["bf16"], fp16=t["fp16"])).train()


if __name__ == "__main__":
    main()
'''


@pytest.mark.parametrize("default,where,cfg", [
    ('str(Path(__file__).parent / "config.yaml")', "fine_tuning/train.py", "fine_tuning/config.yaml"),
    ('Path(__file__).resolve().parent.parent / "configs" / "lora.yaml"', "scripts/train.py", "configs/lora.yaml"),
    ('os.path.join(os.path.dirname(os.path.abspath(__file__)), "cfg", "run.yaml")', "src/train.py", "src/cfg/run.yaml"),
    ('str(Path(__file__).parents[1] / "train.yaml")', "tools/train.py", "train.yaml"),
])
@pytest.mark.parametrize("bf16,fp16,want", [("true", "false", "bfloat16"), ("false", "true", "float16")])
def test_a_config_beside_the_script_is_read_wherever_attn_doctor_runs(tmp_path, monkeypatch, default, where, cfg, bf16,
                                                                    fp16, want):
    _write(tmp_path / "repo", cfg, f"training:\n  bf16: {bf16}\n  fp16: {fp16}\n")
    # a decoy of the same name where attn-doctor runs: the script's own location decides, not the working directory
    _write(tmp_path / "elsewhere", cfg, f"training:\n  bf16: {fp16}\n  fp16: {bf16}\n")
    script = _write(tmp_path / "repo", where, BESIDE.format(default=default))
    monkeypatch.chdir(tmp_path / "elsewhere")
    assert _load(script) == ("transformers", [], want, "none")


@pytest.mark.parametrize("default", ['str(Path(__file__))', 'Path(__file__).parent', 'Path(__file__).with_name(NAME)'])
def test_the_script_itself_or_a_folder_is_no_config_path(tmp_path, default):
    _write(tmp_path, "config.yaml", "training:\n  bf16: true\n  fp16: false\n")
    script = _write(tmp_path, "train.py", BESIDE.format(default=default))
    assert _load(script) == ("transformers", [], "float32", "none")


# -- a settings module's top-level `if`, settled by the module itself --------------------------------------------------

SETTINGS = '''import os

{env} = {getter}
{test}
    {dtype} = "{taken}"
else:
    {dtype} = "{other}"
'''

USER = '''import torch
from transformers import AutoModelForCausalLM, Trainer, TrainingArguments
from {module} import {dtype}


def main():
    dt = torch.bfloat16 if {dtype} == "bfloat16" else torch.float16
    model = AutoModelForCausalLM.from_pretrained("org/m", torch_dtype=dt)
    args = TrainingArguments(output_dir="o", bf16=({dtype} == "bfloat16"), fp16=({dtype} == "float16"))
    Trainer(model=model, args=args).train()


main()
'''


@pytest.mark.parametrize("env,getter,test,taken,other,want", [
    # round 64m's shape, names and defaults of other scripts
    ("ENV", 'os.environ.get("LORA_ENV", "a800").lower()', 'if ENV == "a800":', "bfloat16", "float16", "bfloat16"),
    ("MODE", 'os.getenv("RUN_MODE", "Local").strip().lower()', 'if MODE == "cluster":', "bfloat16", "float16",
     "float16"),
    ("PROFILE", 'os.environ.get("PROFILE", "h100")', 'if PROFILE in ("h100", "a100"):', "bfloat16", "float16",
     "bfloat16"),
    ("GPU", '"t4"', 'if GPU not in {"t4", "v100"}:', "bfloat16", "float16", "float16"),
    ("PROFILE", 'os.environ.get("PROFILE", "h100")', 'if not PROFILE == "h100":', "float16", "bfloat16", "bfloat16"),
])
def test_a_settings_module_if_the_module_settles(tmp_path, env, getter, test, taken, other, want):
    _write(tmp_path, "settings.py", SETTINGS.format(env=env, getter=getter, test=test, dtype="TORCH_DTYPE",
                                                    taken=taken, other=other))
    script = _write(tmp_path, "train.py", USER.format(module="settings", dtype="TORCH_DTYPE"))
    assert _load(script) == ("transformers", [], want, "none")


@pytest.mark.parametrize("getter,test", [
    ("torch.cuda.is_bf16_supported()", "if ENV:"),                  # the machine answers
    ('os.environ.get("LORA_ENV")', 'if ENV == "a800":'),            # no default: the caller's to set
    ('os.environ["LORA_ENV"]', 'if ENV == "a800":'),
    ('"a800"', 'if ENV == "a800" and os.path.exists("/data"):'),     # a test on the disk as well
])
def test_a_module_if_it_cannot_settle_says_nothing(tmp_path, getter, test):
    text = "import torch\n" + SETTINGS.format(env="ENV", getter=getter, test=test, dtype="DT", taken="bfloat16",
                                              other="float16")
    _write(tmp_path, "cfg.py", text)
    script = _write(tmp_path, "train.py", USER.format(module="cfg", dtype="DT"))
    assert _load(script)[2] == ""


def test_a_name_a_function_sets_again_is_decided_at_run_time(tmp_path):
    text = SETTINGS.format(env="ENV", getter='"a800"', test='if ENV == "a800":', dtype="DT", taken="bfloat16",
                           other="float16") + "\n\ndef use_fp16():\n    global DT\n    DT = \"float16\"\n"
    _write(tmp_path, "cfg.py", text)
    script = _write(tmp_path, "train.py", USER.format(module="cfg", dtype="DT"))
    assert _load(script)[2] == ""


# -- Unsloth: an autocast switch's getter default, of a settings file that is not here ---------------------------------

UNSLOTH = '''import argparse
import yaml
from unsloth import {loader}
from trl import SFTConfig, SFTTrainer


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", required=True)
    a = ap.parse_args()
    with open(a.config) as f:
        cfg = yaml.safe_load(f)
    tc = cfg["training"]
    model, tok = {loader}.from_pretrained(cfg["model"]["name"], dtype=None, load_in_4bit=True)
    SFTTrainer(model=model, tokenizer=tok, args=SFTConfig(output_dir="o", {amp})).train()


main()
'''


@pytest.mark.parametrize("loader,amp,want", [
    ("FastVisionModel", 'fp16=tc.get("fp16", False), bf16=tc.get("bf16", True)', "bfloat16"),
    ("FastLanguageModel", 'bf16=tc.get("bf16", False), fp16=tc.get("fp16", True)', "float16"),
    ("FastModel", 'bf16=bool(tc.get("bf16", True))', "bfloat16"),
    ("FastLanguageModel", 'bf16=getattr(tc, "bf16", True), fp16=getattr(tc, "fp16", False)', "bfloat16"),
    # defaults that turn nothing on, or a switch not read by a getter: the file decides (round 17's convention)
    ("FastLanguageModel", 'fp16=tc.get("fp16", False), bf16=tc.get("bf16", False)', ""),
    ("FastLanguageModel", 'fp16=tc["fp16"], bf16=tc["bf16"]', ""),
    ("FastLanguageModel", 'fp16=tc.get("fp16"), bf16=tc.get("bf16", True)', ""),
])
def test_unsloth_reads_an_autocast_switchs_default(tmp_path, loader, amp, want):
    assert read(tmp_path, "train.py", UNSLOTH.format(loader=loader, amp=amp)) == ("unsloth", [], want, "none")


# -- a shell variable a machine probe picks ---------------------------------------------------------------------------

PROBED = '''#!/usr/bin/env bash
set -euo pipefail
{probe}
  {var}="{a}"
else
  {var}="{b}"
fi
swift sft \\
  --model Qwen/Qwen2.5-7B-Instruct \\
  --torch_dtype bfloat16 \\
  --attn_impl "${{{var}}}" \\
  --output_dir out
'''


@pytest.mark.parametrize("probe", [
    'if python -c "import flash_attn" 2>/dev/null; then',
    "if python3 -c 'import flash_attn' >/dev/null 2>&1; then",
    "if pip show flash-attn > /dev/null 2>&1; then",
    "if python -m pip show flash_attn &>/dev/null; then",
    "if nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H100; then",
    "if command -v nvcc >/dev/null; then",
])
@pytest.mark.parametrize("a,b", [("flash_attn", "sdpa"), ("eager", "sdpa")])
def test_an_option_whose_value_a_machine_probe_picks_requires_none(tmp_path, probe, a, b):
    text = PROBED.format(probe=probe, var="ATTN", a=a, b=b)
    assert read(tmp_path, "train.sh", text) == ("ms-swift", [], "bfloat16", "none")


def test_a_probe_with_the_same_value_both_ways_keeps_it(tmp_path):
    text = PROBED.format(probe='if python -c "import flash_attn"; then', var="IMPL", a="flash_attn", b="flash_attn")
    assert read(tmp_path, "train.sh", text) == ("ms-swift", ["fa2"], "bfloat16", "none")


def test_a_caller_variable_keeps_its_reading(tmp_path):
    """A test on the caller's variable (no probe of the machine) reads as before: the last value stays."""
    text = PROBED.format(probe='if [[ "${USE_FA:-0}" == "1" ]]; then', var="ATTN", a="sdpa", b="flash_attn")
    assert read(tmp_path, "train.sh", text) == ("ms-swift", ["fa2"], "bfloat16", "none")


# -- refusals: a frozen feature extractor, a trainer of the repository's own -------------------------------------------

FROZEN = '''import torch
from torch import nn
from transformers import {cls}{extra_import}


class Heads(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(1024, 2)


def main():
    {name} = {cls}.from_pretrained("org/vlm", torch_dtype=torch.bfloat16, attn_implementation="flash_attention_2")
    {freeze}
    {name}.eval()
    tap = {name}.{part}
    heads = Heads().cuda()
{after}    opt = torch.optim.AdamW(heads.parameters(), lr=1e-4)
    for x, y in []:
        loss = nn.functional.cross_entropy(heads.fc(tap(x)), y)
        loss.backward()
        opt.step()


main()
'''


@pytest.mark.parametrize("cls,name,freeze,part", [
    ("Qwen2_5_VLForConditionalGeneration", "qwen", "for p in qwen.parameters(): p.requires_grad = False", "visual"),
    ("AutoModel", "backbone", "backbone.requires_grad_(False)", "vision_model"),
    ("SiglipModel", "enc", "for param in enc.parameters():\n        param.requires_grad = False", "vision_model"),
])
def test_a_frozen_feature_extractor_is_no_transformers_run(tmp_path, cls, name, freeze, part):
    text = FROZEN.format(cls=cls, extra_import="", name=name, freeze=freeze, part=part, after="")
    assert "no trainer calls" in refusal(tmp_path, "train_heads.py", text)


@pytest.mark.parametrize("extra_import,after", [
    # peft on the frozen model: its adapters train
    (", \nfrom peft import LoraConfig, get_peft_model",
     "    model = get_peft_model(model, LoraConfig(r=8))\n"),
    # an adapter injection of the script's own (round 51's tiwwpst add_lora_gptneox)
    ("\nfrom mylora import add_lora", "    add_lora(model, rank=8)\n"),
])
def test_a_frozen_model_given_adapters_still_trains(tmp_path, extra_import, after):
    text = FROZEN.format(cls="AutoModelForCausalLM", extra_import=extra_import.replace(", \n", "\n"), name="model",
                         freeze="model.requires_grad_(False)", part="model", after=after)
    # a loop of the script's own trains it: refused as one since session 18 (cfg74, the blind rounds' convention),
    # with the attention it asks for; `--trainer transformers` reads the load
    assert "a training loop of the user's own" in refusal(tmp_path, "train.py", text)
    assert reading(configs.load(str(tmp_path / "train.py"), "transformers")) == ("transformers", ["fa2"], "bfloat16",
                                                                                "none")


OWN_TRAINER = '''import torch
from transformers import AutoModelForCausalLM, AutoTokenizer
from {module} import {trainer}, {config}


def main():
    tok = AutoTokenizer.from_pretrained("org/m")
    model = AutoModelForCausalLM.from_pretrained("org/m", torch_dtype=torch.bfloat16,
                                                 attn_implementation="flash_attention_2")
    cfg = {config}(lr=1e-6, group_size=8)
    {trainer}(model, tok, cfg).train()


main()
'''


@pytest.mark.parametrize("module,trainer,config", [
    ("gspo_implementation", "GSPOTrainer", "GSPOConfig"),
    ("rl.ppo", "MyPPOTrainer", "PPOSettings"),
    (".trainer", "Trainer", "TrainConfig"),
])
def test_a_trainer_of_the_repositorys_own_is_no_transformers_run(tmp_path, module, trainer, config):
    assert "no trainer calls" in refusal(tmp_path, "train_rl.py", OWN_TRAINER.format(module=module, trainer=trainer,
                                                                                   config=config))


def test_an_own_trainer_configured_with_training_arguments_stays_transformers(tmp_path):
    """`from src.trainer import WeightedTrainer` (a subclass of transformers' Trainer in the user's module) with
    TrainingArguments: the arguments are transformers', the run is transformers'."""
    text = '''import torch
from transformers import AutoModelForCausalLM, TrainingArguments
from src.trainer import WeightedTrainer

model = AutoModelForCausalLM.from_pretrained("org/m", torch_dtype=torch.bfloat16, attn_implementation="sdpa")
WeightedTrainer(model=model, args=TrainingArguments(output_dir="o", bf16=True)).train()
'''
    assert read(tmp_path, "train.py", text) == ("transformers", ["sdpa"], "bfloat16", "none")


def test_a_library_trainer_is_not_the_users_own(tmp_path):
    """TRL's trainers, imported from TRL, are TRL's: the model they train is read as before."""
    text = '''import torch
from transformers import AutoModelForCausalLM
from trl import GRPOTrainer, GRPOConfig

model = AutoModelForCausalLM.from_pretrained("org/m", torch_dtype=torch.bfloat16, attn_implementation="sdpa")
GRPOTrainer(model=model, args=GRPOConfig(output_dir="o", bf16=True), reward_funcs=[]).train()
'''
    assert read(tmp_path, "train.py", text) == ("transformers", ["sdpa"], "bfloat16", "none")


@pytest.mark.parametrize("probe", ['if python -c "import flash_attn" 2>/dev/null; then',
                                   "if pip show flash-attn >/dev/null 2>&1; then"])
def test_a_probe_that_overrides_a_value_set_before_requires_none(tmp_path, probe):
    """`ATTN=sdpa` then `if PROBE; then ATTN=flash_attn; fi`: the value before the `if` is the other branch."""
    text = PROBED.format(probe='ATTN="sdpa"\n' + probe, var="ATTN", a="flash_attn", b="flash_attn")
    text = text.replace('else\n  ATTN="flash_attn"\n', "")
    assert "else" not in text
    assert read(tmp_path, "train.sh", text) == ("ms-swift", [], "bfloat16", "none")


def test_a_value_set_before_a_caller_test_keeps_its_reading(tmp_path):
    text = PROBED.format(probe='ATTN="sdpa"\nif [[ "$1" == "fast" ]]; then', var="ATTN", a="flash_attn",
                         b="flash_attn").replace('else\n  ATTN="flash_attn"\n', "")
    assert read(tmp_path, "train.sh", text) == ("ms-swift", ["fa2"], "bfloat16", "none")
