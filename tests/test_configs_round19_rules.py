"""Issue 24, round 19: a file is read as trainer X only on X's own evidence; another framework's file is refused as
what it is ("looks like Y, which attn-doctor does not read yet", "not a trainer config"), and --trainer still forces a
reader. Variants written for this test (what each fakes is in its text) of the rules round 19 added, with near misses
that must keep their reading:
- `transformers_version` is written into every file transformers saves (generation_config.json, a processor's or
  feature extractor's config): the model's evidence only beside a model config's layout (`architectures`, or
  `model_type` with a dimension), and a generation_config.json is named as one (hf_transformers.model_layout,
  others.generation_config);
- AUTOMATIC1111's launchers (webui-user.bat / .sh) set COMMANDLINE_ARGS, which modules/launch_utils.py appends to
  sys.argv, and run webui.bat / webui.sh: its options in that variable, or the variable with the launcher, are A1111's
  own evidence (others._a1111_launch);
- LLaVA's trainer (llava/train/train_mem.py, and the projects built on it) is told by its path or by two of its own
  arguments (ModelArguments / DataArguments / TrainingArguments additions: --mm_projector_type, --mm_use_im_start_end
  ...) (others._LLAVA_OPTS);
- a script run with Hydra's own flags (--config-name / --config-path / --config-dir, -cn / -cp / -cd) is a Hydra app
  (others._HYDRA_FLAGS); HF's --config_name (run_clm.py's ModelArguments) is not one.
Run against the code before this change (6d5c95b), the variants marked NEW fail there; the rest pass there too and
guard that the old readings hold."""

from __future__ import annotations

import json

import pytest

from attn_doctor import configs
from attn_doctor.model import UsageError
from configs_corpus import CONFIGS as CORPUS
from configs_corpus import read as _read, refusal as _refusal

SUPPORTED = "(it reads SimpleTuner"

# ---------------------------------------------------------------------------------------------------------------------
# transformers' saved files that are not a model config
# ---------------------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name, data", [
    # a Llama-3 generation_config.json (sampling defaults)
    ("generation_config.json", {"bos_token_id": 128000, "do_sample": True, "eos_token_id": [128001, 128009],
                                "temperature": 0.6, "top_p": 0.9, "transformers_version": "4.43.0.dev0"}),  # NEW
    # a Whisper-style one: decoder ids, forced ids, beams
    ("generation_config.json", {"decoder_start_token_id": 50258, "forced_decoder_ids": [[1, None], [2, 50359]],
                                "num_beams": 1, "max_length": 448, "pad_token_id": 50257,
                                "transformers_version": "4.31.0"}),  # NEW
    # saved under another name beside a fine-tune's checkpoint
    ("gen.json", {"_from_model_config": True, "transformers_version": "4.47.1"}),  # NEW
])
def test_a_generation_config_is_no_trainer_config(tmp_path, name, data):
    msg = _refusal(tmp_path, name, json.dumps(data, indent=2))
    assert "generation config" in msg and "not a trainer config" in msg


@pytest.mark.parametrize("data", [
    {"image_processor_type": "SiglipImageProcessor", "do_resize": True, "size": {"height": 384, "width": 384},
     "processor_class": "PaliGemmaProcessor", "transformers_version": "4.45.0"},  # NEW (preprocessor_config.json)
    {"feature_extractor_type": "WhisperFeatureExtractor", "feature_size": 80, "sampling_rate": 16000,
     "transformers_version": "4.40.0"},  # NEW (a feature extractor's)
])
def test_transformers_version_alone_is_not_the_models_evidence(tmp_path, data):
    msg = _refusal(tmp_path, "preprocessor_config.json", json.dumps(data))
    assert "transformers / TRL" not in msg.split(SUPPORTED)[0]


