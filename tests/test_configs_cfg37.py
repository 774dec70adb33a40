"""Helper cfg37 (session 9, issue 24): the diffusion trainers' files in the shapes users keep (fixtures/configs/round31/),
read on the trainer's own evidence. Each mechanism has variants written here (another trainer, script, name, layout or
spelling of the same shape) and near misses that must stay refused or keep what they read.

1. A command line a tool saved as its argv list in JSON (`{"command": [...]}`, or the bare list) is read as that line.
2. Lists added together and handed to a runner (`_exec([...] + ([...] if USE_WANDB else []))`) are that command.
3. A Python launcher that dumps a config and runs a script on it (`yaml.safe_dump(job, f)` then `python run.py PATH`)
   runs that script with that config, the path held in a variable the script computes included (`{NAME}`).
4. f-string fields the script settles (`{"--v2" if v2 else ""}`, `{cfg.precision}` with its argparse default) are their
   values; a command string written to a shell script (`with open("train.sh", "w") as f: f.write(cmd)`) is its line.
5. A script variable every branch sets to a training script of one sd-scripts family (train_db / train_network /
   fine_tune) is that script.
6. SimpleTuner's train.py run from its checkout (`cd /SimpleTuner && python train.py ...`), options brought by the job:
   SimpleTuner, nothing else known. An image that clones one trainer and hands over to a start.sh / entrypoint.sh that
   is not here, or whose entry point is `accelerate launch` with no script (the trainer's fork, cloned from an ARG
   URL in a heredoc RUN, included): that trainer (installed.py).
7. A setup script or cell that writes one trainer's config file and runs nothing: that config. A dict of one trainer's
   settings a Python module defines and never uses itself (an app's config module): those settings.
8. Refused: a generic train.py of a repository the file clones (not diffusers) even when its options are an example's;
   AutoTrain's CLI; sd-scripts' and musubi-tuner's generation and LoRA tools; a dataset config says that none of its
   settings reaches attention.
9. sd-scripts asserts full_fp16 / full_bf16 against mixed_precision: a conflicting pair trains nothing (no dtype)."""

from __future__ import annotations

import json

import pytest

from configs_corpus import read, refusal

# --- 1. a saved argv list --------------------------------------------------------------------------------------------


def test_saved_argv_object_is_read_as_its_command_line(tmp_path):
    argv = ["/venv/bin/python", "-m", "accelerate.commands.launch", "--num_cpu_threads_per_process", "1",
            "C:\\sd-scripts\\sdxl_train_network.py", "--pretrained_model_name_or_path", "x.safetensors",
            "--network_module", "networks.lora", "--xformers", "--mixed_precision", "fp16"]
    assert read(tmp_path, "launch_command.json", json.dumps({"command": argv}, indent=2)) == \
        ("sd-scripts", ["xformers"], "float16", "none")


def test_saved_argv_list_and_other_key_names(tmp_path):
    argv = ["accelerate", "launch", "flux_train_network.py", "--sdpa", "--mixed_precision", "bf16",
            "--network_module", "networks.lora_flux"]
    assert read(tmp_path, "argv.json", json.dumps(argv)) == ("sd-scripts", ["sdpa"], "bfloat16", "none")
    musubi = ["accelerate", "launch", "src/musubi_tuner/wan_train_network.py", "--task", "t2v-14B", "--sdpa",
              "--mixed_precision", "bf16", "--dataset_config", "d.toml"]
    assert read(tmp_path, "cmd.json", json.dumps({"cmd": musubi})) == ("musubi", ["sdpa"], "bfloat16", "none")


def test_string_lists_that_run_nothing_are_not_command_lines(tmp_path):
    # options alone (no script, no launcher), and a list of prompts: no command line
    msg = refusal(tmp_path, "args.json", json.dumps({"args": ["--xformers", "--mixed_precision", "fp16"]}))
    assert "not a trainer config" in msg or "JSON but not an object" in msg
    msg = refusal(tmp_path, "prompts.json", json.dumps(["a photo of sks dog", "a painting of sks dog"]))
    assert "not an object of trainer settings" in msg


