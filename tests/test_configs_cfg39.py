"""Issue 24, round 32u (helper cfg39, session 9): files of frameworks no round held, built on transformers / accelerate /
diffusers or carrying their words. Main at a013dcb1 refused all 55 files to refuse (0 read as a trainer); what this
change does is name the framework in the refusal instead of "not a trainer config attn-doctor can tell", and stop an
evaluation step from naming a training launch (configs/others.py):
- recognisers on each framework's own layout: Moore-AnimateAnyone's solver: section (diffusers' flag names as YAML keys
  of its own train_stage_*.py; MusePose and Hallo2 copy it), Lightricks LTX-Video-Trainer (acceleration.
  mixed_precision_mode / compile_with_inductor, model.model_source LTXV_*), Salesforce LAVIS' runner (model.arch +
  run.task; MiniGPT-4 is built on it), lighteval's model configs (model_parameters.model_name), Meta DINOv2 (dino: +
  ibot:, compute_precision:), CompVis latent-diffusion / ControlNet model configs (model.target ldm.* / cldm.*), and
  generative-models (sgm) configs whose *_config sections sit under model.params (sgm's own layout);
- command lines: a command whose every argument is a Hydra override and one of them uses Hydra's own prefix syntax
  (`+key=`, `++key=`, `~key`) is a Hydra app; plain `key=value` positionals are not (SkyRL's from_cli_overrides and
  OmegaConf.from_cli take them too); an lm_eval / lmms_eval step after the file's training launch does not name the
  file (HALOs' `accelerate launch launch.py ... ++lr=` then `lm_eval --model hf`), and a launched evaluation names
  its module (`lm_eval --model`, not `accelerate --model`).
Variants are written for this test (another layout, path, launcher of the same thing); near misses must keep their
reading or stay unnamed. Tests marked NEW fail on main before this change; the others guard readings that held."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from attn_doctor import configs
from configs_corpus import read as _read, refusal as _refusal

FIX = Path(__file__).resolve().parent.parent / "fixtures" / "configs"
SUPPORTED = "(it reads SimpleTuner"


def _named(tmp_path, name, text) -> str:
    """The part of the refusal before the list of trainers attn-doctor reads."""
    return _refusal(tmp_path, name, text).split(SUPPORTED)[0]


def test_round32u_files_read_as_labelled():
    """Every round-32u file is read as its expect file says: 55 refused, Kolors' diffusers copy read as diffusers."""
    from configs_corpus import check_read_as_expected

    expects = sorted((FIX / "round32u").glob("*/*.expect.toml"))
    assert len(expects) == 56
    for expect in expects:
        check_read_as_expected(Path(str(expect)[:-len(".expect.toml")]))


# --- variants: each framework named on its own layout -----------------------------------------------------------------

ANIMATE_HALLO = """\
data:
  train_bs: 4
  train_width: 512
  train_height: 512
solver:
  gradient_accumulation_steps: 1
  mixed_precision: "bf16"
  enable_xformers_memory_efficient_attention: True
  gradient_checkpointing: False
  max_train_steps: 30000
noise_scheduler_kwargs:
  num_train_timesteps: 1000
  beta_schedule: "linear"
base_model_path: "./pretrained_models/stable-diffusion-v1-5/"
"""

ANIMATE_MUSE = """\
solver:
  max_train_steps: 10000
  enable_xformers_memory_efficient_attention: true
  learning_rate: 1.0e-5
weight_dtype: 'fp16'
pretrained_base_model_path: './pretrained_weights/sd-image-variations-diffusers'
pose_guider_pretrain: True
"""

LTX_HF_SOURCE = """\
model:
  model_source: "Lightricks/LTX-Video"
  training_mode: "full"
acceleration:
  mixed_precision_mode: "fp16"
  compile_with_inductor: false
optimization:
  learning_rate: 1.0e-5
  steps: 500
"""

LTX_NAME_ONLY = """\
model:
  model_source: "LTXV_2B_0.9.5"
  training_mode: "lora"
lora:
  rank: 64
  alpha: 64
"""

LAVIS_BLIP2 = """\
model:
  arch: blip2_opt
  model_type: caption_coco_opt2.7b
  load_finetuned: False
datasets:
  coco_caption:
    vis_processor:
      train:
        name: "blip_image_train"
run:
  task: captioning
  lr_sched: "linear_warmup_cosine_lr"
  init_lr: 1e-5
  amp: True
  max_epoch: 5
"""

LIGHTEVAL_ENDPOINT = """\
model_parameters:
  model_name: "meta-llama/Llama-3.1-8B-Instruct"
  dtype: "bfloat16"
  model_loading_kwargs:
    attn_implementation: "flash_attention_2"
  generation_parameters:
    temperature: 0.0
"""

DINOV2_SMALL = """\
dino:
  head_n_prototypes: 65536
ibot:
  separate_head: false
train:
  batch_size_per_gpu: 64
student:
  arch: vit_small
  patch_size: 14
"""