@pytest.mark.parametrize("data, want", [
    # a model's config.json is read on purpose (docs/ci.md): its class, dims and dtype, even with bos/eos ids
    ({"architectures": ["LlamaForCausalLM"], "bos_token_id": 1, "eos_token_id": 2, "hidden_size": 4096,
      "num_attention_heads": 32, "torch_dtype": "float16", "transformers_version": "4.31.0"},
     ("transformers", [], "float16", "none")),
    # no architectures, but the model's family and dimensions
    ({"model_type": "qwen2", "hidden_size": 896, "num_attention_heads": 14, "num_key_value_heads": 2,
      "torch_dtype": "bfloat16", "attn_implementation": "sdpa", "transformers_version": "4.45.0"},
     ("transformers", ["sdpa"], "bfloat16", "none")),
])
def test_a_model_config_is_still_read(tmp_path, data, want):
    assert _read(tmp_path, "config.json", json.dumps(data)) == want


def test_a_trl_yaml_with_generation_keys_is_still_trls(tmp_path):
    # GRPOConfig has temperature / top_p / max_completion_length: sampling settings of a training run
    text = ("model_name_or_path: Qwen/Qwen2.5-1.5B-Instruct\nattn_implementation: flash_attention_2\n"
            "torch_dtype: bfloat16\nbf16: true\ntemperature: 0.9\ntop_p: 1.0\nnum_generations: 8\n"
            "max_completion_length: 512\nuse_vllm: true\nlearning_rate: 1.0e-6\noutput_dir: out\n")
    assert _read(tmp_path, "grpo.yaml", text) == ("transformers", ["fa2"], "bfloat16", "none")


# ---------------------------------------------------------------------------------------------------------------------
# AUTOMATIC1111's launchers
# ---------------------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name, text", [
    # webui-user.sh, sourced by webui.sh: only variables
    ("webui-user.sh", '#!/bin/bash\nexport COMMANDLINE_ARGS="--medvram --opt-sdp-attention --listen"\n'
                      'export PYTORCH_CUDA_ALLOC_CONF="garbage_collection_threshold:0.6"\n'),  # NEW
    # Forge's webui-user.bat: flags of its own (not in A1111's list), launched through webui.bat
    ("webui-user.bat", "@echo off\r\nset PYTHON=\r\nset GIT=\r\nset VENV_DIR=\r\nset COMMANDLINE_ARGS=--cuda-malloc "
                       "--pin-shared-memory\r\n\r\ncall webui.bat\r\n"),  # NEW
    # the stock file: empty flags, then webui.bat
    ("start.bat", "@echo off\n\nset PYTHON=\nset GIT=\nset VENV_DIR=\nset COMMANDLINE_ARGS=\n\ncall webui.bat\n"),  # NEW
    # a Linux launcher with the flags inline
    ("run.sh", 'COMMANDLINE_ARGS="--xformers --no-half-vae" ./webui.sh -f\n'),  # NEW
])
def test_a1111_launchers_are_refused_as_a1111(tmp_path, name, text):
    msg = _refusal(tmp_path, name, text)
    assert "stable-diffusion-webui" in msg and "it trains nothing" in msg and "--trainer NAME" in msg


def test_commandline_args_of_another_app_is_not_a1111(tmp_path):
    # the same variable name for a chatbot's own flags, and nothing run
    text = "@echo off\nset PYTHON=python\nset COMMANDLINE_ARGS=--openai-api-key=KEY --tts-backend=pyttsx3\n"
    msg = _refusal(tmp_path, "webui-user.bat", text)
    assert "stable-diffusion-webui" not in msg and "not a trainer config" in msg


def test_an_sd_scripts_launch_beside_a_webui_setting_is_still_sd_scripts(tmp_path):
    # a provisioning script that sets the webui's flags for later and trains a LoRA with sd-scripts now
    text = ('export COMMANDLINE_ARGS="--xformers --api"\n'
            "accelerate launch --mixed_precision bf16 sdxl_train_network.py --pretrained_model_name_or_path sdxl.safetensors "
            "--dataset_config dataset.toml --network_module networks.lora --network_dim 16 --sdpa "
            "--mixed_precision bf16 --output_dir out\n")
    assert _read(tmp_path, "provision.sh", text)[:3] == ("sd-scripts", ["sdpa"], "bfloat16")


