"""Round 57m read as training material (helper cfg60): the reader changes its misses asked for, each on variants written
here (other names, layouts, spellings), and the files it must still refuse or read as before.

- a Weights & Biases run's config record (wandb/run-*/files/config.yaml: every entry `KEY: {value: V}`, with
  `desc: null` and `wandb_version: 1` in older clients) is no trainer config, whatever model or TrainingArguments
  names it records: refused before any reader claims it (round 57m's dump was read as transformers);
- transformers' own trainers (`Trainer`, `Seq2SeqTrainer`) built by a script that imports them from transformers are
  transformers' run, wherever the model and the TrainingArguments come from (round 57m: a script whose model and
  TrainingArguments are built in the user's own modules was refused as one with no trainer calls); a Trainer of
  another library (Lightning's) or of the script's own is not;
- `OrderedDict([(key, value), ...])` / `dict([...])` of pairs is the mapping it builds: an ai-toolkit job written that
  way and given to run_job is read as that job (round 57m: a Flux job, read as transformers from its caption model);
- a script's `cfg = TrainConfig(...)` of a `@dataclass` it imports from its own repository (`from src.config import
  TrainConfig`, found where the script's run imports it from) has that module's literal field defaults, as the
  script's own dataclasses have (round 57m: a notebook's `TrainingArguments(fp16=train_cfg.fp16)`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from attn_doctor import configs
from attn_doctor.model import UsageError
from configs_corpus import read, refusal, reading


# -- Weights & Biases run records ---------------------------------------------------------------------------------------

WANDB_NEW = """_wandb:
    value:
        cli_version: 0.19.1
        python_version: 3.11.9
architectures:
    value:
        - Qwen2ForCausalLM
attn_implementation:
    value: flash_attention_2
bf16:
    value: true
model_type:
    value: qwen2
num_attention_heads:
    value: 16
per_device_train_batch_size:
    value: 8
"""

WANDB_OLD = """wandb_version: 1

_wandb:
  desc: null
  value:
    cli_version: 0.15.12
    framework: huggingface
learning_rate:
  desc: null
  value: 0.0002
model_name_or_path:
  desc: null
  value: mistralai/Mistral-7B-v0.1
use_peft:
  desc: null
  value: true
fp16:
  desc: null
  value: true
