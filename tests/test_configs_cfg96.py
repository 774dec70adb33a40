"""Issue 24, helper cfg96 (session 23): launch lines as users dress them (benchmarks/configs_launch_decorations.py,
benchmarks/results/configs-launch-decorations-s23.md), and session 22's leftovers of that kind.

1. PYTHONPATH as an import root of the launched script: `PYTHONPATH=src python scripts/train.py`, `export
   PYTHONPATH=$PWD/src:$PYTHONPATH`, `PYTHONPATH=lib python -m mypkg.train`: Python searches PYTHONPATH's folders for
   the script's absolute imports and for `-m` modules; main looked only beside the script, two folders up and in the
   package folders a build configuration names (a src/ folder nothing installs stayed unread).
Every file here is written by cfg96 for these tests; each reading asserted below differed on main (checked)."""

from __future__ import annotations

import pytest

from configs_corpus import put, trainer_reading
from test_configs_cfg90 import TRAINER  # (a function that loads a model with fa2 and runs TRL's SFTTrainer)

FA2 = ("transformers", ["fa2"], "bfloat16")


# -- 1. PYTHONPATH ---------------------------------------------------------------------------------------------------------

def _src_package(root, where="src"):
    put(root, f"{where}/mypkg/__init__.py", "from .trainer import train\n")
    put(root, f"{where}/mypkg/trainer.py", TRAINER.format(name="train", attn="flash_attention_2"))
    put(root, "scripts/train.py", '"""Entry point."""\nfrom mypkg import train\n\ntrain()\n')


@pytest.mark.parametrize("launch", [
    "#!/bin/bash\nPYTHONPATH=src python scripts/train.py\n",
    "#!/bin/bash\nexport PYTHONPATH=$PWD/src:$PYTHONPATH\npython scripts/train.py\n",
    '#!/bin/bash\nexport PYTHONPATH="${PYTHONPATH}:$(pwd)/src"\naccelerate launch --num_processes 2 scripts/train.py\n',
    "#!/bin/bash\nset -euo pipefail\nPYTHONPATH=./src:. torchrun --nproc_per_node=2 scripts/train.py\n",
])
def test_a_folder_the_launch_puts_on_pythonpath_is_where_the_script_imports_from(tmp_path, launch):
    _src_package(tmp_path)
    assert trainer_reading(put(tmp_path, "run.sh", launch)) == FA2


def test_a_launch_in_scripts_run_from_the_root_finds_its_pythonpath_folder(tmp_path):
    _src_package(tmp_path)
    assert trainer_reading(put(tmp_path, "scripts/run.sh", "#!/bin/bash\nPYTHONPATH=src python scripts/train.py\n")) == FA2


def test_a_module_run_with_m_from_a_pythonpath_folder(tmp_path):
    put(tmp_path, "lib/mypkg/__init__.py", "")
    put(tmp_path, "lib/mypkg/train.py", TRAINER.format(name="main", attn="flash_attention_2") + "\n\nmain()\n")
    assert trainer_reading(put(tmp_path, "train.sh", "#!/bin/bash\nPYTHONPATH=lib python -m mypkg.train\n")) == FA2


@pytest.mark.parametrize("launch", [
    "#!/bin/bash\npython scripts/train.py\n",  # no PYTHONPATH: the import fails (nothing installs src/)
    "#!/bin/bash\nPYTHONPATH=$MY_ROOT/src python scripts/train.py\n",  # a folder the file does not settle
    "#!/bin/bash\nPYTHONPATH=/opt/other/src python scripts/train.py\n",  # another machine's folder
    "#!/bin/bash\nPYTHONPATH=src python -c 'print(1)'\npython scripts/train.py\n",  # set for another command only
])
def test_a_pythonpath_the_launch_does_not_give_the_script_is_not_where_it_imports_from(tmp_path, launch):
    _src_package(tmp_path)
    assert trainer_reading(put(tmp_path, "run.sh", launch)) == "refused"


# -- 2. a branch the script settles false never runs -------------------------------------------------------------------

_BRANCHES = """#!/usr/bin/env bash
{setting}

if [[ "${{trainer_backend}}" == "pl" ]] ; then
  python ../train.py
elif [[ "${{trainer_backend}}" == "cl" ]] ; then
  colossalai run --nproc_per_node 1 --num_nodes 1 ../train.py
else
  torchrun --nproc_per_node 1 --nnodes 1 ../train.py
fi
"""
_ELSE = """#!/bin/bash
{setting}
if [ "$MODE" = "dpo" ]; then
    colossalai run --nproc_per_node 8 dpo.py
else
    accelerate launch --num_processes 8 ../train.py
fi
"""


