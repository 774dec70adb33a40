"""Helper cfg43 (session 10, issue 24): the open items session 9 left on the training rounds
(benchmarks/results/configs-refusals-s10.md says why the refusal map itself asked for no reader change). Each mechanism
has variants written here (another trainer, layout or spelling of the same shape) and near misses that must stay
unread or refused.

1. A bash function's assignments are global: what a function the script calls sets (not `local`) is set for the
   commands after the call, and a function may call another one defined at the top level (`main` calling
   `start_training`). Round 20m charSLee013: `main` sets PYTHON_PATH, `create_dynamic_config` sets TEMP_CONFIG_FILE,
   `start_training` runs `eval "$TRAIN_CMD"` with both.
2. A config the launcher copies and edits before passing the copy (`cp base.toml "$TMP"`, `sed -i 's|...|...|g'
   "$TMP"`, `--config_file $TMP`): the base file with the script's substitutions (configs/copies.py). An edit that is
   not a plain `s` command leaves the copy unread.
"""

from __future__ import annotations

from pathlib import Path

from configs_corpus import reading

from attn_doctor import configs


def put(root: Path, files: dict) -> None:
    for name, text in files.items():
        p = root / name
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text, encoding="utf-8", newline="")


def load(root: Path, name: str) -> dict:
    return configs.load(str(root / name))


SDXL_BASE = '''[model]
pretrained_model_name_or_path = "/models/sd_xl_base_1.0.safetensors"
network_module = "networks.lora"

[output]
output_dir = "./models/base"
logging_dir = "./logs/base"

[precision]
mixed_precision = "fp16"
xformers = false
sdpa = true
'''


# --- 1 + 2. functions that set what later functions use, and the config copied then edited --------------------------

LAUNCHER_IN_FUNCTIONS = '''#!/bin/bash
set -e
TEMP_CONFIG_FILE=""
SESSION_ID=""

new_session() {
    local stamp=$(date +%Y%m%d_%H%M%S)
    SESSION_ID="${SESSION_NAME}_${stamp}"
}

make_config() {
    local base_config="configs/base.toml"
    TEMP_CONFIG_FILE="run_${SESSION_ID}.toml"
    cp "$base_config" "$TEMP_CONFIG_FILE"
    sed -i "s|logging_dir = \\".*\\"|logging_dir = \\"./logs/${SESSION_ID}\\"|g" "$TEMP_CONFIG_FILE"
    sed -i "s|output_dir = \\".*\\"|output_dir = \\"./models/${SESSION_ID}\\"|g" "$TEMP_CONFIG_FILE"
}

train() {
    CMD="$PY -m accelerate.commands.launch --num_processes=2 sdxl_train_network.py --config_file $TEMP_CONFIG_FILE"
    if eval "$CMD"; then
        echo done
    else
        exit 1
    fi
}

main() {
    PY="/opt/conda/envs/kohya/bin/python"
    new_session
    make_config
    train
}

main "$@"
'''


def test_config_copied_and_edited_inside_functions_is_the_base_file(tmp_path):
    put(tmp_path, {"start.sh": LAUNCHER_IN_FUNCTIONS, "configs/base.toml": SDXL_BASE})
    cfg = load(tmp_path, "start.sh")
    # the base TOML's sdpa and fp16, not sd-scripts' defaults (float32) and not the launcher's guess
    assert reading(cfg) == ("sd-scripts", ["sdpa"], "float16", "none")
    assert not cfg.get("unread")


def test_an_edit_of_the_copy_that_changes_a_setting_is_applied(tmp_path):
    # top level this time, another spelling of cp and sed (-f, -e, / delimiters, &, an -E group), musubi-tuner
    base = '''[general]
dit = "/models/wan2.1_t2v_14B_bf16.safetensors"
dataset_config = "dataset.toml"
network_module = "networks.lora_wan"
task = "t2v-14B"
mixed_precision = "fp16"
xformers = true
'''
    launcher = '''#!/usr/bin/env bash
CFG=/tmp/wan_$(date +%s).toml
cp -f ./templates/wan.toml "$CFG"
sed -i -e 's/^mixed_precision = .*/mixed_precision = "bf16"/' -e 's/^xformers = true/# & (off)\\nsdpa = true/' "$CFG"
sed -i -E 's/^(output_name) = .*/\\1 = "run"/' "$CFG"
accelerate launch --mixed_precision bf16 src/musubi_tuner/wan_train_network.py --config_file "$CFG"
'''
    put(tmp_path, {"scripts/train.sh": launcher, "scripts/templates/wan.toml": base})
    cfg = load(tmp_path, "scripts/train.sh")
    assert reading(cfg) == ("musubi", ["sdpa"], "bfloat16", "none")
    # without the edits the same base reads as fp16 with xformers: the substitutions are what was read
    plain = launcher.replace("sed -i -e", "# sed -i -e")
    put(tmp_path, {"scripts/plain.sh": plain})
    assert reading(load(tmp_path, "scripts/plain.sh")) == ("musubi", ["xformers"], "float16", "none")


