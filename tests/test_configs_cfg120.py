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

