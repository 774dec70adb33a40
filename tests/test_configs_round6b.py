"""Issue 24, round 6b: a fresh sample of diffusion trainers' launch scripts and configs, taken as searches returned them.

Two parts. The real files of fixtures/configs/round6b/ (see its README: users' repositories on the train side of the split,
labelled from the trainers' and the scripts' own source) are each read as their expect file says. And variants written
for this test (what each fakes is in its name) of the mechanisms round 6b added:
- diffusers: a renamed copy of an example passes every option the example's argparse takes and nothing else, with or
  without the xformers flag (sdxl_lora.py, train_lora_dreambooth.py); diffusers' research projects
  (examples/research_projects/*/train_*.py: train_sdxl.py for PyTorch/XLA, train_dreambooth_inpaint_lora.py ...) are
  read like the examples they extend;
- ColossalAI: a script given one of ColossalAI's Booster plugins (`--plugin gemini`) is ColossalAI's
  (train_dreambooth_colossalai.py), not the diffusers example it is named like;
- sd-scripts: a command line whose script is none of sd-scripts' and takes at least as many options sd-scripts has not
  (VideoX-Fun's train_lora.py ... --enable_bucket --train_data_dir) is that script's, as a --config_file TOML already was;
- shell: an unset variable before the script a launcher runs holds launcher options and is nothing
  (`python -m accelerate.commands.launch $launch_args ... "./train_x.py"` in a PowerShell file that never sets it);
- SimpleTuner: `simpletuner` is its console script wherever the file runs it (after an install guard and a
  `python prepare_dataset.py --output ...`), an option after it is no subcommand, and the config_path it names is read
  through when it is here, else only the trainer is known.
Run against main at c643eed (before round 6b), the variants marked NEW fail there; the rest pass there too and guard
that the old readings hold."""

from __future__ import annotations

import pytest
from each_case import each

from attn_doctor import configs
from attn_doctor.configs import shell
from attn_doctor.model import UsageError

from configs_corpus import CONFIGS as CORPUS, CLAIMED, check_read_as_expected, check_staged_expect, expect, files, \
    split_module
from configs_corpus import rel, write as _write, refusal as _refusal

FILES = files(CORPUS / "round6b")
DIFFUSION = {"musubi-tuner", "blissful-tuner", "sd-scripts", "ai-toolkit", "diffusion-pipe", "onetrainer", "simpletuner",
             "diffusers"}



def test_the_corpus_is_there_and_on_the_readers_side_of_the_split():
    split = split_module()
    claimed = refused = unclaimed = 0
    for p in FILES:
        t = check_staged_expect(p, expect(p), split)
        assert t in DIFFUSION or t not in CLAIMED, p  # round 6b is a diffusion trainers' round
        claimed += t in CLAIMED
        refused += t not in CLAIMED
        unclaimed += t.startswith("unclaimed:") and t != "unclaimed:user-script"
    assert len(FILES) >= 40 and claimed >= 20 and refused >= 20 and unclaimed >= 10, (len(FILES), claimed, refused)


def test_real_file():
    each(((rel(p), (p,)) for p in FILES), check_read_as_expected)  # (one test over the set: tests/each_case.py)





def _read(tmp_path, name: str, text: str) -> tuple:
    """(trainer, required, dtype as read, None where unknown): these variants leave compile aside."""
    cfg = configs.load(_write(tmp_path, name, text))
    return cfg["detected"]["trainer"], sorted(cfg["required"]), cfg["dtype"]


# ---------------------------------------------------------------------------------------------------------------------
# diffusers: renamed copies and research projects
# ---------------------------------------------------------------------------------------------------------------------

EX = ("--pretrained_model_name_or_path=stabilityai/stable-diffusion-xl-base-1.0 --dataset_name=lambdalabs/naruto "
      "--caption_column=text --resolution=1024 --random_flip --train_batch_size=1 --checkpointing_steps=500 "
      "--validation_prompt=a")

