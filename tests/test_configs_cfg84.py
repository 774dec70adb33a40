"""Issue 24, helper cfg84 (session 20): files of claimed trainers refused across the training rounds, by class.

Two classes were one widening away from what the readers already do: a settings file of named presets of one trainer's
settings that a script of the user's picks by name (round 57m: hujuDev's finetuning_configs.json, two LLaMA-Factory
argument sets), and a launch file giving a wrapper script beside it options the wrapper's own argparse declares, where
the wrapper builds a trainer's command and starts it (round 59: mrbizarro's docker-compose.yml running train_local.py,
which starts musubi-tuner's hv_1_5_train_network.py). Both are read now, the presets only when every one is the same
trainer's and they choose alike (else refused, naming them); near misses stay refused: sections of a user's own config,
presets of two trainers, an option the wrapper does not declare, a wrapper that starts no trainer's script. A file of
only shared settings is still refused, its message naming the trainers that use those names and their --trainer
values. Every file here is synthetic, written by cfg84 in tmp_path."""

from __future__ import annotations

import json

import pytest

from attn_doctor import configs
from attn_doctor.model import UsageError


def _lf(**extra) -> dict:
    base = {"stage": "sft", "do_train": True, "finetuning_type": "lora", "lora_target": "all", "template": "qwen",
            "per_device_train_batch_size": 2, "learning_rate": 1e-4, "num_train_epochs": 3.0}
    return {**base, **extra}


AXOLOTL = {"base_model": "NousResearch/Llama-3.2-1B", "adapter": "lora", "sequence_len": 2048,
           "sample_packing": True, "flash_attention": True, "bf16": "auto", "micro_batch_size": 2}

MUSUBI_WRAPPER = '''import argparse
import subprocess

MUSUBI_DIR = "/opt/musubi-tuner"


def train(args):
    cmd = [
        "accelerate", "launch", "--mixed_precision", "bf16",
        f"{MUSUBI_DIR}/wan_train_network.py",
        "--task", "t2v-14B",
        "--dit", "/models/wan2.1_t2v_14B_bf16.safetensors",
        "--dataset_config", "dataset.toml",
        "--sdpa",
        "--mixed_precision", "bf16",
        "--network_module", "networks.lora_wan",
        "--network_dim", str(args.rank),
        "--max_train_epochs", str(args.epochs),
    ]
    if args.fp8:
        cmd.extend(["--fp8_base", "--fp8_scaled"])
    subprocess.run(cmd, cwd=MUSUBI_DIR, check=True)


if __name__ == "__main__":
    p = argparse.ArgumentParser()
    p.add_argument("--epochs", type=int, default=10)
    p.add_argument("--rank", type=int, default=32)
    p.add_argument("--fp8", action="store_true")
    train(p.parse_args())
'''

SD_WRAPPER = '''import argparse
import subprocess

parser = argparse.ArgumentParser()
parser.add_argument("--steps", type=int, default=1000)
parser.add_argument("--xformers", action="store_true")
args = parser.parse_args()

cmd = ["accelerate", "launch", "sd-scripts/sdxl_train_network.py",
       "--pretrained_model_name_or_path", "sd_xl_base_1.0.safetensors",
       "--network_module", "networks.lora", "--mixed_precision", "fp16",
       "--max_train_steps", str(args.steps)]
if args.xformers:
    cmd.append("--xformers")
subprocess.run(cmd, check=True)
'''

OWN_WRAPPER = '''import argparse
import subprocess

parser = argparse.ArgumentParser()
parser.add_argument("--epochs", type=int, default=3)
args = parser.parse_args()
subprocess.run(["python", "my_trainer.py", "--epochs", str(args.epochs)], check=True)
'''


def _files(tmp_path, files: dict):
    for name, text in files.items():
        p = tmp_path / name
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text if isinstance(text, str) else json.dumps(text, indent=2), encoding="utf-8")


