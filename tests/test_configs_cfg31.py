"""Helper cfg31 (session 8, issue 24): claimed trainers' files in the shapes users keep (fixtures/configs/round28/), read
on the trainer's own evidence. Each mechanism has variants written for the test (another trainer, name, layout or
spelling of the same shape) and near misses that must stay refused or keep what they read. The files are written here.

1. A launcher that installs one trainer from the trainer's own repository and runs a training script of its own that
   is not here (configs/installed.py): that trainer, nothing else known, the script named as unread. A Dockerfile is
   known by its text whatever its name (FROM, then RUN / CMD / ENTRYPOINT), and Podman's Containerfile by its name.
2. `python -m pip install --upgrade pip` (and venv, ensurepip) are an installer's options, no trainer's evidence.
3. A notebook's `!{name}` / `!$name` runs the string the name holds there (IPython's var_expand), as a Python
   launcher's subprocess.run(name, shell=True) would.
4. A config dict handed through a function of the script that returns the dict it is given (the kohya-trainer
   notebooks' `toml.dumps(eliminate_none_variable(train_config))`) is that dict.
5. sd-scripts run with every option computed at run time (`accelerate launch train_network.py {train_args}`): the
   settings are the one sd-scripts training config the script writes, else unknown — never sd-scripts' defaults."""

from __future__ import annotations

import json

import pytest

from attn_doctor import configs
from configs_corpus import read, refusal, write


def load(tmp_path, name, text):
    return configs.load(write(tmp_path, name, text))


# --- 1. a launcher that installs one trainer and runs its own script that is not here ---------------------------------

AI_TOOLKIT_IMAGE = """FROM nvidia/cuda:12.4.1-devel-ubuntu22.04
ENV DEBIAN_FRONTEND=noninteractive
RUN apt-get update && apt-get install -y git python3-pip
WORKDIR /app
RUN git clone https://github.com/ostris/ai-toolkit.git && cd ai-toolkit && pip install -r requirements.txt
COPY {script} .
CMD ["python", "-u", "{script}"]
"""


@pytest.mark.parametrize("name, text, trainer, script", [
    # a Dockerfile kept under a name of its folder (no `Dockerfile` in it): known by its text
    ("serverless__Dockerfile", AI_TOOLKIT_IMAGE.format(script="handler.py"), "ai-toolkit", "handler.py"),
    # Podman's name; diffusion-pipe cloned over SSH, ENTRYPOINT in exec form
    ("Containerfile", "# trainer image\nARG BASE=pytorch/pytorch:2.5.1-cuda12.4-cudnn9-devel\nFROM $BASE\n"
                      "RUN git clone --recurse-submodules git@github.com:tdrussell/diffusion-pipe /opt/dp\n"
                      "COPY train_job.py /app/\nENTRYPOINT [\"python\", \"/app/train_job.py\"]\n",
     "diffusion-pipe", "train_job.py"),
    # a shell entrypoint that clones musubi-tuner and execs a worker of its own
    ("entrypoint.sh", "#!/bin/bash\nset -e\n[ -d /opt/musubi ] || git clone --depth 1 "
                      "https://github.com/kohya-ss/musubi-tuner.git /opt/musubi\ncd /opt/musubi && pip install -e .\n"
                      "exec python /workspace/worker.py \"$@\"\n", "musubi", "worker.py"),
    # LLaMA-Factory's repository (mixed case in the URL), a RunPod handler
    ("Dockerfile", "FROM python:3.11\nRUN git clone https://github.com/hiyouga/LLaMA-Factory.git /lf && "
                   "pip install -e /lf\nCOPY rp_handler.py /\nCMD python -u /rp_handler.py\n", "llama-factory",
     "rp_handler.py"),
])
def test_a_launcher_that_installs_one_trainer_and_runs_a_script_not_here(tmp_path, name, text, trainer, script):
    cfg = load(tmp_path, name, text)
    assert cfg["detected"]["trainer"] == trainer
    assert cfg["required"] == [] and cfg["dtype"] is None and cfg["compile_mode"] is None
    assert cfg["unread"] == [script]


