"""Issue 24, helper cfg80 (session 19): every documented way a claimed trainer is run, in every wrapper it is met in.

fixtures/configs/real/TRAINERS.md ("How each claimed trainer is run") lists each trainer's entry points from its own
source. Run against a config here in each wrapper form (shell, .bat, .ps1, SLURM, Makefile, Dockerfile, notebook,
Python subprocess / os.system), a few were refused where the same line in a shell script was read: a Python wrapper's
start of a trainer entry whose name does not say "train" (axolotl's CLI module, unsloth-cli.py, ai-toolkit's run.py),
subprocess's cwd=, `simpletuner train` from Python or a notebook, LitGPT's package file run by path with --config,
LLaMA-Factory's src/train.py in a checkout under another name, torchtune's `tune cp` copy, axolotl's do_cli(). Each is
accepted now; the near misses (anyone's run.py / src/train.py / finetune/lora.py, a Lightning or accelerate config, a
preprocess step) stay refused. Every file here is synthetic, written by cfg80 in tmp_path."""

from __future__ import annotations

import json

import pytest

from attn_doctor import configs
from attn_doctor.model import UsageError

AXOLOTL_YML = """base_model: NousResearch/Llama-3.2-1B
adapter: lora
sequence_len: 2048
sample_packing: true
flash_attention: true
bf16: auto
micro_batch_size: 2
datasets:
  - path: mhenrichsen/alpaca_2k_test
    type: alpaca
output_dir: ./outputs/lora-out
"""

AI_TOOLKIT_JOB = """job: extension
config:
  name: my_first_lora
  process:
    - type: sd_trainer
      training_folder: output
      network:
        type: lora
        linear: 16
        linear_alpha: 16
      train:
        batch_size: 1
        steps: 2000
        dtype: bf16
        attention_backend: flash
      model:
        name_or_path: black-forest-labs/FLUX.1-dev
        arch: flux
"""

LLAMA_FACTORY_YAML = """model_name_or_path: Qwen/Qwen2.5-1.5B-Instruct
stage: sft
do_train: true
finetuning_type: lora
lora_target: all
dataset: identity,alpaca_en_demo
template: qwen
cutoff_len: 2048
output_dir: saves/qwen/lora/sft
bf16: true
flash_attn: fa2
"""

LITGPT_YAML = """checkpoint_dir: checkpoints/meta-llama/Llama-3.2-1B
out_dir: out/finetune/lora
precision: bf16-true
lora_r: 8
train:
  global_batch_size: 16
  micro_batch_size: 1
  epochs: 1
data:
  class_path: litgpt.data.Alpaca2k
"""

SIMPLETUNER_JSON = {"model_family": "flux", "model_type": "lora", "attention_mechanism": "sageattention",
                    "mixed_precision": "bf16", "pretrained_model_name_or_path": "black-forest-labs/FLUX.1-dev",
                    "output_dir": "output/models", "train_batch_size": 1, "max_train_steps": 1000}


def _load(path):
    return configs.load(str(path))


def _refused(path) -> str:
    with pytest.raises(UsageError) as err:
        configs.load(str(path))
    assert "\n" not in str(err.value)
    return str(err.value)


def _write(tmp_path, name, text):
    p = tmp_path / name
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(text)
    return p


# ---- a Python wrapper (or a notebook) starting a trainer's own entry point whose name does not say "train"


@pytest.mark.parametrize("start", [
    'subprocess.run(["python", "-m", "axolotl.cli.main", "train", "lora.yml"], check=True)',
    'subprocess.check_call([sys.executable, "-m", "axolotl.cli.main", "train", "lora.yml", "--debug"])',
    'os.system("python3 -m axolotl.cli.main train lora.yml")',
])
def test_a_python_wrapper_running_axolotls_cli_module_is_axolotl(tmp_path, start):
    _write(tmp_path, "lora.yml", AXOLOTL_YML)
    p = _write(tmp_path, "launch.py", f"import os, subprocess, sys\n\n\ndef main():\n    {start}\n\n\nmain()\n")
    cfg = _load(p)
    assert cfg["detected"]["trainer"] == "axolotl"
    assert cfg["required"] == ["fa2"] and cfg["dtype"] == "bfloat16"


@pytest.mark.parametrize("argv", ['["python", "LLaMA-Factory/src/llamafactory/cli.py", "train", "sft.yaml"]',
                                  '["torchrun", "--nproc_per_node", "2", "/opt/lf/src/llamafactory/launcher.py", "sft.yaml"]'])
def test_a_python_wrapper_running_llama_factorys_package_files_by_path_is_llama_factory(tmp_path, argv):
    _write(tmp_path, "sft.yaml", LLAMA_FACTORY_YAML)
    cfg = _load(_write(tmp_path, "job.py", f"import subprocess\nsubprocess.run({argv}, check=True)\n"))
    assert cfg["detected"]["trainer"] == "llama-factory" and cfg["required"] == ["fa2"]


