"""Helper cfg46 (session 10, issue 24): round 41m's misses, read after its final measurement (its README's table).

Two reader mechanisms, each with variants written here (other names, layouts, wrappers) and near misses:

1. launchers.literal_path: the path a Python launcher hands to a trainer's CLI through its own parsed options
   (`subprocess.run(["llamafactory-cli", "train", str(args.config)])`) is the option's argparse default, as the script
   runs with no options (pyscript.value already reads `bf16=args.bf16` so); pyscript's argparse defaults keep a
   `type=Path` string default as that path (argparse runs type over a string default).
2. references.locate: a launcher whose commands name files that are not beside it but are in a folder above it (a
   notebook in notebooks/ whose `!pip install -r requirements.txt` and `!python train.py` name the repository root's
   files) runs from that folder: a bare script name is looked for there too. Without such a file, or with one beside
   it, nothing changes.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from configs_corpus import reading

from attn_doctor import configs
from attn_doctor.model import UsageError


def put(root: Path, files: dict) -> None:
    for name, text in files.items():
        p = root / name
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text, encoding="utf-8", newline="")


def load(path: Path) -> tuple:
    return reading(configs.load(str(path)))


LF_BF16 = """model_name_or_path: Qwen/Qwen3-4B
stage: sft
do_train: true
finetuning_type: lora
dataset: alpaca_en_demo
template: qwen3
output_dir: saves/qwen3-4b/lora
bf16: true
"""

LF_FP16_SDPA = """model_name_or_path: meta-llama/Llama-3.2-1B-Instruct
stage: sft
do_train: true
finetuning_type: lora
dataset: identity
template: llama3
flash_attn: sdpa
fp16: true
output_dir: out
"""


# --- 1. a launcher's config path from its argparse default ------------------------------------------------------------

PATH_DEFAULT = '''"""Start a LoRA run."""
import argparse
import subprocess
from pathlib import Path


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cfg", type=Path, default=Path("recipes/{name}"))
    ap.add_argument("--workdir", default=".")
    opts = ap.parse_args()
    subprocess.run(["llamafactory-cli", "train", str(opts.cfg)], cwd=opts.workdir, check=True)


if __name__ == "__main__":
    main()
'''

STRING_DEFAULT = '''import argparse, os, subprocess
parser = argparse.ArgumentParser()
parser.add_argument("--config_path", {typ}default="{name}", help="LLaMA-Factory YAML")
args = parser.parse_args()
cmd = ["llamafactory-cli", "train", {arg}]
os.environ.setdefault("CUDA_VISIBLE_DEVICES", "0")
subprocess.check_call(cmd)
'''


def test_the_default_of_a_path_option_in_scripts_run_from_the_repository_root(tmp_path):
    # the round 41m shape with other names: scripts/launch.py, recipes/qwen.yaml at the root
    put(tmp_path, {"scripts/launch.py": PATH_DEFAULT.format(name="qwen.yaml"), "recipes/qwen.yaml": LF_BF16})
    assert load(tmp_path / "scripts/launch.py") == ("llama-factory", [], "bfloat16", "none")


@pytest.mark.parametrize("typ,arg", [("", "args.config_path"), ("type=str, ", "str(args.config_path)"),
                                     ("type=Path, ", "os.fspath(args.config_path)")])
def test_the_default_of_a_string_option_beside_the_launcher(tmp_path, typ, arg):
    text = STRING_DEFAULT.format(typ=typ, arg=arg, name="sft_fp16.yaml")
    if "Path" in typ:
        text = "from pathlib import Path\n" + text
    put(tmp_path, {"run_lf.py": text, "sft_fp16.yaml": LF_FP16_SDPA})
    assert load(tmp_path / "run_lf.py") == ("llama-factory", ["sdpa"], "float16", "none")


def test_near_miss_an_option_with_no_default_names_no_file(tmp_path):
    # `--config` given on the command line only: nothing to read here, the launch stays unknown (not a file guessed)
    text = STRING_DEFAULT.replace('default="{name}", ', "required=True, ").format(typ="", arg="args.config_path")
    put(tmp_path, {"run_lf.py": text, "sft_fp16.yaml": LF_FP16_SDPA})
    cfg = configs.load(str(tmp_path / "run_lf.py"))
    assert cfg["detected"]["trainer"] == "llama-factory" and cfg["dtype"] is None and cfg["required"] == []


def test_near_miss_a_type_function_of_the_script_s_own_is_run_at_run_time(tmp_path):
    # argparse runs the script's own function over the default: what it returns is not known here
    text = STRING_DEFAULT.format(typ="type=resolve_recipe, ", arg="args.config_path", name="sft_fp16.yaml")
    text = text.replace("parser = argparse", "def resolve_recipe(v):\n    return '/data/' + v\n\n\nparser = argparse")
    put(tmp_path, {"run_lf.py": text, "sft_fp16.yaml": LF_FP16_SDPA})
    cfg = configs.load(str(tmp_path / "run_lf.py"))
    assert cfg["detected"]["trainer"] == "llama-factory" and cfg["dtype"] is None and cfg["required"] == []


# --- 2. a launcher run from the folder above it -------------------------------------------------------------------------

TRL_SCRIPT = '''import argparse

import torch
from datasets import load_dataset
from transformers import AutoModelForCausalLM, AutoTokenizer
from trl import SFTConfig, SFTTrainer

model = AutoModelForCausalLM.from_pretrained("Qwen/Qwen2.5-0.5B", torch_dtype=torch.bfloat16,
                                             attn_implementation="{attn}")
tok = AutoTokenizer.from_pretrained("Qwen/Qwen2.5-0.5B")
ap = argparse.ArgumentParser()
ap.add_argument("--epochs", type=int, default=1)
ap.add_argument("--data", "--train_file", dest="data", default="data/train.jsonl")
ap.add_argument("--output", default="out")
opts = ap.parse_args()
ds = load_dataset("json", data_files=opts.data, split="train")
args = SFTConfig(output_dir=opts.output, bf16=True, per_device_train_batch_size=2, num_train_epochs=opts.epochs)
SFTTrainer(model=model, args=args, train_dataset=ds, processing_class=tok).train()
'''


def notebook(*cells: str) -> str:
    return json.dumps({"cells": [{"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [],
                                  "source": c.splitlines(keepends=True)} for c in cells],
                       "metadata": {}, "nbformat": 4, "nbformat_minor": 5}, indent=1)


def test_a_notebook_in_a_subfolder_runs_the_root_s_script(tmp_path):
    nb = notebook("!pip install -q -r requirements.txt", "!python sft.py --epochs 1 --data data/train.jsonl")
    put(tmp_path, {"colab/train.ipynb": nb, "sft.py": TRL_SCRIPT.format(attn="sdpa"), "requirements.txt": "trl\n"})
    assert load(tmp_path / "colab/train.ipynb") == ("transformers", ["sdpa"], "bfloat16", "none")


def test_a_shell_launcher_two_folders_down_names_the_root_s_data(tmp_path):
    # `bash tools/jobs/run.sh` from the root: its data file is at the root, so is the script it runs
    sh = "#!/bin/bash\nset -e\npython finetune.py --train_file data/train.jsonl --output out\n"
    put(tmp_path, {"tools/jobs/run.sh": sh, "finetune.py": TRL_SCRIPT.format(attn="flash_attention_2"),
                   "data/train.jsonl": "{}\n"})
    assert load(tmp_path / "tools/jobs/run.sh") == ("transformers", ["fa2"], "bfloat16", "none")


def test_near_miss_a_named_file_beside_the_notebook_keeps_it_where_it_is(tmp_path):
    # its requirements.txt is beside it: the notebook runs from its own folder, where no sft.py is
    nb = notebook("!pip install -q -r requirements.txt", "!python sft.py --epochs 1")
    put(tmp_path, {"colab/train.ipynb": nb, "colab/requirements.txt": "trl\n", "requirements.txt": "trl\n",
                   "sft.py": TRL_SCRIPT.format(attn="sdpa")})
    with pytest.raises(UsageError, match="runs sft.py"):
        configs.load(str(tmp_path / "colab/train.ipynb"))


def test_near_miss_nothing_else_named_says_where_it_runs(tmp_path):
    nb = notebook("!python sft.py --epochs 1")
    put(tmp_path, {"colab/train.ipynb": nb, "sft.py": TRL_SCRIPT.format(attn="sdpa")})
    with pytest.raises(UsageError, match="runs sft.py"):
        configs.load(str(tmp_path / "colab/train.ipynb"))
