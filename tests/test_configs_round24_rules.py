"""Issue 24, round 24: runner files read as the commands they run (configs/runners.py, through job_commands in
configs/__init__.py), variants written for the mechanism.

- a Docker Compose service runs its `entrypoint:` + `command:` (Compose's exec lists joined as words, a string as a
  command line as written; a `bash -c` entrypoint keeps its script as one word, which the shell reader unwraps): compose
  v2/v3, list and string commands, a YAML block script, several services (the first training command among them, as in
  a shell script with several);
- a Kubernetes container runs its `command:` + `args:` (a Job, a Pod's containers, a Deployment, a Kubeflow PyTorchJob's
  Master and Worker (one training command, read once), a JobSet, an Argo Workflow's `container:` and shell `script:`),
  several `---` documents in one file (a ConfigMap before the Job);
- a GitHub Actions workflow runs its steps' `run:` (one line or `run: |` blocks), a GitLab CI pipeline its jobs'
  `before_script:` + `script:` (hidden `.template` jobs aside);
- a RunPod pod template runs its `dockerArgs` (GraphQL) or `dockerEntrypoint` + `dockerStartCmd` (REST v2), a Vast.ai
  template its `onstart` script and `args_str` (docs.runpod.io graphql configurations; docs.vast.ai template fields);
- what the runner runs is then read by the launch-file machinery as a shell script is: a claimed trainer's CLI or
  script is that trainer's (on its own evidence: run.py alone is not ai-toolkit's, as in a shell script), anything
  else is refused with the existing messages ("is a Docker Compose file ..., not a trainer config", "looks like
  ComfyUI", "runs X.py, a training script none of the trainers ... ships"). A service / container / step naming no
  command (the image's own CMD runs) adds nothing, and the file is refused as before."""

from __future__ import annotations

import pytest
import yaml

from attn_doctor.configs.runners import runner_commands
from configs_corpus import read, refusal


# --- Docker Compose ------------------------------------------------------------------------------------------------

def test_compose_v3_list_command_runs_sd_scripts(tmp_path):
    text = """services:
  trainer:
    image: kohya/sd-scripts:latest
    command: ["accelerate", "launch", "--num_cpu_threads_per_process", "1", "sdxl_train_network.py",
              "--pretrained_model_name_or_path", "/models/sdxl.safetensors", "--network_module", "networks.lora",
              "--mixed_precision", "bf16", "--sdpa", "--output_dir", "/out"]
"""
    assert read(tmp_path, "docker-compose.yml", text) == ("sd-scripts", ["sdpa"], "bfloat16", "none")


def test_compose_string_command_runs_axolotl_beside_a_vllm_service(tmp_path):
    text = """version: "3.8"
services:
  axolotl:
    image: axolotlai/axolotl:main-latest
    volumes:
      - ./configs:/workspace/configs
    command: axolotl train /workspace/configs/qwen-lora.yml
  serve:
    image: vllm/vllm-openai:latest
    command: --model /workspace/outputs/merged
"""
    assert read(tmp_path, "compose.yaml", text)[0] == "axolotl"


def test_compose_bash_entrypoint_with_a_block_script_runs_llamafactory(tmp_path):
    text = """services:
  train:
    build: .
    entrypoint: ["/bin/bash", "-c"]
    command:
      - |
        pip install -q wandb
        llamafactory-cli train examples/train_lora/llama3_lora_sft.yaml
"""
    assert read(tmp_path, "docker-compose.train.yml", text)[0] == "llama-factory"


def test_compose_v2_string_entrypoint_and_list_command(tmp_path):
    text = """version: '2.3'
services:
  lora:
    runtime: nvidia
    image: my/diffusers-train
    entrypoint: accelerate launch --mixed_precision=fp16
    command: ["train_text_to_image_lora.py", "--pretrained_model_name_or_path=runwayml/stable-diffusion-v1-5",
              "--dataset_name=lambdalabs/naruto-blip-captions", "--enable_xformers_memory_efficient_attention",
              "--output_dir=/out"]
"""
    assert read(tmp_path, "docker-compose.yml", text) == ("diffusers", ["xformers"], "float16", "none")


def test_compose_services_in_file_order_take_the_first_training_command(tmp_path):
    # as a shell script with two training commands: the first one is the job (configs/shell.py main_command)
    text = """services:
  sft:
    image: trainer
    command: swift sft --model Qwen/Qwen2.5-7B-Instruct --train_type lora --torch_dtype bfloat16 --attn_impl sdpa
  rlhf:
    image: trainer
    command: swift rlhf --rlhf_type dpo --model Qwen/Qwen2.5-7B-Instruct --torch_dtype float16
"""
    got = read(tmp_path, "docker-compose.yml", text)
    assert got[0] == "ms-swift" and got[2] == "bfloat16"


