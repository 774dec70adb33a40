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


# a user's wrapper that writes a LLaMA-Factory config by hand from a module-level dict and runs the CLI on it (written
# for these tests)
_HAND_YAML = '''import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent
SETTINGS = {{
    "model_name_or_path": "org/base",
    "stage": "sft",
    "do_train": True,
    "finetuning_type": "lora",
    "lora_target": "all",
    "dataset": "mine",
    "template": "qwen",
    {precision}
}}


def write_config():
    merged = {{**SETTINGS, "output_dir": str(ROOT / "out")}}
    path = ROOT / "lf_sft.yaml"
    with open(path, "w", encoding="utf-8") as fh:
        for name, val in merged.items():
            {write}
    return path


def main():
    cfg = write_config()
    subprocess.run(["llamafactory-cli", "train", str(cfg)], check=True)


if __name__ == "__main__":
    main()
'''


@pytest.mark.parametrize("write", ['fh.write(f"{name}: {val}\\n")', 'print(f"{name}: {str(val).lower()}", file=fh)'])
@pytest.mark.parametrize("precision, dtype", [('"bf16": True,', "bfloat16"), ('"fp16": True,', "float16")])
def test_a_config_written_line_by_line_from_a_dict_is_the_dict(tmp_path, write, precision, dtype):
    """`for name, val in merged.items(): fh.write(f"{name}: {val}\\n")` writes the YAML the CLI reads: its precision
    (without the change: LLaMA-Factory, dtype unknown), through `{**SETTINGS, ...}` of the module's dict inside the
    function (Python's scoping: a name the function never binds is the module's)."""
    p = _put(tmp_path, "sft.py", _HAND_YAML.format(precision=precision, write=write))
    assert _read(p) == ("llama-factory", [], dtype)


@pytest.mark.parametrize("write", [
    'fh.write(f"{val}: {name}\\n")',            # not `key: value` lines
    'fh.write(f"- {name}\\n")',                 # a list of the keys alone
])
def test_other_lines_written_from_a_dict_are_not_a_config(tmp_path, write):
    p = _put(tmp_path, "sft.py", _HAND_YAML.format(precision='"bf16": True,', write=write))
    assert _read(p) == ("llama-factory", [], None)


def test_a_dict_the_function_binds_itself_is_not_the_modules(tmp_path):
    """A local of the same name shadows the module's dict: its bf16 is not the module's fp16."""
    text = _HAND_YAML.format(precision='"fp16": True,', write='fh.write(f"{name}: {val}\\n")').replace(
        "    merged = {**SETTINGS,", '    SETTINGS = {"bf16": True, "stage": "sft"}\n    merged = {**SETTINGS,')
    assert _read(_put(tmp_path, "sft.py", text)) == ("llama-factory", [], "bfloat16")