def test_a_python_wrapper_running_unsloth_cli_is_unsloth(tmp_path):
    p = _write(tmp_path, "go.py", 'import subprocess\ncmd = ["python", "unsloth-cli.py", "--model_name", '
                                  '"unsloth/llama-3-8b", "--max_seq_length", "2048", "--load_in_4bit"]\n'
                                  'subprocess.run(cmd)\n')
    assert _load(p)["detected"]["trainer"] == "unsloth"


@pytest.mark.parametrize("start", [
    'subprocess.Popen(["python3", "/workspace/ai-toolkit/run.py", config_path])',
    'subprocess.run(["python", "run.py", config_path], cwd="/root/ai-toolkit")',
    'subprocess.run(f"cd /opt/ai_toolkit && python run.py {config_path}", shell=True)',
    'os.system(f"python C:/tools/ai-toolkit-main/run.py {config_path}")',
])
def test_a_python_wrapper_running_ai_toolkits_run_py_from_its_checkout_is_ai_toolkit(tmp_path, start):
    """The job is a path computed at run time: ai-toolkit with its settings unknown (not config/$PY_VALUE.yaml)."""
    p = _write(tmp_path, "node.py", "import os, subprocess\n\n\ndef train(name):\n"
                                    "    config_path = f'/root/ai-toolkit/config/{name}.yaml'\n"
                                    f"    {start}\n")
    cfg = _load(p)
    assert cfg["detected"]["trainer"] == "ai-toolkit"
    assert cfg["required"] == [] and not cfg["dtype"]
    assert not any("PY_VALUE" in str(u) for u in cfg["unread"])


def test_a_python_wrapper_running_run_py_on_an_ai_toolkit_job_here_reads_the_job(tmp_path):
    _write(tmp_path, "job.yaml", AI_TOOLKIT_JOB)
    p = _write(tmp_path, "start.py", 'import subprocess\nsubprocess.run(["python", "run.py", "job.yaml"])\n')
    cfg = _load(p)
    assert cfg["detected"]["trainer"] == "ai-toolkit"
    assert cfg["required"] == ["fa2"] and cfg["dtype"] == "bfloat16"


@pytest.mark.parametrize("start", [
    'subprocess.run(["python", "run.py", "--port", "7860"])',  # anyone's run.py, a server
    'subprocess.run(["python", "run.py", "config.yaml"])',  # anyone's run.py on a Lightning-style config
    'subprocess.run(["python", "run.py", "config.yaml"], cwd="/root/ai-toolkit-data")',  # not the checkout
    'subprocess.run(["python", "tools/run.py", "config.yaml"], cwd="/root/ai-toolkit")',  # not its run.py
    'subprocess.run(["accelerate", "launch", "--config_file", "accelerate.yaml", "main.py"])',
    'subprocess.run(["python", "train.py", "fit", "--config", "config.yaml"])',  # LightningCLI
])
def test_near_misses_of_python_wrappers_stay_refused(tmp_path, start):
    _write(tmp_path, "config.yaml", "model:\n  lr: 0.1\ntrainer:\n  max_epochs: 3\n  precision: bf16-mixed\n")
    _write(tmp_path, "accelerate.yaml", "compute_environment: LOCAL_MACHINE\ndistributed_type: MULTI_GPU\n"
                                        "mixed_precision: bf16\nnum_processes: 2\n")
    _refused(_write(tmp_path, "wrapper.py", f"import subprocess\n{start}\n"))


def test_axolotls_preprocess_step_from_python_is_not_a_training_run(tmp_path):
    _write(tmp_path, "lora.yml", AXOLOTL_YML)
    _refused(_write(tmp_path, "prep.py", 'from axolotl.cli.preprocess import do_cli\ndo_cli(config="lora.yml")\n'))


# ---- axolotl's do_cli() in-process


def test_axolotls_do_cli_in_process_reads_its_config_with_the_overrides(tmp_path):
    _write(tmp_path, "qlora.yml", AXOLOTL_YML)
    p = _write(tmp_path, "modal_app.py", "from axolotl.cli.train import do_cli\n\n\ndef run():\n"
                                         '    do_cli(config="qlora.yml", bf16=False, fp16=True)\n')
    cfg = _load(p)
    assert cfg["detected"]["trainer"] == "axolotl"
    assert cfg["dtype"] == "float16" and cfg["required"] == ["fa2"]


def test_a_do_cli_of_another_package_stays_refused(tmp_path):
    _write(tmp_path, "qlora.yml", AXOLOTL_YML)
    _refused(_write(tmp_path, "run.py", 'from mylib.cli.train import do_cli\ndo_cli(config="qlora.yml")\n'))


