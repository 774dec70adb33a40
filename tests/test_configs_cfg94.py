"""Issue 24, helper cfg94 (session 23): round 92m's misses, read after its measurement, fixed for their mechanism.

1. A function whose one `return` builds a dataclass of the script's with keywords (`return TrainConfig(quant=
   args.quant, seed=args.seed)` of a `parse_args() -> TrainConfig`) hands back that object: a field it writes is that
   keyword's value, a field it leaves out the dataclass's default, as Python builds it (round 92m's i-am-mushfiq
   train.py: `cfg = parse_args()`, `train(cfg)`, TrainingArguments(fp16=cfg.fp16 and cfg.quant != "fp16") with fp16's
   default True). A keyword that reads a parameter of the function no call hands one value is decided at run time;
   positional arguments and `**` spreads leave the object unknown.
2. `getattr(torch, "is_bf16_supported", lambda: False)()` probes an attribute PyTorch does not have (the bf16 probe is
   torch.cuda.is_bf16_supported, torch/cuda/__init__.py), so the fallback is what runs, on every host (round 92m's
   thejeangenie18 train_qlora.py: float16 whatever the GPU). A probe of an attribute torch has stays the GPU's answer.
Session 22's leftovers (no file of round 92m needed them):
3. A settings helper reached through a module object of the user's repository (`import train_utils` ...
   `train_utils.make_args()`) is read as one imported by name (`from train_utils import make_args`) is.
4. A value the script hands such a function (`make_args(bf16=True)`) is the parameter's value, as Python binds a
   call's arguments; calls that disagree or a value decided at run time leave it unknown.
5. An entry script with no trainer calls of its own that hands values to its package's train function through a module
   object (`import mypkg.train as tr; tr.main(bf16=True)`): the same binding, in the text read with the module's.
6. Guards of round 82m's convention: a precision the GPU decides (bf16 where it supports it, else fp16) is unknown,
   never a guess.
Every file here is written by cfg94 for these tests."""

from __future__ import annotations

import pytest

from configs_corpus import put as _put, trainer_reading as _read  # (one copy of each helper)

# a user's script whose settings are a dataclass a function returns built with keywords (written for these tests)
_RETURNED = '''import argparse
from dataclasses import dataclass
from transformers import TrainingArguments, Trainer


@dataclass
class RunSettings:
    mode: str = "qlora"
    half: bool = True
    bf16: bool = False
    seed: int = 0


def train(settings: RunSettings):
    use_half = {use_half}
    targs = TrainingArguments(output_dir="out", fp16=use_half, bf16=settings.bf16, seed=settings.seed)
    Trainer(model=None, args=targs).train()


def {builder}:
    ap = argparse.ArgumentParser()
    ap.add_argument("--mode", default="{mode}")
    ap.add_argument("--seed", type=int, default=1)
    ns = ap.parse_args()
    return {returned}


if __name__ == "__main__":
    settings = {call}
    train(settings)
'''


def _returned(tmp_path, *, use_half="settings.half and settings.mode != 'full'", builder="read_settings() -> RunSettings",
              mode="qlora", returned="RunSettings(mode=ns.mode, seed=ns.seed)", call="read_settings()"):
    return _put(tmp_path, "finetune.py", _RETURNED.format(use_half=use_half, builder=builder, mode=mode,
                                                         returned=returned, call=call))


@pytest.mark.parametrize("kw", [{}, {"use_half": "settings.half"}, {"returned": "RunSettings()"},
                                {"returned": "RunSettings(seed=ns.seed)"}])
def test_a_returned_dataclass_built_with_keywords_keeps_its_defaults(tmp_path, kw):
    """`half` is not among the keywords: its default True, so fp16 autocast (without the change: '', unknown)."""
    assert _read(_returned(tmp_path, **kw)) == ("transformers", [], "float16")


