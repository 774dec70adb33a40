"""Helper cfg116 (session 28, issue 24): round 111m's misses read after its measurement (fixtures/configs/round111m/
README.md, "Read after its measurement"), each mechanism with variants of our own, none of them a file of the set."""

from __future__ import annotations

import pytest

from configs_corpus import read

# 1. A command printed as Python's list of its arguments (subprocess.CalledProcessError's message, a program's log of
# the argument list it runs) is that command line: configs.printed_argv, in a document or log (.txt / .md).
_COMMANDS = [
    ("/opt/venv/bin/python", "sdxl_train_network.py", "--pretrained_model_name_or_path=sd_xl_base_1.0.safetensors",
     "--train_data_dir=/data/my images", "--network_module=networks.lora", "--mixed_precision=fp16", "--sdpa",
     "--output_dir=/out"),
    ("C:\\kohya\\venv\\Scripts\\accelerate.exe", "launch", "--num_cpu_threads_per_process=2", "train_network.py",
     "--pretrained_model_name_or_path=runwayml/stable-diffusion-v1-5", "--train_data_dir=D:/lora/img",
     "--network_module=networks.lora", "--mixed_precision=bf16", "--xformers", "--output_dir=D:/lora/out"),
    ("python", "hv_train_network.py", "--dit", "ckpts/mp_rank_00_model_states.pt", "--dataset_config", "ds.toml",
     "--sdpa", "--mixed_precision", "bf16", "--network_module", "networks.lora", "--network_dim", "32"),
]
_WANT = [("sd-scripts", ["sdpa"], "float16", "none"), ("sd-scripts", ["xformers"], "bfloat16", "none"),
         ("musubi", ["sdpa"], "bfloat16", "none")]
_AROUND = [
    "subprocess.CalledProcessError: Command '{}' returned non-zero exit status 1.\n",
    "Traceback (most recent call last):\n  File \"kohya_gui/lora_gui.py\", line 1020, in train_model\n"
    "raise subprocess.CalledProcessError(returncode, {})\n",
    "12:01:33-512345 INFO     Executing command: {}\n",
]


def _list_repr(words, quote: str) -> str:
    """repr() of the argument list, or the same list written with double quotes (json.dumps-like)."""
    if quote == "'":
        return repr(list(words))
    return "[" + ", ".join('"' + w.replace("\\", "\\\\") + '"' for w in words) + "]"


@pytest.mark.parametrize("i", range(len(_COMMANDS)))
@pytest.mark.parametrize("around", _AROUND)
@pytest.mark.parametrize("quote", ["'", '"'])
@pytest.mark.parametrize("name", ["error.txt", "issue.md"])
def test_a_command_printed_as_its_argument_list_is_read_as_that_command(tmp_path, i, around, quote, name):
    text = around.format(_list_repr(_COMMANDS[i], quote))
    assert read(tmp_path, name, text) == _WANT[i]


def test_a_list_that_runs_nothing_stays_as_it_was(tmp_path):
    """A list of names (LoRA's target modules, a dataset's columns) beside a training command is no command: the
    command line is read as before."""
    text = ("target_modules = ['to_q', 'to_k', 'to_v']\n\n"
            "accelerate launch train_network.py --pretrained_model_name_or_path=sd15.safetensors "
            "--network_module=networks.lora --mixed_precision=fp16 --xformers --output_dir=out\n")
    assert read(tmp_path, "notes.txt", text) == ("sd-scripts", ["xformers"], "float16", "none")
