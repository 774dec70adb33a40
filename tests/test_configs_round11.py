"""Issue 24, round 11: users' trainer configs and launch scripts (a training round).

Two parts. The real files of fixtures/configs/round11/ (see its README: users' repositories on the train side of the
split, labelled from the trainers' own source before any reader ran; three labels corrected in phase 2, each expect
file's `why` says why) are each read as their expect file says. And variants written for this test (what each fakes is
in its text) of the mechanisms round 11 added:
- TRL / open-r1 TrlParser YAMLs: the fields of every TRL config dataclass (GRPOConfig's epsilon_high,
  importance_sampling_level, top_entropy_quantile, generation_kwargs; DPO's label_smoothing ...), TrainingArguments'
  use_cpu / ddp_broadcast_buffers, and open-r1's ScriptArguments (dataset_prompt_column, max_completion_len,
  repetition_n_grams ...) count as TrainingArguments / TRL fields (hf_transformers.HF_FIELDS);
- a Python script's command lists: a name the script settles (a literal assigned once, a parameter's default that no
  call in the script passes, `Input(default=...)` / `Field(default=...)` included) is its value, also inside an
  f-string (launchers.python_commands);
- a training script's own argument parser called in-process with a list (`from train_dreambooth_lora_sdxl import
  parse_args`, `parse_args(input_args=[...])`; an imported `setup_parser()` whose parser.parse_args / parse_known_args
  takes the list): that list is the script's command line (launchers._script_parsers);
- diffusers: `--mixed_precision` given a value the script computes is the run's, not "no" (the python-launch fallback
  applies only when the option is absent);
- cloud job specs (an Azure ML command job, a SkyPilot task, a dstack task) are read as the shell they run
  (configs.job_commands);
- a notebook or launch file whose last script is a trainer's GUI (`kohya_gui.py`) is refused naming it.
Run against the code before this change (042eac9), the variants marked NEW fail there; the rest pass there too and
guard that the old readings hold."""

from __future__ import annotations

import json

import pytest
from each_case import each

from attn_doctor.configs import launchers

from configs_corpus import repo_of, repos_outside
from configs_corpus import CONFIGS as CORPUS, CLAIMED, check_read_as_expected, check_staged_expect, expect, files, \
    split_module
from configs_corpus import read as _read, refusal as _refusal, rel

FILES = files(CORPUS / "round11")


def test_the_corpus_is_there_and_on_the_readers_side_of_the_split():
    split = split_module()
    claimed = refused = 0
    repos = set()
    for p in FILES:
        e = expect(p)
        t = check_staged_expect(p, e, split)
        assert e["captured"] == "2026-11-28" and len(e["commit"]) == 40, p
        repos.add(e["source"].split(":", 1)[0])
        claimed += t in CLAIMED
        refused += t not in CLAIMED
    assert len(FILES) >= 36 and claimed >= 26 and refused >= 10 and len(repos) >= 27, (len(FILES), claimed, refused)


def test_no_repository_is_shared_with_another_set():
    mine = {repo_of(expect(p)["source"]) for p in FILES}
    others = repos_outside("round11")
    assert not mine & others, sorted(mine & others)


def test_real_file():
    each(((rel(p), (p,)) for p in FILES), check_read_as_expected)  # (one test over the set: tests/each_case.py)


# ---------------------------------------------------------------------------------------------------------------------
# TRL / open-r1 TrlParser YAMLs
# ---------------------------------------------------------------------------------------------------------------------

_GRPO = """model_name_or_path: Qwen/Qwen2.5-7B-Instruct
torch_dtype: bfloat16
attn_implementation: {attn}
bf16: true
dataset_name: open-r1/OpenR1-Math-220k
dataset_prompt_column: problem
num_generations: 8
max_prompt_length: 512
max_completion_length: 2048
epsilon_high: 0.28
importance_sampling_level: sequence
top_entropy_quantile: 0.2
generation_kwargs:
  stop: ["</answer>"]
disable_dropout: true
ddp_broadcast_buffers: false
reward_funcs: [accuracy, format]
repetition_n_grams: 3
repetition_max_penalty: -1.0
max_completion_len: 2048
soft_punish_cache: 512
learning_rate: 1.0e-6
output_dir: out
"""


