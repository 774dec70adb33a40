"""Helper cfg124 (session 30, issue 24): round 119m's misses read after its measurement (fixtures/configs/round119m/
README.md, "Read after its measurement"), each mechanism with variants of our own, none of them a file of the set."""

from __future__ import annotations

import pytest

from attn_doctor.configs import rich_records, without_labels
from configs_corpus import read, refusal

# 1. diffusion-pipe's [model] type 'hidream' runs the HiDream-I1 submodule's transformer (models/hidream.py:19), whose
# every block's processor calls flash_attn_func (flash_attn_interface's, else flash_attn's; no SDPA path): flash-attn
# is required whatever else the TOML says, as for Wan.
_DP = """output_dir = '{out}'
dataset = 'dataset.toml'
epochs = 100
micro_batch_size_per_gpu = {batch}
pipeline_stages = 1
gradient_accumulation_steps = 4
gradient_clipping = 1.0
warmup_steps = 100
{compile}
[model]
type = 'hidream'
diffusers_path = '{model}'
llama3_path = 'meta-llama/Meta-Llama-3.1-8B-Instruct'
llama3_4bit = true
dtype = '{dtype}'
transformer_dtype = '{tdtype}'
max_llama3_sequence_length = 128
{extra}
[adapter]
type = 'lora'
rank = 32
dtype = 'bfloat16'

[optimizer]
type = 'adamw_optimi'
lr = 2e-4
"""


@pytest.mark.parametrize("model", ["/data/models/HiDream-I1-Full", "HiDream-ai/HiDream-I1-Dev"])
@pytest.mark.parametrize("dtype, tdtype, want_dtype", [("bfloat16", "nf4", "bfloat16"), ("bfloat16", "float8", "bfloat16"),
                                                       ("float16", "float16", "float16")])
@pytest.mark.parametrize("compile, extra, want_compile", [("", "", "none"), ("compile = true", "flux_shift = true", "default"),
                                                          ("", "#flux_shift = true", "none")])
def test_a_hidream_run_of_diffusion_pipe_requires_flash_attn(tmp_path, model, dtype, tdtype, want_dtype, compile, extra,
                                                             want_compile):
    text = _DP.format(out="/runs/hidream", batch=1, compile=compile, model=model, dtype=dtype, tdtype=tdtype,
                      extra=extra)
    assert read(tmp_path, "hidream.toml", text) == ("diffusion-pipe", ["fa2"], want_dtype, want_compile)


def test_a_hidream_toml_named_by_diffusion_pipes_launch_line_requires_flash_attn(tmp_path):
    (tmp_path / "examples").mkdir()
    (tmp_path / "examples" / "hidream.toml").write_text(
        _DP.format(out="/runs/h", batch=2, compile="", model="/m/hidream", dtype="bfloat16", tdtype="nf4", extra=""))
    text = "NCCL_P2P_DISABLE=1 NCCL_IB_DISABLE=1 deepspeed --num_gpus=1 train.py --deepspeed --config " \
           "examples/hidream.toml\n"
    assert read(tmp_path, "run.sh", text) == ("diffusion-pipe", ["fa2"], "bfloat16", "none")


@pytest.mark.parametrize("mtype", ["flux", "sdxl", "chroma"])
def test_the_other_diffusers_and_comfy_models_still_require_nothing(tmp_path, mtype):
    """Guards: the change names one model type; diffusion-pipe's SDPA models read as before."""
    text = _DP.format(out="/o", batch=1, compile="", model="/m", dtype="bfloat16", tdtype="float8", extra="") \
        .replace("type = 'hidream'", f"type = '{mtype}'")
    assert read(tmp_path, "x.toml", text) == ("diffusion-pipe", [], "bfloat16", "none")


