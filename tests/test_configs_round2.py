"""Issue 24, round 2: a file is read as trainer X only on X's own parsing semantics, else refused in one line.

Every case here is a variant written for this test (what it fakes is in its name); the real files each mechanism
came from are under fixtures/configs/real/ (ROUND2_SPLIT.tsv lists them) and are read by test_configs_real.py."""

from __future__ import annotations

import subprocess
import sys

import pytest

from attn_doctor import configs
from attn_doctor.model import UsageError


def _load(tmp_path, name: str, text: str) -> dict:
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return configs.load(str(p))


def _refusal(tmp_path, name: str, text: str) -> str:
    with pytest.raises(UsageError) as err:
        _load(tmp_path, name, text)
    msg = str(err.value)
    assert "\n" not in msg and msg.startswith("--config: ")
    return msg


READ = {
    # sd-scripts' read_config_from_file flattens every table: a [[datasets]] array beside training tables is inert
    "dataset and training tables in one TOML": (
        "both.toml", '[general]\nenable_bucket = true\n[[datasets]]\nbatch_size = 1\n  [[datasets.subsets]]\n'
        '  image_dir = "img"\n  num_repeats = 4\n[training_args]\nxformers = true\nmixed_precision = "fp16"\n'
        'network_module = "networks.lora"\n', ("sd-scripts", ["xformers"], "float16")),
    # a user's copy of an sd-scripts script under another name, with several of sd-scripts' own options
    "renamed sd-scripts script with its own options": (
        "run.sh", "accelerate launch my_sdxl_train_copy.py --enable_bucket --caption_extension .txt --cache_latents "
        "--shuffle_caption --sdpa --mixed_precision bf16\n", ("sd-scripts", ["sdpa"], "bfloat16")),
    "musubi script with --task": (
        "wan.sh", "accelerate launch wan_train_network.py --task t2v-14B --dit d.safetensors --sdpa "
        "--mixed_precision bf16\n", ("musubi", ["sdpa"], "bfloat16")),
    "sd-scripts TOML with a stray key or two": (
        "lora.toml", 'pretrained_model_name_or_path = "m"\nxformers = true\nmixed_precision = "bf16"\n'
        'network_module = "networks.lora"\nenable_bucket = true\nmy_note = "x"\n', ("sd-scripts", ["xformers"], "bfloat16")),
    "LLaMA-Factory YAML with its model": (
        "sft.yaml", "model_name_or_path: m\nstage: sft\nfinetuning_type: lora\nlora_rank: 8\nflash_attn: fa2\nbf16: true\n",
        ("llama-factory", ["fa2"], "bfloat16")),
    "TRL YAML with its model": (
        # (use_peft beside its LoRA field, as TRL's recipes write it: without it TRL never applies lora_alpha, and the
        # file is another loader's, refused since cfg42n: hf_transformers.lora_without_peft)
        "trl.yaml", "model_name_or_path: m\ndataset_name: d\nattn_implementation: sdpa\nbf16: true\nuse_peft: true\n"
        "lora_alpha: 16\n", ("transformers", ["sdpa"], "bfloat16")),
    "ai-toolkit job and config": (
        "job.yaml", "job: extension\nconfig:\n  name: x\n  process:\n  - type: sd_trainer\n    train:\n      dtype: bf16\n"
        "    model:\n      name_or_path: m\n      is_flux: true\n", ("ai-toolkit", [], "bfloat16")),
    "diffusers example with a research project's extra options": (
        "db.sh", "accelerate launch train_dreambooth_lora_flux_masked.py --pretrained_model_name_or_path m "
        "--instance_data_dir d --instance_prompt p --mixed_precision fp16 --my_mask_dir x\n",
        ("diffusers", [], "float16")),
    "torchtune recipe config": (
        "tt.yaml", "model:\n  _component_: torchtune.models.llama3_2.lora_llama3_2_1b\ndtype: bf16\ncompile: false\n",
        ("torchtune", [], "bfloat16")),
}


@pytest.mark.parametrize("case", READ, ids=list(READ))
def test_read_on_the_trainers_own_evidence(tmp_path, case):
    name, text, (trainer, required, dtype) = READ[case]
    cfg = _load(tmp_path, name, text)
    assert (cfg["detected"]["trainer"], cfg["required"], cfg["dtype"]) == (trainer, required, dtype)