def test_compose_serving_vllm_is_refused(tmp_path):
    text = """services:
  llm:
    image: vllm/vllm-openai:latest
    command: vllm serve Qwen/Qwen2.5-7B-Instruct --dtype bfloat16 --max-model-len 8192
"""
    msg = refusal(tmp_path, "docker-compose.yml", text)
    assert "not a trainer config" in msg or "looks like" in msg


def test_compose_of_flags_only_for_the_image_entrypoint_is_refused(tmp_path):
    text = """services:
  vllm:
    image: vllm/vllm-openai:v0.6.0
    command: >
      --model meta-llama/Llama-3.1-8B-Instruct
      --tensor-parallel-size 2
"""
    assert "is a Docker Compose file, not a trainer config" in refusal(tmp_path, "docker-compose.yml", text)


def test_compose_running_comfyui_is_refused_as_comfyui(tmp_path):
    text = """services:
  comfyui:
    image: yanwk/comfyui-boot:cu124
    command: python main.py --listen 0.0.0.0 --port 8188 --use-pytorch-cross-attention
"""
    assert "looks like ComfyUI" in refusal(tmp_path, "docker-compose.yml", text)


def test_compose_with_no_command_is_refused_as_before(tmp_path):
    text = """services:
  finetune:
    build: ./train
    deploy:
      resources:
        reservations:
          devices:
            - driver: nvidia
              count: 1
              capabilities: [gpu]
"""
    assert "is a Docker Compose file, not a trainer config" in refusal(tmp_path, "docker-compose.yml", text)


def test_compose_running_the_repositorys_own_script_names_it(tmp_path):
    text = """services:
  train:
    image: mine
    command: ["python", "scripts/train_my_model.py", "--epochs", "3"]
"""
    assert "train_my_model.py" in refusal(tmp_path, "docker-compose.yml", text)


# --- Kubernetes ----------------------------------------------------------------------------------------------------

def test_k8s_job_command_and_args_run_ms_swift(tmp_path):
    text = """apiVersion: batch/v1
kind: Job
metadata:
  name: sft
spec:
  template:
    spec:
      restartPolicy: Never
      containers:
        - name: trainer
          image: modelscope/ms-swift:latest
          command: ["swift"]
          args: ["sft", "--model", "Qwen/Qwen2.5-7B-Instruct", "--train_type", "lora", "--dataset", "alpaca",
                 "--torch_dtype", "bfloat16", "--attn_impl", "flash_attn"]
"""
    assert read(tmp_path, "job.yaml", text) == ("ms-swift", ["fa2"], "bfloat16", "none")


def test_k8s_pytorchjob_in_a_multi_document_file_runs_torchtune_once(tmp_path):
    script = """                  set -e
                  tune run --nnodes 2 --nproc_per_node 8 full_finetune_distributed --config /cfg/llama3_8B_full.yaml
"""
    replica = """      template:
        spec:
          containers:
            - name: pytorch
              image: pytorch/torchtune:latest
              command: ["/bin/bash", "-c"]
              args:
                - |
""" + script
    text = """apiVersion: v1
kind: ConfigMap
metadata:
  name: cfg
data:
  note: "the config lives elsewhere"
---
apiVersion: kubeflow.org/v1
kind: PyTorchJob
metadata:
  name: tune
spec:
  pytorchReplicaSpecs:
    Master:
      replicas: 1
""" + replica + """    Worker:
      replicas: 1
""" + replica
    assert read(tmp_path, "pytorchjob.yaml", text)[0] == "torchtune"
    # once (rv8: the trainer alone is the same with the command read twice)
    lines = runner_commands(list(yaml.safe_load_all(text)))[1]
    assert sum("full_finetune_distributed" in ln for ln in lines.splitlines()) == 1, lines


def test_k8s_args_only_bash_script_in_a_deployment_with_init_container(tmp_path):
    text = """apiVersion: apps/v1
kind: Deployment
metadata:
  name: lora
spec:
  template:
    spec:
      initContainers:
        - name: fetch
          image: alpine
          command: ["sh", "-c", "wget -O /data/x.zip http://example.invalid/x.zip"]
      containers:
        - name: train
          image: kohya/sd-scripts
          command: ["bash", "-lc"]
          args:
            - accelerate launch flux_train_network.py --pretrained_model_name_or_path /m/flux1-dev.safetensors --network_module networks.lora_flux --mixed_precision bf16 --sdpa --output_dir /out
"""
    assert read(tmp_path, "deploy.yml", text) == ("sd-scripts", ["sdpa"], "bfloat16", "none")


