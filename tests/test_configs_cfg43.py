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



# --- 1. a function's assignments are global ---------------------------------------------------------------------

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
