"""Issue 24, helper cfg34 (session 8): the mechanisms behind round 26m's misses, once it became training material
(fixtures/configs/round26m/README.md, "Read after its final measurement"). Each with variants written here and a
near miss:

1. a command substitution holding both kinds of quotes is one shell word (`SFT_SCRIPT=$(python -c 'import swift; ...
   print(os.path.dirname(swift.__file__) + "/cli/sft.py")')` was split at its spaces), and the path such a Python
   one-liner prints for a file of an installed package is that file (shell_words.package_file);
2. ms-swift's own entry file run by its path (`torchrun .../swift/cli/sft.py ...`) is ms-swift (ms_swift._command);
3. a TRL `ModelConfig(attn_implementation=...)` whose fields the script never reads, nor hands on, loads nothing
   (hf_transformers._fields_never_read);
4. a launcher's options to the Unsloth script beside it are read through the script's argparse, as for a TRL script
   (configs.ARGV_READERS), and argparse takes a negative number as an option's value (pyscript.argv_options);
5. a launcher read in its repository's layout: the file it names is found where the run finds it (round 26m keeps its
   files flattened, `owner__repo__path`, which hides them from the launcher)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from attn_doctor import configs
from attn_doctor.configs.shell_words import package_file, words_of
from attn_doctor.model import UsageError
from configs_corpus import CONFIGS, reading

R26 = CONFIGS / "round26m"


def _write(tmp_path: Path, name: str, text: str) -> str:
    p = tmp_path / name
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(text, encoding="utf-8")
    return str(p)


def _read(path: str) -> tuple:
    return reading(configs.load(path))


# 1. shell words and a package's file ---------------------------------------------------------------------------------

def test_a_substitution_holding_both_quotes_is_one_word():
    line = """X=$(python -c 'import swift; import os; print(os.path.dirname(swift.__file__) + "/cli/sft.py")')"""
    assert words_of(line, "posix") == [[line]]
    line2 = """CKPT=$(python3 -c "import json; print(json.load(open('run.json'))['ckpt'])") """
    assert words_of(line2, "posix") == [[line2.strip()]]
    # near miss: one kind of quote, as before
    assert words_of('D=$(dirname "$0")', "posix") == [['D=$(dirname "$0")']]


@pytest.mark.parametrize("value", [
    """$(python -c 'import swift; import os; print(os.path.dirname(swift.__file__) + "/cli/sft.py")')""",
    """$(python3 -c "import os, swift; print(os.path.join(os.path.dirname(swift.__file__), 'cli', 'sft.py'))")""",
    """$(python -c 'import swift; print(swift.__path__[0] + "/cli/sft.py")')""",
])
def test_the_path_python_prints_for_a_package_file(value):
    assert package_file(value) == "site-packages/swift/cli/sft.py"


@pytest.mark.parametrize("value", [
    """$(python -c 'import os; print(os.path.dirname(swift.__file__) + "/cli/sft.py")')""",  # swift not imported
    """$(python -c 'import swift; print(swift.__version__)')""",  # not a path
    """$(python -c 'import swift, os; print(os.path.dirname(swift.__file__) + "/../x.py")')""",  # outside it
    """$(which python)""",
    "plain/value.py",
])
def test_other_substitutions_stay_unknown(value):
    assert package_file(value) is None


# 2. ms-swift's entry file run by its path ----------------------------------------------------------------------------

SWIFT_BY_PATH = """#!/bin/bash
SFT_SCRIPT=$(python -c 'import swift; import os; print(os.path.dirname(swift.__file__) + "/cli/sft.py")')
python -m torch.distributed.run --nproc_per_node 2 "$SFT_SCRIPT" \\
    --model_type qwen2_5 --model_id_or_path /data/qwen --sft_type lora --torch_dtype bfloat16 --output_dir out