def test_argo_workflow_container_and_shell_script(tmp_path):
    text = """apiVersion: argoproj.io/v1alpha1
kind: Workflow
metadata:
  generateName: sft-
spec:
  entrypoint: train
  templates:
    - name: train
      script:
        image: axolotlai/axolotl:main-latest
        command: [bash]
        source: |
          axolotl train /configs/lora.yml
"""
    assert read(tmp_path, "workflow.yaml", text)[0] == "axolotl"


def test_argo_container_running_run_py_is_refused_as_a_shell_script_would_be(tmp_path):
    # `python run.py cfg.yaml` alone is not ai-toolkit's evidence (a launch script saying the same is refused too)
    text = """apiVersion: argoproj.io/v1alpha1
kind: Workflow
metadata:
  generateName: lora-
spec:
  entrypoint: train
  templates:
    - name: train
      container:
        image: ostris/aitoolkit:latest
        command: [python, run.py, /configs/flux_lora.yaml]
"""
    assert "run.py" in refusal(tmp_path, "argo.yaml", text)
    assert "run.py" in refusal(tmp_path, "run.sh", "python run.py /configs/flux_lora.yaml\n")


def test_k8s_deployment_serving_tgi_is_refused(tmp_path):
    text = """apiVersion: apps/v1
kind: Deployment
metadata:
  name: tgi
spec:
  template:
    spec:
      containers:
        - name: tgi
          image: ghcr.io/huggingface/text-generation-inference:latest
          command: ["text-generation-launcher"]
          args: ["--model-id", "mistralai/Mistral-7B-Instruct-v0.3", "--port", "8080"]
"""
    assert "is a Kubernetes manifest (kind: Deployment), not a trainer config" in refusal(tmp_path, "tgi.yaml", text)


def test_k8s_multi_document_with_no_command_is_a_manifest_not_invalid_yaml(tmp_path):
    text = """apiVersion: apps/v1
kind: Deployment
metadata:
  name: vllm
spec:
  template:
    spec:
      containers:
        - name: app
          image: vllm/vllm-openai:latest
---
apiVersion: v1
kind: Service
metadata:
  name: vllm
spec:
  ports:
    - port: 80
"""
    msg = refusal(tmp_path, "vllm.yaml", text)
    assert "is a Kubernetes manifest (kind: Deployment), not a trainer config" in msg


def test_a_multi_document_stream_of_other_yaml_stays_refused_as_invalid(tmp_path):
    text = "model: a\n---\nmodel: b\n"
    assert "not valid YAML" in refusal(tmp_path, "two.yaml", text)


# --- CI ------------------------------------------------------------------------------------------------------------

def test_github_actions_multiline_run_runs_a_diffusers_example(tmp_path):
    text = """name: train
on: workflow_dispatch
jobs:
  train:
    runs-on: [self-hosted, gpu]
    steps:
      - uses: actions/checkout@v4
      - run: pip install -r requirements.txt
      - name: DreamBooth LoRA
        run: |
          accelerate launch diffusers/examples/dreambooth/train_dreambooth_lora_sdxl.py \\
            --pretrained_model_name_or_path=stabilityai/stable-diffusion-xl-base-1.0 \\
            --instance_data_dir=data --output_dir=out --instance_prompt="a photo of sks dog" \\
            --mixed_precision=fp16 --enable_xformers_memory_efficient_attention \\
            --resolution=1024 --train_batch_size=1 --max_train_steps=500
"""
    assert read(tmp_path, "train.yml", text) == ("diffusers", ["xformers"], "float16", "none")


def test_github_actions_one_line_run_runs_llamafactory(tmp_path):
    text = """name: sft
on:
  push:
    branches: [main]
jobs:
  sft:
    runs-on: gpu
    steps:
      - uses: actions/checkout@v4
      - run: llamafactory-cli train configs/qwen_lora_sft.yaml
"""
    assert read(tmp_path, "sft.yaml", text)[0] == "llama-factory"


def test_github_actions_running_pytest_is_refused(tmp_path):
    text = """name: ci
on: [push]
jobs:
  test:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - run: pip install -e .[dev]
      - run: pytest -q tests/
"""
    assert "is a GitHub Actions workflow, not a trainer config" in refusal(tmp_path, "ci.yml", text)


def test_gitlab_ci_script_runs_litgpt(tmp_path):
    text = """stages:
  - train
.gpu:
  tags: [gpu]
  script:
    - echo template only
finetune:
  stage: train
  image: python:3.11
  tags: [gpu]
  script:
    - pip install 'litgpt[all]'
    - litgpt finetune_lora meta-llama/Llama-3.2-1B --precision bf16-true --data Alpaca
"""
    assert read(tmp_path, ".gitlab-ci.yml", text) == ("litgpt", [], "bfloat16", "none")


