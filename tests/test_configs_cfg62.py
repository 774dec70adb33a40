"""Round 62 read as training material (helper cfg62): the reader change its misses asked for, on variants written here
(other module names, layouts, spellings, trainers), and the cases that must stay open.

- a script that imports a settings module of the user's own repository whole (`import config`, `import settings as
  cfg`) and gives its constants to the trainer (`SFTConfig(bf16=config.BF16, fp16=config.FP16)`) runs with the
  literals that module assigns, where Python imports it from (the script's folder first on sys.path, or the
  repository root a script in scripts/ is run from): round 62's Unsloth WhatsApp script was read with no dtype;
  `from config import BF16` binds the same literal to the name, `from config import *` the module's public names
  (its literal `__all__` where it has one);
- only a module's own top-level literals assigned once count: a constant computed at run time
  (`BF16 = torch.cuda.is_bf16_supported()`), one a branch sets again, or one that names something else of that
  module says nothing; a module that is not here, or that the script rebinds itself (`config = yaml.safe_load(f)`),
  is not read; nor is an installed library's or Python's own module."""

from __future__ import annotations

from pathlib import Path

import pytest

from attn_doctor import configs
from configs_corpus import reading

UNSLOTH = '''import torch
from unsloth import FastLanguageModel
from trl import SFTTrainer, SFTConfig
{imp}

model, tokenizer = FastLanguageModel.from_pretrained(
    model_name="unsloth/Qwen3-4B", max_seq_length=2048, load_in_4bit=True, dtype=None,
)
model = FastLanguageModel.get_peft_model(model, r=16, lora_alpha=32)
{extra}args = SFTConfig(
    output_dir="outputs",
    per_device_train_batch_size=2,
    optim="adamw_8bit",
    fp16={fp16},
    bf16={bf16},
)
trainer = SFTTrainer(model=model, train_dataset=ds, processing_class=tokenizer, args=args)
trainer.train()
'''

TRANSFORMERS = '''from transformers import AutoModelForCausalLM, TrainingArguments, Trainer
{imp}

model = AutoModelForCausalLM.from_pretrained("meta-llama/Llama-3.2-1B", attn_implementation={attn})
args = TrainingArguments(output_dir="out", bf16={bf16}, per_device_train_batch_size=4)
Trainer(model=model, args=args, train_dataset=ds).train()
'''

SETTINGS = '''"""Project settings."""
import os

BASE_DIR = os.path.dirname(os.path.abspath(__file__))
OUTPUT_DIR = os.path.join(BASE_DIR, "outputs")
MODEL_NAME = "google/gemma-3-1b-it"
BF16 = {bf16}
FP16 = {fp16}
USE_BF16 = BF16
ATTN = "flash_attention_2"
'''


def _write(base: Path, rel: str, text: str) -> Path:
    p = base / rel
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(text, encoding="utf-8", newline="")
    return p


@pytest.mark.parametrize("where,module,imp,fp16,bf16,sbf16,sfp16,want", [
    ("train_unsloth.py", "config.py", "import config", "config.FP16", "config.BF16", "True", "False", "bfloat16"),
    ("train_unsloth.py", "config.py", "import config", "config.FP16", "config.BF16", "False", "True", "float16"),
    # the repository root a script in scripts/ (or a notebook in notebooks/) is run from
    ("scripts/finetune.py", "settings.py", "import settings as cfg", "cfg.FP16", "cfg.BF16", "True", "False",
     "bfloat16"),
    # a constant that names another literal of the module
    ("train.py", "hparams.py", "import hparams", "False", "hparams.USE_BF16", "True", "False", "bfloat16"),
    # the names bound by `from MODULE import NAME`
    ("train.py", "config.py", "from config import BF16, FP16", "FP16", "BF16", "False", "True", "float16"),
    ("src/train.py", "src/settings.py", "from settings import BF16 as USE_BF16", "False", "USE_BF16", "True", "False",
     "bfloat16"),
    # `from config import *`: the module's public names
    ("train.py", "config.py", "from config import *", "FP16", "BF16", "False", "True", "float16"),
])
def test_an_imported_settings_module_gives_its_literals(tmp_path, where, module, imp, fp16, bf16, sbf16, sfp16, want):
    _write(tmp_path, module, SETTINGS.format(bf16=sbf16, fp16=sfp16))
    script = _write(tmp_path, where, UNSLOTH.format(imp=imp, extra="", fp16=fp16, bf16=bf16))
    assert reading(configs.load(str(script))) == ("unsloth", [], want, "none")


def test_a_transformers_script_reads_the_module_too(tmp_path):
    """Attention and precision alike: `attn_implementation=config.ATTN` asks for what the module names."""
    _write(tmp_path, "config.py", SETTINGS.format(bf16="True", fp16="False"))
    script = _write(tmp_path, "train.py", TRANSFORMERS.format(imp="import config", attn="config.ATTN",
                                                              bf16="config.BF16"))
    assert reading(configs.load(str(script))) == ("transformers", ["fa2"], "bfloat16", "none")


