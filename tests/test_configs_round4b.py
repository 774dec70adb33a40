"""Issue 24, round 4b: LLM trainers read right, and every reader claims a file only on its OWN evidence.

Three parts. The real files of fixtures/configs/round4b/ (see its README: users' repositories, labelled from the trainers'
own source) are each read as their expect file says. The evidence audit: for every reader, a file that holds only the
keys it shares with other frameworks (its SHARED_KEYS and COMMON_KEYS, plus a few names of the file's own, as every
user's config has) is refused, in each format the reader reads. And variants written for this test (what each fakes is
in its name) of the files hosted trainers, other frameworks and users' own scripts use with a claimed trainer's key
names. Run against main at 28cfefd (before round 4b), 30 of these tests fail: 6 real files, 7 audit cases, the TRL-fields
rule, 14 refusals and 2 reads; the rest pass there too and guard that a trainer's own evidence still claims its files."""

from __future__ import annotations

import importlib
import json

import pytest
from each_case import each

from attn_doctor import configs

from configs_corpus import CONFIGS as CORPUS, CLAIMED, check_read_as_expected, check_staged_expect, expect, files, \
    split_module
from configs_corpus import rel, write as _write, refusal as _refusal

# round4b: the files the round-4b rules were written after; round4b2: gathered after those changes, measured only
FILES = files(CORPUS / "round4b", CORPUS / "round4b2")
LLM = {"axolotl", "llama-factory", "transformers", "torchtune", "litgpt", "ms-swift", "unsloth"}



def test_the_corpus_is_there_and_on_the_readers_side_of_the_split():
    split = split_module()
    llm = refused = 0
    for p in FILES:
        t = check_staged_expect(p, expect(p), split)
        llm += t in LLM
        refused += t not in CLAIMED
    assert llm >= 20 and refused >= 10, (llm, refused)


def test_real_file():
    each(((rel(p), (p,)) for p in FILES), check_read_as_expected)  # (one test over the set: tests/each_case.py)




# ---------------------------------------------------------------------------------------------------------------------
# The evidence audit: each reader's shared keys alone claim nothing
# ---------------------------------------------------------------------------------------------------------------------

# the formats each reader reads a file in (a reader is not asked about a format it never claims)
FORMATS = {"simpletuner": ("json", "toml", "sh"), "musubi": ("toml", "sh"), "blissful": ("toml", "sh"),
           "diffusers": ("sh",), "ai-toolkit": ("yaml", "json"), "sd-scripts": ("toml", "json", "sh"),
           "diffusion-pipe": ("toml",), "onetrainer": ("json",), "axolotl": ("yaml", "json"),
           "llama-factory": ("yaml", "json", "sh"), "transformers": ("yaml", "json", "sh"), "torchtune": ("yaml",),
           "litgpt": ("yaml",), "ms-swift": ("yaml", "json", "sh"), "unsloth": ("sh",)}
# names a user's own config or script adds beside the shared ones (its own data paths and switches)
OWN = {"my_data_path": "data/train.jsonl", "use_my_trick": True, "run_tag": "exp1"}
BOOL = {"bf16", "fp16", "xformers", "sdpa", "split_attn", "compile", "torch_compile", "gradient_checkpointing",
        "packing", "do_train", "push_to_hub", "fp8_base", "persistent_data_loader_workers", "trust_remote_code"}


def _shared_keys(reader: str) -> dict:
    mod = importlib.import_module(f"attn_doctor.configs.{configs.READERS[reader]}")
    keys = set(getattr(mod, "SHARED_KEYS", ())) | set(getattr(mod, "COMMON_KEYS", ()))
    return {k: True if k in BOOL else ("x" if ("name" in k or "path" in k or "dir" in k) else 2) for k in sorted(keys)}


def _render(fmt: str, d: dict) -> str:
    if fmt == "json":
        return json.dumps(d)
    if fmt == "yaml":
        return "".join(f"{k}: {json.dumps(v)}\n" for k, v in d.items())
    if fmt == "toml":
        return "".join(f"{k} = {json.dumps(v)}\n" for k, v in d.items())
    return "accelerate launch my_train.py " + " ".join(f"--{k}" if v is True else f"--{k} {v}" for k, v in d.items()) + "\n"


AUDIT = [(r, f) for r in configs.READERS for f in FORMATS[r] if _shared_keys(r)]