# 2. A Rich log handler's record (rich/_log_render.py: time, level 8 wide, the message, the caller's file.py:N at the
# right with show_path): a message wider than the console goes on under it, indented to the message's column, with no
# backslash. The kohya_ss GUI logs the accelerate launch it runs so (`%H:%M:%S-%f` times, show_path=False); Rich's
# default time is `[%x %X]`, and a repeated time is left blank. Texts as Rich 13 renders them (a 110 / 96 column console).
_KOHYA = """12:04:51-118302 INFO     Start training LoRA Standard ...
12:04:51-120455 INFO     Valid image folder names found in: /home/me/lora/img
12:04:52-883120 INFO     accelerate launch --num_cpu_threads_per_process=2 "./{script}"
                         --pretrained_model_name_or_path="/home/me/models/base.safetensors"
                         --train_data_dir="/home/me/lora/img" --resolution="768,768"
                         --output_dir="/home/me/lora/model" --network_alpha="64" --save_model_as=safetensors
                         --network_module=networks.lora --unet_lr=0.0001 --network_dim=64
                         --mixed_precision="{mp}" --save_precision="{mp}" --seed="42" --cache_latents {flags}
                         --bucket_no_upscale
12:04:58-001276 INFO     Loading settings...
"""
_RICH_DEFAULT = """[06/14/24 12:04:52] INFO     accelerate launch --num_cpu_threads_per_process=1 "./{script}"   common_gui.py:1402
                             --pretrained_model_name_or_path="C:/models/base.safetensors"
                             --train_data_dir="C:/data/img" --resolution="1024,1024"
                             --output_dir="C:/out" --network_module=networks.lora --network_dim=32
                             --mixed_precision="{mp}" --save_precision="{mp}" {flags}
                             --cache_latents --max_train_steps="1600"
                    INFO     Loading model                                                   common_gui.py:1410
"""


@pytest.mark.parametrize("name", ["gui_log.txt", "kohya_log.md"])
@pytest.mark.parametrize("form", [_KOHYA, _RICH_DEFAULT])
@pytest.mark.parametrize("script, mp, flags, want", [
    ("train_network.py", "fp16", "--xformers", ("sd-scripts", ["xformers"], "float16", "none")),
    ("sdxl_train_network.py", "bf16", "--sdpa", ("sd-scripts", ["sdpa"], "bfloat16", "none")),
    ("train_network.py", "fp16", "--mem_eff_attn --gradient_checkpointing --xformers",
     ("sd-scripts", ["xformers"], "float16", "none"))])
def test_a_rich_log_record_wrapped_onto_indented_lines_is_one_command(tmp_path, name, form, script, mp, flags, want):
    """The script on the record's first line, its options on the lines under it (the GUI's run_cmd: the launcher, the
    script, then the options): the options are the script's (before: the first line alone, a run of defaults)."""
    assert read(tmp_path, name, form.format(script=script, mp=mp, flags=flags)) == want


def test_a_rich_log_record_with_its_script_wrapped_under_it_reads_as_before(tmp_path):
    """Where the wrapping puts the script itself on a line under the launcher's options, the record was read right
    before the change too (the lines under it hold a whole command); it still is."""
    text = ("12:04:52-883120 INFO     accelerate launch --dynamo_backend no --mixed_precision fp16 --num_processes 1\n"
            "                         /home/me/kohya_ss/sd-scripts/train_network.py\n"
            "                         --pretrained_model_name_or_path=/m/base.safetensors --train_data_dir=/d\n"
            "                         --output_dir=/o --network_module=networks.lora --mixed_precision=fp16 --xformers\n")
    assert read(tmp_path, "log.txt", text) == ("sd-scripts", ["xformers"], "float16", "none")


def test_rich_records_joins_a_records_lines_and_no_others():
    text = ("12:00:01-000001 INFO     python train.py --a 1\n"
            "                         --b 2\n"
            "not indented: --c 3\n"
            "    indented elsewhere --d 4\n"
            "[01/02/24 03:04:05] WARNING  one line only                       train_util.py:77\n"
            "                    ERROR    first part\n"
            "                             second part\n")
    assert rich_records(text).split("\n") == [
        "python train.py --a 1 --b 2", "not indented: --c 3", "    indented elsewhere --d 4", "one line only",
        "first part second part", ""]


def test_rich_records_leaves_other_logs_alone():
    """Guards: Python logging's own heads (`2024-06-14 12:04:52,118 - INFO - `, _LOG_HEAD's), a level word inside a
    line, and text with no level at all are kept as they are."""
    for text in ("2024-06-14 12:04:52,118 - INFO - accelerate launch train.py\n    --xformers\n",
                 "echo INFO done\n  --flag\n", "accelerate launch train.py \\\n  --xformers\n"):
        assert rich_records(text) == text