# --- 2. lists added together and handed to a runner ------------------------------------------------------------------

MODAL_LAUNCH = """import subprocess
USE_WANDB = False

def train():
    def _exec_subprocess(cmd: list[str]):
        process = subprocess.Popen(cmd, stdout=subprocess.PIPE)
        process.wait()

    _exec_subprocess(
        [
            "accelerate",
            "launch",
            "{script}",
            "--mixed_precision={mp}",
            "--pretrained_model_name_or_path=x",
        ]
        + (["--report_to=wandb"] if USE_WANDB else [])
        + {extra}
    )
"""


@pytest.mark.parametrize("script,mp,extra,want", [
    ("examples/dreambooth/train_dreambooth_lora_sdxl.py", "fp16", "[]", ("diffusers", [], "float16", "none")),
    ("examples/text_to_image/train_text_to_image_lora.py", "bf16", '["--enable_xformers_memory_efficient_attention"]',
     ("diffusers", ["xformers"], "bfloat16", "none")),
])
def test_added_lists_handed_to_a_runner_are_the_command(tmp_path, script, mp, extra, want):
    assert read(tmp_path, "app.py", MODAL_LAUNCH.format(script=script, mp=mp, extra=extra)) == want


def test_added_lists_running_a_script_of_the_repositorys_own_stay_refused(tmp_path):
    text = MODAL_LAUNCH.format(script="my_trainer.py", mp="fp16", extra="[]").replace(
        '"--pretrained_model_name_or_path=x",', '"--my_own_option=1",')
    assert "my_trainer.py" in refusal(tmp_path, "app.py", text)


# --- 3. a launcher that dumps a config and runs a script on it --------------------------------------------------------

DUMPED_RUN = """import os, subprocess, yaml
import runpod
AI_TOOLKIT_DIR = "/app/ai-toolkit"
CONFIG_PATH = os.path.join("/workspace", "train_config.yaml")

def write_config(steps):
    config = {{"job": "extension", "config": {{"name": "x", "process": [{{
        "type": "sd_trainer", "train": {{"steps": steps, "dtype": "{dtype}"}},
        "model": {{"name_or_path": "black-forest-labs/FLUX.1-dev", "is_flux": True}}}}]}}}}
    with open(CONFIG_PATH, "w") as f:
        yaml.{dump}(config, f)

def handler(job):
    write_config(job["input"]["steps"])
    subprocess.run(["python3", os.path.join(AI_TOOLKIT_DIR, "run.py"), CONFIG_PATH], check=True)

runpod.serverless.start({{"handler": handler}})
"""


@pytest.mark.parametrize("dump,dtype,want", [("safe_dump", "bf16", "bfloat16"), ("dump", "fp16", "float16")])
def test_a_handler_runs_run_py_on_the_job_it_dumps(tmp_path, dump, dtype, want):
    assert read(tmp_path, "handler.py", DUMPED_RUN.format(dump=dump, dtype=dtype)) == ("ai-toolkit", [], want, "none")


def test_the_dumped_config_path_held_in_a_variable_computed_at_run_time(tmp_path):
    text = """import argparse, os, subprocess, toml
parser = argparse.ArgumentParser()
parser.add_argument("--precision_type", type=str, default="{mp}")
parser.add_argument("--out", type=str, default="out")
args = parser.parse_args()
precision_type = args.precision_type
config_file = os.path.join(args.out, "config.toml")
config_dict = {{"training_arguments": {{"mixed_precision": precision_type, "sdpa": True}},
               "additional_network_arguments": {{"network_module": "networks.lora"}}}}
with open(config_file, "w") as f:
    f.write(toml.dumps(config_dict))
subprocess.check_call(["accelerate", "launch", "sdxl_train_network.py", "--config_file=" + config_file])
"""
    assert read(tmp_path, "trainer.py", text.format(mp="bf16")) == ("sd-scripts", ["sdpa"], "bfloat16", "none")
    assert read(tmp_path, "trainer2.py", text.format(mp="fp16")) == ("sd-scripts", ["sdpa"], "float16", "none")