@pytest.mark.parametrize("name, text", [
    # what it runs samples or fetches weights: no training run
    ("Dockerfile", AI_TOOLKIT_IMAGE.format(script="download_models.py")),
    ("Dockerfile", "FROM python:3.10\nRUN git clone https://github.com/kohya-ss/sd-scripts /sd\n"
                   "CMD [\"python\", \"/sd/gen_img.py\", \"--ckpt\", \"/m/model.safetensors\"]\n"),
    # a repository no reader claims (ComfyUI; Akegarasu's lora-scripts GUI)
    ("Dockerfile", "FROM python:3.10\nRUN git clone https://github.com/comfyanonymous/ComfyUI /c\nCOPY handler.py /\n"
                   "CMD [\"python\", \"-u\", \"/handler.py\"]\n"),
    ("Dockerfile", "FROM python:3.10\nRUN git clone --recurse-submodules https://github.com/Akegarasu/lora-scripts\n"
                   "CMD [\"python\", \"gui.py\", \"--listen\"]\n"),
    # two repositories: which one trains is the handler's business
    ("Dockerfile", "FROM python:3.10\nRUN git clone https://github.com/ostris/ai-toolkit /a && "
                   "git clone https://github.com/kohya-ss/sd-scripts /s\nCMD [\"python\", \"handler.py\"]\n"),
    # an installer that clones the trainer and runs nothing of its own
    ("setup.sh", "#!/bin/bash\ngit clone https://github.com/kohya-ss/sd-scripts\ncd sd-scripts\n"
                 "python -m venv venv\npython -m pip install --upgrade pip\npip install -r requirements.txt\n"),
])
def test_near_miss_a_launcher_that_installs_a_trainer_but_runs_no_training_of_its_own(tmp_path, name, text):
    refusal(tmp_path, name, text)


def test_near_miss_the_script_it_runs_is_here_and_is_no_trainers(tmp_path):
    (tmp_path / "handler.py").write_text("import runpod\n\ndef handler(job):\n    return {'ok': True}\n\n"
                                         "runpod.serverless.start({'handler': handler})\n")
    refusal(tmp_path, "Dockerfile", AI_TOOLKIT_IMAGE.format(script="handler.py"))


# --- 2. pip's own options are no trainer's ---------------------------------------------------------------------------

def test_pips_upgrade_option_is_not_sd_scripts_evidence(tmp_path):
    # (before: `--upgrade pip` was a running program's option, and the repository's name beside it made the installer
    # an sd-scripts run read with sd-scripts' defaults, float32)
    text = "#!/bin/bash\ngit clone https://github.com/kohya-ss/sd-scripts.git\ncd sd-scripts\n" \
           "python -m pip install --upgrade pip\npython -m pip install -r requirements.txt\n"
    refusal(tmp_path, "install.sh", text)


def test_near_miss_a_trainers_own_options_still_count_beside_pip(tmp_path):
    text = "python -m pip install --upgrade pip\ncd sd-scripts\n" \
           "accelerate launch train_network.py --pretrained_model_name_or_path m.safetensors --xformers " \
           "--mixed_precision fp16 --network_module networks.lora\n"
    assert read(tmp_path, "train.sh", text)[:3] == ("sd-scripts", ["xformers"], "float16")


# --- 3-5. a kohya-trainer-style notebook / script: options and config built in Python --------------------------------

def notebook(*cells: str) -> str:
    return json.dumps({"cells": [{"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None,
                                  "source": c.splitlines(keepends=True)} for c in cells],
                       "metadata": {}, "nbformat": 4, "nbformat_minor": 5})


TO_ARGS = '''def train(config):
    args = ""
    for k, v in config.items():
        if isinstance(v, str):
            args += f'--{k}="{v}" '
        elif isinstance(v, bool) and v:
            args += f"--{k} "
    return args
'''
TIDY = '''def tidy(config):
    for key in config:
        if isinstance(config[key], dict):
            for sub in config[key]:
                if config[key][sub] == "":
                    config[key][sub] = None
    return config
'''