"""


def test_ms_swift_entry_file_found_through_python(tmp_path):
    assert _read(_write(tmp_path, "train.sh", SWIFT_BY_PATH)) == ("ms-swift", [], "bfloat16", "none")


def test_ms_swift_entry_file_joined_and_run_by_torchrun(tmp_path):
    text = ("ENTRY=$(python3 -c \"import os, swift; print(os.path.join(os.path.dirname(swift.__file__), 'cli', "
            "'sft.py'))\")\ntorchrun --nproc_per_node 4 $ENTRY --model Qwen/Qwen2.5-7B-Instruct --train_type lora "
            "--torch_dtype float16 --attn_impl flash_attn\n")
    assert _read(_write(tmp_path, "run.sh", text)) == ("ms-swift", ["fa2"], "float16", "none")


def test_ms_swift_entry_file_written_as_a_path(tmp_path):
    text = ("python /opt/conda/lib/python3.10/site-packages/swift/cli/sft.py --model_type qwen2_5 "
            "--sft_type lora --torch_dtype bfloat16\n")
    assert _read(_write(tmp_path, "go.sh", text))[0] == "ms-swift"


@pytest.mark.parametrize("text", [
    # another package's cli/sft.py, printed the same way
    SWIFT_BY_PATH.replace("import swift;", "import mytrainer;").replace("swift.__file__", "mytrainer.__file__"),
    # a project's own cli/sft.py
    "python my_project/cli/sft.py --model_type qwen2_5 --sft_type lora --torch_dtype bfloat16\n",
])
def test_another_sft_py_is_not_ms_swift(tmp_path, text):
    try:
        got = _read(_write(tmp_path, "train.sh", text))[0]
    except UsageError:
        return
    assert got != "ms-swift"


# 3. a ModelConfig nobody reads ---------------------------------------------------------------------------------------

MODEL_CONFIG = """from trl import {cfg}, {trainer}, ModelConfig
model_args = ModelConfig(model_name_or_path="Qwen/Qwen3-1.7B", torch_dtype="bfloat16",
                         attn_implementation="flash_attention_2", load_in_4bit=True)
{load}
args = {cfg}(output_dir="out", bf16=True, per_device_train_batch_size=4)
trainer = {trainer}(model={model}, args=args, train_dataset=ds)
trainer.train()
"""


@pytest.mark.parametrize("cfg,trainer", [("GRPOConfig", "GRPOTrainer"), ("SFTConfig", "SFTTrainer")])
def test_a_model_config_never_read_loads_nothing(tmp_path, cfg, trainer):
    text = MODEL_CONFIG.format(cfg=cfg, trainer=trainer, load="", model="model_args.model_name_or_path")
    assert _read(_write(tmp_path, "train.py", text)) == ("transformers", [], "bfloat16", "none")


@pytest.mark.parametrize("load", [
    # the field read by the script: its model is loaded with it (a from_pretrained given the attribute itself reads
    # "?" there, as before: the keyword's value is the script's, not settled here)
    "impl = model_args.attn_implementation\nmodel = build_model(model_args.model_name_or_path, impl)",
    "kw = {'attn_implementation': getattr(model_args, 'attn_implementation')}\nmodel = build_model(model_args, **kw)",
    "kw = {'attn_implementation': getattr(model_args, 'attn_implementation')}\n"
    "model = build_model(model_args.model_name_or_path, **kw)",
    # the object handed on whole (TRL's helpers read its fields)
    "model = load_model(model_args)",
])
def test_a_model_config_read_or_handed_on_still_counts(tmp_path, load):
    text = "from transformers import AutoModelForCausalLM\n" + MODEL_CONFIG.format(
        cfg="SFTConfig", trainer="SFTTrainer", load=load, model="model")
    assert _read(_write(tmp_path, "train.py", text))[1] == ["fa2"]


def test_round26m_liming_model_config_is_not_the_model():
    p = R26 / "transformers" / "0xSingletOnly__LiMing__train_grpo.py"
    assert _read(str(p)) == ("transformers", [], "bfloat16", "none")


# 4. a launcher's options to an Unsloth script ------------------------------------------------------------------------

UNSLOTH_SCRIPT = """import argparse
from unsloth import FastLanguageModel
from trl import SFTConfig, SFTTrainer

