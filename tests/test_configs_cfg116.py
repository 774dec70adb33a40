"""Helper cfg116 (session 28, issue 24): round 111m's misses read after its measurement (fixtures/configs/round111m/
README.md, "Read after its measurement"), each mechanism with variants of our own, none of them a file of the set."""

from __future__ import annotations

import pytest

from configs_corpus import put, read, reading, refusal
from attn_doctor import configs

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


# 2. transformers' Trainer-based examples (run_clm.py, run_mlm.py ...) given a model by name and no --torch_dtype /
# --dtype load it with transformers' default dtype (hf_transformers._example_load): float32 for a family published in
# float32 under every release, else float32 where the release is seen to be before 5.0 (a pin in the repository).
_EXAMPLE = "python examples/pytorch/{path} --model_name_or_path {model} {data} --do_train --output_dir /tmp/out " \
           "--per_device_train_batch_size 8{extra}\n"
_CLM = ("language-modeling/run_clm.py", "--dataset_name wikitext --dataset_config_name wikitext-2-raw-v1")
_MLM = ("language-modeling/run_mlm.py", "--train_file train.txt --validation_file dev.txt --max_seq_length 128")
_GLUE = ("text-classification/run_glue.py", "--task_name mrpc --max_seq_length 128")
_T5 = ("translation/run_translation.py", "--source_lang en --target_lang ro --dataset_name wmt16 "
       "--dataset_config_name ro-en --source_prefix 'translate English to Romanian: '")


@pytest.mark.parametrize("script, model", [(_CLM, "gpt2"), (_CLM, "openai-community/gpt2-medium"),
                                           (_CLM, "distilgpt2"), (_MLM, "FacebookAI/roberta-base"),
                                           (_MLM, "bert-base-uncased"), (_GLUE, "google-bert/bert-base-cased"),
                                           (_T5, "google-t5/t5-small")])
def test_an_example_given_a_float32_checkpoint_and_no_dtype_runs_in_float32(tmp_path, script, model):
    text = _EXAMPLE.format(path=script[0], model=model, data=script[1], extra="")
    assert read(tmp_path, "train.sh", text) == ("transformers", [], "float32", "none")


@pytest.mark.parametrize("extra, want", [(" --bf16", "bfloat16"), (" --fp16", "float16"),
                                         (" --torch_dtype bfloat16", "bfloat16")])
def test_an_example_given_its_precision_keeps_it(tmp_path, extra, want):
    text = _EXAMPLE.format(path=_CLM[0], model="gpt2", data=_CLM[1], extra=extra)
    assert read(tmp_path, "train.sh", text)[2] == want


@pytest.mark.parametrize("pin, want", [("transformers==4.40.0\ndatasets>=2.14\n", "float32"),
                                       ("transformers>=4.38,<5\n", "float32"), ("transformers>=5.0\n", ""),
                                       ("datasets>=2.14\n", "")])
def test_an_example_given_a_half_precision_checkpoint_follows_the_pinned_release(tmp_path, pin, want):
    """A Llama checkpoint (published in bfloat16 / float16): transformers 4 loads it in float32 all the same, 5 in the
    checkpoint's own dtype (`auto`), which the command does not show; the repository's pin says which."""
    put(tmp_path, "requirements.txt", pin)
    script = put(tmp_path, "scripts/train.sh", _EXAMPLE.format(path=_CLM[0], model="meta-llama/Llama-2-7b-hf",
                                                               data=_CLM[1], extra=""))
    assert reading(configs.load(str(script))) == ("transformers", [], want, "none")


# 3. conda's environment before a prompt is its whole path where the environment is not in an `envs` folder
# (configs._ENV_PROMPT): `(H:\conda_envs\sd) PS H:\repo> ` is a prompt as `(sd) PS H:\repo> ` is.
_LAUNCH = "accelerate launch --num_cpu_threads_per_process=2 train_network.py --pretrained_model_name_or_path=sd15.ckpt " \
          "--train_data_dir=img --network_module=networks.lora --mixed_precision=fp16 --xformers --output_dir=out"


@pytest.mark.parametrize("name, prompt", [
    ("run.txt", "(H:\\download\\conda_envs\\kohya) PS H:\\sd\\kohya_ss> "),
    ("run.txt", "(C:/Users/me/miniconda3/venvs/kohya) C:\\sd\\kohya_ss>"),
    ("notes.md", "(/opt/conda-envs/kohya) $ "),
    ("notes.md", "(~/miniforge3/pyenvs/kohya) me@box:~/sd-scripts$ "),
    ("session.sh", "(/opt/conda-envs/kohya) root@a1b2c3:/workspace# "),
])
def test_a_conda_environment_shown_by_its_path_before_a_prompt_is_part_of_the_prompt(tmp_path, name, prompt):
    assert read(tmp_path, name, prompt + _LAUNCH + "\n") == ("sd-scripts", ["xformers"], "float16", "none")


def test_a_subshell_before_a_redirection_is_no_prompt(tmp_path):
    """A subshell's parentheses hold a command with blanks in it, never a conda environment: `(cd sd-scripts && ...) >
    log` keeps its command."""
    text = "(cd sd-scripts && " + _LAUNCH + ") > train.log\n"
    assert read(tmp_path, "run.sh", text) == ("sd-scripts", ["xformers"], "float16", "none")


# 4. A launch that only runs a framework's wrapper script and hands it the Python script to train (`bash train.sh
# tasks/train_x.py configs/x.yaml`) is refused naming both (others.handed_python_script).
@pytest.mark.parametrize("line, handed", [
    ("bash train.sh tasks/train_vlm.py configs/multimodal/qwen2_5_vl.yaml --train.lr 1e-5\n", "tasks/train_vlm.py"),
    ("sh scripts/launch.sh --nnodes 2 src/pretrain.py --config cfg/base.yaml\n", "src/pretrain.py"),
    ("bash ./run_dist.sh 8 train_gpt.py\n", "train_gpt.py"),
])
def test_a_wrapper_handed_a_python_script_is_refused_naming_it(tmp_path, line, handed):
    msg = refusal(tmp_path, "train_job.sh", "#!/bin/bash\nset -e\n" + line)
    assert "only runs another script" in msg and f"handing it {handed})" in msg, msg


def test_a_wrapper_handed_no_python_script_is_refused_as_before(tmp_path):
    msg = refusal(tmp_path, "train_job.sh", "#!/bin/bash\nbash scripts/train_sft.sh configs/sft.yaml 8\n")
    assert "only runs another script (scripts/train_sft.sh); " in msg, msg
