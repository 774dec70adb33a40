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