@pytest.mark.parametrize("attn, required", [
    ("sdpa", ["sdpa"]),  # NEW
    ("flash_attention_2", ["fa2"]),  # NEW
    ("eager", []),  # NEW
])
def test_grpo_trlparser_yaml_with_grpo_and_open_r1_fields(tmp_path, attn, required):
    assert _read(tmp_path, "config_grpo.yaml", _GRPO.format(attn=attn)) == ("transformers", required, "bfloat16", "none")


def test_dpo_yaml_with_trl_only_loss_fields(tmp_path):  # NEW
    text = ("model_name_or_path: m\ntorch_dtype: bfloat16\nattn_implementation: flash_attention_2\nbf16: true\n"
            "beta: 0.1\nlabel_smoothing: 0.1\nf_divergence_type: reverse_kl\nsync_ref_model: true\n"
            "ref_model_sync_steps: 64\nref_model_mixup_alpha: 0.6\nuse_cpu: false\nprecompute_ref_batch_size: 8\n"
            "output_dir: o\n")
    assert _read(tmp_path, "dpo.yaml", text) == ("transformers", ["fa2"], "bfloat16", "none")


def test_a_user_yaml_with_a_few_trl_names_is_still_refused(tmp_path):
    # its own layout (model: / training:) and a handful of shared names: not a TrlParser YAML
    text = ("model:\n  name: Qwen/Qwen3-8B\ntraining:\n  epsilon_high: 0.28\n  bf16: true\n  num_generations: 4\n"
            "data:\n  train: d.jsonl\n")
    assert "not a trainer config" in _refusal(tmp_path, "grpo.yaml", text)


# ---------------------------------------------------------------------------------------------------------------------
# Python command lists: names the script settles
# ---------------------------------------------------------------------------------------------------------------------

_COG = '''from cog import BasePredictor, Input
import subprocess


class Predictor(BasePredictor):
    def predict(self, steps: int = Input(default=500), backend: str = Input(description="Dynamo", default={default},
                choices=["no", "inductor"])) -> str:
        args = ["accelerate", "launch", "--dynamo_backend", backend, "train_dreambooth_lora_flux.py",
                "--pretrained_model_name_or_path", "black-forest-labs/FLUX.1-dev", "--mixed_precision", "bf16",
                "--max_train_steps", str(steps)]
        subprocess.run(args, check=True)
'''


@pytest.mark.parametrize("default, compile_mode", [
    ('"no"', "none"),  # NEW
    ('"inductor"', "default"),
])
def test_a_parameter_default_given_by_input(tmp_path, default, compile_mode):
    assert _read(tmp_path, "predict.py", _COG.format(default=default)) == ("diffusers", [], "bfloat16", compile_mode)


def test_module_constants_and_fstrings_in_a_command_list(tmp_path):  # NEW
    text = ('import subprocess\nPRECISION = "fp16"\nSCRIPT = "train_text_to_image_lora.py"\n'
            'cmd = ["accelerate", "launch", SCRIPT, "--pretrained_model_name_or_path=runwayml/stable-diffusion-v1-5",\n'
            '       f"--mixed_precision={PRECISION}", "--enable_xformers_memory_efficient_attention"]\n'
            'subprocess.run(cmd)\n')
    assert _read(tmp_path, "go.py", text) == ("diffusers", ["xformers"], "float16", "none")


def test_a_parameter_a_caller_passes_stays_unknown():
    text = ('import subprocess\n\ndef train(precision="fp16"):\n'
            '    subprocess.run(["accelerate", "launch", "train_dreambooth_lora_sdxl.py", f"--mixed_precision={precision}"])\n\n'
            'train(precision=input("p"))\n')
    assert "--mixed_precision=fp16" not in launchers.python_commands(text)


