"""Issue 24, helper cfg91 (session 22): round 86m's misses, read after its measurement, fixed for their mechanism.

1. A TRL config given bf16=False (and no fp16) turns no autocast on under any TRL version (TRL's bf16 default applies
   only to a bf16 left None: trl/trainer/base_config.py), so over peft's prepare_model_for_kbit_training float32
   upcast the run is float32, as a TrainingArguments script's is (round 9m's rule; hf_transformers.read).
2. A command typed into a tmux pane (`tmux send-keys -t S "CMD" C-m`) or started in one (`tmux new-session -d "CMD"`)
   is a command line of the script; a path word that starts with the working directory spelt out (`$(pwd)/x`) is the
   relative path x (round 86m's YuxuanJiang1 run_all.sh).
3. A config rendered from a base file under the launcher's own folder reached through a variable (`sed EXPR
   "$ROOT/tpl.yaml" > "$OUT"`) is read as the base file with the substitutions (round 86m's MostDef2000 train_lora.sh).
4. A script read alone runs with no options: `os.environ[...] = ...` under `if "--flag" in sys.argv:` is not made, so
   `os.environ.get(NAME, default)` reads its default (round 86m's zgr0 improved_training.py).
Every file here is written by cfg91 for these tests."""

from __future__ import annotations

import pytest

from configs_corpus import put as _put, trainer_reading as _read  # (one copy of each helper)

# a user's TRL QLoRA script (written for these tests); {…} slots vary
_KBIT = '''import torch
from transformers import AutoModelForCausalLM, BitsAndBytesConfig
from peft import LoraConfig, get_peft_model, prepare_model_for_kbit_training
from trl import {config}, {trainer}

quant = BitsAndBytesConfig(load_in_8bit=True)
net = AutoModelForCausalLM.from_pretrained("org/base", quantization_config=quant, torch_dtype=torch.bfloat16)
net = {prepare}
net = get_peft_model(net, LoraConfig(r=8, task_type="CAUSAL_LM"))
args = {config}(output_dir="runs/a", learning_rate=1e-4, {switches})
{trainer}(model=net, args=args, train_dataset=None).train()
'''


def _kbit(tmp_path, switches, prepare="prepare_model_for_kbit_training(net)", config="DPOConfig",
          trainer="DPOTrainer"):
    return _put(tmp_path, "train_dpo_kbit.py", _KBIT.format(switches=switches, prepare=prepare, config=config,
                                                            trainer=trainer))


@pytest.mark.parametrize("switches", ["bf16=False, fp16=False", "fp16=False, bf16=False, max_length=512",
                                      "bf16=False"])
def test_a_trl_config_given_no_autocast_over_upcast_weights_is_float32(tmp_path, switches):
    """bf16 given False (fp16 False or left out): no TRL version autocasts, and the kbit upcast made the weights
    float32 (without the change: '', TRL's version-dependent default taken as possible)."""
    assert _read(_kbit(tmp_path, switches)) == ("transformers", [], "float32")
    assert _read(_kbit(tmp_path, switches, config="GRPOConfig", trainer="GRPOTrainer")) == \
        ("transformers", [], "float32")


@pytest.mark.parametrize("switches, dtype", [
    ("", None),                           # bf16 left None: TRL >= 0.19 turns it on, older TRL not: unsaid
    ("fp16=False", None),                 # the same: bf16 still None
    ("bf16=False, fp16=True", "float16"),  # fp16 autocast
    ("bf16=True", "bfloat16"),
])
def test_a_trl_config_that_may_autocast_is_not_float32(tmp_path, switches, dtype):
    assert _read(_kbit(tmp_path, switches)) == ("transformers", [], dtype)


def test_without_the_upcast_the_load_dtype_stays(tmp_path):
    """No prepare_model_for_kbit_training: the weights keep the torch_dtype they were loaded with."""
    assert _read(_kbit(tmp_path, "bf16=False, fp16=False", prepare="net")) == ("transformers", [], "bfloat16")


# 2. `tmux send-keys -t S "CMD" C-m` types CMD into a pane's shell and submits it; `tmux new-session -d "CMD"` (and
#    new-window / split-window) runs CMD in the new pane: CMD is a command line of the script (shell._tmux_command).
#    A path word starting with the working directory spelt out (`$(pwd)/`, `$PWD/`, `PROJECT_DIR=$(pwd)` then
#    `$PROJECT_DIR/...`) is the relative path it prefixes (references.spelt).
_LF_YAML = "model_name_or_path: org/base\nstage: sft\ndo_train: true\nfinetuning_type: lora\ntemplate: qwen\n" \
           "dataset: mine\noutput_dir: out\nbf16: true\nflash_attn: fa2\n"


def _tmux_repo(tmp_path, launcher: str):
    _put(tmp_path, "recipes/sft_lora.yaml", _LF_YAML)
    return _put(tmp_path, "tools/pipeline.sh", launcher)


@pytest.mark.parametrize("line", [
    'tmux send-keys -t work "conda activate lf && llamafactory-cli train recipes/sft_lora.yaml" C-m',
    "tmux send-keys -t work:0.1 'cd . && llamafactory-cli train recipes/sft_lora.yaml' Enter",
    'tmux send-keys -t work "\nsource venv/bin/activate &&\nllamafactory-cli train recipes/sft_lora.yaml | tee log\n" C-m',
    'tmux new-session -d -s work "llamafactory-cli train recipes/sft_lora.yaml"',
    'tmux new-window -t work -n sft "llamafactory-cli train recipes/sft_lora.yaml; read"',
])
def test_a_command_typed_into_tmux_or_started_by_it_is_read(tmp_path, line):
    """(without the change: refused, or another command of the script taken for the run)"""
    assert _read(_tmux_repo(tmp_path, f"#!/bin/bash\nSESSION=work\ntmux new-session -d -s $SESSION\n{line}\n")) == \
        ("llama-factory", ["fa2"], "bfloat16")