def test_a_dumped_config_no_command_runs_keeps_the_handler_refused(tmp_path):
    # the job is dumped but the handler runs only a health check: no training command
    text = DUMPED_RUN.format(dump="safe_dump", dtype="bf16").replace(
        'subprocess.run(["python3", os.path.join(AI_TOOLKIT_DIR, "run.py"), CONFIG_PATH], check=True)',
        'subprocess.run(["nvidia-smi"], check=True)')
    assert "RunPod serverless worker" in refusal(tmp_path, "handler.py", text)


# --- 4. settled f-string fields, a command written to a shell script -------------------------------------------------

WRITES_SH = '''import os
v2 = False
project_name = "mecha"
mixed_precision = "{mp}" #@param ["no","fp16","bf16"]
additional_argument = "--shuffle_caption {attn}" #@param {{type:"string"}}
train_command = f"""
accelerate launch --num_cpu_threads_per_process=8 {script} \\\\
  {{"--v2" if v2 else ""}} \\\\
  --output_name={{project_name}} \\\\
  --mixed_precision={{mixed_precision}} \\\\
  {{additional_argument}}
  """
with open("{target}", "w") as f:
    f.write(train_command)
'''


@pytest.mark.parametrize("mp,attn,script,target,want", [
    ("fp16", "--xformers", "train_network.py", "./train.sh", ("sd-scripts", ["xformers"], "float16", "none")),
    ("bf16", "--sdpa", "sdxl_train_network.py", "run_train.bat", ("sd-scripts", ["sdpa"], "bfloat16", "none")),
])
def test_a_command_written_to_a_shell_script_is_that_scripts_line(tmp_path, mp, attn, script, target, want):
    assert read(tmp_path, "train_lora.py", WRITES_SH.format(mp=mp, attn=attn, script=script, target=target)) == want


def test_a_command_written_to_a_text_log_runs_nothing(tmp_path):
    text = WRITES_SH.format(mp="fp16", attn="--xformers", script="train_network.py", target="command_log.txt")
    assert "no trainer calls" in refusal(tmp_path, "train_lora.py", text)


def test_an_argparse_default_settles_an_attribute_field(tmp_path):
    text = """import argparse, subprocess
parser = argparse.ArgumentParser()
parser.add_argument("--precision", default={default})
cfg = parser.parse_args()
subprocess.run(["accelerate", "launch", "train_network.py", "--xformers", f"--mixed_precision={{cfg.precision}}"])
"""
    assert read(tmp_path, "w.py", text.format(default='"bf16"')) == ("sd-scripts", ["xformers"], "bfloat16", "none")
    # no default: the value comes with the run, nothing settled here
    assert read(tmp_path, "w2.py", text.format(default="None")) == ("sd-scripts", ["xformers"], "", "none")


# --- 5. branch-chosen scripts of one sd-scripts family ----------------------------------------------------------------

BRANCHED = """import argparse, subprocess
parser = argparse.ArgumentParser()
parser.add_argument("--mode", default="lora")
cfg = parser.parse_args()
if cfg.mode == "db":
    script = "{a}"
elif cfg.mode == "lora":
    script = "{b}"
else:
    script = "{c}"
subprocess.run(["accelerate", "launch", script, "--sdpa", "--mixed_precision=bf16"], check=True)
"""


@pytest.mark.parametrize("a,b,c", [("train_db.py", "train_network.py", "fine_tune.py"),
                                   ("sdxl_train.py", "sdxl_train_network.py", "sdxl_train_control_net_lllite.py")])
def test_scripts_of_one_family_chosen_in_branches(tmp_path, a, b, c):
    assert read(tmp_path, "wrap.py", BRANCHED.format(a=a, b=b, c=c)) == ("sd-scripts", ["sdpa"], "bfloat16", "none")


