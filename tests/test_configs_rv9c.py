"""Review mends of session 8 (helper rv9c) that change what a message says. Variants written for this test (what each
fakes is in its text):
- a cloud job spec is named the way configs.job_commands read it, in one decision: a spec with an Azure ML `command:`
  (its `$schema`, or `type: command` with `compute:`) and a SkyPilot-style `run:` is read as the Azure job (its
  `command:` is what runs), and was named a SkyPilot task; a dstack task (`type: task`, `commands:`) with a stray
  `command:` string was named an Azure ML command job. Near misses: a SkyPilot task with a `command:` string but no
  Azure evidence is read and named as the SkyPilot task it is (the job naming: NEW fails at 84777559);
- a list of Kubernetes manifests reaches the runner reading as a list (no placeholder mapping), its refusals in the
  same order (guards: they pass before and after);
- a VS Code launch.json is recognised by one rule, as json reads it or as JSON with comments (block comments, `//`
  inside strings, trailing commas, a BOM); near miss: a tasks.json whose comment spells launch.json's keys is no
  launch configuration (NEW: fails at ee8ace5f, where the words were matched anywhere in the text).
- ms-swift's `swift sft CONFIG.yaml` config is found by configs.config_data, as other readers find theirs: beside the
  launcher, or written by the launch script (NEW: fails at 58e37c1f, where only a file on disk was read); near miss:
  the caller's file (`"$CFG.yaml"`) is named unread; torchtune's `tune run R --config X.yaml` likewise (NEW: fails at
  2d901c79), a built-in config name (llama3_2/1B_lora) staying the package's; musubi-tuner's --config_file through
  config_data with its .toml suffix (guards pass before and after; NEW at 1919fe26: a written file no TOML reader
  takes is named in `unread`).
The variants marked NEW fail on the code before their change."""

from __future__ import annotations

import pytest

from attn_doctor import configs
from configs_corpus import read, refusal as _refusal, write

AZURE_SCHEMA_AND_RUN = """\
$schema: https://azuremlschemas.azureedge.net/latest/commandJob.schema.json
code: ./src
command: python eval_own.py --split test --bf16
run: python never_runs.py
resources:
  instance_count: 1
environment: azureml:acpt-pytorch-2.2-cuda12.1@latest
compute: azureml:gpu-cluster
"""

AZURE_TYPE_AND_RUN = """\
type: command
compute: azureml:a100-cluster
command: >-
  python eval_own.py --split test --bf16
setup: pip install -r requirements.txt
run: python never_runs.py
"""

DSTACK_WITH_COMMAND = """\
type: task
name: eval-own
command: echo this key is no dstack key
commands:
  - pip install -r requirements.txt
  - python eval_own.py --split test --bf16
resources:
  gpu: 24GB
"""


@pytest.mark.parametrize("text, kind", [
    (AZURE_SCHEMA_AND_RUN, "an Azure ML command job"),  # NEW (was: a SkyPilot task)
    (AZURE_TYPE_AND_RUN, "an Azure ML command job"),  # NEW (was: a SkyPilot task)
    (DSTACK_WITH_COMMAND, "a dstack task"),  # NEW (was: an Azure ML command job)
])
def test_a_job_spec_is_named_as_it_is_read(tmp_path, text, kind):
    msg = _refusal(tmp_path, "job.yml", text)
    assert f"is {kind}, not a trainer config" in msg and "eval_own.py" in msg
    assert "never_runs.py" not in msg
    assert sum(k in msg for k in ("Azure", "SkyPilot", "dstack")) == 1


def test_a_skypilot_task_with_a_command_key_stays_a_skypilot_task(tmp_path):
    # near miss: `command:` without Azure's schema or `type: command` + `compute:` is no Azure job
    text = """\
resources:
  accelerators: L4:1
command: not what runs
run: |
  python eval_own.py --split test --bf16
"""
    msg = _refusal(tmp_path, "task.yaml", text)
    assert "is a SkyPilot task (resources: / run:), not a trainer config" in msg and "eval_own.py" in msg
    assert "Azure" not in msg


# ---------------------------------------------------------------------------------------------------------------------
# a list of Kubernetes manifests goes to the runner reading as the list it is (no placeholder mapping): the refusals
# keep their order (a manifest list that runs nothing is a Kubernetes manifest, any other list is no settings object)
# ---------------------------------------------------------------------------------------------------------------------

def _manifest(kind: str, command=None) -> dict:
    c = {"name": "main", "image": "pytorch/pytorch:2.4.0-cuda12.1-cudnn9-runtime"}
    if command:
        c["command"] = command
    return {"apiVersion": "batch/v1", "kind": kind, "metadata": {"name": "x"},
            "spec": {"template": {"spec": {"containers": [c]}}}}