def test_keys_typed_but_never_submitted_run_nothing(tmp_path):
    assert _read(_tmux_repo(tmp_path, '#!/bin/bash\ntmux send-keys -t work "llamafactory-cli train '
                                      'recipes/sft_lora.yaml"\n')) == "refused"


@pytest.mark.parametrize("spelling", ["$(pwd)/", "$PWD/", "${PWD}/", "`pwd`/", "$ROOT/"])
def test_the_working_directory_spelt_out_is_a_relative_path(tmp_path, spelling):
    """`$(pwd)/recipes/x.yaml` from a launcher in tools/ run at the repository root is recipes/x.yaml there (without the
    change: the YAML unread, no dtype)."""
    launcher = _tmux_repo(tmp_path, f"#!/bin/bash\nROOT=$(pwd)\nllamafactory-cli train {spelling}recipes/sft_lora.yaml\n")
    assert _read(launcher) == ("llama-factory", ["fa2"], "bfloat16")


# 3. A config the launcher renders from a base file under its own folder spelt through a variable (`ROOT="$(cd
#    "$(dirname "$0")/.." && pwd)"`, then `sed "s/{{ID}}/$1/" "$ROOT/templates/x.yaml" > "$OUT"`, then the trainer on
#    $OUT) is that base file with the substitutions, as a plain `cp` + `sed -i` copy already was (configs._copied_config).
_AITK_JOB = '''job: extension
config:
  name: "{{RUN}}_lora"
  process:
    - type: sd_trainer
      training_folder: out/{{RUN}}
      network:
        type: lora
        linear: 8
      save:
        dtype: float16
      datasets:
        - folder_path: data/{{RUN}}
      train:
        steps: 100
        dtype: bf16
        attention_backend: flash
      model:
        name_or_path: black-forest-labs/FLUX.1-dev
        is_flux: true
'''


@pytest.mark.parametrize("root", ['"$(cd "$(dirname "$0")/.." && pwd)"', '"$(dirname "$(dirname "$(realpath "$0")")")"',
                                  '"$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"'])
def test_a_job_rendered_from_a_template_under_the_launchers_folder_is_read(tmp_path, root):
    """(without the change: the run's job unread, ai-toolkit with no dtype and nothing required)"""
    _put(tmp_path, "templates/flux_job.yaml", _AITK_JOB)
    launcher = _put(tmp_path, "bin/train.sh", f'''#!/usr/bin/env bash
set -e
ROOT={root}
RUN="${{1:-demo}}"
OUT="$ROOT/rendered/$RUN.yaml"
mkdir -p "$ROOT/rendered"
sed -e "s/{{{{RUN}}}}/$RUN/g" "$ROOT/templates/flux_job.yaml" > "$OUT"
cd "$ROOT/ai-toolkit"
venv/bin/python run.py "$OUT"
''')
    assert _read(launcher) == ("ai-toolkit", ["fa2"], "bfloat16")


# 4. A script read alone runs with no options: `if "--fp32" in sys.argv:` is not taken (its `else:` is; `not in` the
#    reverse), so the os.environ sets in the branch not taken are not made, and a later os.environ.get reads its default
#    or the set that is (pyscript.script_constants._environ_sets).
_ENV_SWITCH = '''import os
import sys
from transformers import AutoModelForSeq2SeqLM, Seq2SeqTrainer, Seq2SeqTrainingArguments


def run():
    mixed = os.environ.get("MIXED", "{default}").lower()
    model = AutoModelForSeq2SeqLM.from_pretrained("org/t5-small")
    args = Seq2SeqTrainingArguments(output_dir="out", fp16=mixed == "fp16", bf16=mixed == "bf16")
    Seq2SeqTrainer(model=model, args=args).train()


if __name__ == "__main__":
{guard}
    run()
'''


@pytest.mark.parametrize("default, guard, dtype", [
    ("fp16", '    if "--bf16" in sys.argv:\n        os.environ["MIXED"] = "bf16"\n'
             '    if "--fp32" in sys.argv:\n        os.environ["MIXED"] = "no"', "float16"),
    ("no", '    if "--cpu" not in sys.argv:\n        os.environ["MIXED"] = "bf16"\n    else:\n'
           '        os.environ["MIXED"] = "no"', "bfloat16"),
    ("bf16", '    if "--half" in sys.argv[1:]:\n        os.environ["MIXED"] = "fp16"\n    else:\n'
             '        os.environ["MIXED"] = "bf16"', "bfloat16"),
])
def test_environment_sets_behind_an_option_the_bare_run_does_not_give_are_not_made(tmp_path, default, guard, dtype):
    """(without the change: the variable set to two values in branches, unknown: no dtype)"""
    assert _read(_put(tmp_path, "train_t5.py", _ENV_SWITCH.format(default=default, guard=guard))) == \
        ("transformers", [], dtype)


def test_a_test_the_file_does_not_settle_still_leaves_the_variable_unknown(tmp_path):
    guard = '    if os.path.exists("use_bf16"):\n        os.environ["MIXED"] = "bf16"\n    else:\n' \
            '        os.environ["MIXED"] = "fp16"'
    assert _read(_put(tmp_path, "train_t5.py", _ENV_SWITCH.format(default="fp16", guard=guard))) == \
        ("transformers", [], None)
