"""Issue 24, round 27u (helper cfg30): a file is read as trainer X only on X's OWN evidence, for frameworks nobody
gathered yet. An audit of the readers' own (STRONG) evidence found names other frameworks use as well; each is now
its trainer's own only with that trainer's value or beside its trainer's required key (sources in the code's comments):
- OneTrainer (configs/onetrainer.py): train_dtype / weight_dtype / output_dtype / training_method are own only with
  the name of one of OneTrainer's enums as BaseConfig writes it ("BFLOAT_16", "LORA"), a model part's section only with
  a part's own field (stop_training_after ...); base_model_name and train_device are shared;
- transformers (configs/hf_transformers.py): a model's dimensions (num_attention_heads, max_position_embeddings,
  vocab_size, rope_theta ...) are own only in the layout transformers saves (architectures / transformers_version);
- axolotl (configs/axolotl.py): tokenizer_type with a class-like name is own only beside base_model, the one key
  axolotl requires;
- LLaMA-Factory (configs/llamafactory.py): stage is own only with one of its Literal values (pt, sft, rm, ppo, dpo,
  kto); cutoff_len and max_samples are shared (alpaca-lora's, users' own scripts');
- diffusion-pipe (configs/diffusion_pipe.py): steps_per_print is DeepSpeed's key, shared.
And round 27u's unclaimed frameworks are named in the refusal (configs/others.py): invoke-training, naifu, GPT-NeoX,
PaddleNLP, GPT-SoVITS, stable-audio-tools, fish-speech, lmms-eval.
Variants are written for this test (what each fakes is in its text); near misses are real claimed files (fixtures) or
claimed layouts that must keep their reading. Run against main before this change (d126cda), the tests marked NEW fail
there; the rest pass there too and guard that the old readings hold."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from attn_doctor import configs
from configs_corpus import read as _read, refusal as _refusal

FIX = Path(__file__).resolve().parent.parent / "fixtures" / "configs"
SUPPORTED = "(it reads SimpleTuner"


def _not_read_as(tmp_path, name, text, trainer):
    """Refused, or read as some other trainer: never as `trainer`."""
    try:
        got = _read(tmp_path, name, text)
    except configs.UsageError:
        return
    assert got[0] != trainer, got


# ---------------------------------------------------------------------------------------------------------------------
# OneTrainer: generic names own only with OneTrainer's enum values
# ---------------------------------------------------------------------------------------------------------------------

# NEW: an invoke-training-like JSON (lower-case dtypes, a method word) with OneTrainer's generic names
GENERIC_DTYPES_JSON = json.dumps({"base_model_name": "runwayml/stable-diffusion-v1-5", "training_method": "lora",
                                  "train_dtype": "bfloat16", "weight_dtype": "float16", "output_dtype": "bf16",
                                  "train_device": "cuda", "learning_rate": 1e-4, "batch_size": 2}, indent=2)
# NEW: a GUI's saved settings (a kohya-style trainer front end) with a unet section of its own fields
GUI_UNET_JSON = json.dumps({"training_method": "dreambooth", "unet": {"lr": 2e-6, "train": True},
                            "weight_dtype": "fp16", "base_model_name": "sdxl-base", "epochs": 10}, indent=2)


@pytest.mark.parametrize("name, text", [("settings.json", GENERIC_DTYPES_JSON), ("gui.json", GUI_UNET_JSON)])
def test_onetrainer_generic_names_without_its_values_are_not_its_own(tmp_path, name, text):
    _not_read_as(tmp_path, name, text, "onetrainer")


def test_onetrainer_values_and_part_sections_still_read(tmp_path):
    # its enum values alone (a hand-trimmed OneTrainer config: train_dtype, training_method, a part with its own field)
    trimmed = {"model_type": "FLUX_DEV_1", "training_method": "LORA", "train_dtype": "BFLOAT_16",
               "attention_mechanism": "FLASH", "transformer": {"model_name": "", "weight_dtype": "BFLOAT_16"}}
    assert _read(tmp_path, "ot.json", json.dumps(trimmed))[0] == "onetrainer"
    part_only = {"unet": {"model_name": "x", "train": True, "stop_training_after": 0, "stop_training_after_unit": "NEVER",
                          "weight_dtype": "FLOAT_32"}, "weight_dtype": "FLOAT_16", "batch_size": 1}
    assert _read(tmp_path, "part.json", json.dumps(part_only))[0] == "onetrainer"


@pytest.mark.parametrize("rel", ["real/onetrainer/presets__SD1.5__sd_1.5_LoRA.json",
                                 "real/onetrainer/presets__Krea_2__krea2_LoRA_24GB.json",
                                 "real/onetrainer/legacy2023__sd_1.5_LoRA.json"])
def test_real_onetrainer_files_keep_their_reading(rel):
    assert configs.load(str(FIX / rel))["detected"]["trainer"] == "onetrainer"


# ---------------------------------------------------------------------------------------------------------------------
# transformers: model dimensions own only in transformers' saved layout
# ---------------------------------------------------------------------------------------------------------------------

# NEW: a user's own pretraining config (a model built from scratch by its own code) with HF-style dimension names
SCRATCH_MODEL_YAML = """\
model_name_or_path: ./tokenizer
num_attention_heads: 16
num_key_value_heads: 4
max_position_embeddings: 4096
intermediate_size: 5632
vocab_size: 32000
rope_theta: 10000.0
rms_norm_eps: 1.0e-5
learning_rate: 3.0e-4
seed: 42
"""
# the same names as a JSON (a LitGPT-/MaxText-style model file beside a model path)
SCRATCH_MODEL_JSON = json.dumps({"model_name_or_path": "meta-llama/Llama-3.2-1B", "num_attention_heads": 32,
                                 "max_position_embeddings": 131072, "vocab_size": 128256, "rope_theta": 500000.0,
                                 "rms_norm_eps": 1e-5, "intermediate_size": 8192, "output_dir": "out"})


@pytest.mark.parametrize("name, text", [("model.yaml", SCRATCH_MODEL_YAML), ("model.json", SCRATCH_MODEL_JSON)])
def test_model_dimensions_outside_transformers_layout_are_shared(tmp_path, name, text):
    from attn_doctor.configs import hf_transformers, make_doc

    sc = hf_transformers.score(make_doc(str(tmp_path / name), text))
    assert not set(sc.own) & {"num_attention_heads", "max_position_embeddings", "vocab_size", "rope_theta",
                              "rms_norm_eps", "intermediate_size", "num_key_value_heads"}  # NEW


def test_a_saved_model_config_is_still_transformers(tmp_path):
    saved = {"architectures": ["Qwen3ForCausalLM"], "model_type": "qwen3", "num_attention_heads": 16, "head_dim": 128,
             "hidden_size": 2048, "max_position_embeddings": 40960, "dtype": "bfloat16", "transformers_version": "4.57.1"}
    assert _read(tmp_path, "config.json", json.dumps(saved))[:3] == ("transformers", [], "bfloat16")
    no_class = {k: v for k, v in saved.items() if k != "architectures"}  # to_dict always writes transformers_version
    assert _read(tmp_path, "config.json", json.dumps(no_class))[0] == "transformers"


# ---------------------------------------------------------------------------------------------------------------------
# axolotl: tokenizer_type own only beside base_model
# ---------------------------------------------------------------------------------------------------------------------

# NEW: GPT-NeoX-style YAML (its SPMTokenizer) with no GPT-NeoX keys to recognise
TOKENIZER_ONLY_YAML = """\
tokenizer_type: SPMTokenizer
vocab_file: data/tokenizer.model
seq_length: 2048
hidden_size: 2048
train_iters: 10000
"""
# NEW: a user's own JSON naming a tokenizer class (its own code calls getattr(transformers, ...))
TOKENIZER_ONLY_JSON = json.dumps({"tokenizer_type": "LlamaTokenizerFast", "tokenizer_path": "tok/", "max_len": 1024,
                                  "epochs": 3})


@pytest.mark.parametrize("name, text", [("neox.yml", TOKENIZER_ONLY_YAML), ("mine.json", TOKENIZER_ONLY_JSON)])
def test_tokenizer_type_alone_is_not_axolotls(tmp_path, name, text):
    _not_read_as(tmp_path, name, text, "axolotl")


def test_axolotl_with_base_model_and_tokenizer_type_still_read(tmp_path):
    minimal = "base_model: NousResearch/Llama-3.2-1B\ntokenizer_type: AutoTokenizer\nload_in_8bit: true\n" \
              "micro_batch_size: 2\nnum_epochs: 1\n"
    assert _read(tmp_path, "ax.yml", minimal)[0] == "axolotl"


# ---------------------------------------------------------------------------------------------------------------------
# LLaMA-Factory: stage by its value; cutoff_len / max_samples shared
# ---------------------------------------------------------------------------------------------------------------------

# NEW: a user's own HfArgumentParser script's YAML (its stage is its own pipeline step; alpaca-lora's cutoff_len)
OWN_STAGE_YAML = """\
model_name_or_path: Qwen/Qwen2.5-0.5B
stage: curriculum_2
cutoff_len: 512
max_samples: 2000
output_dir: out/stage2
learning_rate: 2.0e-5
"""
OWN_STAGE_JSON = json.dumps({"model_name_or_path": "gpt2", "stage": 1, "cutoff_len": 256, "max_samples": 100,
                             "learning_rate": 3e-4})


@pytest.mark.parametrize("name, text", [("stage.yaml", OWN_STAGE_YAML), ("stage.json", OWN_STAGE_JSON)])
def test_stage_with_another_value_is_not_llamafactorys(tmp_path, name, text):
    _not_read_as(tmp_path, name, text, "llama-factory")


@pytest.mark.parametrize("stage", ["sft", "dpo", "pt", "kto"])
def test_llamafactory_stage_values_still_read(tmp_path, stage):
    text = f"model_name_or_path: Qwen/Qwen3-0.6B\nstage: {stage}\ndo_train: true\ncutoff_len: 1024\n" \
           "max_samples: 1000\ndataset: alpaca_en_demo\n"
    assert _read(tmp_path, "lf.yaml", text)[0] == "llama-factory"


# ---------------------------------------------------------------------------------------------------------------------
# diffusion-pipe: DeepSpeed's steps_per_print is shared
# ---------------------------------------------------------------------------------------------------------------------

def test_steps_per_print_is_not_diffusion_pipes_own(tmp_path):
    from attn_doctor.configs import diffusion_pipe, make_doc

    toml = 'steps_per_print = 10\ngradient_clipping = 1.0\nepochs = 3\n'
    assert "steps_per_print" not in diffusion_pipe.score(make_doc(str(tmp_path / "ds.toml"), toml)).own  # NEW
    _not_read_as(tmp_path, "ds.toml", toml, "diffusion-pipe")


def test_real_diffusion_pipe_toml_still_read():
    found = sorted((FIX / "real" / "diffusion-pipe").glob("*.toml"))
    assert found
    assert configs.load(str(found[0]))["detected"]["trainer"] == "diffusion-pipe"


# ---------------------------------------------------------------------------------------------------------------------
# round 27u's frameworks named in the refusal (configs/others.py)
# ---------------------------------------------------------------------------------------------------------------------

INVOKE_TI = """\
type: SD_TEXTUAL_INVERSION
seed: 7
base_output_dir: output/ti
optimizer:
  optimizer_type: AdamW
  learning_rate: 4e-3