def test_gitlab_ci_running_tests_is_refused(tmp_path):
    text = """stages: [test]
unit:
  stage: test
  script:
    - python -m pytest tests/ -x
"""
    assert "is a GitLab CI pipeline, not a trainer config" in refusal(tmp_path, ".gitlab-ci.yml", text)


@pytest.mark.parametrize("name", ["docker-compose.yml", "stack.yaml", "train.yml"])
def test_the_structure_decides_not_the_file_name(tmp_path, name):
    text = """services:
  t:
    image: x
    command: ["axolotl", "train", "cfg.yml"]
"""
    assert read(tmp_path, name, text)[0] == "axolotl"


def test_compose_double_dollar_is_the_shells_dollar(tmp_path):
    # Compose turns `$$` into `$` (its own interpolation); the container's bash then takes ${PREC:-fp16}'s default
    text = """services:
  t:
    image: x
    command: bash -c "accelerate launch train_network.py --xformers --mixed_precision $${PREC:-fp16}"
"""
    assert read(tmp_path, "docker-compose.yml", text) == ("sd-scripts", ["xformers"], "float16", "none")


def test_kubernetes_cronjob_and_gitlab_string_script(tmp_path):
    cron = """apiVersion: batch/v1
kind: CronJob
metadata: {name: nightly}
spec:
  schedule: "0 2 * * *"
  jobTemplate:
    spec:
      template:
        spec:
          containers:
            - name: t
              image: x
              command: ["python", "-m", "axolotl.cli.train", "/cfg/x.yml"]
"""
    assert read(tmp_path, "cron.yaml", cron)[0] == "axolotl"
    gitlab = """train:
  stage: train
  script: |
    cd axolotl
    accelerate launch -m axolotl.cli.train examples/llama-3/lora-8b.yml
"""
    assert read(tmp_path, ".gitlab-ci.yml", gitlab)[0] == "axolotl"


def test_a_github_expression_leaves_the_value_unknown(tmp_path):
    text = """name: lora
on:
  workflow_dispatch:
    inputs:
      precision: {default: bf16}
jobs:
  train:
    runs-on: [self-hosted]
    steps:
      - run: accelerate launch train_network.py --network_module networks.lora --mixed_precision ${{ inputs.precision }} --sdpa
"""
    assert read(tmp_path, "lora.yml", text) == ("sd-scripts", ["sdpa"], "", "none")


# --- RunPod / Vast.ai templates ------------------------------------------------------------------------------------

def test_runpod_template_docker_args_run_musubi_tuner(tmp_path):
    text = """{
  "name": "wan-lora",
  "imageName": "me/musubi:latest",
  "containerDiskInGb": 80,
  "volumeMountPath": "/workspace",
  "env": [{"key": "HF_HOME", "value": "/workspace/hf"}],
  "dockerArgs": "bash -c 'cd /workspace/musubi-tuner && accelerate launch --mixed_precision bf16 src/musubi_tuner/wan_train_network.py --task t2v-1.3B --dit /m/wan.safetensors --sdpa --mixed_precision bf16 --network_module networks.lora_wan --output_dir /out'"
}
"""
    got = read(tmp_path, "runpod-template.json", text)
    assert got[0] == "musubi" and got[1] == ["sdpa"] and got[2] == "bfloat16"


def test_runpod_rest_start_command_lists(tmp_path):
    text = """{
  "name": "sft",
  "imageName": "axolotlai/axolotl:main-latest",
  "dockerEntrypoint": ["axolotl"],
  "dockerStartCmd": ["train", "/workspace/cfg.yml"]
}
"""
    assert read(tmp_path, "template.json", text)[0] == "axolotl"


def test_vast_template_onstart_runs_diffusion_pipe(tmp_path):
    text = """{
  "name": "dp",
  "image": "vastai/pytorch",
  "runtype": "ssh",
  "use_ssh": true,
  "onstart": "cd /workspace/diffusion-pipe\\ndeepspeed --num_gpus=1 train.py --deepspeed --config examples/wan_lora.toml"
}
"""
    assert read(tmp_path, "vast.json", text)[0] == "diffusion-pipe"


def test_runpod_template_serving_vllm_is_refused(tmp_path):
    text = """{
  "name": "vllm",
  "imageName": "vllm/vllm-openai:latest",
  "dockerArgs": "--model Qwen/Qwen2.5-7B-Instruct --max-model-len 8192"
}
"""
    assert "is a RunPod pod template (imageName / dockerArgs), not a trainer config" in \
        refusal(tmp_path, "runpod.json", text)


def test_vast_template_starting_jupyter_is_refused(tmp_path):
    text = """{"image": "vastai/pytorch", "runtype": "jupyter", "jup_direct": true,
 "onstart": "jupyter lab --ip 0.0.0.0 --port 8080 --allow-root"}
"""
    assert "not a trainer config" in refusal(tmp_path, "vast.json", text)