def test_a_name_assigned_in_a_branch_stays_unknown():
    text = ('import subprocess, torch\nif torch.cuda.is_bf16_supported():\n    mp = "bf16"\nelse:\n    mp = "fp16"\n'
            'subprocess.run(["accelerate", "launch", "train_text_to_image.py", "--mixed_precision", mp])\n')
    assert launchers.python_commands(text).endswith("--mixed_precision $PY_VALUE")


# ---------------------------------------------------------------------------------------------------------------------
# A training script's parser called in-process with a list
# ---------------------------------------------------------------------------------------------------------------------

_RUNPOD = '''import runpod
from train_dreambooth_lora_sdxl import (
    parse_args as parse_train_args,
    main as train_dreambooth_lora,
)

MODEL = "stabilityai/stable-diffusion-xl-base-1.0"


def train(out, mixed_precision: str = "fp16"):
    train_input_args = [
        f"--pretrained_model_name_or_path={MODEL}",
        f"--output_dir={out}",
        f"--mixed_precision={mixed_precision}",
        @EXTRA@
    ]
    train_dreambooth_lora(parse_train_args(input_args=train_input_args))


def handler(job):
    train(job["input"]["out"]@PASSED@)


runpod.serverless.start({"handler": handler})
'''


@pytest.mark.parametrize("extra, passed, want", [
    ('"--enable_xformers_memory_efficient_attention",', ', mixed_precision=job["input"]["mp"]',
     ("diffusers", ["xformers"], "", "none")),  # NEW
    ('"--enable_xformers_memory_efficient_attention",', "", ("diffusers", ["xformers"], "float16", "none")),  # NEW
    ('"--seed=0",', "", ("diffusers", [], "float16", "none")),  # NEW
])
def test_diffusers_parse_args_called_with_a_list(tmp_path, extra, passed, want):
    assert _read(tmp_path, "rp_handler.py", _RUNPOD.replace("@EXTRA@", extra).replace("@PASSED@", passed)) == want


def test_positional_list_to_an_imported_parse_args():  # NEW
    text = ('from train_text_to_image import parse_args, main\n'
            'main(parse_args(["--pretrained_model_name_or_path", "m", "--mixed_precision", "bf16"]))\n')
    assert launchers.python_commands(text) == \
        "python train_text_to_image.py --pretrained_model_name_or_path m --mixed_precision bf16"


def test_sd_scripts_setup_parser_given_a_list():  # NEW
    text = ('from train_network import setup_parser, NetworkTrainer\n'
            'parser = setup_parser()\n'
            'args = parser.parse_args(["--pretrained_model_name_or_path", "m.safetensors", "--xformers",\n'
            '                          "--mixed_precision", "fp16", "--network_module", "networks.lora"])\n'
            'NetworkTrainer().train(args)\n')
    assert launchers.python_commands(text).startswith("python train_network.py --pretrained_model_name_or_path")


def test_a_parse_args_of_the_script_itself_is_no_launch():
    # the script's own argparse, called with no list: nothing is started
    text = ('import argparse\n\ndef parse_args(input_args=None):\n    p = argparse.ArgumentParser()\n'
            '    return p.parse_args(input_args)\n\nargs = parse_args()\n')
    assert launchers.python_commands(text) == ""


def test_diffusers_mixed_precision_from_a_shell_variable_is_unknown(tmp_path):
    # (guard) the shell twin: a value the shell fills in is the run's
    text = 'accelerate launch train_text_to_image.py --pretrained_model_name_or_path=m --mixed_precision="$MP"\n'
    assert _read(tmp_path, "t.sh", text)[2] == ""


def test_diffusers_python_launch_without_mixed_precision_is_float32(tmp_path):
    # (guard) absent, under plain python: Accelerator(mixed_precision=None) with no ACCELERATE_MIXED_PRECISION → "no"
    text = "python train_text_to_image.py --pretrained_model_name_or_path=m --resolution=512\n"
    assert _read(tmp_path, "t.sh", text)[2] == "float32"