def test_a_json_list_of_manifests_is_read_as_the_commands_it_runs(tmp_path):
    import json

    data = [_manifest("ConfigMap"), _manifest("Job", ["python", "eval_own.py", "--split", "test"])]
    msg = _refusal(tmp_path, "job.json", json.dumps(data))
    assert "is a Kubernetes manifest (kind: Job), not a trainer config" in msg and "eval_own.py" in msg


@pytest.mark.parametrize("data, words", [
    ([_manifest("Job"), _manifest("Service")], "is a Kubernetes manifest (kind: Job), not a trainer config"),
    ([_manifest("Job", ["python", "eval_own.py"]), {"name": "not a manifest"}], "it holds a list"),
])
def test_a_list_that_runs_nothing_keeps_its_refusal(tmp_path, data, words):
    import json

    assert words in _refusal(tmp_path, "job.json", json.dumps(data))


def test_option_names_are_the_long_options_a_command_gives():
    from attn_doctor.configs.shell import option_names

    words = ["--lr=1e-4", "--bf16", "-x", "3", "--", "--mixed_precision", "fp16", "--a=b=c", "out.yaml"]
    assert option_names(words) == ["lr", "bf16", "mixed_precision", "a"]


# ---------------------------------------------------------------------------------------------------------------------
# a VS Code launch.json is recognised by one rule (others.vscode_launch), whether json reads it or it is JSON with
# comments (others.vscode_launch_text reads it as VS Code does, then asks the same rule)
# ---------------------------------------------------------------------------------------------------------------------

LAUNCH_BLOCK_COMMENTS = """\ufeff{
    /* Debug the trainer: see https://go.microsoft.com/fwlink/?linkid=830387 */
    "version": "0.2.0",
    "configurations": [
        {
            "name": "torchrun // rank 0",
            "type": "debugpy",
            "request": "launch",
            "module": "torch.distributed.run",
            "args": ["--nproc_per_node=1", "train.py", "--config", "conf/a.yaml",],  // trailing comma
        },
    ],
}
"""

LAUNCH_PLAIN = """{"version": "0.2.0", "configurations": [{"name": "Attach", "type": "python", "request": "attach",
 "connect": {"host": "localhost", "port": 5678}}]}"""

TASKS_JSONC = """\
{
    // the debugger lives in launch.json: "configurations": [ {"type": "debugpy", "request": "launch"} ]
    "version": "2.0.0",
    "tasks": [{"label": "train", "type": "shell", "command": "python train.py"}]
}
"""


@pytest.mark.parametrize("text", [LAUNCH_BLOCK_COMMENTS, LAUNCH_PLAIN])
def test_a_launch_json_is_one_rule_with_or_without_comments(tmp_path, text):
    msg = _refusal(tmp_path, "launch.json", text)
    assert "is a VS Code launch configuration (.vscode/launch.json: how the editor starts and debugs programs), not a " \
           "trainer config" in msg


def test_a_launch_json_named_only_in_a_comment_is_no_launch_json(tmp_path):
    # near miss: a tasks.json (JSON with comments) whose comment spells launch.json's keys; NEW (was: a VS Code launch
    # configuration, the words matched anywhere in the text)
    msg = _refusal(tmp_path, "tasks.json", TASKS_JSONC)
    assert "not valid JSON" in msg and "VS Code launch" not in msg


# ---------------------------------------------------------------------------------------------------------------------
# ms-swift's `swift sft CONFIG.yaml` finds its config as every other reader does (configs.config_data): on disk where
# the launcher's run finds it, or the text the launch script writes itself
# ---------------------------------------------------------------------------------------------------------------------

SWIFT_YAML = """\
model: Qwen/Qwen2.5-7B-Instruct
train_type: lora
dataset:
  - AI-ModelScope/alpaca-gpt4-data-en#500
torch_dtype: bfloat16
attn_impl: flash_attn
"""


def test_swift_config_beside_the_launcher(tmp_path):
    write(tmp_path, "sft.yaml", SWIFT_YAML)
    cfg = configs.load(write(tmp_path, "run.sh", "NPROC_PER_NODE=2 swift sft sft.yaml\n"))
    assert cfg["detected"]["trainer"] == "ms-swift" and cfg["required"] == ["fa2"] and cfg["dtype"] == "bfloat16"
    assert not cfg.get("unread")


def test_swift_config_the_launch_script_writes(tmp_path):
    text = f"cat > sft.yaml <<'EOF'\n{SWIFT_YAML}EOF\nNPROC_PER_NODE=2 swift sft sft.yaml\n"
    assert read(tmp_path, "run.sh", text) == ("ms-swift", ["fa2"], "bfloat16", "none")  # NEW (was: unread, [] / "")


