"""Helper cfg102 (session 25, issue 24): round 99m's misses read after its measurement (fixtures/configs/round99m/
README.md, "Read after its measurement"), each mechanism with variants of our own, none of them a file of the set."""

from __future__ import annotations

from pathlib import Path

import pytest

import configs_corpus  # noqa: F401  (puts benchmarks/ on the path)
import configs_repo_layout as layout
from configs_corpus import read, refusal


def _pasted(root: Path, flat: str, source: str, text: str) -> Path:
    p = root / flat
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(text, encoding="utf-8")
    p.with_name(p.name + ".expect.toml").write_text(f'source = "{source}"\ntrainer = "none"\n', encoding="utf-8")
    return p


def test_a_threads_files_go_together_in_a_folder_of_their_own(tmp_path):
    """--layout repo: a text pasted in a thread has no path in a repository; the files of one thread sit together
    (a launch line beside the config pasted under it), apart from another thread's and from any repository's."""
    sets, into = tmp_path / "set", tmp_path / "tree"
    launch = _pasted(sets, "ms-swift/alice__tool__7__sft.sh", "alice/tool#7", "swift sft --config x.yaml\n")
    config = _pasted(sets, "none/alice__tool__7__x.yaml", "alice/tool#7", "a: 1\n")
    other = _pasted(sets, "none/alice__tool__8__x.yaml", "alice/tool#8", "b: 2\n")
    where = layout.repository_layout([launch, config, other], sets, into)
    assert {p.name: d.relative_to(into).as_posix() for p, d in where.items()} == {
        launch.name: "_threads/alice__tool__7/sft.sh", config.name: "_threads/alice__tool__7/x.yaml",
        other.name: "_threads/alice__tool__8/x.yaml"}
    assert where[config].read_text() == "a: 1\n"


def test_thread_path_takes_threads_only():
    assert layout.thread_path("alice/tool#7", "alice__tool__7__run.sh") == "_threads/alice__tool__7/run.sh"
    assert layout.thread_path("alice/tool#7", "run.sh") == "_threads/alice__tool__7/run.sh"
    assert layout.thread_path("alice/tool:run.sh", "alice__tool__run.sh") is None
    assert layout.thread_path("alice/tool#x", "a.sh") is None and layout.thread_path("tool#7", "a.sh") is None


# 2. A terminal session pasted as a launch script (round 99m: diffusers#3884 and #9778's `> ` continuation prompts,
# xtuner#739's `(llama3) root@M09:~/...# ` prompt): the prompts are the terminal's, the command is what the user typed.
# Variants of our own: other examples, options, prompts and precisions.
_DREAMBOOTH = """{ps1}accelerate launch train_dreambooth.py \\
{ps2}--pretrained_model_name_or_path=$MODEL_NAME  \\
{ps2}--instance_data_dir=$INSTANCE_DIR \\
{ps2}--output_dir=$OUTPUT_DIR \\
{ps2}--instance_prompt="a photo of sks cat" \\
{ps2}--mixed_precision={mp} \\
{ps2}--enable_xformers_memory_efficient_attention
"""


@pytest.mark.parametrize("ps1", ["", "$ ", "(diffusers) kim@gpu-box:~/diffusers/examples/dreambooth$ ",
                                 "root@0f3c9a:/workspace# "])
@pytest.mark.parametrize("ps2, eol", [(">   ", "\n"), ("> ", "\r\n")])
@pytest.mark.parametrize("mp, dtype", [("bf16", "bfloat16"), ('"fp16"', "float16")])
def test_a_pasted_terminal_sessions_prompts_are_not_the_command(tmp_path, ps1, ps2, eol, mp, dtype):
    """Bash's continuation prompt `> ` before each option is no redirection, and a PS1 prompt is no program (without
    the change: the options under `> ` are lost, the example refused or read without its precision)."""
    text = _DREAMBOOTH.format(ps1=ps1, ps2=ps2, mp=mp).replace("\n", eol)
    assert read(tmp_path, "run.sh", text) == ("diffusers", ["xformers"], dtype, "none")


def test_a_pasted_prompt_before_an_unclaimed_cli_names_it(tmp_path):
    """`(env) user@host:path# xtuner train CONFIG.py ...`: XTuner's own runner, named as such (without the change: a
    shell script with no trainer calls)."""
    msg = refusal(tmp_path, "go.sh", "(xt) ubuntu@node3:~/work# xtuner train ./internlm2_chat_7b_qlora_e3.py "
                                     "--deepspeed deepspeed_zero3\n")
    assert "XTuner" in msg