@pytest.mark.parametrize("reader,fmt", AUDIT, ids=[f"{r}-{f}" for r, f in AUDIT])
def test_a_file_of_only_shared_keys_is_refused(tmp_path, reader, fmt):
    """FAKE: every key a reader counts as shared or common, with a user's own names beside them, in one file."""
    d = {**_shared_keys(reader), **OWN}
    msg = _refusal(tmp_path, f"cfg.{fmt}", _render(fmt, d))
    assert "not a trainer config" in msg or "which attn-doctor does not read yet" in msg


def test_a_yaml_of_only_trl_dataclass_fields_is_transformers(tmp_path):
    """FAKE: the other side of the transformers rule. TrlParser and HfArgumentParser refuse a key no dataclass has, so a
    file whose keys are (nearly) all TrainingArguments / TRL / ModelConfig fields is theirs, and one with a user's own
    keys beside them is not."""
    base = {"model_name_or_path": "m", "dataset_name": "d", "attn_implementation": "flash_attention_2", "bf16": True,
            "per_device_train_batch_size": 2, "learning_rate": 2e-5, "output_dir": "out"}
    cfg = configs.load(_write(tmp_path, "sft.yaml", _render("yaml", base)))
    assert (cfg["detected"]["trainer"], cfg["required"]) == ("transformers", ["fa2"])
    assert "not a trainer config" in _refusal(tmp_path, "mine.yaml", _render("yaml", {**base, **OWN}))


# ---------------------------------------------------------------------------------------------------------------------
# Hosted trainers, other frameworks and users' own scripts with a claimed trainer's names
# ---------------------------------------------------------------------------------------------------------------------

