"""Helper cfg120 (session 29, issue 24): round 115m's misses read after its measurement (fixtures/configs/round115m/
README.md, "Read after its measurement"), each mechanism with variants of our own, none of them a file of the set."""

from __future__ import annotations

import pytest

from configs_corpus import read, refusal

# 1. diffusers' LCM distillation examples require --pretrained_teacher_model, not --pretrained_model_name_or_path
# (diffusers.FAMILY_MODEL_OPTION): a launch of one, or of an adapted copy under a name of that family, that names its
# teacher is the example (an adapted copy adds an option or two of its own: a caption prefix, a teacher LoRA); one that
# names neither option is the repository's own script of that name.
_LCM = "{env}accelerate launch {script} \\\n  {model} {own}\\\n  --dataset_name=lambdalabs/naruto-blip-captions \\\n" \
       "  --resolution=512 --train_batch_size=8 --learning_rate=1e-6 --loss_type=huber --huber_c=0.001 \\\n" \
       "  --mixed_precision={mp} {flag}--max_train_steps=1000 --checkpointing_steps=500 --output_dir=out\n"


@pytest.mark.parametrize("script", ["train_lcm_distill_lora_sd.py", "$HOME/lcm/train_lcm_distill_lora_sd15_custom.py",
                                    "train_lcm_distill_sd.py"])
@pytest.mark.parametrize("model", ["--pretrained_teacher_model=stabilityai/stable-diffusion-xl-base-1.0",
                                   "--pretrained_teacher_model ${MODEL}"])
@pytest.mark.parametrize("own", ["--caption_prefix=\"a kanji, \" ", "--pretrained_teacher_lora=ckpts/lora.safetensors "])
@pytest.mark.parametrize("mp, flag, want", [("no", "--enable_xformers_memory_efficient_attention ",
                                             (["xformers"], "float32")), ("fp16", "", ([], "float16"))])
def test_an_lcm_distillation_launch_naming_its_teacher_is_the_example(tmp_path, script, model, own, mp, flag, want):
    env = "MODEL=runwayml/stable-diffusion-v1-5\n" if "$" in model else ""
    text = _LCM.format(env=env, script=script, model=model, own=own, mp=mp, flag=flag)
    assert read(tmp_path, "run-lcm.sh", text) == ("diffusers", *want, "none")


def test_an_lcm_named_script_naming_no_teacher_is_the_repositorys_own(tmp_path):
    """Neither --pretrained_teacher_model nor anything that could hand it on: the examples' parse_args() would stop, so
    the script of that name is the repository's own (as before the change)."""
    text = _LCM.format(env="", script="train_lcm_distill_lora_sd.py", model="--teacher_ckpt=ckpts/sd15.safetensors",
                       own="--caption_prefix=kanji ", mp="fp16", flag="")
    assert "train_lcm_distill_lora_sd.py" in refusal(tmp_path, "run-lcm.sh", text)


@pytest.mark.parametrize("script", ["train_lcm_distill_lora_sdxl.py", "examples/consistency_distillation/"
                                    "train_lcm_distill_sd_wds.py"])
def test_the_lcm_examples_themselves_are_read_as_before(tmp_path, script):
    """diffusers' own LCM scripts (no option of a copy's own), given their teacher, read as before the change (they were
    exempt from the model option; now held to theirs, which the launch gives)."""
    text = _LCM.format(env="", script=script, model="--pretrained_teacher_model=stabilityai/sdxl-base", own="",
                       mp="bf16", flag="--enable_xformers_memory_efficient_attention ")
    assert read(tmp_path, "run-lcm.sh", text) == ("diffusers", ["xformers"], "bfloat16", "none")


# 2. A launcher's -m / --module is a flag (accelerate, torchrun, deepspeed: store_true) that may stand before the
# launcher's other options; the module is the first word after them (shell._skip_options), not the option after -m.
_SWIFT = "swift.cli.sft --model Qwen/Qwen2.5-7B-Instruct --train_type lora --attn_impl {attn} --torch_dtype {dtype} " \
         "--dataset data.jsonl --output_dir out\n"
_TRL = "trl.scripts.sft --model_name_or_path Qwen/Qwen2.5-0.5B --dataset_name trl-lib/Capybara " \
       "--attn_implementation {attn} --{dtype} --output_dir out\n"
_FLAG_FIRST = ["torchrun -m --nproc_per_node=8 --master_port 29500 {job}",
               "torchrun --module --nnodes 1 --nproc-per-node 4 {job}",
               "accelerate launch -m --config_file configs/zero2.yaml --num_processes=8 --main_process_port 23456 \\\n"
               "  {job}",
               "accelerate launch --module --multi_gpu --num_processes 4 {job}",
               "python -m accelerate.commands.launch -m --mixed_precision bf16 --num_processes 2 {job}",
               "deepspeed --module --num_gpus 8 {job}"]


@pytest.mark.parametrize("launch", _FLAG_FIRST)
@pytest.mark.parametrize("job, attn, dtype, want", [
    (_SWIFT, "flash_attn", "bfloat16", ("ms-swift", ["fa2"], "bfloat16", "none")),
    (_SWIFT, "sdpa", "float16", ("ms-swift", ["sdpa"], "float16", "none")),
    (_TRL, "flash_attention_2", "bf16", ("transformers", ["fa2"], "bfloat16", "none"))])
def test_a_module_flag_before_the_launchers_options_runs_the_module_after_them(tmp_path, launch, job, attn, dtype,
                                                                               want):
    text = launch.format(job=job.format(attn=attn, dtype=dtype))
    assert read(tmp_path, "train.sh", text) == want


def test_a_module_of_the_projects_own_is_named_in_the_refusal(tmp_path):
    """`accelerate launch -m --config_file ... trainer.dpo --use_flash_attention ...`: the module the run trains with is
    trainer.dpo, a project's own, and the refusal says so (it named --config_file before)."""
    text = "accelerate launch -m \\\n--config_file config/deepspeed_zero2.yaml \\\n--num_processes=$NUM_PROCESSES \\\n" \
           "--main_process_port 23456 trainer.dpo \\\n--use_flash_attention \\\n--batch_size 64 \\\n--beta 0.1\n"
    msg = refusal(tmp_path, "train_dpo.sh", text)
    assert "runs trainer.dpo (-m)" in msg and "--config_file" not in msg