# ---------------------------------------------------------------------------------------------------------------------
# LLaVA's trainer
# ---------------------------------------------------------------------------------------------------------------------

_LLAVA_TAIL = ("--model_name_or_path lmsys/vicuna-7b-v1.5 --version v1 --data_path data.json --image_folder img "
               "--vision_tower openai/clip-vit-large-patch14-336 --bf16 True --output_dir out --tf32 True "
               "--model_max_length 2048 --gradient_checkpointing True --lazy_preprocess True")


@pytest.mark.parametrize("line", [
    # by its path alone
    "deepspeed llava/train/train_xformers.py --deepspeed ./scripts/zero2.json " + _LLAVA_TAIL,  # NEW
    # a project built on it: its own package, LLaVA's arguments
    "deepspeed videollava/train/train_mem.py --mm_projector_type mlp2x_gelu --mm_use_im_patch_token False "
    + _LLAVA_TAIL,  # NEW
    # as a module
    "torchrun --nproc_per_node 8 -m llava.train.train_mem --mm_projector_type mlp2x_gelu --mm_vision_select_layer -2 "
    + _LLAVA_TAIL,  # NEW
    # a Windows path to the script
    r"python D:\\LLaVA\\llava\\train\\train.py " + _LLAVA_TAIL,  # NEW
])
def test_llavas_trainer_is_refused_as_llava(tmp_path, line):
    msg = _refusal(tmp_path, "finetune.sh", "#!/bin/bash\n" + line + "\n")
    assert "looks like LLaVA" in msg and "does not read yet" in msg


def test_one_llava_like_option_in_a_users_script_is_not_llava(tmp_path):
    text = "python my_vlm/train.py --group_by_modality_length True --model_name_or_path x --bf16 True\n"
    assert "LLaVA" not in _refusal(tmp_path, "run.sh", text)


def test_trls_vlm_script_is_still_trl(tmp_path):
    text = ("accelerate launch examples/scripts/sft_vlm.py --dataset_name HuggingFaceH4/llava-instruct-mix-vsft "
            "--model_name_or_path llava-hf/llava-1.5-7b-hf --per_device_train_batch_size 8 --output_dir out --bf16 "
            "--torch_dtype bfloat16 --attn_implementation flash_attention_2\n")
    assert _read(tmp_path, "train.sh", text)[:3] == ("transformers", ["fa2"], "bfloat16")


# ---------------------------------------------------------------------------------------------------------------------
# Hydra apps
# ---------------------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("line", [
    "python src/train.py --config-name=exp_small trainer.max_epochs=10",  # NEW (Lightning-Hydra template)
    "python -m myproj.train -cn sft +experiment=ablation",  # NEW (short flag, a module)
    "CUDA_VISIBLE_DEVICES=0 python run.py --config-path conf --config-name base seed=1",  # NEW
    # --config-dir with Hydra's own hydra.* overrides and a multirun
    "python tools/train.py --config-dir /runs/a --config-name mdo hydra.run.dir=/runs/a hydra.job.chdir=True -m",  # NEW
])
def test_a_hydra_app_is_refused_as_one(tmp_path, line):
    msg = _refusal(tmp_path, "run.sh", line + "\n")
    assert "looks like a Hydra app" in msg


@pytest.mark.parametrize("line", [
    # users' argparse scripts with a --config-name of their own: options Hydra's parser would refuse
    "python scripts/run_top.py --config-name map_test --ranks 1 2 3",
    "python -m rl_framework.cli.main multi-seed --config-name ppo --config-dir configs --seeds 0,1,2",
])
def test_an_argparse_config_name_is_not_hydras(tmp_path, line):
    assert "Hydra" not in _refusal(tmp_path, "run.sh", line + "\n")