# (case, {file: text}, the file given, expected (trainer, required, dtype) or a refusal's words)
CASES = [
    ("presets-json-llama-factory",
     {"configs.json": {"default-config": _lf(fp16=True), "long-input": _lf(fp16=True, cutoff_len=4096)}},
     "configs.json", ("llama-factory", [], "float16")),
    ("presets-json-llama-factory-fa2",
     {"presets.json": {"qwen": _lf(bf16=True, flash_attn="fa2"), "qwen-dpo": _lf(stage="dpo", bf16=True,
                                                                                 flash_attn="fa2")}},
     "presets.json", ("llama-factory", ["fa2"], "bfloat16")),
    ("presets-yaml-llama-factory-one",
     {"runs.yaml": "base:\n  stage: sft\n  do_train: true\n  finetuning_type: lora\n  lora_target: all\n"
                   "  template: llama3\n  bf16: true\n  flash_attn: sdpa\n"},
     "runs.yaml", ("llama-factory", ["sdpa"], "bfloat16")),
    ("presets-yaml-axolotl",
     {"sizes.yml": "small:\n" + "".join(f"  {k}: {json.dumps(v)}\n" for k, v in AXOLOTL.items())
      + "large:\n" + "".join(f"  {k}: {json.dumps(v)}\n" for k, v in dict(AXOLOTL, micro_batch_size=8).items())},
     "sizes.yml", ("axolotl", ["fa2"], "bfloat16")),
    ("presets-that-choose-differently",
     {"configs.json": {"fast": _lf(bf16=True, flash_attn="fa2"), "safe": _lf(fp16=True, flash_attn="disabled")}},
     "configs.json", "choose differently"),
    ("presets-of-two-trainers",
     {"configs.json": {"lf": _lf(fp16=True), "axo": AXOLOTL}},
     "configs.json", "not a trainer config"),
    ("sections-of-a-users-own-config",
     {"config.yaml": "model:\n  name: Qwen/Qwen2.5-0.5B\n  dtype: bfloat16\n  attn: flash_attention_2\n"
                     "training:\n  per_device_train_batch_size: 4\n  learning_rate: 2.0e-5\n  bf16: true\n"
                     "  num_train_epochs: 1\nlora:\n  r: 16\n  alpha: 32\n  dropout: 0.05\n"},
     "config.yaml", "not a trainer config"),
    ("wrapper-compose-musubi",
     {"docker-compose.yml": "services:\n  train:\n    image: trainer\n    command: >\n      python train_local.py\n"
                            "      --epochs 5\n      --rank 16\n      --fp8\n",
      "train_local.py": MUSUBI_WRAPPER},
     "docker-compose.yml", ("musubi", ["sdpa"], "bfloat16")),
    ("wrapper-shell-sd-scripts-flag",
     {"run.sh": "#!/bin/bash\npython launch_sdxl.py --steps 2000 --xformers\n", "launch_sdxl.py": SD_WRAPPER},
     "run.sh", ("sd-scripts", ["xformers"], "float16")),
    ("wrapper-shell-sd-scripts-no-flag",
     {"run.sh": "#!/bin/bash\npython launch_sdxl.py --steps 2000\n", "launch_sdxl.py": SD_WRAPPER},
     "run.sh", ("sd-scripts", [], "float16")),
    ("wrapper-given-an-undeclared-option",
     {"run.sh": "python train_local.py --epochs 5 --learning_rate 1e-4\n", "train_local.py": MUSUBI_WRAPPER},
     "run.sh", "a script of its own, with options"),
    ("wrapper-of-no-trainers-script",
     {"run.sh": "python launch.py --epochs 5\n", "launch.py": OWN_WRAPPER},
     "run.sh", "none of the trainers"),
    ("launch-of-a-script-not-here",
     {"scripts/finetune.sh": "torchrun --nproc_per_node 2 src/finetune.py --model_name_or_path Qwen/Qwen2-0.5B \\\n"
                             "  --bf16 True --per_device_train_batch_size 4 --save_strategy epoch --lazy_preprocess True\n"},
     "scripts/finetune.sh", "finetune.py is not here"),
    ("shared-settings-name-the-trainers",
     {"attn.yaml": "attn_implementation: flash_attention_2\ntorch_compile: true\n"},
     "attn.yaml", "--trainer transformers"),
]


@pytest.mark.parametrize("files,given,want", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_claimed_file_classes(tmp_path, files, given, want):
    _files(tmp_path, files)
    path = str(tmp_path / given)
    if isinstance(want, str):
        with pytest.raises(UsageError) as err:
            configs.load(path)
        assert "\n" not in str(err.value)
        assert want in str(err.value), str(err.value)
        # (a script that is here is never said to be missing)
        assert "is not here" not in str(err.value) or not any(n.endswith(".py") for n in files)
        return
    cfg = configs.load(path)
    assert (cfg["detected"]["trainer"], sorted(cfg["required"]), cfg["dtype"] or "") == \
        (want[0], sorted(want[1]), want[2])