def kohya_notebook(attention: str, precision: str, bang: str = "!{final_args}", script: str = "train_network.py",
                   dump: bool = True) -> str:
    config = f'''import toml
optimization = "{attention}"  # @param ["xformers", "scaled dot-product attention"]
mixed_precision = "{precision}"  # @param ["no", "fp16", "bf16"]
train_config = {{
    "model_arguments": {{"pretrained_model_name_or_path": "/content/model.safetensors"}},
    "training_arguments": {{
        "output_dir": "/content/out",
        "mem_eff_attn": False,
        "sdpa": True if optimization == "scaled dot-product attention" else False,
        "xformers": True if optimization == "xformers" else False,
        "mixed_precision": mixed_precision,
    }},
}}
config_path = "/content/LoRA/config/config_file.toml"
config_str = toml.dumps(tidy(train_config))
with open(config_path, "w") as f:
    f.write(config_str)
'''
    launch = TO_ARGS + '''
train_conf = {"config_file": "/content/LoRA/config/config_file.toml"}
accelerate_conf = {"config_file": "/content/accelerate_config/config.yaml"}
final_args = f"accelerate launch {train(accelerate_conf)} ''' + script + ''' {train(train_conf)}"
''' + bang + "\n"
    return notebook("!git clone https://github.com/kohya-ss/sd-scripts /content/sd", TIDY,
                    config if dump else "mixed_precision = 'fp16'", launch)


@pytest.mark.parametrize("attention, precision, bang, script, want", [
    ("xformers", "fp16", "!{final_args}", "train_network.py", (["xformers"], "float16")),
    ("scaled dot-product attention", "bf16", "!$final_args", "sdxl_train_network.py", (["sdpa"], "bfloat16")),
])
def test_a_kohya_trainer_notebook_reads_the_config_it_writes(tmp_path, attention, precision, bang, script, want):
    got = read(tmp_path, "lora_trainer.ipynb", kohya_notebook(attention, precision, bang, script))
    assert got[:3] == ("sd-scripts", *want)


def test_a_python_export_of_the_same_notebook_reads_the_same(tmp_path):
    # (round 28's mojodevagentfour: the notebook as a .py, `!{final_args}` as os.system(final_args))
    cells = json.loads(kohya_notebook("xformers", "fp16"))["cells"]
    code = "\n".join("".join(c["source"]) for c in cells[1:]).replace("!{final_args}", "import os\nos.system(final_args)")
    assert read(tmp_path, "trainer_v2.py", code)[:3] == ("sd-scripts", ["xformers"], "float16")


def test_near_miss_options_built_at_run_time_with_no_config_written_are_unknown(tmp_path):
    # before: sd-scripts' defaults (float32, nothing required) for a run whose options nobody can see
    cfg = load(tmp_path, "lora_trainer.ipynb", kohya_notebook("xformers", "fp16", dump=False))
    assert cfg["detected"]["trainer"] == "sd-scripts"
    assert cfg["dtype"] is None and cfg["required"] == []


def test_near_miss_a_final_args_that_only_tags_images_trains_nothing(tmp_path):
    text = notebook("!git clone https://github.com/kohya-ss/sd-scripts /content/sd",
                    'args = "--batch_size 8 /content/train"\nfinal_args = f"python tag_images_by_wd14_tagger.py {args}"\n'
                    "!{final_args}\n")
    refusal(tmp_path, "tagger.ipynb", text)


def test_near_miss_a_function_that_builds_a_new_dict_is_not_its_argument(tmp_path):
    # a helper that returns a dict of its own (not the one it is given) is read as that dict: here nothing known
    text = kohya_notebook("xformers", "fp16").replace(
        "    return config\\n", "    return {k: v for k, v in config.items() if v}\\n")
    cfg = load(tmp_path, "lora_trainer.ipynb", text)
    assert cfg["detected"]["trainer"] == "sd-scripts" and cfg["dtype"] is None


# --- 6. PowerShell's Start-Process starts its -FilePath with its -ArgumentList ----------------------------------------