data_loader:
  type: TEXTUAL_INVERSION_SD_DATA_LOADER
model: runwayml/stable-diffusion-v1-5
mixed_precision: fp16
"""
NAIFU_CASCADE = """\
name: run
target: modules.train_cascade.setup
trainer:
  model_path: ckpt/stage_c.safetensors
  batch_size: 2
lightning:
  accelerator: gpu
  precision: bf16-mixed
"""
NEOX_KEBAB = """\
{
  "pipe-parallel-size": 1,
  "model-parallel-size": 1,
  "num-layers": 12,
  "attention-config": [[["flash"], 12]],
  "rotary-pct": 0.25,
  "train_micro_batch_size_per_gpu": 4,
  "zero_optimization": {"stage": 1}
}
"""
PADDLE_ARGS = json.dumps({"model_name_or_path": "Qwen/Qwen2-0.5B", "dataset_name_or_path": "./data",
                          "per_device_train_batch_size": 2, "bf16": True, "fp16_opt_level": "O2",
                          "tensor_parallel_degree": 2, "unified_checkpoint": True, "use_flash_attention": True})
SOVITS_S2 = json.dumps({"train": {"fp16_run": True, "segment_size": 20480, "c_mel": 45, "c_kl": 1.0},
                        "data": {"n_mel_channels": 128, "hop_length": 640}, "model": {"inter_channels": 192}})
STABLE_AUDIO_LM = json.dumps({"model_type": "lm", "sample_size": 2097152, "sample_rate": 44100, "audio_channels": 2,
                              "model": {"pretransform": {"type": "autoencoder"}}, "training": {"learning_rate": 1e-4}})
FISH_VQGAN = """\
defaults:
  - base
  - _self_