def test_hfs_config_name_is_not_hydras(tmp_path):
    # transformers' run_clm.py: ModelArguments.config_name. (Round 22: transformers' own example scripts with
    # TrainingArguments fields are read as transformers, so the launch is no longer refused at all; it was refused
    # here only because the script is not beside it, and never as Hydra's.)
    text = ("python run_clm.py --model_name_or_path gpt2 --config_name gpt2 --tokenizer_name gpt2 --dataset_name "
            "wikitext --per_device_train_batch_size 8 --do_train --output_dir out\n")
    assert _read(tmp_path, "run.sh", text)[0] == "transformers"


def test_verls_hydra_launch_is_still_verl(tmp_path):
    text = ("python3 -m verl.trainer.main_ppo --config-name=ppo_megatron_trainer "
            "actor_rollout_ref.model.path=Qwen/Qwen2.5-7B trainer.n_gpus_per_node=8\n")
    assert "looks like verl" in _refusal(tmp_path, "run.sh", text)


# ---------------------------------------------------------------------------------------------------------------------
# the refusal, on real files of unclaimed frameworks, and --trainer
# ---------------------------------------------------------------------------------------------------------------------

R19 = CORPUS / "round19"


@pytest.mark.parametrize("rel, framework", [
    ("unclaimed-torchtitan/chelseaisaac__torchtitan-runai-distributed__run_llama_train.sh", "torchtitan"),
    ("unclaimed-openrlhf/ThuanNaN__aivn-aio2024-chatbot-llm-rlhf__train_ppo_llama_ray.sh", "OpenRLHF"),
    ("unclaimed-megatron/HenryJlh__Network-Parallelism__run_megatron.sh", "Megatron-LM"),
    ("unclaimed-fairseq/Pzzzzz5142__My-Music__fake.sh", "fairseq"),
    ("unclaimed-llava/trilokpadhi__llava-finetuning-recipes__finetune_llava.sh", "LLaVA"),
    ("unclaimed-nanogpt/NochnoyRitzar__nanoGPT-custom__config__train_custom_char.py", "nanoGPT"),
    ("unclaimed-verl/ash-ding__discover__run_verl.sh", "verl"),
    ("unclaimed-lightning/XPS-Development__XPS-AI__configs__lightning.yaml", "Lightning"),
    ("none/Aashish75__fine-tune-llama-trump__ds_config.json", "DeepSpeed"),
    ("none/DAASHeo__Stable_Diffusion_auto__webui-user.bat", "stable-diffusion-webui"),
])
def test_an_unclaimed_frameworks_file_says_what_it_looks_like(rel, framework):
    with pytest.raises(UsageError) as err:
        configs.load(str(R19 / rel))
    msg = str(err.value)
    said = msg.split(", which attn-doctor does not read yet")[0]  # what the file looks like, before the reader list
    assert " looks like " in said and framework in said.split(" looks like ", 1)[1], msg
    if framework == "DeepSpeed":  # an engine's settings, no trainer's config: no reader is missing (cfg106, RUN_SETTINGS)
        assert "not a trainer config" in msg and "does not read yet" not in msg and "\n" not in msg
        return
    assert "does not read yet" in msg and "--trainer NAME" in msg and "\n" not in msg


@pytest.mark.parametrize("rel, trainer", [
    ("unclaimed-llava/trilokpadhi__llava-finetuning-recipes__finetune_llava.sh", "transformers"),
    ("none/IrfanUruchi__1B-building-engineering-llm__generation_config.json", "transformers"),
    ("none/DAASHeo__Stable_Diffusion_auto__webui-user.bat", "sd-scripts"),
])
def test_trainer_still_forces_a_reader(rel, trainer):
    cfg = configs.load(str(R19 / rel), trainer=trainer)
    assert cfg["detected"]["trainer"] == trainer and cfg["detected"]["by"] == "--trainer"