REFUSED = {
    "Ludwig LLM config (base_model + adapter, as axolotl's)": (
        "ludwig.yaml", "model_type: llm\nbase_model: meta-llama/Llama-2-7b-hf\nadapter:\n  type: lora\nquantization:\n"
        "  bits: 4\ninput_features:\n  - name: instruction\n    type: text\noutput_features:\n  - name: output\n"
        "    type: text\ntrainer:\n  type: finetune\n  learning_rate: 0.0001\n  batch_size: 1\n", "looks like Ludwig"),
    "mlx-lm LoRA config": (
        "lora.yaml", "model: mlx-community/Mistral-7B-Instruct-v0.3-4bit\ntrain: true\ndata: ./data\nfine_tune_type: lora\n"
        "num_layers: 16\nbatch_size: 4\niters: 1000\nlearning_rate: 1e-5\nadapter_path: adapters\n", "looks like mlx-lm"),
    "a user's own LoRA config with base_model and lora_r": (
        "train_lora.yaml", "base_model: meta-llama/Llama-2-7b-hf\ndataset_path: data/train.jsonl\noutput_dir: out\n"
        "use_4bit: true\nmax_length: 512\nlora_r: 8\nlora_alpha: 16\nlearning_rate: 0.0002\nnum_epochs: 1\n",
        "not a trainer config"),
    "text-generation-webui's saved training parameters (cutoff_len, lora_rank)": (
        "training_parameters.json", '{"lora_name": "mylora", "micro_batch_size": 4, "batch_size": 128, "epochs": 3, '
        '"learning_rate": "3e-4", "lora_rank": 32, "lora_alpha": 64, "cutoff_len": 256, "overlap_len": 128, '
        '"train_only_after": "", "optimizer": "adamw_torch"}', "not a trainer config"),
    "a user's long-context script config with rope_scaling and overwrite_cache": (
        "cfg.json", '{"model_name_or_path": "meta-llama/Llama-2-7b-hf", "rope_scaling": {"type": "linear", "factor": 2.0}, '
        '"overwrite_cache": true, "per_device_train_batch_size": 4, "learning_rate": 2e-5, "output_dir": "out", '
        '"block_size": 4096, "train_file": "data.txt", "use_flash_attn": true}', "not a trainer config"),
    "oat / a user's launcher with --flash_attn (musubi's flag name)": (
        "run.sh", "python experiment/main.py --pretrain m --prompt_data d --micro_train_batch_size 1 --flash_attn "
        "--gradient_checkpointing\n", "runs main.py"),
    "alpaca-lora finetune.py with axolotl's names": (
        "ft.sh", "python finetune.py --base_model 'decapoda-research/llama-7b-hf' --data_path alpaca.json --micro_batch_size 4 "
        "--num_epochs 3 --cutoff_len 512 --val_set_size 2000 --lora_r 8 --train_on_inputs --group_by_length\n",
        "runs finetune.py"),
    "a user's own sft.py (named like TRL's)": (
        "sft.sh", "accelerate launch train/sft/sft.py --model_name m --learning_rate 1e-4 --max_length 4096 "
        "--train_batch_size 2 --use_lora --sft_data_path d.json --checkpoint_dir ck\n", "runs sft.py"),
    "PixArt-alpha's train_controlnet.py (named like diffusers')": (
        "t.sh", "python -m torch.distributed.launch --nproc_per_node=1 train_scripts/train_controlnet.py "
        "configs/PixArt_xl2_img512_controlHed.py --work-dir output/x --resume_optimizer\n", "runs train_controlnet.py"),
    "another package's module named like a diffusers example": (
        "q.sh", "torchrun --nproc_per_node=4 -m qwenvl.train.train_qwen --model_name_or_path Qwen/Qwen2.5-VL-3B-Instruct "
        "--tune_mm_llm True --dataset_use d --bf16\n", "which attn-doctor does not read yet"),
    "a musubi-like TOML of only dynamo and step names (SimpleTuner's?)": (
        "c.toml", 'dynamo_backend = "inductor"\ndynamo_mode = "max-autotune"\nmax_train_steps = 1000\n'
        'learning_rate = 1e-4\noutput_dir = "out"\n', "not a trainer config"),
    "diffusers model_index.json (unet, vae, text_encoder as OneTrainer's parts)": (
        "model_index.json", '{"_class_name": "StableDiffusionPipeline", "_diffusers_version": "0.21.0", "scheduler": '
        '["diffusers", "PNDMScheduler"], "text_encoder": ["transformers", "CLIPTextModel"], "unet": ["diffusers", '
        '"UNet2DConditionModel"], "vae": ["diffusers", "AutoencoderKL"]}', "is a diffusers model or pipeline config"),
    "EveryDream2 train.json": (
        "train.json", '{"amp": true, "batch_size": 4, "data_root": "input", "disable_textenc_training": false, '
        '"disable_xformers": false, "gradient_checkpointing": true, "lr": 1.5e-06, "max_epochs": 30, "resolution": 512, '
        '"resume_ckpt": "sd_v1-5_vae", "save_every_n_epochs": 20, "useadam8bit": true, "zero_frequency_noise_ratio": 0.02}',
        "looks like EveryDream2"),
    "a user's config with LitGPT's checkpoint_dir / out_dir": (
        "run.yaml", "checkpoint_dir: checkpoints/llama\nout_dir: out/run1\nlearning_rate: 0.0001\nbatch_size: 8\n"
        "epochs: 3\n", "not a trainer config"),
    "a user's diffusers-derived script with SimpleTuner's option names": (
        "t2i.sh", "accelerate launch my_t2i_train.py --pretrained_model_name_or_path=m --dataset_name=d --resolution=768 "
        "--train_batch_size=1 --tracker_project_name=pokemon --validation_prompt=\"a cute pokemon\" --validation_seed=42 "
        "--mixed_precision=fp16 --output_dir=out\n", "runs my_t2i_train.py"),
    "a Wan generation config TOML (task, t5, clip, guidance_scale)": (
        "gen.toml", 'task = "t2v-14B"\nguidance_scale = 5.0\nt5 = "models/umt5.pth"\nclip = "models/clip.pth"\n'
        'output_dir = "out"\nseed = 42\ninfer_steps = 50\nprompt = "a cat"\n', "not a trainer config"),
    "a user's HF-Trainer train.py with --torch_compile": (
        "hf.sh", "torchrun --nproc_per_node 4 train.py --model_name_or_path m --data_path d.json --bf16 True "
        "--torch_compile True --output_dir out --my_own_flag 1\n", "runs train.py"),
    "Replicate hosted trainer inputs (lora_rank, caption_dropout_rate)": (
        "inputs.json", '{"input_images": "https://x/y.zip", "trigger_word": "TOK", "steps": 1000, "lora_rank": 16, '
        '"optimizer": "adamw8bit", "batch_size": 1, "resolution": "512,768,1024", "caption_dropout_rate": 0.05}',
        "the input of a Replicate training model"),
}