"""


@pytest.mark.parametrize("name,text", [
    ("config.yaml", WANDB_NEW),
    ("run-20250101_120000-abc123__files__config.yaml", WANDB_OLD),
    # a Lightning / diffusers run's record: no transformers names at all
    ("config.yaml", "_wandb:\n  value:\n    cli_version: 0.17.0\nmax_epochs:\n  value: 10\nmixed_precision:\n  value: bf16\n"
                    "train_batch_size:\n  value: 4\n"),
])
def test_a_wandb_run_record_is_refused(tmp_path, name, text):
    msg = refusal(tmp_path, name, text)
    assert "Weights & Biases run's config record" in msg and "not a trainer config" in msg


def test_a_wandb_run_record_as_json_is_refused(tmp_path):
    text = '{"_wandb": {"value": {"cli_version": "0.18.7"}}, "bf16": {"value": false}, "fp16": {"value": true},' \
           ' "model_name_or_path": {"value": "meta-llama/Llama-3.2-1B"}, "use_peft": {"value": true}}'
    assert "Weights & Biases run's config record" in refusal(tmp_path, "config.json", text)


def test_a_config_with_a_few_value_mappings_is_still_its_trainers(tmp_path):
    """Settings that hold a `value:` mapping among plain ones are a config with a nested setting, not a W&B record."""
    text = ("model_name_or_path: Qwen/Qwen2.5-0.5B\nattn_implementation: flash_attention_2\nbf16: true\n"
            "dataset_name: trl-lib/Capybara\nlearning_rate: 2.0e-5\nnum_train_epochs: 1\npacking: false\n"
            "per_device_train_batch_size: 2\ngradient_accumulation_steps: 8\nlogging_steps: 25\noutput_dir: out\n"
            "model_init_kwargs:\n  value: 1\n")
    assert read(tmp_path, "sft.yaml", text)[:3] == ("transformers", ["fa2"], "bfloat16")


def test_a_wandb_sweep_config_is_not_taken_for_a_run_record(tmp_path):
    text = ("method: bayes\nmetric:\n  name: eval/loss\n  goal: minimize\nparameters:\n  learning_rate:\n    values: [1e-5, 2e-5]\n"
            "  bf16:\n    value: true\nprogram: train.py\n")
    msg = refusal(tmp_path, "sweep.yaml", text)
    assert "run's config record" not in msg and "sweep" in msg


# -- transformers' own Trainer -------------------------------------------------------------------------------------------

TRAINER_SCRIPT = '''"""Entrainement"""
{imports}
from configs.model_config import ModelConfig
from src.model import load_model

def train():
    model, tokenizer = load_model(ModelConfig())
    training_args = build_args()
    trainer = {call}(
        model=model,
        args=training_args,
        train_dataset=ds,
    )
    trainer.train()

if __name__ == "__main__":
    train()
'''


@pytest.mark.parametrize("imports,call", [
    ("from transformers import Trainer, DataCollatorForLanguageModeling", "Trainer"),
    ("from transformers import Seq2SeqTrainer as S2STrainer", "S2STrainer"),
    ("import transformers", "transformers.Trainer"),
    ("from transformers.trainer import Trainer", "Trainer"),
    ("from transformers import Trainer\n\nclass WeightedTrainer(Trainer):\n    def compute_loss(self, model, inputs):\n"
     "        return super().compute_loss(model, inputs)\n", "WeightedTrainer"),
])
def test_transformers_trainer_built_is_a_transformers_run(tmp_path, imports, call):
    """The model and the TrainingArguments are built elsewhere (the user's own modules, not here): transformers' run,
    its attention transformers' default (nothing required), its dtype not said here."""
    assert read(tmp_path, "train.py", TRAINER_SCRIPT.format(imports=imports, call=call)) == \
        ("transformers", [], "", "none")


@pytest.mark.parametrize("imports,call", [
    ("import transformers\nfrom lightning import Trainer", "Trainer"),
    ("import transformers\nimport pytorch_lightning as pl", "pl.Trainer"),
    ("from transformers import AutoTokenizer\nfrom mylib.training import Trainer", "Trainer"),
    ("from transformers import AutoTokenizer\n\nclass Trainer:\n    def __init__(self, **kw):\n        self.kw = kw\n"
     "    def train(self):\n        pass\n", "Trainer"),
])
def test_another_trainer_of_that_name_is_no_transformers_run(tmp_path, imports, call):
    with pytest.raises(UsageError):
        configs.load(str(_write(tmp_path, "train.py", TRAINER_SCRIPT.format(imports=imports, call=call))))


# -- OrderedDict / dict of pairs: an ai-toolkit job for run_job ----------------------------------------------------------

JOB = '''import sys
from collections import OrderedDict
{extra}from toolkit.job import run_job

def main(name):
    job = {mk}([
        ('job', 'extension'),
        ('config', {mk}([
            ('name', name),
            ('process', [
                {mk}([
                    ('type', 'sd_trainer'),
                    ('training_folder', 'output'),
                    ('network', {mk}([('type', 'lora'), ('linear', 32), ('linear_alpha', 32)])),
                    ('train', {mk}([
                        ('batch_size', 1),
                        ('steps', 1500),
                        ('optimizer', 'adamw8bit'),
                        ('dtype', '{dtype}'),
                    ])),
                    ('model', {mk}([
                        ('name_or_path', 'black-forest-labs/FLUX.1-dev'),
                        ('is_flux', True),
                        ('quantize', True),
                    ])),
                ])
            ]),
        ])),
    ])
    run_job(job)

main(sys.argv[1])
'''
CAPTIONER = ("import torch\nfrom transformers import AutoModelForCausalLM\n"
             "captioner = AutoModelForCausalLM.from_pretrained('microsoft/Florence-2-base', torch_dtype=torch.float16, "
             "trust_remote_code=True)\n")


@pytest.mark.parametrize("mk,extra,dtype,want", [
    ("OrderedDict", "", "bf16", "bfloat16"),
    ("OrderedDict", CAPTIONER, "bf16", "bfloat16"),  # a caption model loaded beside it is not the run
    ("dict", CAPTIONER, "float16", "float16"),
])
def test_a_job_of_pairs_given_to_run_job_is_read(tmp_path, mk, extra, dtype, want):
    got = configs.load(str(_write(tmp_path, "flux_train.py", JOB.format(mk=mk, extra=extra, dtype=dtype))))
    assert reading(got) == ("ai-toolkit", [], want, "none")


def test_a_job_of_pairs_as_a_tuple_is_read(tmp_path):
    text = JOB.format(mk="OrderedDict", extra="", dtype="bf16").replace("job = OrderedDict([", "job = OrderedDict((", 1)
    text = text.replace("    ])\n    run_job(job)", "    ))\n    run_job(job)")
    assert reading(configs.load(str(_write(tmp_path, "t.py", text))))[0] == "ai-toolkit"


# -- dataclasses imported from the user's own modules -------------------------------------------------------------------

NOTEBOOK_CODE = '''import torch
from transformers import AutoModelForCausalLM, TrainingArguments, Trainer
from {module} import ModelCfg, {cls}

model_cfg = ModelCfg()
train_cfg = {cls}({kw})
model = AutoModelForCausalLM.from_pretrained(model_cfg.model_id, device_map="auto")
args = TrainingArguments(
    output_dir=train_cfg.output_dir,
    fp16=train_cfg.fp16,
    bf16=train_cfg.bf16,
)
trainer = Trainer(model=model, args=args, train_dataset=ds)
trainer.train()
'''
SETTINGS = '''from dataclasses import dataclass, field

USE_BF16 = True

@dataclass
class ModelCfg:
    model_id: str = "Qwen/Qwen2.5-1.5B"

@dataclass
class {cls}:
    output_dir: str = "out"
    fp16: bool = {fp16}
    bf16: bool = {bf16}
'''


def _write(base: Path, rel: str, text: str) -> Path:
    p = base / rel
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(text, encoding="utf-8")
    return p


@pytest.mark.parametrize("where,module,fp16,bf16,kw,want", [
    ("notebooks/finetune.py", "src.config", "True", "False", 'output_dir="o"', "float16"),
    ("scripts/train.py", "configs.training_config", "False", "True", "", "bfloat16"),
    ("train.py", "settings", "False", "field(default=True)", "", "bfloat16"),
    # the constructor's keyword wins over the field's default
    ("scripts/train.py", "configs.training_config", "True", "False", "fp16=False, bf16=True", "bfloat16"),
    # a default naming a constant of that module is not read in the script's names
    ("scripts/train.py", "configs.training_config", "False", "USE_BF16", "", ""),
])
def test_a_dataclass_imported_from_the_repository_gives_its_defaults(tmp_path, where, module, fp16, bf16, kw, want):
    _write(tmp_path, module.replace(".", "/") + ".py", SETTINGS.format(cls="TrainCfg", fp16=fp16, bf16=bf16))
    script = _write(tmp_path, where, NOTEBOOK_CODE.format(module=module, cls="TrainCfg", kw=kw))
    assert reading(configs.load(str(script))) == ("transformers", [], want, "none")


def test_without_the_module_the_dtype_stays_open(tmp_path):
    script = _write(tmp_path, "scripts/train.py", NOTEBOOK_CODE.format(module="configs.training_config", cls="TrainCfg",
                                                                       kw=""))
    assert reading(configs.load(str(script))) == ("transformers", [], "", "none")


def test_a_module_elsewhere_than_python_imports_it_from_is_not_read(tmp_path):
    """Python imports `src.config` from the script's folder (or the repository root it is run from), never from a
    folder of that name three levels up nor from a file of that name beside it."""
    _write(tmp_path, "src/config.py", SETTINGS.format(cls="TrainCfg", fp16="True", bf16="False"))
    _write(tmp_path, "a/b/c/config.py", SETTINGS.format(cls="TrainCfg", fp16="True", bf16="False"))
    script = _write(tmp_path, "a/b/c/train.py", NOTEBOOK_CODE.format(module="src.config", cls="TrainCfg", kw=""))
    assert reading(configs.load(str(script))) == ("transformers", [], "", "none")


def test_a_class_the_script_defines_itself_is_its_own(tmp_path):
    _write(tmp_path, "src/config.py", SETTINGS.format(cls="TrainCfg", fp16="True", bf16="False"))
    own = SETTINGS.format(cls="TrainCfg", fp16="False", bf16="True").replace("from dataclasses", "from dataclasses", 1)
    text = NOTEBOOK_CODE.format(module="src.config", cls="TrainCfg", kw="").replace(
        "model_cfg = ModelCfg()", own + "\nmodel_cfg = ModelCfg()")
    script = _write(tmp_path, "train.py", text)
    assert reading(configs.load(str(script))) == ("transformers", [], "bfloat16", "none")


# -- TrainingArguments built by a method of the user's settings object --------------------------------------------------

SETTINGS_CLASS = '''from dataclasses import dataclass


@dataclass
class TrainingConfig:
    """Hyperparametres"""
    output_dir: str = "/kaggle/working/results"
    num_train_epochs: int = 3
    fp16: bool = {fp16}
    bf16: bool = {bf16}
    optim: str = "paged_adamw_8bit"

    def {meth}(self):
        from transformers import TrainingArguments
{body}
'''
ONE_RETURN = '''        return TrainingArguments(
            output_dir=self.output_dir,
            num_train_epochs=self.num_train_epochs,
            fp16=self.fp16,
            bf16=self.bf16,
            optim=self.optim,
        )'''
TWO_RETURNS = '''        if self.fp16:
            return TrainingArguments(output_dir=self.output_dir, fp16=True)
        return TrainingArguments(output_dir=self.output_dir, bf16=self.bf16)'''
USER = '''from transformers import AutoModelForCausalLM, Trainer
{imports}

def train():
    training_config = TrainingConfig({kw})
    model = AutoModelForCausalLM.from_pretrained("mistralai/Mistral-7B-v0.1")
    training_args = training_config.{meth}()
    trainer = Trainer(model=model, args=training_args, train_dataset=ds)
    trainer.train()

if __name__ == "__main__":
    train()
'''


@pytest.mark.parametrize("fp16,bf16,kw,meth,body,want", [
    ("True", "False", "", "to_training_args", ONE_RETURN, "float16"),
    ("False", "True", "", "as_hf_args", ONE_RETURN, "bfloat16"),
    ("True", "False", "fp16=False, bf16=True", "to_training_args", ONE_RETURN, "bfloat16"),  # the keyword wins
    ("True", "False", "", "to_training_args", TWO_RETURNS, ""),  # which one returns is decided when it runs
])
def test_training_arguments_built_by_a_method_of_an_imported_settings_class(tmp_path, fp16, bf16, kw, meth, body, want):
    _write(tmp_path, "configs/training_config.py", SETTINGS_CLASS.format(fp16=fp16, bf16=bf16, meth=meth, body=body))
    script = _write(tmp_path, "scripts/train.py", USER.format(
        imports="from configs.training_config import TrainingConfig", kw=kw, meth=meth))
    assert reading(configs.load(str(script))) == ("transformers", [], want, "none")


def test_training_arguments_built_by_a_method_of_the_scripts_own_class(tmp_path):
    own = SETTINGS_CLASS.format(fp16="False", bf16="True", meth="to_training_args", body=ONE_RETURN)
    text = USER.format(imports=own, kw="", meth="to_training_args")
    assert read(tmp_path, "train.py", text) == ("transformers", [], "bfloat16", "none")


def test_a_method_that_returns_no_training_arguments_says_nothing(tmp_path):
    body = "        return dict(output_dir=self.output_dir, fp16=self.fp16)"
    _write(tmp_path, "configs/training_config.py", SETTINGS_CLASS.format(fp16="True", bf16="False",
                                                                        meth="to_training_args", body=body))
    script = _write(tmp_path, "scripts/train.py", USER.format(
        imports="from configs.training_config import TrainingConfig", kw="", meth="to_training_args"))
    assert reading(configs.load(str(script))) == ("transformers", [], "", "none")


def test_a_dataclass_imported_relatively_in_a_package(tmp_path):
    """`python -m src.train` runs src/train.py as a module of the package src: `from .config import TrainCfg` is
    src/config.py, beside it; `from ..settings import TrainCfg` the package above's."""
    _write(tmp_path, "src/__init__.py", "")
    _write(tmp_path, "src/config.py", SETTINGS.format(cls="TrainCfg", fp16="False", bf16="True"))
    script = _write(tmp_path, "src/train.py", NOTEBOOK_CODE.format(module="src.config", cls="TrainCfg", kw="").replace(
        "from src.config import", "from .config import"))
    assert reading(configs.load(str(script))) == ("transformers", [], "bfloat16", "none")
    _write(tmp_path, "pkg/settings.py", SETTINGS.format(cls="TrainCfg", fp16="True", bf16="False"))
    deeper = _write(tmp_path, "pkg/sub/train.py", NOTEBOOK_CODE.format(module="x", cls="TrainCfg", kw="").replace(
        "from x import", "from ..settings import"))
    assert reading(configs.load(str(deeper))) == ("transformers", [], "float16", "none")
    # a relative import is the package's module alone: not a module of that name in the folders above
    alone = _write(tmp_path, "pkg/sub/train2.py", NOTEBOOK_CODE.format(module="x", cls="TrainCfg", kw="").replace(
        "from x import", "from .settings import"))
    assert reading(configs.load(str(alone))) == ("transformers", [], "", "none")
