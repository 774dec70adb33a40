"""Issue 24, round 23u: files that are no claimed trainer's config are refused as what they are. Round 23u's 37 files
were all refused at 3a1b2d5 (none read as a claimed trainer), 12 of them without the words their expect file asks for:
the refusal named no framework, or the wrong kind of file. Variants written for this test (what each fakes is in its
text) of the rules round 23u added, with near misses that must keep their reading:
- a cloud job spec read as a launch file (configs.job_commands: a SkyPilot task, an Azure ML command job, a dstack
  task) is named as one when no reader claims what it runs (the kind job_commands reads); a Python file that defines a job is named
  too (others.job_spec: a Baseten Training job spec, `truss_train`; a Modal app, `modal.App`, and ComfyUI when it runs
  it; a RunPod serverless worker, `runpod.serverless.start`);
- LeRobot's trainer (lerobot-train, lerobot/scripts/train.py, lerobot/scripts/lerobot_train.py, `-m
  lerobot.scripts.train`, or draccus' --policy.type / --policy.path with --dataset.repo_id) (others._lerobot);
- Ultralytics YOLO's training arguments (args.yaml / default.yaml: task detect|segment|..., mode train|val|...; a
  hyp.yaml's lr0 / lrf / mosaic / hsv_h ...) (others.ultralytics);
- dataset registries: LLaMA-Factory's data/dataset_info.json (others.dataset_registry) and ms-swift's
  --custom_dataset_info list (others.swift_dataset_info);
- a VS Code launch.json, as VS Code writes it (JSON with comments) or as plain JSON (others.vscode_launch /
  vscode_launch_text); a Baseten Truss serving config (others.truss_config);
- the files Hydra saves into a run's output folder (.hydra/config.yaml, hydra.yaml, overrides.yaml) (others.hydra_output);
- a module that only defines argparse options (flags.py, arguments.py) (others._argparse_module).
Run against the code before this change (3a1b2d5), the variants marked NEW fail there; the rest pass there too and
guard that the old readings hold."""

from __future__ import annotations

import json

import pytest

from attn_doctor import configs
from configs_corpus import read as _read, refusal as _refusal, write as _write

SUPPORTED = "(it reads SimpleTuner"

# ---------------------------------------------------------------------------------------------------------------------
# cloud job specs
# ---------------------------------------------------------------------------------------------------------------------

SKY_OWN_SCRIPT = """\
name: dpo-run
resources:
  cloud: aws
  accelerators: A100-80GB:8
  use_spot: true
file_mounts:
  /data: s3://my-bucket/prefs
setup: |
  pip install -e .
run: |
  torchrun --nproc_per_node=$SKYPILOT_NUM_GPUS_PER_NODE scripts/dpo_trainer.py \\
    --model_path /ckpt/sft --beta 0.1 --bf16 --flash_attn --output_dir /ckpt/dpo
"""

SKY_MODULE = """\
resources:
  infra: runpod
  accelerators: H100:1
workdir: .
setup: |
  uv sync
run: |
  uv run python -m myproj.experiments.sweep --seed 3 --upload
"""

SKY_SAMPLES = """\
num_nodes: 1
resources:
  accelerators: L4:1
run: |
  python sample_images.py --ckpt /ckpt/last.pt --num-samples 500 --cfg-scale 4.0
"""


@pytest.mark.parametrize("text, runs", [
    (SKY_OWN_SCRIPT, "runs dpo_trainer.py"),  # NEW (was: "runs dpo_trainer.py ..." without the task)
    (SKY_MODULE, None),  # NEW (was: "not a trainer config attn-doctor recognises")
    (SKY_SAMPLES, "sample_images.py"),  # NEW
])
def test_a_skypilot_task_is_named(tmp_path, text, runs):
    msg = _refusal(tmp_path, "task.yaml", text)
    assert "a SkyPilot task" in msg and "reads SimpleTuner" in msg
    if runs:
        assert runs in msg
    else:
        assert "not a trainer config" in msg