# 3. A label written before a command line on the same line: the user's words glued to what they pasted (ms-swift#3399
# shape: `使用参数：CUDA_VISIBLE_DEVICES=0,1 ...`), a log's echo of what it runs (`Running command: accelerate launch ...`,
# finetrainers' examples' echo). No shell runs a program of that name: the command after it is what ran.
_SWIFT = "{label}CUDA_VISIBLE_DEVICES=0,1 NPROC_PER_NODE=2 \\\nswift sft \\\n  --model Qwen/Qwen2.5-7B-Instruct \\\n" \
         "  --train_type lora \\\n  --dataset data.jsonl \\\n  --torch_dtype {dtype} \\\n  --attn_impl {attn} \\\n" \
         "  --output_dir out\n"


@pytest.mark.parametrize("label", ["使用参数：", "训练命令: ", "コマンド：", "Launch command: ", "Command:  "])
@pytest.mark.parametrize("name", ["train.sh", "notes.txt", "README.md"])
@pytest.mark.parametrize("dtype, attn, want", [("bfloat16", "flash_attn", ("ms-swift", ["fa2"], "bfloat16", "none")),
                                               ("float16", "sdpa", ("ms-swift", ["sdpa"], "float16", "none"))])
def test_a_label_glued_before_a_command_is_not_the_program(tmp_path, label, name, dtype, attn, want):
    assert read(tmp_path, name, _SWIFT.format(label=label, dtype=dtype, attn=attn)) == want


@pytest.mark.parametrize("label", ["Running command: ", "运行命令：", "Cmd: "])
@pytest.mark.parametrize("launch", [
    "accelerate launch --config_file accelerate_configs/1gpu.yaml train_dreambooth_lora_sdxl.py "
    "--pretrained_model_name_or_path=stabilityai/stable-diffusion-xl-base-1.0 --instance_data_dir=dog "
    "--instance_prompt='a sks dog' --output_dir=out --mixed_precision=fp16 --enable_xformers_memory_efficient_attention",
    "python train_dreambooth_lora_sdxl.py --pretrained_model_name_or_path=/m/sdxl --instance_data_dir=dog "
    "--instance_prompt='a sks dog' --output_dir=out --mixed_precision=fp16 --enable_xformers_memory_efficient_attention"])
def test_a_logs_echo_of_the_command_it_runs_is_read(tmp_path, label, launch):
    text = f"(venv) me@box:~/runs$ ./scripts/run_dreambooth.sh\n{label}{launch}\nStarting...\n"
    assert read(tmp_path, "run_log.txt", text) == ("diffusers", ["xformers"], "float16", "none")


def test_a_logs_echo_of_an_unclaimed_trainer_is_refused_by_its_script(tmp_path):
    """finetrainers#184's shape, our own words: the echo runs train.py (a trainer attn-doctor does not claim): the
    refusal names train.py, not the user's shell script the prompt line ran."""
    text = "(nightly) me@dgx:/raid/me/ft$ ./examples/ltx/run_short.sh\nRunning command: accelerate launch " \
           "--config_file accelerate_configs/uncompiled_2.yaml --gpu_ids 0,1 train.py --model_name ltx_video " \
           "--pretrained_model_name_or_path Lightricks/LTX-Video --data_root /data/v --training_type lora --rank 64\n"
    msg = refusal(tmp_path, "log.txt", text)
    assert "train.py" in msg and "run_short.sh" not in msg


@pytest.mark.parametrize("text", [
    "Note: see the docs for --flash_attn\n", "model: Qwen/Qwen2.5-7B\n", "step 10: loss 1.23\n",
    "echo \"Running command: accelerate launch train.py\"\n",
    "a long sentence of more than three words: python train.py\n"])
def test_without_labels_keeps_lines_that_are_no_labelled_command(text):
    """Guards: a label stands alone before the command (one to three words, or non-Latin words) and the command is a
    launcher, a trainer CLI or an assignment; prose with a colon, a YAML key and an echo are kept."""
    assert without_labels(text) == text