@pytest.mark.parametrize("text, want", [
    # a copy of lora-scripts' train_by_toml.ps1: the TOML is the caller's (a param with no default) → unknown, not
    # sd-scripts' defaults
    ("param (\n  [string]$config_file,\n  [int]$num_cpu_threads_per_process = 1\n)\n.\\venv\\Scripts\\activate\n"
     "try{\n  $p = Start-Process -FilePath python -ArgumentList \"-m\", \"accelerate.commands.launch\", "
     "\"--num_cpu_threads_per_process=$num_cpu_threads_per_process\", \"./sd-scripts/train_network.py\", "
     "\"--config_file=$config_file\" -NoNewWindow -PassThru -Wait\n  $p.WaitForExit()\n} catch {\n  Write-Output fail\n}\n",
     ("sd-scripts", [], "", "none")),
    # the argument list as one string, -Wait before it
    ("Start-Process -Wait -FilePath \"python\" -ArgumentList \"-m accelerate.commands.launch sd-scripts/train_network.py "
     "--pretrained_model_name_or_path=m.safetensors --network_module=networks.lora --xformers --mixed_precision=bf16\"\n",
     ("sd-scripts", ["xformers"], "bfloat16", "none")),
    # positional program and arguments, musubi-tuner
    ("Start-Process accelerate \"launch\", \"--mixed_precision\", \"bf16\", \"wan_train_network.py\", \"--task\", "
     "\"t2v-1.3B\", \"--dit\", \"w.safetensors\", \"--dataset_config\", \"d.toml\", \"--sdpa\", \"--mixed_precision\", "
     "\"bf16\", \"--network_module\", \"networks.lora_wan\" -NoNewWindow -Wait\n",
     ("musubi", ["sdpa"], "bfloat16", "none")),
])
def test_start_process_runs_its_file_with_its_argument_list(tmp_path, text, want):
    assert read(tmp_path, "train.ps1", text) == want


def test_near_miss_start_process_of_a_gui_trains_nothing(tmp_path):
    refusal(tmp_path, "run_gui.ps1", "Start-Process -FilePath python -ArgumentList \"gui.py\", \"--listen\" -Wait\n")


# --- 7. a script downloaded from elsewhere under an example's name is that source's ------------------------------------

DREAMBOOTH = ("!python3 train_dreambooth.py --pretrained_model_name_or_path=runwayml/stable-diffusion-v1-5 "
              "--instance_data_dir=/content/data --output_dir=/content/out --resolution=512 --train_batch_size=1 "
              "--mixed_precision=fp16 --learning_rate=1e-6 --max_train_steps=800{extra}\n")


@pytest.mark.parametrize("fetch", [
    "!wget -q https://gist.githubusercontent.com/someone/abc123/raw/def/train_dreambooth.py\n",
    "!curl -L -o train_dreambooth.py https://raw.githubusercontent.com/ShivamShrirao/diffusers/main/examples/dreambooth/"
    "train_dreambooth.py\n",
])
def test_a_downloaded_fork_of_an_example_with_options_of_its_own_is_not_diffusers(tmp_path, fetch):
    text = notebook(fetch, DREAMBOOTH.format(extra=" --save_interval=10000 --concepts_list=concepts_list.json "
                                                   "--save_sample_prompt=\"photo of sks\""))
    assert "train_dreambooth.py" in refusal(tmp_path, "dreambooth.ipynb", text)


@pytest.mark.parametrize("fetch", [
    # diffusers' own example, fetched from its repository
    "!wget -q https://raw.githubusercontent.com/huggingface/diffusers/main/examples/dreambooth/train_dreambooth.py\n",
    # a user's own copy that takes the example's options and nothing else: read as the example (round 3a2's nuwandda)
    "!wget https://raw.githubusercontent.com/someone/my-dreambooth/main/train_dreambooth.py\n",
])
def test_near_miss_the_example_itself_or_an_exact_copy_stays_diffusers(tmp_path, fetch):
    got = read(tmp_path, "dreambooth.ipynb", notebook(fetch, DREAMBOOTH.format(extra="")))
    assert got[0] == "diffusers" and got[2] == "float16"