def test_an_azure_ml_command_job_is_named(tmp_path):
    text = """\
$schema: https://azuremlschemas.azureedge.net/latest/commandJob.schema.json
code: ./src
command: >-
  python finetune_custom.py --epochs 3 --lr 2e-5 --bf16
environment: azureml:acpt-pytorch-2.2-cuda12.1@latest
compute: azureml:gpu-cluster
"""
    msg = _refusal(tmp_path, "job.yml", text)  # NEW
    assert "an Azure ML command job that runs finetune_custom.py" in msg


def test_a_dstack_task_is_named(tmp_path):
    text = """\
type: task
name: train-own
python: "3.11"
commands:
  - pip install -r requirements.txt
  - python trainer/run_pretraining.py --config conf/small.toml --bf16
resources:
  gpu: 80GB:8
"""
    msg = _refusal(tmp_path, ".dstack.yml", text)  # NEW
    assert "a dstack task that runs run_pretraining.py" in msg


@pytest.mark.parametrize("name, text, want", [
    # near misses: a SkyPilot task that runs a claimed trainer is that trainer's launch, as before
    ("sky_sdxl.yaml", """\
resources:
  accelerators: A100:1
setup: |
  pip install -r requirements.txt
run: |
  accelerate launch --num_cpu_threads_per_process 1 sdxl_train_network.py \\
    --pretrained_model_name_or_path=/models/sdxl.safetensors \\
    --dataset_config=dataset.toml --output_dir=/out \\
    --network_module=networks.lora --network_dim=16 \\
    --mixed_precision=bf16 --sdpa --gradient_checkpointing
""", ("sd-scripts", ["sdpa"], "bfloat16", "none")),
    ("sky_lf.yaml", """\
resources:
  accelerators: H100:8
num_nodes: 1
run: |
  FORCE_TORCHRUN=1 llamafactory-cli train examples/train_lora/llama3_lora_sft.yaml
""", ("llama-factory", [], "", "none")),
])
def test_a_job_spec_running_a_claimed_trainer_keeps_its_reading(tmp_path, name, text, want):
    assert _read(tmp_path, name, text) == want


BASETEN_ALIAS = """\
from truss_train import definitions as d
from truss.base import truss_config

job = d.TrainingJob(
    image=d.Image(base_image="pytorch/pytorch:2.7.0-cuda12.8-cudnn9-runtime"),
    compute=d.Compute(accelerator=truss_config.AcceleratorSpec(accelerator=truss_config.Accelerator.H100, count=4)),
    runtime=d.Runtime(start_commands=["/bin/sh -c './run.sh'"]),
)
project = d.TrainingProject(name="qwen-sft", job=job)
"""

BASETEN_FROM = """\
import os

from truss_train import TrainingProject, TrainingJob, Image, Compute, Runtime

runtime = Runtime(start_commands=["python train.py --epochs 2"], environment_variables={"WANDB_PROJECT": "x"})
job = TrainingJob(image=Image(base_image="nvcr.io/nvidia/pytorch:25.01-py3"), compute=Compute(node_count=1),
                  runtime=runtime)
TrainingProject(name=os.environ.get("PROJECT", "demo"), job=job)
"""

MODAL_APP = """\
import subprocess

import modal

app = modal.App("finetune-own")
image = modal.Image.debian_slim(python_version="3.11").pip_install("torch", "transformers")


@app.function(gpu="H100:2", image=image, timeout=4 * 3600)
def train():
    subprocess.run(["torchrun", "--nproc_per_node", "2", "my_train.py", "--bf16"], check=True)
"""

MODAL_STUB_COMFY = """\
from modal import Image, Stub, web_server

stub = Stub("comfy-ui")
image = Image.debian_slim().pip_install("comfy-cli").run_commands("comfy --skip-prompt install --nvidia")


@stub.function(image=image, gpu="A10G")
@web_server(8188, startup_timeout=60)
def ui():
    import subprocess
    subprocess.Popen("comfy launch -- --listen 0.0.0.0 --port 8188", shell=True)
"""