DIFFUSERS = {
    "NEW a renamed copy without the xformers flag, launcher precision": (
        "run.sh", f"accelerate launch --mixed_precision=fp16 my_sdxl_finetune.py {EX}\n",
        ("diffusers", [], "float16")),
    "NEW a renamed copy, every option quoted as one word": (
        "run.sh", "accelerate launch lora_copy.py " + " ".join(f'"{w}"' for w in EX.split()) + ' "--mixed_precision=bf16"\n',
        ("diffusers", [], "bfloat16")),
    "NEW a renamed copy run with python (no accelerate): its --mixed_precision is Accelerator's": (
        "run.sh", f"python3 copy_of_example.py {EX} --mixed_precision=bf16 --seed=42\n", ("diffusers", [], "bfloat16")),
    "NEW a renamed copy on several lines ending in a backslash at end of file": (
        "train_script.sh", "export M=x\naccelerate launch dreambooth_mine.py \\\n  --pretrained_model_name_or_path=$M \\\n"
        "  --instance_data_dir=d \\\n  --instance_prompt=p \\\n  --resolution=512 \\\n  --train_batch_size=1 \\\n"
        "  --learning_rate=1e-4 \\\n  --mixed_precision=fp16 \\", ("diffusers", [], "float16")),
    "NEW a research project: PyTorch/XLA train_sdxl.py": (
        "train.sh", "python train_sdxl.py --pretrained_model_name_or_path=m --dataset_name=d --resolution=1024 "
        "--center_crop --random_flip --train_batch_size=4 --mixed_precision=bf16 --output_dir=o\n",
        ("diffusers", [], "bfloat16")),
    "a research project with options of its own: train_dreambooth_inpaint_lora.py": (
        "train.sh", "accelerate launch train_dreambooth_inpaint_lora.py --pretrained_model_name_or_path=m "
        "--instance_data_dir=d --instance_prompt=p --my_mask_dir=x --mixed_precision=fp16 "
        "--enable_xformers_memory_efficient_attention\n", ("diffusers", ["xformers"], "float16")),
    "an example with a few options of its own (round 2's reading, kept)": (
        "db.sh", "accelerate launch train_controlnet_ipadapter.py --pretrained_model_name_or_path m --output_dir o "
        "--train_batch_size 24 --learning_rate_controlnet 1e-5 --learning_rate_ip_adapter 1e-4 --validation_prompt '' "
        "--image_encoder_path e --num_validation_images 5\n", ("diffusers", [], None)),
}


@pytest.mark.parametrize("case", DIFFUSERS, ids=list(DIFFUSERS))
def test_diffusers_copies_and_research_projects(tmp_path, case):
    name, text, want = DIFFUSERS[case]
    assert _read(tmp_path, name, text) == want


NOT_DIFFUSERS = {
    "a script of its own with one option no example takes": (
        f"accelerate launch my_trainer.py {EX} --my_own_option=3\n", "my_trainer.py"),
    "a copy with too few options to tell": (
        "accelerate launch tiny.py --pretrained_model_name_or_path=m --resolution=512 --seed=1\n", "tiny.py"),
    "a research project's name with mostly options of its own": (
        "python train_sdxl.py --xla_mesh=2x2 --spmd_shards=8 --tpu_zone=us --pretrained_model_name_or_path=m\n",
        "train_sdxl.py"),
}


@pytest.mark.parametrize("case", NOT_DIFFUSERS, ids=list(NOT_DIFFUSERS))
def test_not_a_copy_of_an_example(tmp_path, case):
    text, words = NOT_DIFFUSERS[case]
    assert words in _refusal(tmp_path, "run.sh", text)


# ---------------------------------------------------------------------------------------------------------------------
# ColossalAI's Booster plugin
# ---------------------------------------------------------------------------------------------------------------------

COLOSSAL = ("--pretrained_model_name_or_path=./sd-v1-4 --instance_data_dir=./conan --output_dir=./out "
            "--instance_prompt=p --resolution=512 --train_batch_size=1 --learning_rate=5e-6 --max_train_steps=1000")

COLOSSALAI = {
    "NEW torchrun train_dreambooth_colossalai.py --plugin=\"gemini\"": (
        f"torchrun --nproc_per_node 1 --standalone train_dreambooth_colossalai.py {COLOSSAL} --plugin=\"gemini\"\n"),
    "NEW --plugin low_level_zero as two words": (
        f"torchrun --nproc_per_node 2 train_dreambooth_colossalai_lora.py {COLOSSAL} --plugin low_level_zero\n"),
    "NEW a ColossalAI copy under an example's name, torch_ddp_fp16": (
        f"torchrun train_dreambooth.py {COLOSSAL} --plugin='torch_ddp_fp16'\n"),
    "NEW the plugin from a variable the script sets": (
        f"PLUGIN=gemini\ntorchrun --standalone train_dreambooth_colossalai.py {COLOSSAL} --plugin=$PLUGIN\n"),
}


@pytest.mark.parametrize("case", COLOSSALAI, ids=list(COLOSSALAI))
def test_colossalai_booster_plugin(tmp_path, case):
    assert "ColossalAI" in _refusal(tmp_path, "colossalai.sh", COLOSSALAI[case])


def test_a_plugin_option_that_is_no_colossalai_plugin_leaves_the_example_alone(tmp_path):
    text = f"accelerate launch train_dreambooth.py {COLOSSAL} --plugin my_hook --mixed_precision fp16\n"
    assert _read(tmp_path, "db.sh", text) == ("diffusers", [], "float16")


# ---------------------------------------------------------------------------------------------------------------------
# sd-scripts option names on another script's command line
# ---------------------------------------------------------------------------------------------------------------------

VIDEOX = ("--config_path=config/wan2.1/wan_civitai.yaml --pretrained_model_name_or_path=$MODEL --train_data_dir=d "
          "--train_data_meta=m.json --image_sample_size=632 --video_sample_size=632 --video_sample_n_frames=81 "
          "--train_batch_size=2 --video_repeat=50 --mixed_precision=bf16 --random_hw_adapt --enable_bucket "
          "--train_mode=inpaint --low_vram")


