"""What review rev23 found in session 23's configs changes and mended (written by hand, 2026-11-30).

  unset   cfg96 reads the folders a launch puts on PYTHONPATH (`export PYTHONPATH=src`) as where the launched script imports
          from; the shell reader took no notice of `unset PYTHONPATH` between the export and the launch (bash(1) "unset": the
          variable leaves the environment of the commands after it), so the script's `from mypkg import ...` was read from
          src/ where Python finds nothing. Now `unset NAME` empties the variable for the commands after it (not `unset -f`,
          which names functions), for any variable: a branch's test on it reads it empty too.
"""

from __future__ import annotations

import pytest

from configs_corpus import put, trainer_reading
from test_configs_cfg90 import TRAINER  # (a function that loads a model with fa2 and runs TRL's SFTTrainer)

FA2 = ("transformers", ["fa2"], "bfloat16")


def _src_package(root):
    put(root, "src/mypkg/__init__.py", "from .trainer import train\n")
    put(root, "src/mypkg/trainer.py", TRAINER.format(name="train", attn="flash_attention_2"))
    put(root, "scripts/train.py", '"""Entry point."""\nfrom mypkg import train\n\ntrain()\n')


@pytest.mark.parametrize("launch", [
    "#!/bin/bash\nexport PYTHONPATH=src\nunset PYTHONPATH\npython scripts/train.py\n",
    "#!/bin/bash\nexport PYTHONPATH=$PWD/src:$PYTHONPATH\nunset -v PYTHONPATH CUDA_HOME\npython scripts/train.py\n",
])
def test_an_unset_pythonpath_is_not_where_the_script_imports_from(tmp_path, launch):
    _src_package(tmp_path)
    assert trainer_reading(put(tmp_path, "run.sh", launch)) == "refused"


@pytest.mark.parametrize("launch", [
    "#!/bin/bash\nexport PYTHONPATH=src\npython scripts/train.py\n",
    "#!/bin/bash\nexport PYTHONPATH=src\nunset -f PYTHONPATH\npython scripts/train.py\n",  # a function of that name, not the variable
    "#!/bin/bash\nunset PYTHONPATH\nexport PYTHONPATH=src\npython scripts/train.py\n",  # set again after it
])
def test_a_pythonpath_set_when_the_script_runs_stays_its_import_root(tmp_path, launch):
    _src_package(tmp_path)
    assert trainer_reading(put(tmp_path, "run.sh", launch)) == FA2


_ELSE = """#!/bin/bash
MODE=dpo
{unset}
if [ "$MODE" = "dpo" ]; then
    colossalai run --nproc_per_node 8 dpo.py
else
    accelerate launch --num_processes 8 ../train.py
fi
"""


def test_a_branch_test_on_an_unset_variable_reads_it_empty(tmp_path):
    put(tmp_path, "train.py", TRAINER.format(name="train", attn="flash_attention_2") + "\n\ntrain()\n")
    put(tmp_path, "scripts/dpo.py", "print('dpo')\n")
    assert trainer_reading(put(tmp_path, "scripts/run.sh", _ELSE.format(unset="unset MODE"))) == FA2
    assert trainer_reading(put(tmp_path, "scripts/run2.sh", _ELSE.format(unset=""))) == "refused"
