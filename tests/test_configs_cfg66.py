"""The refusals the honest corpus check (helper cfg66: the words asked of a refusal are the message's, with the refused
file's own path taken out) showed naming the label only through the file's folder, read on variants written here, and
the neighbours that must keep their reading:

- a detectron2 (fvcore / yacs CfgNode) YAML: capital MODEL / SOLVER / DATASETS / INPUT sections with `_BASE_` and
  detectron2's own names (MODEL.META_ARCHITECTURE, ROI_HEADS, RESNETS, SOLVER.IMS_PER_BATCH) or model-zoo weights
  `detectron2://...` (round 19's XDynames mask_rcnn_barley.yaml);
- a Python script importing detectron2 (round 19's dorbodwolf tools/1_train.py, detectron2's plain_train_net.py);
- verl's FSDP SFT trainer config layered by Hydra (`defaults: [sft_trainer, _self_]`): model.partial_pretrain beside
  ulysses_sequence_parallel_size / use_remove_padding (round 9's dmitrievaaxx sft_config.yaml);
- (a refusal naming the wrong framework, found by the same survey in round 12u, whose test checks no words) EasyR1's
  launcher `-m verl.trainer.main config=FILE worker.*=...`: EasyR1 keeps verl's package name, so it was refused as
  verl."""

from __future__ import annotations

import pytest

from configs_corpus import refusal

SUPPORTED = "(it reads"

D2_YAML = """_BASE_: "../Base-RCNN-C4.yaml"
MODEL:
  {weights}
  META_ARCHITECTURE: "GeneralizedRCNN"
  ROI_HEADS:
    NUM_CLASSES: 5
DATASETS:
  TRAIN: ("my_train",)
  TEST: ("my_val",)
SOLVER:
  IMS_PER_BATCH: 8
  BASE_LR: 0.01
"""


@pytest.mark.parametrize("weights", ['WEIGHTS: "detectron2://ImageNetPretrained/MSRA/R-101.pkl"',
                                     'WEIGHTS: "/data/models/model_final.pth"', "MASK_ON: False"])
def test_a_detectron2_yaml_is_refused_naming_detectron2(tmp_path, weights):
    msg = refusal(tmp_path, "faster_rcnn_R_101_C4.yaml", D2_YAML.format(weights=weights))
    assert "looks like detectron2" in msg.split(SUPPORTED)[0], msg


def test_model_zoo_weights_alone_name_detectron2(tmp_path):
    text = "MODEL:\n  WEIGHTS: detectron2://COCO-Detection/faster_rcnn_R_50_FPN_3x/137849458/model_final_280758.pkl\n" \
           "INPUT:\n  MIN_SIZE_TRAIN: (640, 672, 704)\n"
    assert "looks like detectron2" in refusal(tmp_path, "cfg.yaml", text).split(SUPPORTED)[0]


@pytest.mark.parametrize("text", [
    # capital sections of another yacs project with no _BASE_ and no model-zoo weights (maskrcnn-benchmark's layout)
    "MODEL:\n  META_ARCHITECTURE: GeneralizedRCNN\n  WEIGHTS: catalog://ImageNetPretrained/MSRA/R-50\nSOLVER:\n"
    "  IMS_PER_BATCH: 4\n",
    # _BASE_ of a config that says nothing of detectron2's model
    "_BASE_: base.yaml\nMODEL:\n  NAME: resnet\nTRAIN:\n  EPOCHS: 3\n",
])
def test_other_capital_configs_are_not_called_detectron2(tmp_path, text):
    assert "detectron2" not in refusal(tmp_path, "config.yaml", text)


@pytest.mark.parametrize("line", ["from detectron2.engine import DefaultTrainer, default_setup",
                                  "import detectron2.utils.comm as comm", "from detectron2 import model_zoo"])
def test_a_script_importing_detectron2_is_refused_naming_it(tmp_path, line):
    text = f"import torch\n{line}\n\ndef main():\n    cfg = None\n    print(cfg)\n\nif __name__ == '__main__':\n" \
           "    main()\n"
    msg = refusal(tmp_path, "train_det.py", text)
    assert "detectron2" in msg.split(SUPPORTED)[0], msg


def test_a_script_importing_a_detectron2_named_module_of_its_own_is_not_detectron2(tmp_path):
    text = "import detectron2_utils\nfrom mydetectron2.train import run\nrun()\n"
    assert "detectron2" not in refusal(tmp_path, "train_det.py", text).split(SUPPORTED)[0]


VERL_SFT = """defaults:
  - sft_trainer
  - _self_
data:
  train_files: /data/train.parquet
  micro_batch_size_per_gpu: 4
model:
  partial_pretrain: {model}
  strategy: fsdp2
{extra}
trainer:
  total_epochs: 2
"""


@pytest.mark.parametrize("extra", ["ulysses_sequence_parallel_size: 2", "use_remove_padding: false",
                                   "ulysses_sequence_parallel_size: 1\nuse_remove_padding: true"])
@pytest.mark.parametrize("model", ["Qwen/Qwen3-4B", "/models/llama-3.1-8b"])
def test_verls_sft_trainer_config_is_refused_as_verl(tmp_path, extra, model):
    msg = refusal(tmp_path, "sft_override.yaml", VERL_SFT.format(model=model, extra=extra))
    assert "looks like verl" in msg.split(SUPPORTED)[0], msg


def test_a_hydra_file_with_a_model_partial_pretrain_alone_stays_a_hydra_config(tmp_path):
    msg = refusal(tmp_path, "sft_override.yaml", VERL_SFT.format(model="Qwen/Qwen3-4B", extra="seed: 1"))
    assert "verl" not in msg.split(SUPPORTED)[0] and "Hydra" in msg, msg


# EasyR1 keeps verl's package name; its launcher is `-m verl.trainer.main` with OmegaConf's `config=FILE` and its own
# `worker.` section (hiyouga/EasyR1 examples/*.sh; round 12u's launchers, refused as verl before cfg66)
@pytest.mark.parametrize("args", ["config=examples/config.yaml worker.actor.model.model_path=${MODEL_PATH}",
                                  "config=${CONFIG_FILE} data.rollout_batch_size=4",
                                  "trainer.n_gpus_per_node=8 worker.rollout.n=20 data.max_prompt_length=2048"])
@pytest.mark.parametrize("launch", ["python3 -m", "python -m", "torchrun --nproc_per_node 4 -m"])
def test_an_easyr1_launcher_is_named_easyr1_not_verl(tmp_path, args, launch):
    text = f"#!/bin/bash\nset -x\nMODEL_PATH=Qwen/Qwen2.5-VL-3B-Instruct\n\n{launch} verl.trainer.main \\\n    " + \
           " \\\n    ".join(args.split()) + "\n"
    msg = refusal(tmp_path, "run_grpo.sh", text)
    assert "looks like EasyR1" in msg.split(SUPPORTED)[0], msg


@pytest.mark.parametrize("line", [
    "python3 -m verl.trainer.main_ppo data.train_files=$HOME/data/gsm8k/train.parquet "
    "actor_rollout_ref.model.path=Qwen/Qwen2.5-0.5B-Instruct",
    "python3 -m verl.trainer.main trainer.total_epochs=1",  # verl's name with no EasyR1 override: verl
])
def test_verls_own_launchers_stay_verl(tmp_path, line):
    msg = refusal(tmp_path, "run_ppo.sh", f"set -x\n{line}\n")
    assert "looks like verl" in msg.split(SUPPORTED)[0], msg