LDM_TEXTUAL_INVERSION = """\
model:
  base_learning_rate: 5.0e-03
  target: ldm.models.diffusion.ddpm.LatentDiffusion
  params:
    linear_start: 0.00085
    first_stage_key: image
    personalization_config:
      target: ldm.modules.embedding_manager.EmbeddingManager
      params:
        placeholder_strings: ["*"]
    unet_config:
      target: ldm.modules.diffusionmodules.openaimodel.UNetModel
      params:
        attention_resolutions: [4, 2, 1]
        use_checkpoint: True
lightning:
  trainer:
    benchmark: True
"""

CLDM_SD21 = """\
model:
  target: cldm.cldm.ControlLDM
  params:
    control_key: "hint"
    only_mid_control: False
    control_stage_config:
      target: cldm.cldm.ControlNet
      params:
        use_checkpoint: True
        use_linear_in_transformer: True
"""

SGM_REFINER = """\
model:
  target: sgm.models.diffusion.DiffusionEngine
  params:
    scale_factor: 0.13025
    denoiser_config:
      target: sgm.modules.diffusionmodules.denoiser.DiscreteDenoiser
    network_config:
      target: sgm.modules.diffusionmodules.openaimodel.UNetModel
      params:
        spatial_transformer_attn_type: softmax-xformers
    first_stage_config:
      target: sgm.models.autoencoder.AutoencoderKLInferenceWrapper
"""


@pytest.mark.parametrize("name, text, words", [
    ("hallo.yaml", ANIMATE_HALLO, "Moore-AnimateAnyone"),  # NEW
    ("musepose.yaml", ANIMATE_MUSE, "Moore-AnimateAnyone"),  # NEW
    ("ltx_full.yaml", LTX_HF_SOURCE, "LTX-Video-Trainer"),  # NEW
    ("ltx_lora.yaml", LTX_NAME_ONLY, "LTX-Video-Trainer"),  # NEW
    ("blip2.yaml", LAVIS_BLIP2, "Salesforce LAVIS"),  # NEW
    ("endpoint.yaml", LIGHTEVAL_ENDPOINT, "lighteval (a model config for an evaluation, not training)"),  # NEW
    ("vits14.yaml", DINOV2_SMALL, "Meta DINOv2"),  # NEW
    ("v1-finetune.yaml", LDM_TEXTUAL_INVERSION, "a latent-diffusion model config"),  # NEW
    ("cldm_v21.yaml", CLDM_SD21, "a latent-diffusion model config"),  # NEW
    ("sd_xl_refiner.yaml", SGM_REFINER, "generative-models"),  # NEW
])
def test_round32u_frameworks_are_named(tmp_path, name, text, words):
    assert words in _named(tmp_path, name, text)


@pytest.mark.parametrize("name, text, words", [
    # HALOs' layout under torchrun, and a module run with a `+key` append and a `~key` delete
    ("kto.sh", "torchrun --nproc_per_node 8 launch.py loss=kto model=mistral ++lr=1e-6 ++model.batch_size=16\n",
     "a Hydra app"),  # NEW
    ("mod.sh", "python -m mylab.train experiment=base +trainer.max_steps=100 ~callbacks.early_stop\n",
     "a Hydra app"),  # NEW
    # an evaluation after the training launch: the launch names the file
    ("dpo.sh", "deepspeed my_repo/finetune.py --model_name_or_path m --lora_r 64 --quant_bits 4\n"
               "lm_eval --model hf --model_args pretrained=./out --tasks arc_easy --batch_size 4\n", "runs finetune.py"),  # NEW
    ("mm.sh", "accelerate launch train_vlm.py --vision_tower siglip --my_opt 1\n"
              "accelerate launch -m lmms_eval --model llava --tasks mme --batch_size 1\n", "runs train_vlm.py"),  # NEW
    # a launched evaluation names its module, not its launcher
    ("lm.sh", "accelerate launch -m lm_eval --model hf --model_args pretrained=m,dtype=bfloat16 --tasks mmlu\n",
     "(lm_eval --model)"),  # NEW
])
def test_command_lines_name_the_training_program(tmp_path, name, text, words):
    assert words in _named(tmp_path, name, text)


# --- near misses ------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("name, text, not_words", [
    # a solver: section without the xformers key (a detectron2-style solver) is no AnimateAnyone config
    ("solver.yaml", "solver:\n  max_train_steps: 1000\n  mixed_precision: fp16\n  base_lr: 0.01\nweight_dtype: fp16\n",
     "Moore-AnimateAnyone"),
    # model.arch without run.task (a timm-like model file) is not LAVIS
    ("arch.yaml", "model:\n  arch: resnet50\n  pretrained: true\ntrain:\n  epochs: 90\n", "LAVIS"),
    # an acceleration: section of some other tool, without LTX's own keys or an LTXV checkpoint
    ("accel.yaml", "model:\n  model_source: runwayml/stable-diffusion-v1-5\nacceleration:\n  amp: true\n",
     "LTX-Video-Trainer"),
    # a dino: head alone (no ibot:, no compute_precision:) is not named DINOv2
    ("dino.yaml", "dino:\n  loss_weight: 1.0\ntrain:\n  batch_size_per_gpu: 8\n", "DINOv2"),
    # a model.target that is neither ldm / cldm nor sgm: no latent-diffusion title
    ("tgt.yaml", "model:\n  target: mylab.models.VAE\n  params:\n    a_config:\n      target: x.A\n"
                 "    b_config:\n      target: x.B\n", "latent-diffusion"),
    # an ldm config keeps its own title, not sgm's, although its *_config sections sit under model.params
    ("ldm.yaml", LDM_TEXTUAL_INVERSION.replace("personalization_config", "cond_stage_config"), "generative-models"),
])
def test_near_misses_are_not_named(tmp_path, name, text, not_words):
    assert not_words not in _named(tmp_path, name, text)