def test_a_keyword_the_function_writes_is_read_through_its_value(tmp_path):
    """`mode=ns.mode` of `--mode` defaulting to "full": `half and mode != 'full'` is False, and bf16 False: no
    autocast, nothing said of the dtype (without the change: the same '', but for not knowing)."""
    assert _read(_returned(tmp_path, mode="full")) == ("transformers", [], None)
    # the keyword that turns bf16 on, read through the argparse option it names
    p = _returned(tmp_path, returned="RunSettings(mode=ns.mode, bf16=ns.mode == 'qlora')", use_half="False")
    assert _read(p) == ("transformers", [], "bfloat16")


@pytest.mark.parametrize("kw", [
    {"returned": "RunSettings(**vars(ns))"},          # a spread: any field may be set
    {"returned": "RunSettings('full', False)"},       # positional: which fields, not read here
    # a parameter of the builder no call hands one value: not the dataclass field of the same spelling
    {"builder": "read_settings(half)", "returned": "RunSettings(half=half)", "call": "read_settings(ns_half())"},
])
def test_a_returned_dataclass_not_known_whole_says_nothing(tmp_path, kw):
    assert _read(_returned(tmp_path, **kw)) == ("transformers", [], None)


# a user's QLoRA script probing bf16 through getattr with a fallback (written for these tests)
_PROBE = '''import torch
from transformers import AutoModelForCausalLM, TrainingArguments, Trainer

BF16_OK = {probe}
LOAD_DTYPE = torch.bfloat16 if BF16_OK else torch.float16
model = AutoModelForCausalLM.from_pretrained("org/base", torch_dtype=LOAD_DTYPE)
targs = TrainingArguments(output_dir="out", bf16=BF16_OK, fp16=not BF16_OK)
Trainer(model=model, args=targs).train()
'''


@pytest.mark.parametrize("probe", ['getattr(torch, "is_bf16_supported", lambda: False)()',
                                   "getattr(torch, 'is_bfloat16_supported', lambda: False)()",
                                   'bool(getattr(torch, "is_bf16_supported", None))'])
def test_a_probe_of_an_attribute_torch_lacks_answers_its_fallback(tmp_path, probe):
    """torch has no top-level is_bf16_supported: the fallback (False) runs on every host, so fp16 (without the change:
    '', the GPU taken to decide)."""
    assert _read(_put(tmp_path, "train_qlora.py", _PROBE.format(probe=probe))) == ("transformers", [], "float16")


@pytest.mark.parametrize("probe", ['getattr(torch.cuda, "is_bf16_supported", lambda: False)()',
                                   "torch.cuda.is_bf16_supported()"])
def test_a_probe_torch_has_stays_the_gpus_answer(tmp_path, probe):
    assert _read(_put(tmp_path, "train_qlora.py", _PROBE.format(probe=probe))) == ("transformers", [], None)


# a user's repository whose training arguments are built by a function of its own module (written for these tests)
_HELPERS = '''from transformers import TrainingArguments


def make_args(out="runs/a", bf16=False, fp16=False):
    return TrainingArguments(output_dir=out, bf16=bf16, fp16=fp16, per_device_train_batch_size=2)
'''
_CLAIMED = '''{imports}
from transformers import AutoModelForCausalLM, Trainer

model = AutoModelForCausalLM.from_pretrained("org/base")
args = {call}
Trainer(model=model, args=args).train()
'''