RUNPOD_WORKER = """\
import runpod


def handler(job):
    params = job["input"]
    return {"status": "queued", "steps": params.get("steps", 1000)}


runpod.serverless.start({"handler": handler})
"""


@pytest.mark.parametrize("text, words", [
    (BASETEN_ALIAS, "a Baseten Training job spec"),  # NEW (was: "a Python script with no trainer calls")
    (BASETEN_FROM, "a Baseten Training job spec"),  # NEW
    (MODAL_APP, "a Modal app"),  # NEW
    (MODAL_STUB_COMFY, "a Modal app (modal.App: functions Modal runs in containers on its GPUs) that runs ComfyUI"),  # NEW
    (RUNPOD_WORKER, "a RunPod serverless worker"),  # NEW
])
def test_a_python_job_spec_is_named(tmp_path, text, words):
    msg = _refusal(tmp_path, "app.py", text)
    assert words in msg and "not a trainer config" in msg


def test_a_modal_app_running_a_claimed_trainer_keeps_its_reading(tmp_path):
    text = """\
import subprocess
import modal

app = modal.App("lora-train")
image = modal.Image.debian_slim().pip_install("torch")

@app.function(gpu="A100", image=image, timeout=7200)
def train():
    subprocess.run(["accelerate", "launch", "sdxl_train_network.py",
                    "--pretrained_model_name_or_path=/models/sdxl.safetensors",
                    "--network_module=networks.lora", "--network_dim=16",
                    "--mixed_precision=bf16", "--sdpa", "--output_dir=/out"], check=True)
"""
    assert _read(tmp_path, "modal_train.py", text) == ("sd-scripts", ["sdpa"], "bfloat16", "none")


def test_a_settings_module_that_imports_no_job_library_stays_a_settings_module(tmp_path):
    text = "from pathlib import Path\n\nROOT = Path('/data')\nLR = 1e-4\nEPOCHS = 3\nBATCH = 8\nSEED = 0\n"
    msg = _refusal(tmp_path, "settings.py", text)
    assert "a Python settings module" in msg and "Baseten" not in msg and "Modal" not in msg


def test_importing_modal_without_an_app_is_no_modal_app(tmp_path):
    # a script that only uses modal's client (looking up a deployed function) defines no app of its own
    text = "import modal\n\nf = modal.Function.lookup('trainer', 'train')\nprint(f.remote(steps=10))\n"
    msg = _refusal(tmp_path, "call.py", text)
    assert "Modal app" not in msg


# ---------------------------------------------------------------------------------------------------------------------
# LeRobot
# ---------------------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("text", [
    # the console script of lerobot >= 0.4
    "lerobot-train \\\n  --dataset.repo_id=${HF_USER}/so101_pick \\\n  --policy.type=diffusion \\\n"
    "  --output_dir=outputs/train/diffusion_so101 --policy.device=cuda --steps=200000\n",  # NEW (was: not recognised)
    # as a module
    "python -m lerobot.scripts.train --policy.type=act --dataset.repo_id=lerobot/aloha_sim_insertion_human "
    "--batch_size=8 --steps=100000\n",  # NEW
    # the script by its path in the src layout
    "CUDA_VISIBLE_DEVICES=1 python src/lerobot/scripts/lerobot_train.py --policy.path=lerobot/smolvla_base "
    "--dataset.repo_id=me/pick_cube --batch_size=64\n",  # NEW
    # a user's wrapper that takes LeRobot's own dotted options
    "python my_train.py --policy.type=pi0 --dataset.repo_id=me/towels --wandb.enable=true\n",  # NEW
])
def test_a_lerobot_launch_is_named(tmp_path, text):
    msg = _refusal(tmp_path, "train.sh", text)
    assert "looks like LeRobot" in msg and SUPPORTED in msg


def test_a_dataset_repo_id_option_alone_is_not_lerobot(tmp_path):
    msg = _refusal(tmp_path, "run.sh", "python my_train.py --dataset.repo_id=me/data --epochs 3\n")
    assert "LeRobot" not in msg