@pytest.mark.parametrize("template, setting", [
    (_BRANCHES, "export trainer_backend=pl"),  # (round 86m's chenghaoYang train_lora.sh, in short)
    (_BRANCHES, "trainer_backend=pt"),  # the else branch: torchrun
    (_ELSE, "MODE=sft"),
    (_ELSE, 'MODE="${MODE:-sft}"'),  # the default the script runs with when the caller sets nothing
])
def test_the_branch_the_script_s_own_variable_takes_is_the_run(tmp_path, template, setting):
    put(tmp_path, "train.py", TRAINER.format(name="train", attn="flash_attention_2") + "\n\ntrain()\n")
    assert trainer_reading(put(tmp_path, "scripts/run.sh", template.format(setting=setting))) == FA2


@pytest.mark.parametrize("template, setting", [
    (_BRANCHES, "export trainer_backend=cl"),  # the ColossalAI branch is the run: refused as ColossalAI's
    (_ELSE, "MODE=dpo"),
])
def test_a_branch_the_script_settles_true_for_another_launcher_stays_refused(tmp_path, template, setting):
    put(tmp_path, "train.py", TRAINER.format(name="train", attn="flash_attention_2") + "\n\ntrain()\n")
    put(tmp_path, "scripts/dpo.py", "print('dpo')\n")
    assert trainer_reading(put(tmp_path, "scripts/run.sh", template.format(setting=setting))) == "refused"


# -- 3. tmux's key names ---------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("key", ["c-m", "C-M", "^M", "^m", "C-J", "enter", "ENTER", "kpenter"])
def test_a_key_tmux_reads_as_enter_submits_the_line(tmp_path, key):
    """tmux looks key names up case-insensitively and takes c- and ^ as Control (key-string.c, tmux/tmux@031d4864)"""
    put(tmp_path, "train.py", TRAINER.format(name="train", attn="flash_attention_2") + "\n\ntrain()\n")
    launch = put(tmp_path, "run.sh", f'#!/bin/bash\ntmux new-session -d -s sft\ntmux send-keys -t sft "python train.py" {key}\n')
    assert trainer_reading(launch) == FA2


@pytest.mark.parametrize("key", ["M-m", "C-c", "Escape", "m", "Tab"])
def test_a_line_typed_but_not_submitted_does_not_run(tmp_path, key):
    put(tmp_path, "train.py", TRAINER.format(name="train", attn="flash_attention_2") + "\n\ntrain()\n")
    launch = put(tmp_path, "run.sh", f'#!/bin/bash\ntmux new-session -d -s sft\ntmux send-keys -t sft "python train.py" {key}\n')
    assert trainer_reading(launch) == "refused"


# -- 4. the script word wherever the launch puts it --------------------------------------------------------------------

_LORA = "finetune/lora.py --checkpoint_dir checkpoints/meta-llama/Llama-2-7b-hf --precision bf16-true"


@pytest.mark.parametrize("launch", [
    f"srun --ntasks=1 --gres=gpu:2 python {_LORA}",
    f"conda run -n lit --no-capture-output python {_LORA}",
    f"torchrun --nproc_per_node=2 --master_port 29501 {_LORA}",
    f"CUDA_VISIBLE_DEVICES=0,1 nohup time python -u {_LORA} > train.log 2>&1 &",
])
def test_lit_gpt_s_own_script_behind_wrappers_with_options(tmp_path, launch):
    """(benchmarks/configs_launch_decorations.py: round 16m's TokisakiKurumi2001 training.sh refused under srun, conda
    run, torchrun and accelerate launch: the script was looked for among the first four words only)"""
    assert trainer_reading(put(tmp_path, "training.sh", f"#!/bin/bash\n{launch}\n")) == ("litgpt", [], "bfloat16")


def test_lit_gpt_s_script_named_as_an_argument_is_not_the_script_run(tmp_path):
    launch = "#!/bin/bash\npython train.py --init finetune/lora.py --precision bf16-true\n"
    assert trainer_reading(put(tmp_path, "training.sh", launch)) == "refused"