def test_scripts_of_two_families_or_foreign_ones_are_not_settled(tmp_path):
    # a U-Net and a DiT script read differently (flux always runs SDPA): not one family, the script stays unknown
    msg = refusal(tmp_path, "wrap.py", BRANCHED.format(a="train_network.py", b="flux_train_network.py",
                                                      c="train_db.py"))
    assert "not a trainer config" in msg or "several trainers share" in msg
    msg = refusal(tmp_path, "wrap2.py", BRANCHED.format(a="train_network.py", b="my_train.py", c="train_db.py"))
    assert "not a trainer config" in msg or "several trainers share" in msg


# --- 6. SimpleTuner's train.py in its checkout; an installed trainer's shell entry point -----------------------------

ST_HANDLER = """import subprocess
import runpod
SIMPLETUNER_DIR = "{root}"

def handler(job):
    args = []
    for k, v in job["input"]["config"].items():
        args.extend([f"--{{k}}", str(v)])
    cmd = f"cd {{SIMPLETUNER_DIR}} && python train.py " + " ".join(args)
    subprocess.run(["bash", "-c", cmd], check=True)

runpod.serverless.start({{"handler": handler}})
"""


@pytest.mark.parametrize("root", ["/SimpleTuner", "/workspace/simpletuner"])
def test_simpletuner_train_py_run_from_its_checkout(tmp_path, root):
    assert read(tmp_path, "handler.py", ST_HANDLER.format(root=root)) == ("simpletuner", [], "", "none")


def test_simpletuner_train_py_by_its_path_in_a_shell_line(tmp_path):
    text = "#!/bin/bash\nsource /opt/SimpleTuner/.venv/bin/activate\npython /opt/SimpleTuner/train.py\n"
    assert read(tmp_path, "go.sh", text) == ("simpletuner", [], "", "none")


def test_a_train_py_in_another_folder_is_not_simpletuners(tmp_path):
    msg = refusal(tmp_path, "handler.py", ST_HANDLER.format(root="/workspace/myproject"))
    assert "train.py" in msg


CLONE_AND_HAND_OVER = """FROM nvidia/cuda:12.4.1-devel-ubuntu22.04
RUN apt-get update && apt-get install -y git python3-pip
RUN git clone {repo} /app/trainer && pip install -r /app/trainer/requirements.txt
COPY {entry} /{entry}
RUN chmod +x /{entry}
CMD [ "/{entry}" ]
"""


@pytest.mark.parametrize("repo,entry,want", [
    ("https://github.com/bghira/SimpleTuner --branch release", "start.sh", "simpletuner"),
    ("https://github.com/kohya-ss/musubi-tuner.git", "entrypoint.sh", "musubi"),
])
def test_an_image_that_clones_one_trainer_and_hands_over_to_its_entry_script(tmp_path, repo, entry, want):
    assert read(tmp_path, "Dockerfile", CLONE_AND_HAND_OVER.format(repo=repo, entry=entry)) == (want, [], "", "none")


def test_an_image_that_clones_no_trainer_and_hands_over_stays_refused(tmp_path):
    text = CLONE_AND_HAND_OVER.format(repo="https://github.com/comfyanonymous/ComfyUI.git", entry="start.sh")
    assert "start.sh" in refusal(tmp_path, "Dockerfile", text)


# An image of one trainer (or its fork, which keeps the trainer's repository name) whose entry point is `accelerate
# launch` with no script: `docker run` gives the script; the clone may sit in a BuildKit heredoc and take its URL from
# an ARG, and a toolchain clone (pyenv) beside it runs no training.
LAUNCHER_IMAGE = """# syntax=docker/dockerfile:1
FROM ubuntu:22.04
RUN <<EOF
    set -eu
    git clone https://github.com/pyenv/pyenv.git /opt/pyenv
EOF
ARG TRAINER_URL={url}
RUN --mount=type=cache,target=/root/.cache/pip <<EOF
    set -eu
    git clone "${{TRAINER_URL}}" /opt/trainer
    cd /opt/trainer
    pip install -e .
EOF
WORKDIR /opt/trainer
ENTRYPOINT {entry}
"""