def test_a_litgpt_launch_with_dotted_options_keeps_its_reading(tmp_path):
    text = ("litgpt finetune_lora checkpoints/meta-llama/Llama-3.2-1B \\\n"
            "  --data JSON --data.json_path data/train.json --data.val_split_fraction 0.1 \\\n"
            "  --train.epochs 3 --train.micro_batch_size 2 --precision bf16-true \\\n  --out_dir out/lora\n")
    assert _read(tmp_path, "lit.sh", text)[:1] == ("litgpt",)


# ---------------------------------------------------------------------------------------------------------------------
# Ultralytics YOLO
# ---------------------------------------------------------------------------------------------------------------------

YOLO_ARGS = """\
task: detect
mode: train
model: yolov8n.pt
data: coco128.yaml
epochs: 100
batch: 16
imgsz: 640
device: 0
optimizer: auto
amp: true
lr0: 0.01
lrf: 0.01
warmup_epochs: 3.0
mosaic: 1.0
"""

YOLO_HYP = """\
# YOLOv5 hyperparameters for low-augmentation COCO training from scratch
lr0: 0.01
lrf: 0.01
momentum: 0.937
weight_decay: 0.0005
warmup_epochs: 3.0
warmup_momentum: 0.8
warmup_bias_lr: 0.1
box: 0.05
cls: 0.5
obj: 1.0
iou_t: 0.20
anchor_t: 4.0
fl_gamma: 0.0
hsv_h: 0.015
hsv_s: 0.7
hsv_v: 0.4
fliplr: 0.5
mosaic: 1.0
mixup: 0.0
"""


@pytest.mark.parametrize("name, text", [
    ("args.yaml", YOLO_ARGS),  # NEW (was: "holds only settings several trainers share")
    ("hyp.scratch-low.yaml", YOLO_HYP),  # NEW
    ("default.yaml", "task: pose\nmode: val\nmodel: yolo11n-pose.pt\nsave_json: true\n"),  # NEW
])
def test_ultralytics_training_arguments_are_named(tmp_path, name, text):
    msg = _refusal(tmp_path, name, text)
    assert "looks like Ultralytics YOLO" in msg


def test_a_musubi_config_with_a_task_keeps_its_reading(tmp_path):
    text = ('task = "t2v-14B"\ndit = "/models/wan2.1_t2v_14B_bf16.safetensors"\ndataset_config = "dataset.toml"\n'
            'sdpa = true\nmixed_precision = "bf16"\nnetwork_module = "networks.lora_wan"\nnetwork_dim = 32\n'
            'timestep_sampling = "shift"\ndiscrete_flow_shift = 3.0\n')
    assert _read(tmp_path, "wan.toml", text) == ("musubi", ["sdpa"], "bfloat16", "none")


# ---------------------------------------------------------------------------------------------------------------------
# dataset registries
# ---------------------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("data", [
    # hub datasets, a preference set with ranking
    {"ultrafeedback": {"hf_hub_url": "llamafactory/ultrafeedback_binarized", "ranking": True,
                       "columns": {"prompt": "instruction", "chosen": "chosen", "rejected": "rejected"}},
     "alpaca_zh": {"ms_hub_url": "llamafactory/alpaca_zh", "subset": "default"}},  # NEW
    # local files in alpaca format with their columns
    {"my_sft": {"file_name": "my_sft.json", "columns": {"prompt": "instruction", "query": "input", "response": "output"}},
     "my_eval": {"file_name": "my_eval.jsonl", "file_sha1": "0123abcd"}},  # NEW
])
def test_a_llamafactory_dataset_registry_is_named(tmp_path, data):
    msg = _refusal(tmp_path, "dataset_info.json", json.dumps(data, indent=2))
    assert "a dataset registry (LLaMA-Factory's dataset_info.json" in msg and "not a trainer config" in msg


def test_an_ms_swift_custom_dataset_info_is_named(tmp_path):
    data = [{"ms_dataset_id": "swift/self-cognition", "columns": {"query": "query", "response": "response"}},
            {"dataset_path": "/data/train.jsonl", "split": ["train"]}]
    msg = _refusal(tmp_path, "custom_dataset_info.json", json.dumps(data))  # NEW (was: "it holds a list")
    assert "ms-swift's --custom_dataset_info" in msg