# --- 8. a model loaded after the last trainer.train() is not the trained one ------------------------------------------

TRAIN_THEN_TRY = '''import torch
from transformers import AutoModelForCausalLM, TrainingArguments, Trainer
model = AutoModelForCausalLM.from_pretrained("TinyLlama/TinyLlama-1.1B-Chat-v1.0")
args = TrainingArguments(output_dir="/tmp/out", per_device_train_batch_size=1, num_train_epochs=1)
{train}
base = AutoModelForCausalLM.from_pretrained("TinyLlama/TinyLlama-1.1B-Chat-v1.0", torch_dtype=torch.float16)
'''


@pytest.mark.parametrize("train", [
    "trainer = Trainer(model=model, args=args, train_dataset=ds)\ntrainer.train()",
    "Trainer(model=model, args=args, train_dataset=ds).train()",
    "dpo_trainer = Trainer(model=model, args=args)\ndpo_trainer.train()",
])
def test_a_model_loaded_after_training_is_for_inference(tmp_path, train):
    assert read(tmp_path, "finetune.py", TRAIN_THEN_TRY.format(train=train))[2] == ""


@pytest.mark.parametrize("before", [
    "model.train()",  # PyTorch's mode switch, before the load: the load still feeds the trainer below
    "old = Trainer(model=model, args=args)\nold.train()",  # an earlier run; the float16 model is trained again below
])
def test_near_miss_a_load_before_the_last_training_is_the_trained_model(tmp_path, before):
    text = TRAIN_THEN_TRY.format(train=before) + \
        "trainer = Trainer(model=base, args=args, train_dataset=ds)\ntrainer.train()\n"
    assert read(tmp_path, "finetune.py", text)[2] == "float16"


# --- 9. the GPU a cloud function is pinned to answers the bf16 probe ---------------------------------------------------

UNSLOTH_APP = '''import modal
app = modal.App("finetune")
{decorators}
def main():
    from unsloth import FastLanguageModel, is_bfloat16_supported
    from trl import SFTTrainer
    from transformers import TrainingArguments
    model, tokenizer = FastLanguageModel.from_pretrained(model_name="unsloth/llama-3-8b-bnb-4bit", dtype=None,
                                                         load_in_4bit=True)
    trainer = SFTTrainer(model=model, tokenizer=tokenizer, args=TrainingArguments(
        output_dir="out", fp16=not is_bfloat16_supported(), bf16=is_bfloat16_supported()))
    trainer.train()
'''
HF_APP = '''import modal
import torch
from transformers import AutoModelForCausalLM, Trainer, TrainingArguments
stub = modal.Stub("sft")
@stub.function(gpu="{gpu}", timeout=3600)
def train():
    model = AutoModelForCausalLM.from_pretrained("Qwen/Qwen2.5-0.5B")
    args = TrainingArguments(output_dir="o", bf16=torch.cuda.is_bf16_supported(),
                             fp16=not torch.cuda.is_bf16_supported())
    Trainer(model=model, args=args).train()
'''


@pytest.mark.parametrize("name, text, dtype", [
    ("app.py", UNSLOTH_APP.format(decorators='@app.function(gpu="H100", timeout=86400)'), "bfloat16"),
    ("app.py", UNSLOTH_APP.format(decorators='@app.function(gpu="T4")'), "float16"),
    ("modal_sft.py", HF_APP.format(gpu="A100-80GB"), "bfloat16"),
    ("modal_sft.py", HF_APP.format(gpu="t4:2"), "float16"),
])
def test_the_pinned_gpu_answers_is_bf16_supported(tmp_path, name, text, dtype):
    assert read(tmp_path, name, text)[2] == dtype


@pytest.mark.parametrize("decorators", [
    "",  # no GPU pinned: the GPU it meets decides
    '@app.function(gpu="T4")\ndef probe():\n    pass\n\n@app.function(gpu="H100")',  # two that disagree
    '@app.function(gpu="MI300X")',  # a GPU not listed
])
def test_near_miss_no_single_known_gpu_leaves_it_to_the_gpu(tmp_path, decorators):
    assert read(tmp_path, "app.py", UNSLOTH_APP.format(decorators=decorators))[2] == ""