@pytest.mark.parametrize("name, text", [
    # plain key=value positionals: SkyRL's from_cli_overrides, OmegaConf.from_cli
    ("skyrl.sh", "uv run --isolated --extra fsdp -m examples.train.main_base trainer.epochs=20 "
                 "generator.backend=vllm data.train_data=\"['a.parquet']\"\n"),
    # a Hydra-looking override beside an argparse option: not every argument is Hydra's
    ("mixed.sh", "python train.py ++lr=1e-5 --output_dir out\n"),
])
def test_plain_overrides_are_not_hydra(tmp_path, name, text):
    assert "a Hydra app" not in _named(tmp_path, name, text)


def test_evaluation_alone_keeps_its_name(tmp_path):
    assert "lm-evaluation-harness" in _named(tmp_path, "e.sh", "lm_eval --model hf --model_args pretrained=gpt2 "
                                                               "--tasks hellaswag\n")
    assert "lmms-eval" in _named(tmp_path, "m.sh", "python3 -m lmms_eval --model llava --tasks mmmu_val\n")


def test_claimed_launch_with_an_evaluation_after_is_still_read(tmp_path):
    # diffusers' example launched, then an evaluation: the example is read, the evaluation changes nothing
    text = ("accelerate launch --mixed_precision=bf16 train_dreambooth_lora.py --pretrained_model_name_or_path=m "
            "--instance_data_dir=d --instance_prompt=\"a sks dog\" --output_dir=o --train_batch_size=1\n"
            "lm_eval --model hf --model_args pretrained=gpt2 --tasks hellaswag\n")
    got = _read(tmp_path, "db.sh", text)
    assert got[0] == "diffusers"
    # an axolotl YAML carrying a `solver:` or `run:` key stays axolotl's
    ax = ("base_model: NousResearch/Llama-3.2-1B\ndatasets:\n  - path: tatsu-lab/alpaca\n    type: alpaca\n"
          "sequence_len: 2048\nmicro_batch_size: 2\nflash_attention: true\nbf16: auto\n"
          "run:\n  task: sft\nmodel:\n  arch: llama\n")
    assert _read(tmp_path, "ax.yaml", ax)[0] == "axolotl"


@pytest.mark.parametrize("rel, trainer", [
    ("round32u/diffusers/Kwai-Kolors__Kolors__dreambooth__train.sh", "diffusers"),
])
def test_real_claimed_files_keep_their_reading(rel, trainer):
    assert configs.load(str(FIX / rel))["trainer"] == trainer


# --- `uv run -m MODULE` is `python -m MODULE` (uv's CLI reference: --module) -----------------------------------------

@pytest.mark.parametrize("name, text, words", [
    ("skyrl_main.sh", "uv run --isolated --extra vllm -m skyrl_train.entrypoints.main_base trainer.epochs=1 "
                      "generator.backend=vllm\n", "NovaSky SkyRL"),  # NEW
    ("skyrl_example.sh", "uv run --isolated --extra fsdp -m examples.train.gsm8k.main_gsm8k "
                         "trainer.policy.model.path=Qwen/Qwen2.5-1.5B generator.n_samples_per_prompt=5 \"$@\"\n",
     "NovaSky SkyRL"),  # NEW
    ("uvm.sh", "uv run --extra gpu --module mypkg.train_lm --lr 1e-4 --epochs 3\n", "runs mypkg.train_lm"),  # NEW
])
def test_uv_run_module(tmp_path, name, text, words):
    assert words in _named(tmp_path, name, text)


def test_uv_run_near_misses(tmp_path):
    # trainer.* overrides without generator.* (verl's main_ppo takes trainer.* too) stay verl's
    verl = ("uv run -m verl.trainer.main_ppo data.train_files=a.parquet actor_rollout_ref.model.path=m "
            "trainer.n_gpus_per_node=8\n")
    assert "verl" in _named(tmp_path, "verl.sh", verl) and "SkyRL" not in _named(tmp_path, "verl.sh", verl)
    # a claimed example under `uv run` (no -m) keeps its reading
    db = ("uv run accelerate launch --mixed_precision=fp16 train_dreambooth_lora.py --pretrained_model_name_or_path=m "
          "--instance_data_dir=d --instance_prompt=\"a sks dog\" --output_dir=o\n")
    assert _read(tmp_path, "db.sh", db)[:1] == ("diffusers",)