def test_a_list_of_other_records_is_still_a_list(tmp_path):
    msg = _refusal(tmp_path, "records.json", json.dumps([{"prompt": "a", "response": "b"}]))
    assert "it holds a list" in msg


@pytest.mark.parametrize("name, text, want", [
    # near misses: the training config that names the registry's datasets is read as before
    ("qwen3_lora.yaml", "model_name_or_path: Qwen/Qwen3-8B\nstage: sft\ndo_train: true\nfinetuning_type: lora\n"
                        "lora_target: all\ndataset: qixia_train\ndataset_dir: data\ntemplate: qwen3\ncutoff_len: 1024\n"
                        "output_dir: saves/qwen3-8b/lora/sft\nbf16: true\nflash_attn: fa2\n",
     ("llama-factory", ["fa2"], "bfloat16", "none")),
    ("config.json", json.dumps({"--model_family": "flux", "--model_type": "lora",
                                "--pretrained_model_name_or_path": "black-forest-labs/FLUX.1-dev",
                                "--attention_mechanism": "diffusers", "--mixed_precision": "bf16",
                                "--data_backend_config": "config/multidatabackend.json", "--output_dir": "output/models"}),
     ("simpletuner", ["sdpa"], "bfloat16", "none")),
])
def test_a_training_config_beside_a_registry_keeps_its_reading(tmp_path, name, text, want):
    assert _read(tmp_path, name, text) == want


# ---------------------------------------------------------------------------------------------------------------------
# VS Code launch.json, Truss serving configs
# ---------------------------------------------------------------------------------------------------------------------

LAUNCH_JSONC = """\
{
    // Use IntelliSense to learn about possible attributes.
    "version": "0.2.0",
    "configurations": [
        {
            "name": "Python: train",
            "type": "python",
            "request": "launch",
            "program": "${workspaceFolder}/train.py",
            "args": ["--config", "configs/base.yaml"],
            "justMyCode": false,
        }
    ]
}
"""

LAUNCH_ATTACH = json.dumps({"version": "0.2.0", "configurations": [
    {"name": "Attach to torchrun rank 0", "type": "debugpy", "request": "attach",
     "connect": {"host": "localhost", "port": 5678}}]}, indent=4)


@pytest.mark.parametrize("text", [
    LAUNCH_JSONC,  # NEW (was: "not valid JSON")
    LAUNCH_ATTACH,  # NEW (was: "not a trainer config attn-doctor recognises")
])
def test_a_vscode_launch_configuration_is_named(tmp_path, text):
    msg = _refusal(tmp_path, "launch.json", text)
    assert "a VS Code launch configuration" in msg and "not a trainer config" in msg


def test_other_json_with_comments_is_still_invalid_json(tmp_path):
    msg = _refusal(tmp_path, "tsconfig.json", '{\n  // strict mode\n  "compilerOptions": {"strict": true}\n}\n')
    assert "not valid JSON" in msg


TRUSS_CLASS = """\
model_name: sdxl-lora-server
model_class_name: Model
python_version: py311
requirements:
  - diffusers==0.31.0
  - torch==2.5.1
resources:
  accelerator: A10G
  use_gpu: true
secrets:
  hf_access_token: null
"""

TRUSS_DOCKER = """\
model_name: qwen-chat
base_image:
  image: vllm/vllm-openai:v0.8.5
docker_server:
  start_command: vllm serve Qwen/Qwen2.5-7B-Instruct --max-model-len 8192
  server_port: 8000
  predict_endpoint: /v1/chat/completions
  readiness_endpoint: /health
  liveness_endpoint: /health
resources:
  accelerator: H100
"""


@pytest.mark.parametrize("text", [TRUSS_CLASS, TRUSS_DOCKER])  # NEW both
def test_a_truss_serving_config_is_named(tmp_path, text):
    msg = _refusal(tmp_path, "config.yaml", text)
    assert "a Baseten Truss config" in msg and "not a trainer config" in msg


