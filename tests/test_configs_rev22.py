"""Review rev22 (session 22) of cfg93's src-layout discovery (configs._package_dirs): a repository's pyproject.toml whose
tables hold other shapes than the build backends document (`[tool.setuptools] packages = {find = "src"}`, `[tool.hatch]
build = "x"`, `[tool.poetry] packages = "pkg"`) made every Python script under it crash the reader (AttributeError: 'str'
object has no attribute 'get', no refusal line) on main at e16f3c2b (checked: 3 of the 4 cases; the Poetry string one
was read there too); now such a table names no package folder and
the script is read as it was before cfg93. Every file here is written for this test."""

from __future__ import annotations

import pytest

from configs_corpus import put, trainer_reading

SCRIPT = """from transformers import AutoModelForCausalLM, Trainer, TrainingArguments
from mypkg.util import data

model = AutoModelForCausalLM.from_pretrained("Qwen/Qwen2.5-0.5B", attn_implementation="flash_attention_2")
args = TrainingArguments(output_dir="out", bf16=True)
Trainer(model=model, args=args, train_dataset=data()).train()
"""


@pytest.mark.parametrize("pyproject", [
    '[project]\nname = "x"\n[tool.setuptools]\npackages = {find = "src"}\n',
    '[project]\nname = "x"\n[tool.hatch]\nbuild = "wheel"\n',
    '[tool.poetry]\nname = "x"\npackages = "mypkg"\n',
    '[tool.hatch.build]\ntargets = ["wheel"]\n',
], ids=["setuptools-find-string", "hatch-build-string", "poetry-packages-string", "hatch-targets-list"])
def test_odd_pyproject_tables_do_not_crash_the_reading(tmp_path, pyproject):
    put(tmp_path, "pyproject.toml", pyproject)
    put(tmp_path, "mypkg/__init__.py", "")
    put(tmp_path, "mypkg/util.py", "def data():\n    return []\n")
    script = put(tmp_path, "train.py", SCRIPT)
    assert trainer_reading(script) == ("transformers", ["fa2"], "bfloat16")