# --- 10. a script path reset to the first of several candidates of one file name ---------------------------------------
# (a RunPod worker is refused as one unless what it runs is a trainer's: the script's name is what says so)

HANDLER = '''import subprocess
import runpod
from pathlib import Path
SCRIPT = "{first}"
def setup():
    global SCRIPT
    if not Path(SCRIPT).exists():
        candidates = {candidates}
        for {var} in candidates:
            if Path({var}).exists():
                SCRIPT = {var}
                break
def handler(job):
    cmd = ["python", SCRIPT, "--pretrained_model_name_or_path", job["model"],
           "--network_module", "networks.lora", "--sdpa", "--mixed_precision", "fp16", "--cache_latents"]
    subprocess.run(cmd, check=True)
runpod.serverless.start({{"handler": handler}})
'''


@pytest.mark.parametrize("first, candidates, var", [
    ("/workspace/sd-scripts/sdxl_train_network.py", '["/tmp/sd-scripts/sdxl_train_network.py", '
                                                    '"/app/kohya_ss/sd-scripts/sdxl_train_network.py"]', "alt"),
    ("/opt/sd/train_network.py", '("/sd-scripts/train_network.py",)', "p"),
])
def test_a_script_path_of_one_file_name_whichever_candidate_wins(tmp_path, first, candidates, var):
    got = read(tmp_path, "rp_handler.py", HANDLER.format(first=first, candidates=candidates, var=var))
    assert got[:3] == ("sd-scripts", ["sdpa"], "float16")


def test_near_miss_candidates_of_different_scripts_say_nothing():
    # which of two scripts runs is the machine's to say: the command's script stays a value computed at run time
    from attn_doctor.configs.launchers import python_commands

    text = HANDLER.format(first="/workspace/sd-scripts/sdxl_train_network.py",
                          candidates='["/workspace/sd-scripts/flux_train_network.py"]', var="alt")
    assert python_commands(text).startswith("python $PY_VALUE --pretrained_model_name_or_path")


# --- 11. a Makefile known by its text; a justfile's recipes -------------------------------------------------------------

def test_a_makefile_under_another_name_is_read_as_one(tmp_path):
    text = ("PREC ?= bf16\n.PHONY: train\n\ntrain:\n\taccelerate launch sd-scripts/train_network.py "
            "--pretrained_model_name_or_path=m.safetensors --network_module=networks.lora --xformers "
            "--mixed_precision=$(PREC)\n")
    assert read(tmp_path, "tasks", text)[:3] == ("sd-scripts", ["xformers"], "bfloat16")


def test_near_miss_a_procfile_is_no_makefile():
    from attn_doctor.configs import MAKEFILE_TEXT

    assert not MAKEFILE_TEXT.search("web: gunicorn app:app\nworker: python worker.py\n")
    assert not MAKEFILE_TEXT.search("CFG := a.yaml\n\tindented text\n")
    assert MAKEFILE_TEXT.search("all: train\ntrain:\n\tpython train.py\n")


JUSTFILE = '''set dotenv-load
model := "Qwen/Qwen2.5-7B-Instruct"

# train a LoRA
train cfg="configs/qwen_lora.yaml":
    @echo "training {{model}}"
    llamafactory-cli train {{cfg}} model_name_or_path={{model}} flash_attn=fa2 bf16=true

eval:
    python eval.py
'''


def test_a_justfiles_recipe_runs_with_its_variables_and_defaults(tmp_path):
    cfg = load(tmp_path, "justfile", JUSTFILE)
    assert (cfg["detected"]["trainer"], cfg["required"], cfg["dtype"]) == ("llama-factory", ["fa2"], "bfloat16")
    assert cfg["unread"] == ["configs/qwen_lora.yaml"]  # the recipe's default config, named, not guessed


