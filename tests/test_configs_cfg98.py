"""Issue 24, helper cfg98 (session 24): round 95m's misses, read after its measurement, fixed for their mechanism.

1. A launcher's word for an argparse option of `type=Path` (pathlib) is the path itself, as argparse hands it
   (argparse.py _get_value applies type to the word), the same as a string default under that type: a user's script
   launched with `--config configs/run.json` of `p.add_argument("--config", type=Path, required=True)` reads that file
   (round 95m's cristovamperes 05_run_sft_after_cpt.sh: `python3 .../04_train_sft_qlora.py --config .../sft.json`, the
   launch refused as options attn-doctor does not read).
Every file here is written by cfg98 for these tests."""

from __future__ import annotations

import pytest

from configs_corpus import put as _put, trainer_reading as _read  # (one copy of each helper)

# a user's repository: a script reading a JSON settings file named on its command line, and its launcher (written for
# these tests)
_PATH_SCRIPT = '''import argparse
import json
from pathlib import Path

import torch
from transformers import AutoModelForCausalLM, Trainer, TrainingArguments


def parse_args():
    p = argparse.ArgumentParser()
    p.add_argument("--config", type={ptype}, required=True)
    return p.parse_args()


def main():
    args = parse_args()
    cfg = json.loads(args.config.read_text(encoding="utf-8"))
    model = AutoModelForCausalLM.from_pretrained(cfg["model"], torch_dtype=torch.float16)
    targs = TrainingArguments(output_dir="out", fp16=bool(cfg["train"].get("fp16", False)),
                              bf16=bool(cfg["train"].get("bf16", False)))
    Trainer(model=model, args=targs).train()


if __name__ == "__main__":
    main()
'''
_PATH_LAUNCH = '''#!/usr/bin/env bash
set -euo pipefail
cd "$(dirname "$0")/.."
nohup python3 scripts/train.py --config configs/run.json > logs/train.out 2>&1 &
'''


@pytest.mark.parametrize("ptype", ["Path", "pathlib.Path", "PurePath"])
@pytest.mark.parametrize("train, dtype", [('{"bf16": true}', "bfloat16"), ('{"fp16": true}', "float16")])
def test_a_path_typed_option_names_the_settings_file_the_script_reads(tmp_path, ptype, train, dtype):
    """The launch's `--config configs/run.json` under `type=Path`: the JSON's precision, not the script's float16 load
    alone (without the change: refused, the option's value not applied)."""
    _put(tmp_path, "scripts/train.py", _PATH_SCRIPT.format(ptype=ptype).replace(
        "from pathlib import Path", "import pathlib\nfrom pathlib import Path, PurePath"))
    _put(tmp_path, "configs/run.json", '{"model": "org/m", "train": %s}' % train)
    assert _read(_put(tmp_path, "scripts/launch.sh", _PATH_LAUNCH)) == ("transformers", [], dtype)