def test_swift_config_given_by_the_caller_is_unread(tmp_path):
    # near miss: `swift sft "$1"` names the caller's file, nothing here to read
    cfg = configs.load(write(tmp_path, "run.sh", 'swift sft "$CFG.yaml"\n'))
    assert cfg["detected"]["trainer"] == "ms-swift" and cfg["required"] == [] and cfg.get("unread")


# ---------------------------------------------------------------------------------------------------------------------
# torchtune's `tune run RECIPE --config X.yaml` finds X.yaml through configs.config_data too; a built-in config name
# (llama3_2/1B_lora) stays the package's
# ---------------------------------------------------------------------------------------------------------------------

TUNE_YAML = """\
model:
  _component_: torchtune.models.llama3_2.lora_llama3_2_1b
dataset:
  _component_: torchtune.datasets.alpaca_cleaned_dataset
  packed: False
dtype: fp16
compile: True
"""


def test_tune_config_beside_the_launcher(tmp_path):
    write(tmp_path, "my_lora.yaml", TUNE_YAML)
    cfg = configs.load(write(tmp_path, "run.sh", "tune run lora_finetune_single_device --config my_lora.yaml\n"))
    assert (cfg["detected"]["trainer"], cfg["dtype"], cfg["compile_mode"]) == ("torchtune", "float16", "default")
    assert not cfg.get("unread")


def test_tune_config_the_launch_script_writes(tmp_path):
    text = f"cat > my_lora.yaml <<'EOF'\n{TUNE_YAML}EOF\ntune run lora_finetune_single_device --config my_lora.yaml\n"
    cfg = configs.load(write(tmp_path, "run.sh", text))
    assert (cfg["dtype"], cfg["compile_mode"]) == ("float16", "default")  # NEW (was: unread, nothing known)
    assert not cfg.get("unread")


@pytest.mark.parametrize("conf, unread", [
    ('"$1"', True),  # near miss: the caller's file
    ("missing/lora.yaml", True),  # near miss: a file of the repository that is not here
    ("llama3_2/1B_lora", False),  # a built-in config of the package
])
def test_tune_config_elsewhere(tmp_path, conf, unread):
    cfg = configs.load(write(tmp_path, "run.sh", f"tune run lora_finetune_single_device --config {conf}\n"))
    assert cfg["detected"]["trainer"] == "torchtune" and bool(cfg.get("unread")) == unread


# ---------------------------------------------------------------------------------------------------------------------
# musubi-tuner's --config_file (musubi adds .toml to a name without it) is found through configs.config_data with that
# suffix: on disk, or written by the launch script under either name
# ---------------------------------------------------------------------------------------------------------------------

MUSUBI_TOML = """\
[training]
mixed_precision = "fp16"
sage_attn = true
"""
MUSUBI_CMD = ("accelerate launch src/musubi_tuner/wan_train_network.py --task t2v-14B --dit /m/wan.safetensors "
              "--dataset_config dataset.toml --network_module networks.lora_wan --config_file {conf}\n")


@pytest.mark.parametrize("conf, written", [
    ("train", None), ("train.toml", None),  # beside the launcher
    ("train", "train.toml"), ("train.toml", "train.toml"), ("train", "train"),  # written by the launch script
])
def test_musubi_config_file(tmp_path, conf, written):
    if written:
        text = f"cat > {written} <<'EOF'\n{MUSUBI_TOML}EOF\n" + MUSUBI_CMD.format(conf=conf)
    else:
        write(tmp_path, "train.toml", MUSUBI_TOML)
        text = MUSUBI_CMD.format(conf=conf)
    cfg = configs.load(write(tmp_path, "run.sh", text))
    assert (cfg["detected"]["trainer"], cfg["required"], cfg["dtype"]) == ("musubi", ["sage"], "float16")
    assert not cfg.get("unread")


@pytest.mark.parametrize("conf", ['"$1"', "elsewhere/train"])
def test_musubi_config_file_not_here_is_unread(tmp_path, conf):
    # near misses: the caller's file, a file of the repository that is not here
    cfg = configs.load(write(tmp_path, "run.sh", MUSUBI_CMD.format(conf=conf)))
    assert cfg["detected"]["trainer"] == "musubi" and "sage" not in cfg["required"] and cfg.get("unread")


def test_musubi_config_file_written_as_no_toml_is_unread(tmp_path):
    # the script writes something no TOML reader takes: unknown, and named as the other unread files are (NEW: it was
    # config_file_unread without its name in `unread`)
    text = "cat > train.toml <<'EOF'\n[training\nsage_attn = true\nEOF\n" + MUSUBI_CMD.format(conf="train")
    cfg = configs.load(write(tmp_path, "run.sh", text))
    assert cfg["detected"]["trainer"] == "musubi" and "sage" not in cfg["required"] and cfg.get("unread") == ["train"]