def test_a_justfile_runs_axolotl_on_the_yaml_beside_it(tmp_path):
    (tmp_path / "lora.yml").write_text("base_model: NousResearch/Llama-3.2-1B\nadapter: lora\ndatasets:\n"
                                       "  - path: tatsu-lab/alpaca\n    type: alpaca\nflash_attention: true\nbf16: true\n")
    text = 'cfg := "lora.yml"\n\ntrain:\n    accelerate launch -m axolotl.cli.train {{cfg}}\n'
    assert read(tmp_path, "justfile", text)[:3] == ("axolotl", ["fa2"], "bfloat16")


def test_near_miss_a_justfile_that_runs_the_repositorys_own_script(tmp_path):
    text = 'epochs := "3"\n\ntrain:\n    uv run python scripts/train.py --epochs {{epochs}} --lr 2e-4\n'
    assert "train.py" in refusal(tmp_path, "justfile", text)


# --- 12. a command string grown with += where the script settles the branch ---------------------------------------------

WRAPPER = '''import argparse
import os
parser = argparse.ArgumentParser()
parser.add_argument("--xformers", type=bool, default={default})
parser.add_argument("--mixed_precision", type=str, default="fp16")
args = parser.parse_args()
XF = bool(args.xformers)
cmd = ("accelerate launch sd-scripts/train_network.py --pretrained_model_name_or_path=m.safetensors "
       "--network_module=networks.lora")
cmd += " --mixed_precision=bf16"
{grow}
os.system(cmd)
'''


@pytest.mark.parametrize("default, grow, want", [
    ("True", "if XF:\n    cmd += ' --xformers'", (["xformers"], "bfloat16")),
    ("True", "if args.xformers:\n    cmd += f' --xformers'\nelse:\n    cmd += ' --sdpa'", (["xformers"], "bfloat16")),
    ("False", "if XF:\n    cmd += ' --xformers'\nelse:\n    cmd += ' --sdpa'", (["sdpa"], "bfloat16")),
])
def test_a_command_string_grown_in_a_settled_branch(tmp_path, default, grow, want):
    assert read(tmp_path, "launch_kohya.py", WRAPPER.format(default=default, grow=grow))[:3] == ("sd-scripts", *want)


@pytest.mark.parametrize("grow", [
    "if os.environ.get('XF'):\n    cmd += ' --xformers'",  # the environment decides at run time
    "if not XF:\n    cmd += ' --xformers'",  # settled, the other way
    "for flag in ['--xformers']:\n    cmd += ' --xformers'",  # a loop: not read as a branch the script settles
])
def test_near_miss_growth_the_script_does_not_settle_is_left_out(tmp_path, grow):
    assert read(tmp_path, "launch_kohya.py", WRAPPER.format(default="True", grow=grow))[:3] == \
        ("sd-scripts", [], "bfloat16")


# --- 13. an Unsloth notebook's phase that loads its model through transformers itself ----------------------------------

PHASES = '''from unsloth import FastLanguageModel
from trl import SFTTrainer, SFTConfig, DPOTrainer, DPOConfig
from transformers import AutoModelForCausalLM
model, tok = FastLanguageModel.from_pretrained("unsloth/Qwen2.5-7B", dtype=None, load_in_4bit=True{fast_attn})
sft = SFTTrainer(model=model, args=SFTConfig(output_dir="sft", bf16=True))
sft.train()
{reload}
'''
DPO = '''policy = {cls}.from_pretrained("sft", attn_implementation="{impl}", dtype="bfloat16")
dpo_trainer = DPOTrainer(model=policy, args=DPOConfig(output_dir="dpo", bf16=True))
dpo_trainer.train()'''


@pytest.mark.parametrize("cls, impl, want", [
    ("AutoModelForCausalLM", "flash_attention_2", ["fa2"]),
    ("Qwen2ForCausalLM", "sdpa", ["sdpa"]),
])
def test_a_phase_loaded_through_transformers_asks_for_its_attention(tmp_path, cls, impl, want):
    text = PHASES.format(fast_attn="", reload=DPO.format(cls=cls, impl=impl))
    assert read(tmp_path, "three_phase.py", text)[:3] == ("unsloth", want, "bfloat16")