def test_an_edit_that_is_not_a_plain_substitution_leaves_the_copy_unread(tmp_path):
    # near miss: `sed -i '/^sdpa/d'` deletes a line; it is not applied, so the copy is not read as the base file
    launcher = LAUNCHER_IN_FUNCTIONS.replace(
        '''    sed -i "s|logging_dir''', '''    sed -i '/^sdpa/d' "$TEMP_CONFIG_FILE"\n    sed -i "s|logging_dir''')
    put(tmp_path, {"start.sh": launcher, "configs/base.toml": SDXL_BASE})
    cfg = load(tmp_path, "start.sh")
    assert cfg["unread"] and cfg["unread"][0].startswith("run_")
    assert cfg["required"] == [] and cfg["dtype"] != "float16"


def test_a_copy_to_another_name_is_not_the_config_passed(tmp_path):
    # near miss: the script backs the base file up under another name and passes a config it never copies
    launcher = '''#!/bin/bash
CFG="$1"
cp configs/base.toml configs/base.toml.bak
accelerate launch sdxl_train_network.py --config_file "$CFG"
'''
    put(tmp_path, {"run.sh": launcher, "configs/base.toml": SDXL_BASE})
    cfg = load(tmp_path, "run.sh")
    assert cfg["detected"]["trainer"] == "sd-scripts"
    assert cfg["required"] == [] and cfg["dtype"] != "float16"


def test_a_function_sets_what_a_later_command_uses(tmp_path):
    launcher = '''#!/bin/bash
pick_attention() {
    ATTN="--sdpa"
    PREC=bf16
}
pick_attention
accelerate launch train_network.py --pretrained_model_name_or_path m.safetensors --network_module networks.lora \\
  --mixed_precision $PREC $ATTN --dataset_config d.toml
'''
    put(tmp_path, {"go.sh": launcher})
    assert reading(load(tmp_path, "go.sh")) == ("sd-scripts", ["sdpa"], "bfloat16", "none")


def test_a_local_variable_of_a_function_is_not_set_after_it(tmp_path):
    # near miss: `local` keeps the value inside the function, so the launch line's $ATTN / $PREC are unknown there
    launcher = '''#!/bin/bash
pick_attention() {
    local ATTN="--sdpa"
    local PREC=bf16
    echo "$ATTN $PREC"
}
pick_attention
accelerate launch train_network.py --pretrained_model_name_or_path m.safetensors --network_module networks.lora \\
  --mixed_precision $PREC $ATTN --dataset_config d.toml
'''
    put(tmp_path, {"go.sh": launcher})
    cfg = load(tmp_path, "go.sh")
    assert cfg["detected"]["trainer"] == "sd-scripts"
    assert cfg["required"] == [] and cfg["dtype"] != "bfloat16"


def test_a_yaml_copied_into_a_temporary_folder_for_the_trainer_cli(tmp_path):
    # a third trainer and format: LLaMA-Factory's YAML copied into `$(mktemp -d)` and edited, then `llamafactory-cli train`
    base = '''model_name_or_path: Qwen/Qwen2.5-7B-Instruct
stage: sft
do_train: true
finetuning_type: lora
dataset: alpaca_en_demo
template: qwen
output_dir: saves/base
bf16: true
flash_attn: fa2
'''
    launcher = '''#!/bin/bash
RUN_DIR=$(mktemp -d)
cp examples/base.yaml "$RUN_DIR/cfg.yaml"
sed -i "s|^output_dir: .*|output_dir: saves/$(date +%s)|" "$RUN_DIR/cfg.yaml"
sed -i 's/^flash_attn: fa2/flash_attn: sdpa/' "$RUN_DIR/cfg.yaml"
llamafactory-cli train "$RUN_DIR/cfg.yaml"
'''
    put(tmp_path, {"run.sh": launcher, "examples/base.yaml": base})
    assert reading(load(tmp_path, "run.sh")) == ("llama-factory", ["sdpa"], "bfloat16", "none")
    # the base file alone asks for FA2: the edit is what was read
    put(tmp_path, {"plain.sh": launcher.replace("sed -i 's/", "# sed -i 's/")})
    assert reading(load(tmp_path, "plain.sh")) == ("llama-factory", ["fa2"], "bfloat16", "none")