def test_an_axolotl_config_with_a_model_name_keeps_its_reading(tmp_path):
    text = ("base_model: NousResearch/Meta-Llama-3-8B\nload_in_8bit: false\ndatasets:\n  - path: mhenrichsen/alpaca_2k_test\n"
            "    type: alpaca\nsequence_len: 4096\nsample_packing: true\nadapter: lora\nlora_r: 32\nmicro_batch_size: 2\n"
            "num_epochs: 1\noptimizer: adamw_bnb_8bit\nbf16: auto\nflash_attention: true\n")
    assert _read(tmp_path, "config.yaml", text) == ("axolotl", ["fa2"], "bfloat16", "none")


# ---------------------------------------------------------------------------------------------------------------------
# Hydra's run snapshots
# ---------------------------------------------------------------------------------------------------------------------

APP_CONFIG = "model:\n  hidden: 256\n  layers: 4\ndata:\n  root: /data/cifar\n  batch_size: 128\noptim:\n  lr: 0.001\nseed: 0\n"
LIGHTNING_APP = ("model:\n  n_embd: 384\n  n_head: 6\ndata:\n  batch_size: 64\ntrainer:\n  max_steps: 500\n"
                 "  accelerator: auto\n  devices: 2\n  strategy: ddp\nseed: 1337\n")


