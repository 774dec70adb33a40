"""Issue 24: a launch file that runs the user's own Python script, which is on this machine beside it.

A user points --config at run.sh; its `accelerate launch train.py` runs a TRL script in the same folder. Before this,
the launch file was refused ("runs train.py, a training script none of the trainers ships") although attn-doctor reads
train.py itself. Now a launch that gives the script no options of its own is read through the script; one that gives
it options (which attn-doctor does not apply to a user's script) is refused with the command that reads the script.
Every file here is written for the test (what it fakes is in its text)."""

from __future__ import annotations

import pytest

from attn_doctor import configs
from attn_doctor.model import UsageError

TRL = ("import torch\nfrom transformers import AutoModelForCausalLM\nfrom trl import SFTConfig, SFTTrainer\n"
       "model = AutoModelForCausalLM.from_pretrained('Qwen/Qwen2.5-7B', torch_dtype=torch.bfloat16, "
       "attn_implementation='flash_attention_2')\nargs = SFTConfig(output_dir='out', bf16=True)\n"
       "SFTTrainer(model=model, args=args, train_dataset=None).train()\n")


def _load(path):
    try:
        return configs.load(str(path))
    except UsageError as e:
        return str(e)


@pytest.mark.parametrize("launch", [
    "#!/bin/bash\naccelerate launch --num_processes 8 train.py\n",
    "torchrun --nproc_per_node=4 train.py \"$@\"\n",
    "cd \"$(dirname \"$0\")\"\nCUDA_VISIBLE_DEVICES=0 python train.py\n",
])
def test_a_launch_with_no_options_is_read_through_its_script(tmp_path, launch):
    (tmp_path / "train.py").write_text(TRL)
    (tmp_path / "run.sh").write_text(launch)
    got = _load(tmp_path / "run.sh")
    assert not isinstance(got, str), got
    assert got["detected"]["trainer"] == "transformers" and got["required"] == ["fa2"] and got["dtype"] == "bfloat16"
    assert "run.sh runs train.py" in got["detected"]["evidence"][0]


def test_a_launch_with_options_names_the_command_that_reads_the_script(tmp_path):
    # (the script reads its command line, by hand: the options may change the run. A script that reads none at all is
    # read through whatever options it is given since cfg53, tests/test_configs_cfg53.py)
    (tmp_path / "train.py").write_text("import sys\nLR = float(sys.argv[2]) if len(sys.argv) > 2 else 2e-5\n" + TRL)
    (tmp_path / "run.sh").write_text("accelerate launch train.py --learning_rate 1e-5 --num_train_epochs 1\n")
    msg = _load(tmp_path / "run.sh")
    assert isinstance(msg, str) and f"attn-doctor check --config {tmp_path / 'train.py'}" in msg


@pytest.mark.parametrize("script", [
    None,  # not here: refused as before
    "import argparse\nprint('hello')\n",  # here, but no reader claims it
])
def test_near_misses_stay_refused(tmp_path, script):
    if script is not None:
        (tmp_path / "train.py").write_text(script)
    (tmp_path / "run.sh").write_text("accelerate launch train.py\n")
    msg = _load(tmp_path / "run.sh")
    assert isinstance(msg, str) and "runs train.py" in msg and "attn-doctor check --config" not in msg



def test_a_dumped_config_with_a_literal_json_cannot_carry_is_read(tmp_path):
    # (review) a script that builds its config with a bytes or complex value and dumps it to the YAML it trains on
    (tmp_path / "go.py").write_text(
        "import subprocess, yaml\ncfg = {'base_model': 'Qwen/Qwen2.5-7B', 'adapter': 'lora', 'flash_attention': True, "
        "'bf16': True, 'blob': b'x', 'n': 1j, 'datasets': [{'path': 'd.jsonl', 'type': 'alpaca'}]}\n"
        "with open('cfg.yaml', 'w') as f:\n    yaml.dump(cfg, f)\nsubprocess.run(['axolotl', 'train', 'cfg.yaml'])\n")
    got = _load(tmp_path / "go.py")
    assert not isinstance(got, str) and got["detected"]["trainer"] == "axolotl" and got["required"] == ["fa2"], got