trainer:
  precision: bf16-mixed
  max_steps: 100000
model:
  _target_: fish_speech.models.vqgan.VQGAN
"""


@pytest.mark.parametrize("name, text, words", [
    ("ti.yaml", INVOKE_TI, "invoke-training"),  # NEW
    ("cascade.yaml", NAIFU_CASCADE, "naifu"),  # NEW
    ("neox.yml", NEOX_KEBAB, "GPT-NeoX"),  # NEW
    ("args.json", PADDLE_ARGS, "PaddleNLP"),  # NEW
    ("s2.json", SOVITS_S2, "GPT-SoVITS"),  # NEW
    ("lm.json", STABLE_AUDIO_LM, "stable-audio-tools"),  # NEW
    ("vqgan.yaml", FISH_VQGAN, "fish-speech"),  # NEW
])
def test_round27u_frameworks_are_named(tmp_path, name, text, words):
    msg = _refusal(tmp_path, name, text)
    assert words in msg.split(SUPPORTED)[0]


@pytest.mark.parametrize("name, text", [
    ("lmms.sh", "accelerate launch --num_processes=8 -m lmms_eval --model qwen2_vl "
                "--model_args=pretrained=Qwen/Qwen2-VL-7B-Instruct,attn_implementation=flash_attention_2 --tasks mme\n"),
    ("lmms2.sh", "python3 -m lmms_eval --model llava --tasks mmmu_val --batch_size 1 --output_path ./logs/\n"),
])
def test_lmms_eval_is_named_as_an_evaluation(tmp_path, name, text):
    msg = _refusal(tmp_path, name, text)
    assert "lmms-eval (an evaluation, not training)" in msg  # NEW


def test_near_misses_keep_their_frameworks(tmp_path):
    # lm-evaluation-harness stays itself; a DeepSpeed JSON with one GPT-NeoX-ish name stays DeepSpeed; an HF
    # TrainingArguments JSON with no Paddle names is not PaddleNLP; a Hydra trainer without fish_speech targets is not
    # fish-speech; a YAML with `type: SDXL_LORA` but no base_output_dir is not invoke-training
    assert "lm-evaluation-harness" in _refusal(tmp_path, "lm.sh", "lm_eval --model hf --model_args pretrained=gpt2 "
                                                                   "--tasks hellaswag\n")
    ds = json.dumps({"train_micro_batch_size_per_gpu": 4, "zero_optimization": {"stage": 2}, "pos_emb": "rotary",
                     "steps_per_print": 10})
    assert "DeepSpeed" in _refusal(tmp_path, "ds.json", ds)
    hf = json.dumps({"model_name_or_path": "gpt2", "per_device_train_batch_size": 2, "bf16": True, "src_length": 512})
    assert "PaddleNLP" not in _refusal(tmp_path, "hf.json", hf)  # (one Paddle name, src_length, is not enough)
    hydra = "trainer:\n  precision: 16-mixed\n  devices: 1\nmodel:\n  _target_: mylab.models.TTS\n"
    assert "fish-speech" not in _refusal(tmp_path, "tts.yaml", hydra)
    no_dir = "type: SDXL_LORA\nlearning_rate: 1e-4\nmodel: stabilityai/stable-diffusion-xl-base-1.0\n"
    assert "invoke-training" not in _refusal(tmp_path, "t.yaml", no_dir)


def test_round27u_files_read_as_labelled():
    """Every round-27u file is read as its expect file says: the unclaimed and `none` files refused with their words,
    and the three kinds the transformers reader claims on purpose (a model's config.json: docs/ci.md; from_pretrained
    scripts: round 6a's labels), relabelled transformers by the lead (the README says why). reason.py's
    `_attn_implementation="flash_attention_2" if device == "cuda" else "eager"`, once the one known miss, is read since
    cfg32 (session 8: the private keyword, tests/test_configs_cfg32.py)."""
    from configs_corpus import check_read_as_expected

    for expect in sorted((FIX / "round27u").glob("*/*.expect.toml")):
        check_read_as_expected(Path(str(expect)[:-len(".expect.toml")]))


# ---------------------------------------------------------------------------------------------------------------------
# more names the audit found shared (their trainer keeps its reading on its own names)
# ---------------------------------------------------------------------------------------------------------------------

def _own(reader: str, path: str, text: str) -> list:
    import importlib

    from attn_doctor.configs import make_doc

    return importlib.import_module(f"attn_doctor.configs.{reader}").score(make_doc(path, text)).own


@pytest.mark.parametrize("reader, name, text, key", [
    # an alpaca-lora-style YAML of a user's finetune.py (its fire arguments written down)
    ("axolotl", "alpaca.yaml", "base_model: huggyllama/llama-7b\ndata_path: alpaca.json\nval_set_size: 2000\n"
                               "cutoff_len: 256\nmicro_batch_size: 4\nnum_epochs: 3\n", "val_set_size"),
    # llama-recipes' train_config written as JSON
    ("llamafactory", "recipes.json", json.dumps({"model_name": "meta-llama/Llama-3.1-8B", "model_name_or_path": "x",
                                                 "batching_strategy": "packing", "context_length": 4096}),
     "batching_strategy"),
    # diffusers' DreamBooth options on a command line of a user's copy of train_dreambooth.py
    ("sd_scripts", "db.sh", "accelerate launch my_dreambooth.py --pretrained_model_name_or_path=x "
                            "--prior_loss_weight=1.0 --text_encoder_lr=5e-6 --output_dir=o\n", "prior_loss_weight"),
    # an OneTrainer-styled model_type of some other tool
    ("onetrainer", "tool.json", json.dumps({"model_type": "LLAMA_2_CHAT", "batch_size": 4, "epochs": 2}),
     "model_type=LLAMA_2_CHAT"),
])
def test_shared_names_are_not_own(tmp_path, reader, name, text, key):
    assert key not in _own(reader, str(tmp_path / name), text)  # NEW


def test_their_trainers_keep_reading_on_their_own_names(tmp_path):
    ax = "base_model: NousResearch/Llama-3.2-1B\nsequence_len: 2048\nsample_packing: true\nval_set_size: 0.05\n" \
         "flash_attention: true\nmicro_batch_size: 1\n"
    assert _read(tmp_path, "ax.yml", ax)[:2] == ("axolotl", ["fa2"])
    ot = {"model_type": "KREA_2", "training_method": "LORA", "attention_mechanism": "SDP", "batch_size": 1}
    assert _read(tmp_path, "ot.json", json.dumps(ot))[0] == "onetrainer"
    sd = "accelerate launch train_network.py --pretrained_model_name_or_path=m.safetensors --train_data_dir=img " \
         "--prior_loss_weight=1.0 --network_module=networks.lora --sdpa --mixed_precision=bf16 --output_dir=o\n"
    assert _read(tmp_path, "sd.sh", sd)[:2] == ("sd-scripts", ["sdpa"])