def main(args):
    model, tok = FastLanguageModel.from_pretrained(args.model, max_seq_length=2048, dtype=None, load_in_4bit=True)
    cfg = SFTConfig(output_dir=args.output_dir, max_steps=args.max_steps, bf16=args.bf16, fp16=not args.bf16)
    SFTTrainer(model=model, tokenizer=tok, args=cfg, train_dataset=None).train()

if __name__ == "__main__":
    p = argparse.ArgumentParser()
    p.add_argument("--model", type=str, default="unsloth/Llama-3.2-1B")
    p.add_argument("--output_dir", type=str, default="out")
    p.add_argument("--max_steps", type=int, default=100)
    p.add_argument("--num_samples", type=int, default=-1)
    p.add_argument("--bf16", action="store_true")
    args = p.parse_args()
    main(args)
"""


@pytest.mark.parametrize("line,dtype", [
    ("python train.py --model unsloth/Qwen3-4B --output_dir ck --bf16 --num_samples -1\n", "bfloat16"),
    ("python3 train.py --max_steps 50 --num_samples -2\n", "float16"),
])
def test_an_unsloth_script_beside_its_launcher_takes_the_options(tmp_path, line, dtype):
    _write(tmp_path, "train.py", UNSLOTH_SCRIPT)
    assert _read(_write(tmp_path, "run_train.sh", line)) == ("unsloth", [], dtype, "none")


@pytest.mark.parametrize("line", [
    "python train.py --model --output_dir ck\n",  # --model given no value: argparse stops ("expected one argument")
    "python train.py --model x --lora_rank 8\n",  # an option the script does not declare
])
def test_options_the_scripts_argparse_refuses_are_not_read(tmp_path, line):
    _write(tmp_path, "train.py", UNSLOTH_SCRIPT)
    with pytest.raises(UsageError, match="script of its own"):
        configs.load(_write(tmp_path, "run_train.sh", line))


# 5. round 26m's launchers in their repositories' layout --------------------------------------------------------------

def _layout(tmp_path: Path, *files: tuple[str, str]) -> Path:
    """Round 26m's flattened files put back where their repository has them: (folder/flattened name, path)."""
    for flat, path in files:
        dest = tmp_path / path
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(R26 / flat, dest)
    return tmp_path


def test_llamafactory_launcher_reads_the_yaml_it_runs_in_its_layout(tmp_path):
    root = _layout(tmp_path, ("llama-factory/HHHAnQi__AdCopy-Agent__scripts__train_sft.sh", "scripts/train_sft.sh"),
                   ("llama-factory/HHHAnQi__AdCopy-Agent__configs__sft_qwen2_5_7b_lora.yaml",
                    "configs/sft_qwen2_5_7b_lora.yaml"))
    assert _read(str(root / "scripts" / "train_sft.sh")) == ("llama-factory", [], "bfloat16", "none")


def test_orpheus_launcher_gives_its_script_an_option_without_value(tmp_path):
    """ArtyQT's run_train.sh passes `--hf_token` with no value before `--dataset_name`: the script's argparse stops
    there ("argument --hf_token: expected one argument"), so the launch is refused, naming the script to read."""
    root = _layout(tmp_path, ("unsloth/ArtyQT__Orpheus_ptbr_Training_Alt__run_train.sh", "run_train.sh"),
                   ("unsloth/ArtyQT__Orpheus_ptbr_Training_Alt__train.py", "train.py"))
    with pytest.raises(UsageError, match="reads as Unsloth"):
        configs.load(str(root / "run_train.sh"))
    fixed = (root / "run_train.sh").read_text().replace("--hf_token \\\n", "")
    assert _read(_write(tmp_path, "run_fixed.sh", fixed)) == ("unsloth", [], "", "none")