# ---- SimpleTuner's console script started from Python or a notebook


def _notebook(*lines) -> str:
    return json.dumps({"cells": [{"cell_type": "code", "metadata": {}, "source": list(lines)}], "metadata": {},
                       "nbformat": 4, "nbformat_minor": 5})


@pytest.mark.parametrize("name,text", [
    ("launch.py", 'import subprocess\nsubprocess.run(["simpletuner", "train"], check=True)\n'),
    ("train.ipynb", _notebook("!simpletuner train\n")),
    ("train.ipynb", _notebook("%cd /content\n", "!CONFIG_BACKEND=json simpletuner train\n")),
])
def test_simpletuner_train_started_from_python_or_a_notebook_reads_its_config(tmp_path, name, text):
    _write(tmp_path, "config/config.json", json.dumps(SIMPLETUNER_JSON))
    cfg = _load(_write(tmp_path, name, text))
    assert cfg["detected"]["trainer"] == "simpletuner"
    assert cfg["required"] == ["sage"] and cfg["dtype"] == "bfloat16"


def test_simpletuners_web_ui_started_from_python_stays_refused(tmp_path):
    _refused(_write(tmp_path, "ui.py", 'import subprocess\nsubprocess.run(["simpletuner", "server"])\n'))


# ---- LitGPT's package file by path


@pytest.mark.parametrize("line", [
    "python litgpt/finetune/lora.py --config ft.yaml",
    "python3 ./lit-gpt/finetune/full.py --config=ft.yaml",
    "CUDA_VISIBLE_DEVICES=0 python /opt/src/litgpt/finetune/adapter.py --config ft.yaml --train.epochs 2",
])
def test_litgpts_own_finetune_file_run_by_path_with_a_config_is_litgpt(tmp_path, line):
    _write(tmp_path, "ft.yaml", LITGPT_YAML)
    cfg = _load(_write(tmp_path, "run.sh", f"#!/bin/bash\n{line}\n"))
    assert cfg["detected"]["trainer"] == "litgpt"
    assert cfg["dtype"] == "bfloat16"


@pytest.mark.parametrize("line", ["python finetune/lora.py --config ft.yaml",
                                  "python mylib/finetune/lora.py --config ft.yaml"])
def test_a_finetune_lora_py_of_another_repository_stays_refused(tmp_path, line):
    _write(tmp_path, "ft.yaml", "model:\n  name: resnet\ntrainer:\n  epochs: 3\n")
    _refused(_write(tmp_path, "run.sh", f"#!/bin/bash\n{line}\n"))


# ---- LLaMA-Factory's src/train.py in a checkout under any name


@pytest.mark.parametrize("line", [
    "python src/train.py configs/sft.yaml",
    "torchrun --nproc_per_node 4 src/train.py configs/sft.yaml learning_rate=1e-5",
    "accelerate launch --config_file fsdp.yaml src/train.py configs/sft.yaml",
])
def test_src_train_py_given_a_llama_factory_config_here_is_llama_factory(tmp_path, line):
    repo = tmp_path / "MyProject"
    _write(repo, "configs/sft.yaml", LLAMA_FACTORY_YAML)
    cfg = _load(_write(repo, "run.sh", f"#!/bin/bash\ncd \"$(dirname \"$0\")\"\n{line}\n"))
    assert cfg["detected"]["trainer"] == "llama-factory"
    assert cfg["required"] == ["fa2"] and cfg["dtype"] == "bfloat16"


def test_src_train_py_given_another_programs_config_stays_refused(tmp_path):
    repo = tmp_path / "MyProject"
    _write(repo, "configs/sft.yaml", "model_name_or_path: gpt2\nlearning_rate: 1e-5\nstage: sft\nmax_epochs: 3\n")
    _refused(_write(repo, "run.sh", "python src/train.py configs/sft.yaml\n"))


# ---- torchtune's `tune cp` copy


def test_a_tune_cp_copy_is_the_packages_config(tmp_path):
    p = _write(tmp_path, "finetune.sh", "tune cp llama3_2/1B_lora_single_device my_config.yaml\n"
                                        "tune run lora_finetune_single_device --config my_config.yaml epochs=1\n")
    cfg = _load(p)
    assert cfg["detected"]["trainer"] == "torchtune"
    assert cfg["dtype"] == "bfloat16" and cfg["compile_mode"] in (None, "none")
    assert "my_config.yaml" not in cfg["unread"]


def test_a_tune_cp_copy_the_script_edits_is_unknown(tmp_path):
    p = _write(tmp_path, "finetune.sh", "tune cp llama3_2/1B_lora_single_device my_config.yaml\n"
                                        "sed -i 's/dtype: bf16/dtype: fp32/' my_config.yaml\n"
                                        "tune run lora_finetune_single_device --config my_config.yaml\n")
    cfg = _load(p)
    assert cfg["detected"]["trainer"] == "torchtune"
    assert not cfg["dtype"]


