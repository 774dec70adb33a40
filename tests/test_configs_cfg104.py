"""Issue 24, helper cfg104 (session 25): the dtype of a transformers script that loads its model with no dtype.

`from_pretrained` given no dtype loads float32 under transformers 4 (4.57.1 modeling_utils.py:4628-4629 pops dtype /
torch_dtype with None; _get_dtype's else branch, :1287-1291, keeps torch's default float32 "for BC") and the
checkpoint's dtype from 5.0 (5.0.0 modeling_utils.py:3934-3935, 5.24.0 :4186-4187: `if dtype is None: dtype =
"auto"`). With no autocast (TrainingArguments' bf16 / fp16 left False) that is the run's dtype. The reader says
float32 only where the release is known to be before 5.0: the repository's own pin of transformers, or a keyword 5.0
no longer takes (transformers' Trainer(tokenizer=...): 4.57.1 trainer.py:409 deprecates it for 5.0.0, 5.0.0
trainer.py:382-401 has neither it nor **kwargs). A pin of 5.x, or no version at all, leaves the dtype unknown (None):
never a confident float32 that would make a working FA2 run look broken.
Every file here is written by cfg104 for these tests (rounds 16m's tom-cruise-cloud and 41m's RiyaBhanot scripts are
the shape they were written from)."""

from __future__ import annotations

import pytest

from configs_corpus import put as _put, trainer_reading as _read  # (one copy of each helper)

_SCRIPT = '''import torch
from transformers import AutoModelForSequenceClassification, AutoTokenizer, Trainer, TrainingArguments

tok = AutoTokenizer.from_pretrained("org/encoder-small")
model = AutoModelForSequenceClassification.from_pretrained("org/encoder-small", num_labels=3{load})
targs = TrainingArguments(output_dir="runs/cls", per_device_train_batch_size=4, num_train_epochs=1{amp})
trainer = Trainer(model=model, args=targs, train_dataset=None, {tok}=tok)
trainer.train()
'''

_PARSED = '''from transformers import AutoModelForCausalLM, HfArgumentParser, Trainer, TrainingArguments

(targs,) = HfArgumentParser(TrainingArguments).parse_args_into_dataclasses()
model = AutoModelForCausalLM.from_pretrained("org/lm-tiny")
Trainer(model=model, args=targs, tokenizer=None).train()
'''


def _script(tmp_path, *, load="", amp="", tok="processing_class", pins=None, pin_file="requirements.txt", head=""):
    if pins is not None:
        _put(tmp_path, pin_file, pins)
    return _put(tmp_path, "src/train_cls.py", head + _SCRIPT.format(load=load, amp=amp, tok=tok))


@pytest.mark.parametrize("kw,want", [
    # dated by transformers' own Trainer(tokenizer=): transformers 4, its float32 default
    (dict(tok="tokenizer"), "float32"),
    # processing_class (4.46 and later, 5.x too) and no pin: the release is open, the checkpoint's dtype may rule
    (dict(), None),
    # the repository pins transformers 4 (pip, a range, Poetry's caret, conda's single =)
    (dict(pins="torch>=2.3\ntransformers==4.46.3\n"), "float32"),
    (dict(pins="transformers>=4.40,<5\n"), "float32"),
    (dict(pins='[tool.poetry.dependencies]\ntransformers = "^4.51"\n', pin_file="pyproject.toml"), "float32"),
    (dict(pins="dependencies:\n  - transformers=4.41.2\n", pin_file="environment.yml"), "float32"),
    # ... or 5.x, or only a lower bound that 5.x meets: not float32
    (dict(pins="transformers>=5.0\n"), None),
    (dict(pins="transformers>=4.40\n"), None),
    (dict(tok="tokenizer", pins="transformers==5.2.0\n"), None),  # the pin and the keyword disagree: open
    # a pin commented out says nothing
    (dict(pins="# transformers==4.46.3\n"), None),
    # what the file installs itself: PEP 723 inline metadata (uv run), a `pip install` it names; before the repository's
    (dict(head='# /// script\n# dependencies = [\n#   "torch",\n#   "transformers==4.55.2",\n# ]\n# ///\n'), "float32"),
    (dict(head='# /// script\n# dependencies = ["transformers>=5.1"]\n# ///\n', pins="transformers==4.46.3\n"), None),
    (dict(head='# setup: pip install -q "transformers==4.44.2" peft datasets\n'), "float32"),
    (dict(head="# setup: pip install -U transformers peft\n"), None),
    # the load or the training names its own dtype: that one, whatever the release
    (dict(tok="tokenizer", load=", torch_dtype=torch.bfloat16"), "bfloat16"),
    (dict(tok="tokenizer", amp=", fp16=True"), "float16"),
    (dict(tok="tokenizer", amp=", bf16=False, fp16=False"), "float32"),
    # a quantised load is not the float32 default
    (dict(tok="tokenizer", load=", load_in_8bit=True"), None),
])
def test_load_default_dtype_by_release(tmp_path, kw, want):
    assert _read(_script(tmp_path, **kw)) == ("transformers", [], want)


_ENCODER = '''from transformers import {cls}, Trainer, TrainingArguments

model = {cls}.from_pretrained("{name}"{load})
Trainer(model=model, args=TrainingArguments(output_dir="o", num_train_epochs=2{amp})).train()
'''


@pytest.mark.parametrize("cls,name,load,amp,want", [
    # a family published in float32 (BERT, DistilBERT, RoBERTa, GPT-2 ...): float32 under transformers 4's default and
    # 5's "auto" alike, by its class or its Hub name, with no release known
    ("BertForSequenceClassification", "./runs/ckpt-600", "", "", "float32"),
    ("AutoModelForSequenceClassification", "distilbert-base-uncased", "", "", "float32"),
    ("AutoModelForMaskedLM", "FacebookAI/xlm-roberta-large", "", "", "float32"),
    ("AutoModelForCausalLM", "openai-community/gpt2", "", "", "float32"),
    ("AutoModelForTokenClassification", "microsoft/deberta-v3-base", "", "", "float32"),
    # not one of them, or a dtype / autocast of its own: as before
    ("AutoModelForCausalLM", "Qwen/Qwen2.5-0.5B", "", "", None),
    ("AutoModelForCausalLM", "someone/gpt2-finetuned-fp16", "", "", None),  # a user's fine-tune may be saved in half
    ("AutoModelForCausalLM", "org/bert-like-decoder", "", "", None),
    ("BertForSequenceClassification", "bert-base-uncased", "", ", fp16=True", "float16"),
    ("BertForSequenceClassification", "bert-base-uncased", ", load_in_8bit=True", "", None),
])
def test_checkpoints_published_in_float32(tmp_path, cls, name, load, amp, want):
    text = _ENCODER.format(cls=cls, name=name, load=load, amp=amp)
    assert _read(_put(tmp_path, "train_enc.py", text)) == ("transformers", [], want)


def test_training_arguments_from_the_command_line_stay_open(tmp_path):
    # TrainingArguments filled by HfArgumentParser from a command line this file does not hold: its bf16 / fp16 are
    # not seen, so the float32 default is not the run's dtype even under transformers 4
    _put(tmp_path, "requirements.txt", "transformers==4.44.0\n")
    assert _read(_put(tmp_path, "src/train_lm.py", _PARSED))[2] is None
