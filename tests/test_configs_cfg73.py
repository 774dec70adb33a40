"""Round 73 read as training material (helper cfg73): why files of claimed trainers failed the evidence test, on
variants written here (other trainers' keys, spellings, paths, and look-alikes that must stay refused).

Half A (eight repositories) asked for one change: a Python launcher (a Modal pipeline) that holds its axolotl config as
text (a module-level f-string), turns it into a dict with yaml.safe_load and dumps it before `accelerate launch -m
axolotl.cli.train CONFIG` was read as axolotl with nothing known; the text is now read as the config it dumps
(configs/launchers.py python_dumped_configs). Half B, read after its measurement, showed two mechanisms by which
LLaMA-Factory's own files were refused:
- a base config without the model, completed on the command line (`src/train.py base.yaml model_name_or_path=...`):
  LLaMA-Factory cannot train from a file without the model, so such a file was never its own; now one that sets three
  of its own options from both its data and its finetuning argument groups is (configs/llamafactory.py _base_config),
  and the keys of a fork's one added feature (three or more sharing a prefix, grpo_*) count as one key when the
  parser's unknown keys are weighed (configs/parser_keys.py not_its_file);
- `src/train.py CONFIG key=value ...` (the overrides hparams/parser.py merges over the YAML) in a checkout named after
  LLaMA-Factory with a suffix (a fork's name, an archive's LLaMA-Factory-main) was "a training script none of the
  trainers ships" (configs/llamafactory.py _src_train, _IN_REPO)."""

from __future__ import annotations

import pytest

from configs_corpus import read, refusal

# ---- a config the launcher holds as text ------------------------------------------------------------------------

TEXT_CONSTANT = '''import subprocess
import yaml

CONFIG = """
base_model: Qwen/Qwen2.5-1.5B
datasets:
  - path: tatsu-lab/alpaca
    type: alpaca
adapter: lora
sequence_len: 2048
xformers_attention: true
fp16: true
"""


def main():
    cfg = yaml.safe_load(CONFIG)
    with open("run.yml", "w") as fh:
        yaml.safe_dump(cfg, fh)
    subprocess.run(["accelerate", "launch", "-m", "axolotl.cli.train", "run.yml"], check=True)


if __name__ == "__main__":
    main()
'''

FSTRING_PARAMETER = '''import subprocess
import yaml

RUN = "exp7"
OUT = "/mnt/out"
TEMPLATE = f"""
base_model: meta-llama/Llama-3.2-3B
output_dir: {OUT}/{RUN}
wandb_name: {RUN}-{__import__("time").time()}
sdp_attention: true
bf16: true
torch_compile: true
"""


def write(cfg_text, path):
    data = yaml.load(cfg_text, Loader=yaml.SafeLoader)
    with open(path, "w") as f:
        yaml.dump(data, f)


def train(cfg_text: str = TEMPLATE, path: str = "/tmp/job.yaml"):
    write(cfg_text=cfg_text, path=path)
    subprocess.run(f"axolotl train {path}", shell=True, check=True)
'''

NOT_PARSEABLE = '''import subprocess, yaml
CONFIG = "base_model: [unclosed\\n  flash_attention: true"
cfg = yaml.safe_load(CONFIG)
yaml.safe_dump(cfg, open("c.yml", "w"))
subprocess.run(["axolotl", "train", "c.yml"])
'''

OWN_TRAINER_TEXT = '''import subprocess, yaml
CFG = """
model_id: Qwen/Qwen2.5-VL-7B-Instruct
attn_implementation: flash_attention_2
bf16: true
lora_r: 16
"""
yaml.safe_dump(yaml.safe_load(CFG), open("cfg.yaml", "w"))
subprocess.run(["python", "train.py", "--config", "cfg.yaml"], check=True)
'''


def test_a_config_held_as_text_and_dumped_is_the_run_s_config(tmp_path):
    assert read(tmp_path, "launch_modal.py", TEXT_CONSTANT) == ("axolotl", ["xformers"], "float16", "none")


def test_an_f_string_passed_through_parameters_is_read_without_its_run_time_parts(tmp_path):
    # the default of train()'s parameter, handed to write() by keyword, parsed with yaml.load(..., Loader=...):
    # the wandb_name the f-string computes at run time is left out, the rest read
    trainer, required, dtype, mode = read(tmp_path, "pipeline.py", FSTRING_PARAMETER)
    assert (trainer, required, dtype) == ("axolotl", ["sdpa"], "bfloat16") and mode != "none"


def test_text_that_does_not_parse_leaves_the_config_unknown(tmp_path):
    assert read(tmp_path, "bad.py", NOT_PARSEABLE) == ("axolotl", [], "", "none")


def test_text_for_the_user_s_own_trainer_stays_refused(tmp_path):
    msg = refusal(tmp_path, "run_own.py", OWN_TRAINER_TEXT)
    assert "train.py" in msg