@pytest.mark.parametrize("text", [
    # a redirection a backslash continues into: a file name follows, no option (a script's log)
    "python train.py --lr 1e-4 \\\n  > train.log 2>&1\n",
    # a `>` at the head of a line with no continuation above it: bash truncates the file
    "> out.txt\npython train.py --lr 1e-4\n",
    # a `$` inside a word, a variable at the head of a line
    "$PY train.py --lr 1e-4\n",
])
def test_what_a_script_means_by_the_same_characters_stays(text):
    from attn_doctor.configs import without_pasted_prompts

    assert without_pasted_prompts(text) == text


# 3. HfArgumentParser's dashed spelling of a field (round 99m: ms-swift#2850's `--torch-dtype bfloat16`): ms-swift's and
# LLaMA-Factory's command lines take `--torch-dtype` as `--torch_dtype` (shell.dataclass_options). Variants of our own.
@pytest.mark.parametrize("name, text, want", [
    ("sft.sh", "swift sft --model Qwen/Qwen2.5-7B-Instruct --train-type lora --torch-dtype float16 "
               "--attn-impl flash_attn --dataset data.jsonl\n", ("ms-swift", ["fa2"], "float16", "none")),
    ("dpo.sh", "NPROC_PER_NODE=2 swift rlhf --rlhf_type dpo --model Qwen/Qwen3-8B --torch-dtype bfloat16 "
               "--attn_impl flash_attn --dataset prefs.jsonl\n", ("ms-swift", ["fa2"], "bfloat16", "none")),
    ("lf.sh", "llamafactory-cli train --stage sft --model-name-or-path meta-llama/Llama-3.1-8B --finetuning-type lora "
              "--template llama3 --dataset alpaca_en --flash-attn fa2 --bf16 true --output-dir out\n",
     ("llama-factory", ["fa2"], "bfloat16", "none")),
])
def test_a_fields_dashed_spelling_is_the_field(tmp_path, name, text, want):
    """(without the change: the dtype or the attention option under its dashed name is not read)"""
    assert read(tmp_path, name, text) == want


def test_the_last_spelling_given_wins():
    from attn_doctor.configs.shell import dataclass_options

    assert dataclass_options(["--torch_dtype", "float16", "--torch-dtype", "bfloat16"]) == {"torch_dtype": "bfloat16"}


# 4. An argument list pasted with its command left off (round 99m: LlamaFactory#1667's reproduction block, `--stage sft
# \` ... `--flash_attn`): LLaMA-Factory's own options say whose it is, under the rule a fork's console script is held
# to (--stage and three options only LLaMA-Factory defines). Variants of our own.
_HEADLESS_LF = """# my args
  --stage {stage} \\
  --model_name_or_path /data/models/Qwen1.5-14B-Chat \\
  --do_train \\
  --dataset my_pairs \\
  --template qwen \\
  --finetuning_type lora \\
  --lora_target c_attn \\
  --output_dir saves/qwen-14b \\
  --per_device_train_batch_size 2 \\
  {attn} \\
  --{prec}
"""


@pytest.mark.parametrize("stage", ["sft", "dpo", "pt"])
@pytest.mark.parametrize("attn, required", [("--flash_attn", ["fa2"]), ("--flash_attn fa2", ["fa2"]),
                                            ("--flash_attn sdpa", ["sdpa"]), ("--logging_steps 10", [])])
@pytest.mark.parametrize("prec, dtype", [("bf16", "bfloat16"), ("fp16", "float16")])
@pytest.mark.parametrize("continued", [True, False])
def test_llama_factorys_arguments_with_the_command_left_off(tmp_path, stage, attn, required, prec, dtype, continued):
    """Each line continued by a backslash, or one option a line as documents print them (without the change: refused
    as a shell script with no trainer calls)."""
    text = _HEADLESS_LF.format(stage=stage, attn=attn, prec=prec)
    text = text if continued else text.replace(" \\\n", "\n")
    assert read(tmp_path, "args.sh", text) == ("llama-factory", required, dtype, "none")


@pytest.mark.parametrize("text", [
    # two of LLaMA-Factory's own options only: not enough to say whose the list is
    "--stage sft \\\n  --template default \\\n  --model_name_or_path m \\\n  --bf16\n",
    # another trainer's options (diffusers' examples): no trainer is guessed for them
    "--pretrained_model_name_or_path=runwayml/stable-diffusion-v1-5 \\\n  --instance_data_dir=./dog \\\n"
    "  --mixed_precision=fp16 --resolution=512\n",
    # two option lines that are two commands to bash (the first ends its line): no one argument list
    "--stage sft --template default --finetuning_type lora --lora_target all;\n--stage dpo --template default\n",
])
def test_an_argument_list_nobody_owns_stays_refused(tmp_path, text):
    assert "not a trainer config" in refusal(tmp_path, "args.sh", text)