# ---- a detaching wrapper in front of the trainer's CLI


@pytest.mark.parametrize("line", ["setsid nohup llamafactory-cli train sft.yaml > train.log 2>&1 &",
                                  "setsid -f llamafactory-cli train sft.yaml"])
def test_setsid_in_front_of_a_trainer_cli_is_a_wrapper(tmp_path, line):
    _write(tmp_path, "sft.yaml", LLAMA_FACTORY_YAML)
    cfg = _load(_write(tmp_path, "bg.sh", f"#!/bin/bash\n{line}\n"))
    assert cfg["detected"]["trainer"] == "llama-factory" and cfg["required"] == ["fa2"]


@pytest.mark.parametrize("argv", ['["axolotl", "merge-lora", "lora.yml"]',
                                  '["python", "-m", "axolotl.cli.main", "inference", "lora.yml"]'])
def test_axolotl_steps_that_train_nothing_from_python_stay_refused(tmp_path, argv):
    _write(tmp_path, "lora.yml", AXOLOTL_YML)
    _refused(_write(tmp_path, "after.py", f"import subprocess\nsubprocess.run({argv})\n"))


# ---- the ways Python starts a command line (any trainer's; axolotl's CLI here)


@pytest.mark.parametrize("code", [
    'import shlex, subprocess\ncmd = "accelerate launch -m axolotl.cli.train lora.yml"\n'
    'subprocess.run(shlex.split(cmd), check=True)\n',
    'import subprocess\ncfg = "lora.yml"\ncmd = f"axolotl train {cfg}"\nsubprocess.run(cmd.split(), check=True)\n',
    'import asyncio\n\n\nasync def main():\n    p = await asyncio.create_subprocess_exec("axolotl", "train", "lora.yml")\n'
    '    await p.wait()\n\nasyncio.run(main())\n',
    'import asyncio\n\n\nasync def main():\n    p = await asyncio.create_subprocess_shell("axolotl train lora.yml")\n'
    '    await p.wait()\n\nasyncio.run(main())\n',
    'import os\nos.execvp("axolotl", ["axolotl", "train", "lora.yml"])\n',
    'from pathlib import Path\nimport subprocess\nROOT = Path(__file__).resolve().parent\n'
    'subprocess.run(["axolotl", "train", str(ROOT / "lora.yml")], check=True)\n',
    'import os, subprocess\nHERE = os.path.dirname(os.path.abspath(__file__))\n'
    'subprocess.run(["axolotl", "train", os.path.join(HERE, "lora.yml")], check=True)\n',
])
def test_the_ways_python_starts_a_trainer_cli_are_read(tmp_path, code):
    _write(tmp_path, "lora.yml", AXOLOTL_YML)
    cfg = _load(_write(tmp_path, "wrap.py", code))
    assert cfg["detected"]["trainer"] == "axolotl"
    assert cfg["required"] == ["fa2"] and cfg["dtype"] == "bfloat16" and cfg["unread"] == []


def test_a_config_two_folders_up_from_the_wrapper_is_read(tmp_path):
    _write(tmp_path, "lora.yml", AXOLOTL_YML)
    p = _write(tmp_path, "scripts/launch/go.py", "from pathlib import Path\nimport subprocess\n"
                                                 "REPO = Path(__file__).parent.parent.parent\n"
                                                 'subprocess.run(["axolotl", "train", str(REPO / "lora.yml")])\n')
    assert _load(p)["required"] == ["fa2"]


@pytest.mark.parametrize("code", [
    'import subprocess\ncmd = "echo hello"\nsubprocess.run(cmd.split())\n',
    'from pathlib import Path\nimport subprocess\nsubprocess.run(["python", str(Path(__file__)), "--child"])\n',
    'import asyncio\nasyncio.run(asyncio.create_subprocess_exec("nvidia-smi"))\n',
])
def test_python_starting_no_trainer_stays_refused(tmp_path, code):
    _refused(_write(tmp_path, "wrap.py", code))


def test_a_script_the_wrapper_finds_in_its_own_folder_is_not_taken_for_a_trainers_example(tmp_path):
    """round 16m's BrennenFa driver: its own train_text_to_image_lora.py beside it, named like diffusers' example."""
    code = ("import os, subprocess, sys\nscript_dir = os.path.dirname(os.path.abspath(__file__))\n"
            'train_script = os.path.join(script_dir, "train_text_to_image_lora.py")\n'
            'cmd = [sys.executable, train_script, "--pretrained_model_name_or_path=m", "--mixed_precision=fp16",\n'
            '       "--train_batch_size=1", "--enable_xformers"]\nsubprocess.run(cmd, check=True)\n')
    _refused(_write(tmp_path, "driver.py", code))