# ---- LLaMA-Factory: a base config without the model, a fork's feature keys ---------------------------------------

BASE_STAGE = """### method
stage: dpo
finetuning_type: lora
lora_target: all
pref_beta: 0.1

### dataset
template: llama3
cutoff_len: 4096

### train
per_device_train_batch_size: 2
learning_rate: 5.0e-6
fp16: true
"""

BASE_WITH_FA = """# model comes from the launcher: model_name_or_path=... on the command line
flash_attn: fa2
finetuning_type: full
template: qwen3_nothink
neat_packing: true
bf16: true
"""

FINETUNING_ARGS_ONLY = """{
  "stage": "sft",
  "finetuning_type": "lora",
  "lora_target": ["q_proj", "v_proj"],
  "lora_rank": 8,
  "lora_alpha": 16,
  "plot_loss": true
}
"""

FORK_FEATURE = """model_name_or_path: Qwen/Qwen3-8B
stage: sft
finetuning_type: full
template: qwen3
cutoff_len: 8192
dataset: mydata
output_dir: saves/q3
bf16: true
flash_attn: sdpa
curriculum_schedule: linear
curriculum_start: 0.2
curriculum_end: 1.0
curriculum_warmup_steps: 200
curriculum_metric: loss
"""

MANY_FOREIGN_FAMILIES = """model_name_or_path: Qwen/Qwen3-8B
finetuning_type: lora
template: qwen3
ema_decay: 0.999
grad_clip: 1.0
eval_every: 200
ckpt_every: 1000
seed_everything: true
warmup_epochs: 1
"""


def test_a_base_config_without_the_model_is_llama_factory_s(tmp_path):
    assert read(tmp_path, "dpo_base.yaml", BASE_STAGE) == ("llama-factory", [], "float16", "none")
    assert read(tmp_path, "sft_base.yaml", BASE_WITH_FA) == ("llama-factory", ["fa2"], "bfloat16", "none")


def test_a_saved_finetuning_args_json_stays_refused(tmp_path):
    # the finetuning group alone (what a checkpoint saves), no data option: not a config to train from
    refusal(tmp_path, "finetuning_args.json", FINETUNING_ARGS_ONLY)


def test_a_fork_s_one_added_feature_is_no_other_framework(tmp_path):
    assert read(tmp_path, "curriculum.yaml", FORK_FEATURE) == ("llama-factory", ["sdpa"], "bfloat16", "none")
    # with a typo and an option LLaMA-Factory removed beside them (cfg33's strays): still a fork's file
    text = FORK_FEATURE + "lerning_rate: 1.0e-5\nuse_removed_option: true\n"
    assert read(tmp_path, "curriculum2.yaml", text)[0] == "llama-factory"


def test_keys_of_many_families_are_still_another_framework_s(tmp_path):
    msg = refusal(tmp_path, "mlx_lora.yaml", MANY_FOREIGN_FAMILIES)
    assert "another framework" in msg


# ---- LLaMA-Factory: src/train.py CONFIG key=value in a checkout named after it ------------------------------------

ARCHIVE_CHECKOUT = """#!/bin/bash
cd /data/LLaMA-Factory-main
CUDA_VISIBLE_DEVICES=0,1 torchrun --nproc_per_node 2 src/train.py examples/my/sft.yaml \\
    model_name_or_path=Qwen/Qwen2.5-7B-Instruct output_dir=saves/run1 flash_attn=fa2 bf16=true
"""

FORK_CHECKOUT = """#!/bin/bash
#SBATCH --gres=gpu:1
cd "$HOME/LLaMA-Factory-MyLab"
accelerate launch --config_file configs/fsdp.yaml src/train.py "$CFG" dataset=${DS}_train output_dir=$OUT
"""

OTHER_PROJECT = """#!/bin/bash
cd /work/myproject
python src/train.py config.yaml lr=0.001 epochs=3
"""

CLI_MENTIONED = """#!/bin/bash
# we used to run llamafactory-cli; now our own trainer
cd /work/tts
python src/train.py conf/base.yaml batch_size=8
"""


def test_src_train_with_overrides_in_an_archive_checkout(tmp_path):
    trainer, required, dtype, _ = read(tmp_path, "run.sh", ARCHIVE_CHECKOUT)
    assert (trainer, required, dtype) == ("llama-factory", ["fa2"], "bfloat16")


def test_src_train_with_overrides_in_a_fork_checkout(tmp_path):
    assert read(tmp_path, "job.sbatch", FORK_CHECKOUT)[0] == "llama-factory"


@pytest.mark.parametrize("name, text", [("train.sh", OTHER_PROJECT), ("tts.sh", CLI_MENTIONED)])
def test_another_project_s_src_train_stays_refused(tmp_path, name, text):
    assert "train.py" in refusal(tmp_path, name, text)