@pytest.mark.parametrize("url,entry,want", [
    ("https://github.com/kohya-ss/sd-scripts", '["accelerate", "launch"]', "sd-scripts"),
    ("https://github.com/someone/musubi-tuner.git", '["accelerate", "launch", "--num_processes", "1"]', "musubi"),
    ("https://github.com/someone/ai-toolkit", '["torchrun", "--nproc_per_node", "2"]', "ai-toolkit"),
])
def test_an_image_whose_entry_point_launches_the_script_docker_run_gives(tmp_path, url, entry, want):
    assert read(tmp_path, "Dockerfile", LAUNCHER_IMAGE.format(url=url, entry=entry)) == (want, [], "", "none")


@pytest.mark.parametrize("url,entry", [
    ("https://github.com/kohya-ss/sd-scripts", '["bash"]'),  # a shell, not a launcher
    ("https://github.com/Akegarasu/lora-scripts", '["accelerate", "launch"]'),  # another program, not a fork's name
    ("https://github.com/someone/sd-scripts-gui", '["accelerate", "launch"]'),  # the name only contains it
])
def test_an_image_that_launches_nothing_of_one_trainer_stays_refused(tmp_path, url, entry):
    refusal(tmp_path, "Dockerfile", LAUNCHER_IMAGE.format(url=url, entry=entry))


def test_an_image_of_a_trainer_fork_and_another_repository_stays_refused(tmp_path):
    text = LAUNCHER_IMAGE.format(url="https://github.com/someone/sd-scripts", entry='["accelerate", "launch"]')
    text = text.replace("WORKDIR", "RUN git clone https://github.com/comfyanonymous/ComfyUI /opt/comfy\nWORKDIR")
    refusal(tmp_path, "Dockerfile", text)


def test_a_heredoc_run_is_read_as_the_script_it_runs(tmp_path):
    # the training command inside a heredoc RUN is a command like any other (before, the heredoc hid every line)
    text = ("FROM python:3.11\nRUN <<EOF\n  pip install -r requirements.txt\n"
            "  accelerate launch sdxl_train_network.py --sdpa --mixed_precision bf16 --network_module networks.lora\n"
            "EOF\n")
    assert read(tmp_path, "Dockerfile", text) == ("sd-scripts", ["sdpa"], "bfloat16", "none")


# --- 7. a setup cell that writes one trainer's config ----------------------------------------------------------------

SETUP_CELL = '''# Colab cell saved as .py
!git clone https://github.com/ostris/ai-toolkit.git
%cd ai-toolkit
config_yaml = """
job: extension
config:
  name: "x"
  process:
    - type: 'sd_trainer'
      train:
        steps: 800
{dtype}      model:
        name_or_path: "black-forest-labs/FLUX.1-dev"
        is_flux: true
"""
with open("/content/ai-toolkit/my_job.yaml", "w") as f:
    f.write(config_yaml)
print("!python run.py my_job.yaml")
'''


@pytest.mark.parametrize("dtype,want", [("", "float32"), ("        dtype: bf16\n", "bfloat16")])
def test_a_setup_cell_that_writes_an_ai_toolkit_job(tmp_path, dtype, want):
    assert read(tmp_path, "colab_cell.py", SETUP_CELL.format(dtype=dtype)) == ("ai-toolkit", [], want, "none")


def test_a_setup_script_that_writes_a_musubi_config(tmp_path):
    text = '''import subprocess
train_toml = """
dit = "/m/wan.safetensors"
dataset_config = "/d/dataset.toml"
network_module = "networks.lora_wan"
mixed_precision = "bf16"
flash_attn = true
"""
with open("/workspace/train.toml", "w") as f:
    f.write(train_toml)
'''
    assert read(tmp_path, "prepare.py", text) == ("musubi", ["fa2"], "bfloat16", "none")