@pytest.mark.parametrize("fast_attn, reload", [
    # a load after the last training is for generating
    ("", 'gen = AutoModelForCausalLM.from_pretrained("sft", attn_implementation="flash_attention_2")'),
    # FastLanguageModel drops an attn_implementation it is given (unsloth loader.py), as before
    (', attn_implementation="flash_attention_2"', ""),
])
def test_near_miss_no_trained_phase_asks_for_it(tmp_path, fast_attn, reload):
    assert read(tmp_path, "sft.py", PHASES.format(fast_attn=fast_attn, reload=reload))[:3] == \
        ("unsloth", [], "bfloat16")


def test_near_miss_an_image_that_serves_the_trainers_web_ui(tmp_path):
    text = ("FROM python:3.11\nRUN git clone https://github.com/hiyouga/LLaMA-Factory.git /lf && pip install -e /lf\n"
            "COPY entrypoint.py /\nCMD [\"llamafactory-cli\", \"webui\"]\n")
    assert "webui" in refusal(tmp_path, "Dockerfile", text)


def test_near_miss_prose_is_no_dockerfile():
    from attn_doctor.configs import DOCKERFILE_TEXT

    assert not DOCKERFILE_TEXT.match("From the docs:\nRun the script with python train.py\n")
    assert not DOCKERFILE_TEXT.match("# notes\nthen FROM ubuntu\nRUN x\n")  # FROM not the first instruction
    assert DOCKERFILE_TEXT.match("# syntax=docker/dockerfile:1\nARG CUDA=12.4\nFROM nvidia/cuda:${CUDA}-base\n"
                                 "WORKDIR /app\nENTRYPOINT [\"python\", \"train.py\"]\n")


def test_a_second_makefile_under_another_name(tmp_path):
    # (a rule with prerequisites, a `:=` variable, the recipe running axolotl on the YAML beside it)
    (tmp_path / "qlora.yml").write_text("base_model: NousResearch/Llama-3.2-1B\nadapter: qlora\nload_in_4bit: true\n"
                                        "datasets:\n  - path: tatsu-lab/alpaca\n    type: alpaca\nbf16: true\n"
                                        "sdp_attention: true\n")
    text = "CFG := qlora.yml\n\nprep:\n\tpython -m axolotl.cli.preprocess $(CFG)\n\ntrain: prep\n" \
           "\taccelerate launch -m axolotl.cli.train $(CFG)\n"
    assert read(tmp_path, "build_and_train", text)[:3] == ("axolotl", ["sdpa"], "bfloat16")


@pytest.mark.parametrize("text, trainer, script", [
    ("FROM winglian/axolotl-base:main-latest\nRUN pip install \"axolotl[flash-attn,deepspeed]>=0.6\"\n"
     "COPY handler.py /\nCMD [\"python\", \"-u\", \"/handler.py\"]\n", "axolotl", "handler.py"),
    ("FROM python:3.11\nRUN uv pip install --system -U ms-swift\nCOPY train_job.py /app/\n"
     "ENTRYPOINT [\"python\", \"/app/train_job.py\"]\n", "ms-swift", "train_job.py"),
])
def test_a_launcher_that_installs_a_trainer_package_and_runs_a_script_not_here(tmp_path, text, trainer, script):
    cfg = load(tmp_path, "Dockerfile", text)
    assert (cfg["detected"]["trainer"], cfg["dtype"], cfg["unread"]) == (trainer, None, [script])


@pytest.mark.parametrize("text", [
    # libraries every kind of job installs
    "FROM python:3.11\nRUN pip install transformers trl peft\nCOPY handler.py /\nCMD [\"python\", \"/handler.py\"]\n",
    # a package and a clone of two trainers
    "FROM python:3.11\nRUN pip install axolotl && git clone https://github.com/hiyouga/LLaMA-Factory\n"
    "CMD [\"python\", \"handler.py\"]\n",
])
def test_near_miss_no_one_trainer_installed(tmp_path, text):
    refusal(tmp_path, "Dockerfile", text)
