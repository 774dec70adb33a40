"""Issue 24, helper cfg85 (session 21): what round 82m's misses showed, fixed for their mechanism.

1. A script loading its settings file through a function of its own that binds the parse to a local and returns it
   (`def load_config(p): with open(p) as f: config = yaml.safe_load(f)` / `return config`), into a name of the same
   spelling (`config = load_config(args.config)`: round 82m's KoaChang train_sft.py), saw the name bound twice and left
   the file unread: the loader's own local, used by nothing but its return, no longer counts as a second binding
   (pyscript.settings_files._returned_local).
2. An autocast switch read from a settings file that is not here, its lookup `and`-ed with a probe the GPU host answers
   True (`fp16=cfg.get("fp16", True) and torch.cuda.is_available()`, the same script) was unknown: on the host attn-doctor
   checks `torch.cuda.is_available()` is True (pyscript.values.HOST_ANSWERS), so the switch is the lookup's default, as
   a bare `cfg.get("fp16", True)` already was (hf_transformers._switch_default). `torch.cuda.is_bf16_supported()` stays
   the GPU's to say.
Every file here is written by cfg85 for these tests."""

from __future__ import annotations

from configs_corpus import put as _put, trainer_reading as _read  # (one copy of each helper)

# a user's transformers Trainer script (written for these tests): settings from a YAML through its own loader, the
# autocast switch looked up in it; the {…} slots vary per test
_SCRIPT = '''import argparse
import torch
import yaml
from transformers import AutoModelForCausalLM, Trainer, TrainingArguments


def read_settings(path):
    with open(path) as fh:
        {local} = yaml.safe_load(fh)
    return {local}


def run():
    ap = argparse.ArgumentParser()
    ap.add_argument("--settings", default="conf/run.yaml")
    opts = ap.parse_args()
    settings = read_settings(opts.settings)
    opt = settings["optim"]
    model = AutoModelForCausalLM.from_pretrained(settings["base"])
    targs = TrainingArguments(output_dir="out", {switch})
    Trainer(model=model, args=targs).train()


if __name__ == "__main__":
    run()
'''
_YAML = "base: some/model\noptim:\n  lr: 1.0e-4\n  {key}: {val}\n"


def _repo(tmp_path, local="settings", switch='bf16=opt.get("bf16", False)', key="bf16", val="true", yaml=True):
    if yaml:
        _put(tmp_path, "conf/run.yaml", _YAML.format(key=key, val=val))
    return _put(tmp_path, "tools/train_lm.py", _SCRIPT.format(local=local, switch=switch))


# -- 1. the loader's own local of the name its caller binds ---------------------------------------------------------------


def test_a_loader_returning_its_local_of_the_same_name_hands_over_the_file(tmp_path):
    """`settings = yaml.safe_load(fh); return settings` inside read_settings, `settings = read_settings(...)` in run():
    the file's bf16 true is read (before cfg85: the name bound twice, the file unread, dtype None)."""
    assert _read(_repo(tmp_path)) == ("transformers", [], "bfloat16")


def test_the_same_with_another_local_name_was_already_read(tmp_path):
    """The loader's local under another name (never counted against the caller's): the same reading, as before."""
    assert _read(_repo(tmp_path, local="data")) == ("transformers", [], "bfloat16")


def test_a_name_bound_twice_where_a_use_sees_either_stays_unread(tmp_path):
    """A second binding the loader does not only return (`settings = {}` then used) is a real second binding: the
    name is left alone, and the file's bf16 with it."""
    p = _put(tmp_path, "conf/run.yaml", _YAML.format(key="bf16", val="true"))
    text = _SCRIPT.format(local="settings", switch='bf16=opt.get("bf16", False)').replace(
        "    return settings\n", "    settings = settings or {}\n    return settings\n")
    script = _put(tmp_path, "tools/train_lm.py", text)
    assert p.is_file() and _read(script) == ("transformers", [], None)


# -- 2. a lookup's default `and`-ed with the host's CUDA probe ------------------------------------------------------------


def test_a_default_anded_with_cuda_available_is_the_default(tmp_path):
    """No settings file here: `fp16=opt.get("fp16", True) and torch.cuda.is_available()` is float16 on a CUDA host (before
    cfg85: unknown, dtype None)."""
    got = _read(_repo(tmp_path, switch='fp16=opt.get("fp16", True) and torch.cuda.is_available()', yaml=False))
    assert got == ("transformers", [], "float16")


def test_the_probe_first_reads_the_same(tmp_path):
    got = _read(_repo(tmp_path, switch='bf16=torch.cuda.is_available() and opt.get("bf16", True)', yaml=False))
    assert got == ("transformers", [], "bfloat16")


def test_a_default_anded_with_the_bf16_probe_stays_the_gpus(tmp_path):
    """`and torch.cuda.is_bf16_supported()`: whether the GPU does bf16 is not the host's to answer here: unknown."""
    got = _read(_repo(tmp_path, switch='bf16=opt.get("bf16", True) and torch.cuda.is_bf16_supported()', yaml=False))
    assert got == ("transformers", [], None)


def test_the_file_when_here_wins_over_the_default(tmp_path):
    """The settings file is here and turns fp16 off: no autocast, whatever the lookup's default (float32 weights: the
    reading leaves the dtype to the checkpoint, None)."""
    got = _read(_repo(tmp_path, switch='fp16=opt.get("fp16", True) and torch.cuda.is_available()', key="fp16",
                      val="false"))
    assert got == ("transformers", [], None)