def test_a_setup_cell_that_writes_only_a_dataset_config_stays_refused(tmp_path):
    text = '''ds = """
[general]
resolution = [1024, 1024]
caption_extension = ".txt"
[[datasets]]
image_directory = "/d/img"
cache_directory = "/d/cache"
"""
with open("/workspace/dataset.toml", "w") as f:
    f.write(ds)
'''
    assert "not a trainer config" in refusal(tmp_path, "prepare.py", text) or \
        "no trainer calls" in refusal(tmp_path, "prepare.py", text)


# --- 8. refusals -------------------------------------------------------------------------------------------------------

CLONED_OWN = """#!/bin/bash
git clone https://github.com/{repo}.git
cd {folder}
accelerate launch --mixed_precision="fp16" train.py \\
  --pretrained_model_name_or_path="stabilityai/stable-diffusion-xl-base-1.0" \\
  --dataset_name="lambdalabs/naruto-blip-captions" --output_dir="out" --resolution=1024 \\
  --train_batch_size=1 --gradient_accumulation_steps=4 --max_train_steps=500 --learning_rate=1e-4 \\
  --mixed_precision="fp16" --gradient_checkpointing --rank=32
"""


@pytest.mark.parametrize("repo,folder", [("someone/lora-sdxl", "lora-sdxl"), ("me/style-trainer", "style-trainer")])
def test_a_cloned_repositorys_generic_train_py_is_its_own(tmp_path, repo, folder):
    assert "runs train.py, a training script none of the trainers" in refusal(
        tmp_path, "run.sh", CLONED_OWN.format(repo=repo, folder=folder))


def test_a_renamed_example_copy_with_no_clone_is_still_read_as_diffusers(tmp_path):
    text = CLONED_OWN.format(repo="x/y", folder="y").split("\n", 3)[3]  # the launch alone: a renamed copy, as before
    assert read(tmp_path, "run.sh", "#!/bin/bash\n" + text)[0] == "diffusers"


@pytest.mark.parametrize("line", ["autotrain dreambooth --model stabilityai/stable-diffusion-xl-base-1.0 --xformers "
                                  "--mixed-precision fp16 --image-path img --prompt sks",
                                  "python -m autotrain.trainers.dreambooth --training_config params.json"])