@pytest.mark.parametrize("imports, call, dtype", [
    ("import train_utils", "train_utils.make_args()", None),                      # its defaults: no autocast
    ("import train_utils", "train_utils.make_args(bf16=True)", "bfloat16"),       # through a module object
    ("import train_utils as tu", 'tu.make_args("runs/b", False, True)', "float16"),   # positionally
    ("from helpers import train_utils", "train_utils.make_args(fp16=True)", "float16"),
    ("from train_utils import make_args", "make_args(bf16=True)", "bfloat16"),   # imported by name
    ("from train_utils import make_args\nimport os", 'make_args(bf16=os.environ["BF16"] == "1")', "?"),
])
def test_a_settings_helper_reads_the_values_the_script_hands_it(tmp_path, imports, call, dtype):
    """The function of the user's module builds TrainingArguments from its parameters: each holds what the script's
    call hands it, else its default (without the change: '' for each but the first two `make_args` forms, and the
    module-object forms not read at all, TrainingArguments' defaults taken). "?": the value is decided at run time."""
    _put(tmp_path, "train_utils.py", _HELPERS)
    _put(tmp_path, "helpers/train_utils.py", _HELPERS)
    _put(tmp_path, "helpers/__init__.py", "")
    got = _read(_put(tmp_path, "train.py", _CLAIMED.format(imports=imports, call=call)))
    assert got == ("transformers", [], None if dtype == "?" else dtype)


def test_calls_that_disagree_leave_the_value_unknown(tmp_path):
    _put(tmp_path, "train_utils.py", _HELPERS)
    text = _CLAIMED.format(imports="import train_utils", call="train_utils.make_args(bf16=True)")
    text += "eval_args = train_utils.make_args(bf16=False)\n"
    assert _read(_put(tmp_path, "train.py", text)) == ("transformers", [], None)


# an entry script with no trainer calls of its own, handing values to its package's train function (written for these
# tests): Python runs the function with them
_TRAIN = '''from transformers import TrainingArguments, Trainer


def main(model_name="org/base", bf16=False, fp16=False):
    args = TrainingArguments(output_dir="out", bf16=bf16, fp16=fp16)
    Trainer(model=None, args=args).train()
'''


@pytest.mark.parametrize("entry, dtype", [
    ("from mypkg.train import main\n\nmain(bf16=True)\n", "bfloat16"),   # (read so before cfg94)
    ("import mypkg.train as tr\n\ntr.main(bf16=True)\n", "bfloat16"),
    ("import mypkg.train\n\nmypkg.train.main('org/other', False, True)\n", "float16"),
    ("import mypkg.train as tr\n\ntr.main()\n", None),
])
def test_an_entry_script_hands_its_values_to_an_imported_train_function(tmp_path, entry, dtype):
    """The function's parameters hold what the entry script's call on the module object hands them (without the
    change: '' for the module-object calls)."""
    _put(tmp_path, "mypkg/__init__.py", "")
    _put(tmp_path, "mypkg/train.py", _TRAIN)
    assert _read(_put(tmp_path, "run_train.py", entry)) == ("transformers", [], dtype)


@pytest.mark.parametrize("decide", [
    "use_bf16 = torch.cuda.is_bf16_supported()",
    "use_bf16 = SETTINGS['bf16'] and torch.cuda.is_bf16_supported()",
    "use_bf16 = torch.cuda.is_available() and torch.cuda.get_device_capability(0)[0] >= 8",
    "use_bf16, use_fp16 = True, False\nif not torch.cuda.is_bf16_supported():\n    use_bf16, use_fp16 = False, True",
    "try:\n    use_bf16 = torch.cuda.is_bf16_supported()\nexcept Exception:\n    use_bf16 = False",
])
def test_a_precision_the_gpu_decides_is_unknown(tmp_path, decide):
    text = ("import torch\nfrom transformers import AutoModelForCausalLM, TrainingArguments, Trainer\n\n"
            "SETTINGS = {'bf16': True}\n" + decide + "\n"
            "model = AutoModelForCausalLM.from_pretrained('org/base', "
            "torch_dtype=torch.bfloat16 if use_bf16 else torch.float16)\n"
            "targs = TrainingArguments(output_dir='o', bf16=use_bf16, fp16=not use_bf16)\n"
            "Trainer(model=model, args=targs).train()\n")
    assert _read(_put(tmp_path, "train_sft.py", text)) == ("transformers", [], None)