def test_an_imported_module_in_a_notebook(tmp_path):
    """A notebook beside its settings module imports it as a script does (Jupyter's working folder is the
    notebook's)."""
    import json

    _write(tmp_path, "config.py", SETTINGS.format(bf16="False", fp16="True"))
    code = UNSLOTH.format(imp="import config", extra="", fp16="config.FP16", bf16="config.BF16")
    nb = {"cells": [{"cell_type": "code", "metadata": {}, "execution_count": None, "outputs": [],
                     "source": code.splitlines(keepends=True)}],
          "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    script = _write(tmp_path, "finetune.ipynb", json.dumps(nb))
    assert reading(configs.load(str(script))) == ("unsloth", [], "float16", "none")


@pytest.mark.parametrize("settings", [
    # computed when the script runs
    SETTINGS.format(bf16="torch.cuda.is_bf16_supported()", fp16="not BF16"),
    # set again in a branch: decided at run time
    SETTINGS.format(bf16="True", fp16="False") + "if os.environ.get('NO_BF16'):\n    BF16 = False\n",
    # set again by a function of the module
    SETTINGS.format(bf16="True", fp16="False") + "def disable():\n    global BF16\n    BF16 = False\n",
])
def test_a_constant_the_module_decides_at_run_time_stays_open(tmp_path, settings):
    _write(tmp_path, "config.py", settings)
    script = _write(tmp_path, "train.py", UNSLOTH.format(imp="import config", extra="", fp16="config.FP16",
                                                         bf16="config.BF16"))
    assert reading(configs.load(str(script))) == ("unsloth", [], "", "none")


def test_without_the_module_the_dtype_stays_open(tmp_path):
    script = _write(tmp_path, "train.py", UNSLOTH.format(imp="import config", extra="", fp16="config.FP16",
                                                         bf16="config.BF16"))
    assert reading(configs.load(str(script))) == ("unsloth", [], "", "none")


def test_a_module_python_does_not_import_from_there_is_not_read(tmp_path):
    """Three folders above the script, or in a sibling folder, is not where `import config` finds it."""
    _write(tmp_path, "config.py", SETTINGS.format(bf16="True", fp16="False"))
    _write(tmp_path, "a/other/config.py", SETTINGS.format(bf16="True", fp16="False"))
    script = _write(tmp_path, "a/b/c/train.py", UNSLOTH.format(imp="import config", extra="", fp16="config.FP16",
                                                                bf16="config.BF16"))
    assert reading(configs.load(str(script))) == ("unsloth", [], "", "none")


def test_a_name_the_script_rebinds_is_its_own(tmp_path):
    """`config = yaml.safe_load(f)` after `import config`: the name holds the loaded settings, not the module."""
    _write(tmp_path, "config.py", SETTINGS.format(bf16="True", fp16="False"))
    extra = 'import yaml\nwith open("run.yaml") as f:\n    config = yaml.safe_load(f)\n'
    script = _write(tmp_path, "train.py", UNSLOTH.format(imp="import config", extra=extra, fp16="config.FP16",
                                                         bf16="config.BF16"))
    assert reading(configs.load(str(script))) == ("unsloth", [], "", "none")


def test_a_library_module_of_that_name_is_not_looked_for(tmp_path):
    """A file beside the script named like Python's own module (`import json`) or an installed library's is not the
    script's settings, whatever it assigns."""
    _write(tmp_path, "json.py", SETTINGS.format(bf16="True", fp16="False"))
    script = _write(tmp_path, "train.py", UNSLOTH.format(imp="import json", extra="", fp16="json.FP16",
                                                         bf16="json.BF16"))
    assert reading(configs.load(str(script))) == ("unsloth", [], "", "none")


def test_a_star_import_binds_only_the_public_names(tmp_path):
    """`from config import *` binds the names of the module's `__all__` where it has one, else those not starting
    with an underscore: a name left out stays the script's unknown."""
    settings = SETTINGS.format(bf16="True", fp16="False") + '__all__ = ["MODEL_NAME"]\n_PRIVATE_BF16 = True\n'
    _write(tmp_path, "config.py", settings)
    script = _write(tmp_path, "train.py", UNSLOTH.format(imp="from config import *", extra="", fp16="False",
                                                         bf16="BF16"))
    assert reading(configs.load(str(script))) == ("unsloth", [], "", "none")
    _write(tmp_path, "config.py", SETTINGS.format(bf16="True", fp16="False") + "_PRIVATE_BF16 = True\n")
    script = _write(tmp_path, "train.py", UNSLOTH.format(imp="from config import *", extra="", fp16="False",
                                                         bf16="_PRIVATE_BF16"))
    assert reading(configs.load(str(script))) == ("unsloth", [], "", "none")