def test_autotrain_is_recognised(tmp_path, line):
    assert "AutoTrain" in refusal(tmp_path, "train.sh", f"#!/bin/bash\n{line}\n")
    nb = {"cells": [{"cell_type": "code", "metadata": {}, "outputs": [], "source": [f"%%bash\n{line}\n"]}],
          "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    assert "AutoTrain" in refusal(tmp_path, "train.ipynb", json.dumps(nb))


@pytest.mark.parametrize("script", ["sdxl_gen_img.py --ckpt m.safetensors --fp16 --prompt x",
                                    "gen_img.py --ckpt m.safetensors --xformers --prompt x",
                                    "networks/resize_lora.py --model a.safetensors --new_rank 16",
                                    "networks/sdxl_merge_lora.py --models a.safetensors b.safetensors",
                                    "flux_minimal_inference.py --ckpt_path f.safetensors --prompt x"])
def test_the_trainers_generation_and_lora_tools_train_nothing(tmp_path, script):
    assert "rather than training one" in refusal(tmp_path, "tool.sh", f"#!/bin/bash\npython {script}\n")


def test_sd_scripts_training_scripts_are_not_taken_for_tools(tmp_path):
    assert read(tmp_path, "t.sh", "accelerate launch sdxl_train_network.py --xformers --mixed_precision bf16\n")[0] == \
        "sd-scripts"


@pytest.mark.parametrize("text,whose", [
    ('[general]\nresolution = [960, 544]\ncaption_extension = ".txt"\n[[datasets]]\nvideo_directory = "/v"\n'
     'cache_directory = "/c"\ntarget_frames = [1, 25]\n', "musubi-tuner's"),
    ('[[datasets]]\nresolution = 1024\n[[datasets.subsets]]\nimage_dir = "img"\nnum_repeats = 2\n', "sd-scripts'"),
])
def test_a_dataset_config_says_none_of_its_settings_reaches_attention(tmp_path, text, whose):
    msg = refusal(tmp_path, "dataset.toml", text)
    assert f"is a dataset config ({whose}" in msg and "chooses the attention backend, the dtype or compile" in msg


# --- 9. sd-scripts' full_fp16 / full_bf16 assertion -------------------------------------------------------------------

@pytest.mark.parametrize("mp,full,dtype", [("fp16", "full_bf16", ""), ("no", "full_bf16", ""), ("bf16", "full_fp16", ""),
                                           ("bf16", "full_bf16", "bfloat16"), ("fp16", "full_fp16", "float16")])
def test_full_precision_must_match_mixed_precision(tmp_path, mp, full, dtype):
    line = f"accelerate launch sdxl_train_network.py --xformers --mixed_precision {mp} --{full}\n"
    assert read(tmp_path, "t.sh", line) == ("sd-scripts", ["xformers"], dtype, "none")


SETTINGS_MODULE = """import os


class Config:
    SECRET_KEY = os.getenv("SECRET_KEY", "x")
    {name} = {{
{body}
    }}


config = Config()
"""
SDS_BODY = """        'pretrained_model_name_or_path': '/m/model.safetensors',
        'network_module': 'networks.lora',
        'network_dim': 32,
        'network_alpha': 16,
        'optimizer_type': 'AdamW8bit',
        'caption_extension': '.txt',
        'enable_bucket': True,
        'mixed_precision': '{mp}',
        'xformers': {xf},
        'sdpa': {sdpa},
        'save_model_as': 'safetensors',"""
MUSUBI_BODY = """        'dit': '/m/wan2.1_t2v_14B_bf16.safetensors',
        'vae': '/m/wan_2.1_vae.safetensors',
        't5': '/m/models_t5_umt5-xxl-enc-bf16.pth',
        'task': 't2v-14B',
        'dataset_config': '/d/dataset.toml',
        'network_module': 'networks.lora_wan',
        'timestep_sampling': 'shift',
        'discrete_flow_shift': 3.0,
        'mixed_precision': 'bf16',
        'flash_attn': True,"""


@pytest.mark.parametrize("name,body,want", [
    ("LORA_TRAINING_CONFIG", SDS_BODY.format(mp="fp16", xf="True", sdpa="False"), ("sd-scripts", ["xformers"], "float16",
                                                                                  "none")),
    ("TRAIN_ARGS", SDS_BODY.format(mp="bf16", xf="False", sdpa="True"), ("sd-scripts", ["sdpa"], "bfloat16", "none")),
    ("WAN_LORA", MUSUBI_BODY, ("musubi", ["fa2"], "bfloat16", "none")),
])
def test_a_settings_dict_an_app_module_defines(tmp_path, name, body, want):
    assert read(tmp_path, "config.py", SETTINGS_MODULE.format(name=name, body=body)) == want


def test_a_settings_dict_the_script_uses_itself_is_not_read_here(tmp_path):
    text = SETTINGS_MODULE.format(name="TRAIN_ARGS", body=SDS_BODY.format(mp="fp16", xf="True", sdpa="False")) + \
        "\nprint(Config.TRAIN_ARGS)\n"
    assert "no trainer calls" in refusal(tmp_path, "config.py", text)


def test_a_dict_of_settings_every_trainer_has_is_not_a_trainers(tmp_path):
    body = "\n".join(f"        '{k}': {v}," for k, v in (("learning_rate", 1e-4), ("batch_size", 4), ("epochs", 3),
                                                           ("seed", 42), ("output_dir", "'out'"),
                                                           ("mixed_precision", "'bf16'"), ("gradient_checkpointing",
                                                                                           True), ("max_steps", 100)))
    assert "no trainer calls" in refusal(tmp_path, "config.py", SETTINGS_MODULE.format(name="HPARAMS", body=body))