def _in(tmp_path, rel: str, text: str) -> str:
    (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
    return _write(tmp_path, rel, text)


@pytest.mark.parametrize("rel, text, also", [
    ("outputs/2026-03-02/22-47-13/.hydra/config.yaml", APP_CONFIG, None),  # NEW (was: "settings several trainers share")
    ("multirun/2026-03-02/10-00-00/3/.hydra/config.yaml", LIGHTNING_APP, "PyTorch Lightning"),  # NEW
    ("outputs/run1/.hydra/hydra.yaml", "hydra:\n  run:\n    dir: outputs/run1\n  job:\n    name: train\n"
                                       "  runtime:\n    version: 1.3.2\n", None),  # NEW
])
def test_a_hydra_run_snapshot_is_named(tmp_path, rel, text, also):
    from attn_doctor.model import UsageError

    path = _in(tmp_path, rel, text)
    with pytest.raises(UsageError) as err:
        configs.load(path)
    msg = str(err.value).replace(str(tmp_path), "")
    assert "a Hydra run saved" in msg and "not a trainer config" in msg
    if also:
        assert also in msg


def test_the_same_config_outside_a_hydra_folder_is_not_a_run_snapshot(tmp_path):
    msg = _refusal(tmp_path, "config.yaml", LIGHTNING_APP)
    assert "Hydra run" not in msg and "looks like PyTorch Lightning" in msg


def test_a_claimed_trainers_config_under_a_hydra_folder_keeps_its_reading(tmp_path):
    text = ("base_model: NousResearch/Meta-Llama-3-8B\ndatasets:\n  - path: mhenrichsen/alpaca_2k_test\n    type: alpaca\n"
            "sequence_len: 4096\nadapter: lora\nlora_r: 32\nmicro_batch_size: 2\nnum_epochs: 1\nbf16: auto\n"
            "flash_attention: true\n")
    path = _in(tmp_path, "outputs/x/.hydra/config.yaml", text)
    cfg = configs.load(path)
    assert cfg["detected"]["trainer"] == "axolotl" and sorted(cfg["required"]) == ["fa2"]


# ---------------------------------------------------------------------------------------------------------------------
# modules of argparse definitions
# ---------------------------------------------------------------------------------------------------------------------

FLAGS_GROUPS = '''\
"""Command-line options of train.py and sample.py."""
import argparse


def get_parser():
    parser = argparse.ArgumentParser(description="trainer")
    model = parser.add_argument_group("model")
    model.add_argument("--model_dir", type=str, required=True)
    model.add_argument("--mixed_precision", choices=["no", "fp16", "bf16"], default="bf16")
    train = parser.add_argument_group("training")
    train.add_argument("--lr", type=float, default=1e-4)
    train.add_argument("--max_train_steps", type=int, default=int(1e4))
    return parser


def parse(argv=None):
    return get_parser().parse_args(argv)
'''

FLAGS_FROM = '''\
from argparse import ArgumentParser


def sample_args():
    p = ArgumentParser()
    p.add_argument("--ckpt", type=str)
    p.add_argument("--num_samples", type=int, default=len([1, 2, 3]))
    p.add_argument("--guidance", type=float, default=7.5)
    return p
'''


@pytest.mark.parametrize("name, text", [("arguments.py", FLAGS_GROUPS), ("opts.py", FLAGS_FROM)])  # NEW both
def test_a_module_of_argparse_definitions_is_named(tmp_path, name, text):
    msg = _refusal(tmp_path, name, text)
    assert "a module of argparse definitions" in msg and "not a trainer config" in msg


def test_a_script_that_parses_and_trains_is_no_argparse_module(tmp_path):
    text = FLAGS_FROM + "\n\nargs = sample_args().parse_args()\nmodel = load(args.ckpt)\nmodel.fit()\n"
    msg = _refusal(tmp_path, "train_own.py", text)
    assert "argparse definitions" not in msg


def test_a_transformers_script_keeps_its_reading(tmp_path):
    text = '''\
import argparse

import torch
from transformers import AutoModelForCausalLM, Trainer, TrainingArguments


def get_args():
    p = argparse.ArgumentParser()
    p.add_argument("--model", default="Qwen/Qwen2.5-0.5B")
    p.add_argument("--out", default="out")
    p.add_argument("--epochs", type=int, default=1)
    return p.parse_args()


args = get_args()
model = AutoModelForCausalLM.from_pretrained(args.model, attn_implementation="flash_attention_2",
                                             torch_dtype=torch.bfloat16)
trainer = Trainer(model=model, args=TrainingArguments(output_dir=args.out, bf16=True, num_train_epochs=args.epochs))
trainer.train()
'''
    assert _read(tmp_path, "sft.py", text)[:3] == ("transformers", ["fa2"], "bfloat16")


# ---------------------------------------------------------------------------------------------------------------------
# LLM fine-tuning frameworks whose YAML looks like a transformers / TRL config: Oumi, H2O LLM Studio; open-instruct's
# launches; Genmo's Mochi fine-tuner (not from round 23u's files: the same kind of miss, found by probing its layouts)
# ---------------------------------------------------------------------------------------------------------------------

OUMI_SFT = """\
model:
  model_name: "Qwen/Qwen2.5-1.5B-Instruct"
  torch_dtype_str: "bfloat16"
  attn_implementation: "flash_attention_2"
  trust_remote_code: true
data:
  train:
    datasets:
      - dataset_name: "yahma/alpaca-cleaned"
training:
  trainer_type: "TRL_SFT"
  per_device_train_batch_size: 4
  learning_rate: 2.0e-05
  output_dir: "output/qwen_sft"
"""

OUMI_DPO = """\
model:
  model_name: "HuggingFaceTB/SmolLM2-135M-Instruct"
  model_max_length: 2048
training:
  trainer_type: TRL_DPO
  save_steps: 100
  enable_gradient_checkpointing: true
  mixed_precision_dtype: BF16
peft:
  lora_r: 16
"""

H2O_CFG = """\
architecture:
    backbone_dtype: int4
    gradient_checkpointing: true
    pretrained: true
llm_backbone: h2oai/h2ogpt-4096-llama2-7b
problem_type: text_causal_language_modeling
training:
    batch_size: 2
    epochs: 1
    lora: true
    use_flash_attention_2: true
environment:
    mixed_precision: true
"""

H2O_DPO = """\
experiment_name: dpo-run
llm_backbone: meta-llama/Llama-2-7b-chat-hf
problem_type: text_dpo_modeling
architecture:
    backbone_dtype: bfloat16
training:
    learning_rate: 1.0e-05
"""

MOCHI_LORA = """\
init_checkpoint_path: /weights/dit.safetensors
checkpoint_dir: /finetunes/my_mochi_lora
train_data_dir: /videos_prepared
attention_mode: sdpa
single_video_mode: false
optimizer:
  lr: 2e-4
model:
  type: lora
  kwargs:
    qkv_proj_lora_rank: 16
training:
  model_dtype: bf16
  num_qkv_checkpoint: 48
  num_ff_checkpoint: 48
  num_steps: 2000
"""

MOCHI_FLASH = """\
init_checkpoint_path: weights/dit.safetensors
attention_mode: flash
train_data_dir: data/videos_prepared
training:
  num_post_attn_checkpoint: 24
  num_steps: 500
"""


@pytest.mark.parametrize("text, title", [
    (OUMI_SFT, "Oumi"),  # NEW (was: "holds only settings several trainers share")
    (OUMI_DPO, "Oumi"),  # NEW
    (H2O_CFG, "H2O LLM Studio"),  # NEW
    (H2O_DPO, "H2O LLM Studio"),  # NEW
    (MOCHI_LORA, "Mochi 1 fine-tuner"),  # NEW
    (MOCHI_FLASH, "Mochi 1 fine-tuner"),  # NEW
])
def test_another_frameworks_yaml_is_named(tmp_path, text, title):
    msg = _refusal(tmp_path, "config.yaml", text)
    assert "looks like" in msg and title in msg and SUPPORTED in msg


@pytest.mark.parametrize("text", [
    "accelerate launch --mixed_precision bf16 --num_processes 8 --use_deepspeed \\\n"
    "    --deepspeed_config_file configs/ds_configs/stage3_no_offloading_accelerate.conf \\\n"
    "    open_instruct/finetune.py --model_name_or_path meta-llama/Llama-3.1-8B --use_flash_attn \\\n"
    "    --gradient_checkpointing --max_seq_length 4096 --learning_rate 5e-06 --output_dir output/sft_8b\n",  # NEW
    "python open_instruct/dpo_tune_cache.py --model_name_or_path allenai/Llama-3.1-Tulu-3-8B-SFT "
    "--use_flash_attn --dpo_beta 5 --output_dir out/dpo\n",  # NEW
    "torchrun --nproc_per_node 4 my_sft.py --dataset_mixer_list allenai/tulu-3-sft-mixture 1.0 --bf16\n",  # NEW
])
def test_an_open_instruct_launch_is_named(tmp_path, text):
    msg = _refusal(tmp_path, "run.sh", text)
    assert "looks like AllenAI open-instruct" in msg


@pytest.mark.parametrize("name, text, want", [
    # near misses: TRL's own config (a torch_dtype and attn_implementation at the top, no Oumi sections) ...
    ("sft.yaml", "model_name_or_path: Qwen/Qwen2-0.5B\ndataset_name: trl-lib/Capybara\nlearning_rate: 2.0e-5\n"
                 "num_train_epochs: 1\nper_device_train_batch_size: 8\ngradient_checkpointing: true\n"
                 "torch_dtype: bfloat16\nattn_implementation: flash_attention_2\nbf16: true\noutput_dir: Qwen2-0.5B-SFT\n",
     "transformers"),
    # ... and TRL's CLI, with --dataset_name rather than open-instruct's --dataset_mixer_list
    ("trl.sh", "trl sft --model_name_or_path Qwen/Qwen2.5-0.5B --dataset_name trl-lib/Capybara "
               "--attn_implementation flash_attention_2 --bf16 --output_dir out\n", "transformers"),
    # an axolotl config with a `training`-free layout and flash attention
    ("ax.yaml", "base_model: NousResearch/Meta-Llama-3-8B\ndatasets:\n  - path: mhenrichsen/alpaca_2k_test\n"
                "    type: alpaca\nsequence_len: 4096\nadapter: lora\nlora_r: 32\nmicro_batch_size: 2\nnum_epochs: 1\n"
                "bf16: auto\nflash_attention: true\n", "axolotl"),
])
def test_claimed_llm_configs_keep_their_reading(tmp_path, name, text, want):
    assert _read(tmp_path, name, text)[0] == want