@pytest.mark.parametrize("text", [
    f"accelerate launch --use_deepspeed train_lora.py {VIDEOX}\n",  # NEW
    f"accelerate launch scripts/wan2.1/train.py {VIDEOX}\n",  # NEW
    f"python train_video_lora.py {VIDEOX} --caption_extension .txt\n",  # NEW
], ids=["VideoX-Fun train_lora.py", "a generic train.py", "plain python, one more sd-scripts name"])
def test_sd_scripts_names_on_another_script_are_its_own(tmp_path, text):
    with pytest.raises(UsageError):
        configs.load(_write(tmp_path, "train.sh", text))


@pytest.mark.parametrize("text, want", [
    ("accelerate launch sdxl_train_v2.py --pretrained_model_name_or_path=m --train_data_dir=d --enable_bucket "
     "--caption_extension=.txt --shuffle_caption --keep_tokens=1 --network_module=networks.lora --xformers "
     "--mixed_precision=fp16 --my_flag\n", ("sd-scripts", ["xformers"], "float16")),
    ("accelerate launch train_network.py --pretrained_model_name_or_path=m --enable_bucket --train_data_dir=d "
     "--sdpa --mixed_precision=bf16 --foo=1 --bar=2 --baz=3 --qux=4\n", ("sd-scripts", ["sdpa"], "bfloat16")),
], ids=["a user's copy with mostly sd-scripts options", "sd-scripts' own script with unknown options"])
def test_sd_scripts_readings_kept(tmp_path, text, want):
    assert _read(tmp_path, "train.sh", text) == want


# ---------------------------------------------------------------------------------------------------------------------
# SimpleTuner's console script
# ---------------------------------------------------------------------------------------------------------------------

GUARD = ("#!/bin/bash\nset -e\nif ! python -c \"import simpletuner\" 2>/dev/null; then\n  pip install 'simpletuner[cuda]'\n"
         "fi\nif [ ! -d ./data ]; then\n  python prepare_dataset.py --output ./data\nfi\n")


def test_simpletuner_after_a_helper_script_config_elsewhere(tmp_path):  # NEW
    text = GUARD + "simpletuner \\\n    --config_path ./config.json\n"
    assert _read(tmp_path, "train.sh", text) == ("simpletuner", [], None)


def test_simpletuner_config_path_read_through_when_here(tmp_path):  # NEW
    _write(tmp_path, "cfg.json", '{"--model_family": "sdxl", "--mixed_precision": "fp16", '
                                 '"--attention_mechanism": "xformers"}')
    assert _read(tmp_path, "train.sh", GUARD + "simpletuner --config_path cfg.json\n") == \
        ("simpletuner", ["xformers"], "float16")
    assert _read(tmp_path, "go.sh", "simpletuner train config_path=cfg.json\n") == ("simpletuner", ["xformers"], "float16")


def test_a_helper_script_alone_is_still_refused(tmp_path):
    assert "prepare_dataset.py" in _refusal(tmp_path, "prep.sh", "python prepare_dataset.py --output ./data --size 5\n")


@pytest.mark.parametrize("line, sub, args", [
    ("simpletuner --config_path ./c.json", [], ["--config_path", "./c.json"]),  # NEW
    ("simpletuner train --env foo", ["train"], ["--env", "foo"]),
    ("llamafactory-cli train x.yaml", ["train"], ["x.yaml"]),
    ("axolotl --help", [], ["--help"]),  # NEW
])
def test_an_option_after_a_cli_is_no_subcommand(line, sub, args):
    cmd = next(c for c in shell.parse(line + "\n", "x.sh").commands if c.program == line.split()[0])
    assert (cmd.sub, cmd.args) == (sub, args)


# ---------------------------------------------------------------------------------------------------------------------
# an unset variable where a launcher's options go
# ---------------------------------------------------------------------------------------------------------------------

OWN = ("--pretrained_model_name_or_path runwayml/stable-diffusion-v1-5 --decoder_blocks 8 --down_dim 96 --up_dim 48 "
       "--enable_xformers_memory_efficient_attention --mixed_precision bf16")


@pytest.mark.parametrize("name, text", [
    ("t.ps1", "python -m accelerate.commands.launch $launch_args `\n  --num_processes=1 \"./train_hyper.py\" `\n  "
     + OWN.replace(" --", " `\n  --") + "\n"),  # NEW
    ("t.sh", f"accelerate launch $LAUNCH_ARGS --num_processes=1 ./train_hyper.py {OWN}\n"),  # NEW
    ("t.sh", f"accelerate launch ${{EXTRA}} train_hyper.py {OWN}\n"),  # NEW
], ids=["PowerShell $launch_args", "bash $LAUNCH_ARGS", "bash ${EXTRA} right before the script"])
def test_an_unset_variable_before_the_script_is_nothing(tmp_path, name, text):
    assert "runs train_hyper.py" in _refusal(tmp_path, name, text)


def test_a_set_launcher_variable_is_still_expanded(tmp_path):
    text = f"ARGS='--mixed_precision fp16'\naccelerate launch $ARGS train_dreambooth.py --instance_data_dir d " \
           f"--instance_prompt p --pretrained_model_name_or_path m\n"
    assert _read(tmp_path, "t.sh", text) == ("diffusers", [], "float16")
