"""rv8's review (session 7), config side: mechanisms of configs/runners.py and launchers.inline_python that the session's
tests named but could not detect (each test here fails with its mechanism removed from the code; the mutations were run
by hand, 2026-11-28), with near misses. The files are written for the test.

- a PyTorchJob's Master and Worker run one training command, read once (runners._unique): test_configs_round24_rules'
  "runs_torchtune_once" asserted only the trainer, which the duplicate leaves unchanged;
- a service's / container's environment is exported before its command (runners._exports): Compose's `environment:`
  mapping, Kubernetes' `env:` name/value list; a valueFrom gives no value;
- a GitLab CI job's `before_script:` (its own, or `default:`'s) runs before its `script:`;
- an Argo `script:` template whose interpreter is not a shell runs its `source:` as that program, not as shell lines;
- inline Python: a backslash-newline inside double quotes is dropped as bash drops it; an unterminated quote is no code."""

from __future__ import annotations

import pytest
import yaml

from attn_doctor.configs.runners import runner_commands
from configs_corpus import read, refusal

LITGPT = "litgpt finetune_lora meta-llama/Llama-3.2-1B --precision $PREC --data Alpaca"


def test_a_pytorchjobs_master_and_worker_command_is_read_once(tmp_path):
    replica = """      template:
        spec:
          containers:
            - name: pytorch
              image: pytorch/torchtune:latest
              command: ["tune", "run", "--nnodes", "2", "full_finetune_distributed", "--config", "/cfg/llama3_8B_full.yaml"]
"""
    text = ("apiVersion: kubeflow.org/v1\nkind: PyTorchJob\nmetadata:\n  name: tune\nspec:\n  pytorchReplicaSpecs:\n"
            "    Master:\n      replicas: 1\n" + replica + "    Worker:\n      replicas: 1\n" + replica)
    assert read(tmp_path, "pytorchjob.yaml", text)[0] == "torchtune"
    kind, lines = runner_commands(list(yaml.safe_load_all(text)))
    assert kind == "a Kubernetes manifest (kind: PyTorchJob)"
    assert [ln for ln in lines.splitlines() if "full_finetune_distributed" in ln] == [
        "tune run --nnodes 2 full_finetune_distributed --config /cfg/llama3_8B_full.yaml"], lines


@pytest.mark.parametrize("name, text", [
    ("docker-compose.yml", "services:\n  t:\n    image: x\n    environment:\n      PREC: bf16-true\n"
                           "    command: [\"bash\", \"-c\", \"" + LITGPT.replace("$", "$$") + "\"]\n"),
    ("docker-compose.yml", "services:\n  t:\n    image: x\n    environment:\n      - PREC=bf16-true\n"
                           "    entrypoint: bash -c\n    command: [\"" + LITGPT.replace("$", "$$") + "\"]\n"),
    ("job.yaml", "apiVersion: batch/v1\nkind: Job\nspec:\n  template:\n    spec:\n      containers:\n        - name: t\n"
                 "          image: x\n          env:\n            - name: PREC\n              value: bf16-true\n"
                 "          command: [\"bash\", \"-c\", \"" + LITGPT + "\"]\n"),
])
def test_a_runners_environment_is_what_its_command_sees(tmp_path, name, text):
    assert read(tmp_path, name, text)[2] == "bfloat16"


def test_near_miss_an_env_value_from_a_secret_gives_no_value(tmp_path):
    text = ("apiVersion: batch/v1\nkind: Job\nspec:\n  template:\n    spec:\n      containers:\n        - name: t\n"
            "          image: x\n          env:\n            - name: PREC\n              valueFrom:\n"
            "                secretKeyRef: {name: s, key: prec}\n"
            "          command: [\"bash\", \"-c\", \"" + LITGPT + "\"]\n")
    assert read(tmp_path, "job.yaml", text)[2] != "bfloat16"


@pytest.mark.parametrize("text", [
    "stages: [train]\ndefault:\n  before_script:\n    - export PREC=bf16-true\nfinetune:\n  stage: train\n  script:\n    - "
    + LITGPT + "\n",
    "stages: [train]\nfinetune:\n  stage: train\n  before_script:\n    - export PREC=bf16-true\n  script:\n    - " + LITGPT + "\n",
])
def test_gitlab_before_script_runs_before_the_script(tmp_path, text):
    assert read(tmp_path, ".gitlab-ci.yml", text)[2] == "bfloat16", text


def test_near_miss_a_hidden_templates_before_script_is_not_run(tmp_path):
    text = ("stages: [train]\n.tpl:\n  before_script:\n    - export PREC=bf16-true\n  script:\n    - echo t\n"
            "finetune:\n  stage: train\n  script:\n    - " + LITGPT + "\n")
    assert read(tmp_path, ".gitlab-ci.yml", text)[2] != "bfloat16"


def test_near_miss_an_argo_python_script_is_not_shell(tmp_path):
    text = """apiVersion: argoproj.io/v1alpha1
kind: Workflow
spec:
  templates:
    - name: t
      script:
        image: python:3.11
        command: [python]
        source: |
          axolotl train /configs/lora.yml
"""
    assert "Kubernetes manifest" in refusal(tmp_path, "wf.yaml", text)


def test_inline_python_drops_a_backslash_newline_inside_double_quotes(tmp_path):
    # (the break falls inside a name, as bash allows: left in, the code would read `SFTCon\` and `fig(...)`)
    text = ('#!/bin/bash\npython -c "from trl import SFTTrainer, SFTConfig; t = SFTTrainer(model=\'m\', args=SFTCon\\\n'
            'fig(output_dir=\'o\', bf16=True)); t.train()"\n')
    assert read(tmp_path, "run.sh", text)[:3:2] == ("transformers", "bfloat16")


def test_near_miss_inline_python_in_an_unterminated_quote_is_no_code(tmp_path):
    text = "#!/bin/bash\npython -c \"print(1)\nSFTTrainer(model='m', args=SFTConfig(output_dir='o', bf16=True)).train()\n"
    assert "not a trainer config" in refusal(tmp_path, "run.sh", text)