REFUSED = {
    "only a dataset config": (
        "ds.toml", '[general]\ncaption_extension = ".txt"\n[[datasets]]\nresolution = 1024\n  [[datasets.subsets]]\n'
        '  image_dir = "img"\n', "is a dataset config"),
    "diffusion-pipe dataset TOML": (
        "dataset.toml", "resolutions = [512]\nenable_ar_bucket = true\nframe_buckets = [1]\n[[directory]]\n"
        "path = '/data/x'\nnum_repeats = 1\n", "diffusion-pipe's"),
    # another script that happens to take musubi-tuner's --task
    "another script with one shared option": (
        "train.sh", "python my_wan_trainer.py --task train --dit_path a --lora_rank 64\n",
        "runs my_wan_trainer.py, a training script none of the trainers attn-doctor reads ships"),
    "another script with no trainer's option": (
        "go.sh", "accelerate launch --mixed_precision bf16 my_sdxl_finetune.py --resolution 512 --train_batch_size 2\n",
        "runs my_sdxl_finetune.py, a training script"),
    # NewBie-style TOML: sd-scripts names (enable_bucket, train_data_dir) in a file sd-scripts has no options for
    "sd-scripts names in another trainer's TOML": (
        "newbie.toml", '[Model]\nbase_model_path = "m"\ngemma3_prompt = "p"\nnum_epochs = 3\nsave_epochs_interval = 1\n'
        'enable_bucket = true\ntrain_data_dir = "d"\nlora_target_modules = ["a"]\nuse_cache = true\n',
        "not a trainer config"),
    "LLaMA-Factory keys without a model": (
        "finetuning_args.json", '{"finetuning_type": "lora", "lora_rank": 8, "lora_target": ["q"], "pre_seq_len": 64}',
        "not a trainer config"),
    "TRL keys with another trainer's model key": (
        "edit.yaml", "pretrained_model_name_or_path: m\ndataset_name: d\nlora_alpha: 16\nnum_train_epochs: 2\n",
        "not a trainer config"),
    "a job key without ai-toolkit's layout": (
        "j.yaml", "job: nightly\nsample_every: 100\ncaption_dropout_rate: 0.1\nlr_scheduler: constant\n",
        "not a trainer config"),
    "Hydra defaults list": (
        "config.yaml", "# @package _global_\ndefaults:\n  - trainer: default.yaml\n  - model: resnet.yaml\nseed: 1\n",
        "looks like a Hydra config"),
    "a script named like a diffusers example with its own options": (
        "flux.sh", "python train_flux_lora.py --pretrained_dit_path a --dataset_path d --precision bf16 "
        "--quantize float8 --steps_per_epoch 100 --max_epochs 1\n", "runs train_flux_lora.py"),
    "batch size keys without DeepSpeed's sections": (
        "c.yaml", "train_batch_size: 1\ngradient_accumulation_steps: 2\nimg_size: 1024\nrank: 16\n",
        "not a trainer config"),
    "DeepSpeed config": (
        "ds.json", '{"train_batch_size": 8, "gradient_accumulation_steps": 1, "fp16": {"enabled": true}}',
        "looks like a DeepSpeed config"),
    "torchtune class only deep inside an experiment spec": (
        "exp.yaml", "experiment:\n  framework: torchtune\ncontrols:\n  dataset:\n"
        "    _component_: torchtune.datasets.instruct_dataset\n    packed: true\n", "not a trainer config"),
}


@pytest.mark.parametrize("case", REFUSED, ids=list(REFUSED))
def test_refused_in_one_line(tmp_path, case):
    name, text, words = REFUSED[case]
    assert words in _refusal(tmp_path, name, text)


def test_forcing_a_refused_file_reads_it(tmp_path):
    """The refusal names --trainer; forcing reads the file with that reader (the user's call)."""
    p = tmp_path / "train.sh"
    p.write_text("python my_wan_trainer.py --task t2v-14B --sdpa\n")
    assert "--trainer NAME" in _refusal(tmp_path, "train.sh", p.read_text())
    assert configs.load(str(p), trainer="musubi")["required"] == ["sdpa"]


def test_cli_exit_code_two(tmp_path):
    p = tmp_path / "config.yaml"
    p.write_text("defaults:\n  - trainer: default\n")
    r = subprocess.run([sys.executable, "-m", "attn_doctor", "check", "--config", str(p)], capture_output=True,
                       text=True, timeout=120)
    assert r.returncode == 2
    assert "looks like a Hydra config" in r.stderr and "Traceback" not in r.stderr