# ---------------------------------------------------------------------------------------------------------------------
# Cloud job specs
# ---------------------------------------------------------------------------------------------------------------------

def test_azure_ml_command_job_runs_a_user_script(tmp_path):  # NEW
    text = ("$schema: https://azuremlschemas.azureedge.net/latest/commandJob.schema.json\ntype: command\ncode: ./\n"
            "command: >\n  accelerate launch --config_file configs/fsdp.yaml\n  finetune.py\n  --bf16 True\n"
            "  --use_flash_attn True\ncompute: azureml:gpu-cluster\n")
    assert "runs finetune.py" in _refusal(tmp_path, "job.yml", text)


def test_azure_ml_command_job_runs_a_trainer(tmp_path):  # NEW
    text = ("$schema: https://azuremlschemas.azureedge.net/latest/commandJob.schema.json\ntype: command\n"
            "command: accelerate launch -m axolotl.cli.train qlora.yml\ncompute: azureml:a100\n")
    assert _read(tmp_path, "job.yml", text)[0] == "axolotl"


def test_skypilot_task_runs_swift(tmp_path):  # NEW
    text = ("resources:\n  accelerators: H100:1\nsetup: |\n  pip install ms-swift\nrun: |\n"
            "  swift sft --model Qwen/Qwen3-8B --train_type lora --torch_dtype bfloat16 --attn_impl flash_attn\n")
    assert _read(tmp_path, "sky.yaml", text) == ("ms-swift", ["fa2"], "bfloat16", "none")


def test_dstack_task_runs_llamafactory_with_a_yaml_elsewhere(tmp_path):  # NEW
    text = "type: task\npython: '3.11'\ncommands:\n  - pip install llamafactory\n  - llamafactory-cli train sft.yaml\n"
    assert _read(tmp_path, ".dstack.yml", text)[0] == "llama-factory"


def test_a_yaml_with_a_command_key_and_nothing_else_of_a_job_is_not_a_job(tmp_path):
    # `command:` alone (a docker-compose-like or a tool's own key) is no job spec
    text = "command: python train.py --bf16 True\nlearning_rate: 1e-4\n"
    msg = _refusal(tmp_path, "cfg.yaml", text)
    assert "runs train.py" not in msg


# ---------------------------------------------------------------------------------------------------------------------
# A trainer's GUI
# ---------------------------------------------------------------------------------------------------------------------

def _nb(*cells: str) -> str:
    return json.dumps({"cells": [{"cell_type": "code", "metadata": {}, "outputs": [], "source": c} for c in cells],
                       "metadata": {}, "nbformat": 4, "nbformat_minor": 5})


def test_notebook_starting_the_kohya_gui_is_named(tmp_path):  # NEW
    nb = _nb("import os\nos.chdir('/notebooks/kohya_ss')\n", "!pip install -r requirements.txt\n",
             "!python kohya_gui.py --share --headless --listen 0.0.0.0\n")
    assert "kohya_ss GUI" in _refusal(tmp_path, "kohya.ipynb", nb)


def test_shell_starting_the_kohya_gui_with_options_is_refused_naming_it(tmp_path):
    # (guard) with options, the older refusal of a script none of the trainers ships names it
    text = "cd kohya_ss\nsource venv/bin/activate\npython kohya_gui.py --headless --share\n"
    assert "runs kohya_gui.py" in _refusal(tmp_path, "gui.sh", text)


def test_shell_starting_the_kohya_gui_is_named(tmp_path):  # NEW
    text = "cd kohya_ss\npython kohya_gui.py\n"
    assert "kohya_ss GUI" in _refusal(tmp_path, "gui.sh", text)


def test_installer_ending_in_some_app_still_says_so(tmp_path):
    # (guard, round 9) a script of no known GUI keeps the generic words
    text = "git clone https://example.invalid/fluxgym\ncd fluxgym\npip install -r requirements.txt\npython app.py\n"
    assert "none of the trainers' training scripts" in _refusal(tmp_path, "install.sh", text)