@pytest.mark.parametrize("case", REFUSED, ids=list(REFUSED))
def test_refused_on_no_trainers_own_evidence(tmp_path, case):
    name, text, words = REFUSED[case]
    assert words in _refusal(tmp_path, name, text)


READ = {
    # ms-swift's YAML shares template and lora_rank with LLaMA-Factory: its own train_type / attn_impl decide
    "ms-swift YAML with template and lora_rank": (
        "swift.yaml", "model: Qwen/Qwen2.5-7B-Instruct\ntrain_type: lora\ndataset: d\ntemplate: qwen2_5\n"
        "torch_dtype: bfloat16\nlora_rank: 8\nlora_alpha: 32\nattn_impl: flash_attn\n", ("ms-swift", ["fa2"], "bfloat16")),
    # LLaMA-Factory keeps its own keys
    "LLaMA-Factory YAML": (
        "lf.yaml", "model_name_or_path: m\nstage: sft\nfinetuning_type: lora\nlora_target: all\ntemplate: qwen\n"
        "cutoff_len: 2048\nflash_attn: fa2\nbf16: true\n", ("llama-factory", ["fa2"], "bfloat16")),
    # TRL's own script with TRL's options stays TRL's
    "TRL's sft.py with TRL options": (
        "sft.sh", "accelerate launch sft.py --model_name_or_path m --dataset_name d --attn_implementation "
        "flash_attention_2 --per_device_train_batch_size 2 --learning_rate 2e-5 --bf16 True --output_dir o\n",
        ("transformers", ["fa2"], "bfloat16")),
    "TRL's sft.py with only --config": (
        "sft2.sh", "accelerate launch examples/scripts/sft.py --config recipe.yaml\n", ("transformers", [], "")),
    # the alignment-handbook's ModelArguments before attn_implementation
    "alignment-handbook recipe with use_flash_attention_2": (
        "config_full.yaml", "model_name_or_path: m\nmodel_revision: main\ntorch_dtype: bfloat16\n"
        "use_flash_attention_2: true\ndataset_mixer:\n  d: 1.0\ndataset_splits: [train]\nbf16: true\n"
        "per_device_train_batch_size: 8\nlearning_rate: 2.0e-05\noutput_dir: out\n", ("transformers", ["fa2"], "bfloat16")),
    # axolotl by its own keys, base_model beside them
    "axolotl YAML": (
        "ax.yml", "base_model: m\nsequence_len: 2048\nsample_packing: true\nflash_attention: true\nbf16: auto\n",
        ("axolotl", ["fa2"], "bfloat16")),
    # LitGPT by its own keys, checkpoint_dir / out_dir beside them
    "LitGPT LoRA YAML": (
        "lora.yaml", "checkpoint_dir: checkpoints/meta-llama/Llama-3.2-1B\nout_dir: out/lora\nprecision: bf16-true\n"
        "lora_r: 8\nlora_query: true\nlora_value: true\ntrain:\n  global_batch_size: 16\n  micro_batch_size: 1\n",
        ("litgpt", [], "bfloat16")),
    # OneTrainer's model parts are sections of settings
    "OneTrainer JSON": (
        "ot.json", '{"__version": 6, "training_method": "LORA", "model_type": "STABLE_DIFFUSION_XL_10_BASE", '
        '"attention_mechanism": "SDP", "train_dtype": "BFLOAT_16", "unet": {"train": true}, "text_encoder": {"train": '
        'false}}', ("onetrainer", ["sdpa"], "bfloat16")),
    # musubi by its script, whatever option names it shares
    "musubi command line": (
        "wan.sh", "accelerate launch src/musubi_tuner/wan_train_network.py --task t2v-14B --dit d.safetensors "
        "--flash_attn --mixed_precision bf16 --dataset_config ds.toml\n", ("musubi", ["fa2"], "bfloat16")),
}


@pytest.mark.parametrize("case", READ, ids=list(READ))
def test_read_on_the_trainers_own_evidence(tmp_path, case):
    name, text, want = READ[case]
    cfg = configs.load(_write(tmp_path, name, text))
    assert (cfg["detected"]["trainer"], sorted(cfg["required"]), cfg["dtype"] or "") == want
