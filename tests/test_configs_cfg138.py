"""Helper cfg138 (session 35, issue 24): what reading round 138 (and round 135m's refusals in other words) found, each
mechanism with variants of our own, none of them a file of a set.

1. A script that calls Unsloth's loader classes (`FastLanguageModel.get_peft_model`, `FastModel.from_pretrained` ...)
   with the import in the project's own module (`from mypkg.config import *`, a wrapper class whose file imports
   Unsloth) was read as transformers / TRL (its SFTTrainer): the run is Unsloth's, as with the import in the script
   (hf_transformers.unsloth_unimported). A class of that name the script defines (a stub), one imported from another
   library (mlx-tune) or called on another module (`mt.FastLanguageModel`), or a docstring's example, is not Unsloth's.
2. A trlX config (CarperAI/trlx trlx/data/configs.py TRLConfig: model / tokenizer / method / train sections) was refused
   as "settings several trainers share (model)": ModelConfig's own keys (num_layers_unfrozen, model_arch_type,
   delta_kwargs) beside tokenizer.tokenizer_path, a PPO / ILQL method field or train.pipeline / trainer name trlx
   (others.trlx); a `model:` section alone does not.
3. A DiffSynth-Studio launch given its model files by --model_paths (no --model_id_with_origin_paths) was refused as
   "runs train.py, a training script none of the trainers ships": two of DiffSynth-Studio's own options
   (--lora_base_model, --remove_prefix_in_ckpt, --extra_inputs, --dataset_metadata_path, --data_file_keys ...) or its
   trainer's path examples/<model>/model_training/train.py name DiffSynth-Studio (round 135m); one alone does not.
4. A staged pipeline of a project's own scripts (a CSV step, then `pipeline.py --build_dataset`, then
   `pipeline.py --train`) was refused as running its first step: the step its own switch says trains (--train,
   --do_train, --mode train) is the job (round 135m's run.sh); `--train false`, or no switch at all, keeps the first."""

from __future__ import annotations

import json

from configs_corpus import read, refusal
from each_case import each

_UNSLOTH_BODY = """from trl import SFTTrainer, SFTConfig
{imports}

def train(dataset):
{load}
    model = {cls}.{method}(model, r=16, lora_alpha=16, use_gradient_checkpointing="unsloth")
    trainer = SFTTrainer(model=model, tokenizer=tokenizer, train_dataset=dataset,
                         args=SFTConfig(per_device_train_batch_size=2, {prec}output_dir="out"))
    trainer.train()
"""
_IMPORTS = ["from myproj.config import *", "from .settings import *\nfrom .wrapper import load_model",
            "import os\nfrom lora_pkg.model import Wrapper"]
_LOADS = ["    model, tokenizer = load_model(MODEL_NAME)", "    w = Wrapper(MODEL_NAME); model, tokenizer = w.model, w.tok"]


def test_unsloth_loader_imported_by_the_projects_own_module_is_unsloth(tmp_path):
    def check(imports, load, cls, method, prec, dtype):
        text = _UNSLOTH_BODY.format(imports=imports, load=load, cls=cls, method=method, prec=prec)
        got = read(tmp_path, "train_lora.py", text)
        assert got[0] == "unsloth" and got[1] == [] and got[2] == dtype, got

    cases = []
    for i, imports in enumerate(_IMPORTS):
        for j, load in enumerate(_LOADS):
            for cls, method in (("FastLanguageModel", "get_peft_model"), ("FastModel", "get_peft_model"),
                                ("FastVisionModel", "get_peft_model"), ("FastLanguageModel", "for_training")):
                cases.append((f"{i}/{j} {cls}.{method}", (imports, load, cls, method, "", "")))
        cases.append((f"{i} bf16", (imports, _LOADS[0], "FastLanguageModel", "get_peft_model", "bf16=True, ",
                                    "bfloat16")))
    each(cases, check)


def test_a_fast_model_of_another_library_or_a_stub_is_not_unsloth(tmp_path):
    def check(text):
        try:
            got = read(tmp_path, "train_lora.py", text)
        except Exception:  # noqa: BLE001 - a refusal is not Unsloth either
            return
        assert got[0] != "unsloth", got

    body = _UNSLOTH_BODY.format(imports="{imp}", load=_LOADS[0], cls="FastLanguageModel", method="get_peft_model",
                                prec="")
    stub = "class FastLanguageModel:\n    @staticmethod\n    def get_peft_model(m, **kw):\n        return m\n"
    cases = [("mlx-tune import", (body.replace("{imp}", "from mlx_tune import FastLanguageModel"),)),
             ("other lib import", (body.replace("{imp}", "from my_shim.models import FastLanguageModel"),)),
             ("stub class", (body.replace("{imp}", "from transformers import AutoModelForCausalLM\n" + stub),)),
             ("module attribute", (body.replace("{imp}", "import mlx_tune as mt").replace(
                 "model = FastLanguageModel.", "model = mt.FastLanguageModel."),)),
             ("parenthesised import", (body.replace("{imp}", "from my_shim.models import (\n    FastLanguageModel,\n)"),)),
             ("docstring example", ('"""Like Unsloth\'s FastLanguageModel.from_pretrained(name), but plain."""\n'
                                    "from transformers import AutoModelForCausalLM, Trainer, TrainingArguments\n"
                                    "model = AutoModelForCausalLM.from_pretrained('gpt2')\n"
                                    "Trainer(model=model, args=TrainingArguments(output_dir='o')).train()\n",))]
    each(cases, check)


_TRLX = {"model": {"model_path": "EleutherAI/pythia-1.4b", "num_layers_unfrozen": 2},
         "tokenizer": {"tokenizer_path": "EleutherAI/pythia-1.4b", "truncation_side": "right"},
         "method": {"name": "PPOConfig", "num_rollouts": 128, "chunk_size": 16, "ppo_epochs": 4, "init_kl_coef": 0.05},
         "train": {"seq_length": 512, "batch_size": 8, "pipeline": "PromptPipeline",
                   "trainer": "AcceleratePPOTrainer", "checkpoint_interval": 1000},
         "optimizer": {"name": "adamw", "kwargs": {"lr": 1.0e-5}}}


def _dump(fmt: str, d: dict) -> str:
    if fmt == "json":
        return json.dumps(d, indent=2)
    import yaml

    return yaml.safe_dump(d)


def test_a_trlx_config_is_refused_as_trlx(tmp_path):
    def check(fmt, d, named):
        msg = refusal(tmp_path, f"ppo_config.{fmt}", _dump(fmt, d))
        assert ("trlx" in msg) == named, (d, msg)

    def part(**sections):
        return {k: {kk: _TRLX[k][kk] for kk in v} for k, v in sections.items()}

    cases = []
    for fmt in ("yaml", "json"):
        cases.append((f"{fmt} whole", (fmt, _TRLX, True)))
        cases.append((f"{fmt} model+tokenizer", (fmt, part(model=["model_path", "num_layers_unfrozen"],
                                                            tokenizer=["tokenizer_path"]), True)))
        cases.append((f"{fmt} model+method", (fmt, part(model=["num_layers_unfrozen"], method=["chunk_size"]), True)))
        cases.append((f"{fmt} delta+train", (fmt, {"model": {"model_path": "gpt2", "delta_kwargs": {"delta_type": "lora"}},
                                                   "train": {"pipeline": "PromptPipeline", "batch_size": 4}}, True)))
        # near misses: a model section alone, trlx-like names outside their sections
        cases.append((f"{fmt} model only", (fmt, part(model=["model_path", "num_layers_unfrozen"]), False)))
        cases.append((f"{fmt} flat names", (fmt, {"num_layers_unfrozen": 2, "tokenizer_path": "gpt2",
                                                  "chunk_size": 8}, False)))
    each(cases, check)


_DIFFSYNTH = """MODEL_ROOT=${{MODEL_ROOT:-/models/wan}}
accelerate launch --mixed_precision bf16 {script} \\
  --dataset_base_path data/clips \\
  --model_paths '["{{MODEL_ROOT}}/dit.safetensors"]' \\
  --learning_rate 1e-4 \\
  {opts}--output_path ./out/lora \\
  --lora_rank 32
"""


def test_a_diffsynth_studio_launch_names_diffsynth_studio(tmp_path):
    def check(script, opts, named):
        msg = refusal(tmp_path, "train_lora.sh", _DIFFSYNTH.format(script=script, opts=opts))
        assert ("DiffSynth-Studio" in msg) == named, msg

    two = ["--lora_base_model dit \\\n  --remove_prefix_in_ckpt pipe.dit. \\\n  ",
           "--extra_inputs input_image \\\n  --dataset_metadata_path data/meta.csv \\\n  ",
           "--trainable_models dit \\\n  --data_file_keys video \\\n  "]
    cases = []
    for i, opts in enumerate(two):
        cases.append((f"own train.py, two options {i}", ("train.py", opts, True)))
    for model in ("wanvideo", "qwen_image", "flux"):
        cases.append((f"{model} path, no option", (f"examples/{model}/model_training/train.py", "", True)))
    # near misses: one of its options alone, or a model_training path of another layout
    cases.append(("one option", ("train.py", "--lora_base_model dit \\\n  ", False)))
    cases.append(("other path", ("src/model_training/train.py", "", False)))
    each(cases, check)


_PIPELINE = """#!/bin/bash
STAGE=${{STAGE:-1}}
if [ $STAGE -le 1 ]; then
  python3 dataset_to_csv.py --root ./data --out ./out/map.csv
fi
if [ $STAGE -le 2 ]; then
  python3 {script} --build_dataset --csv ./out/map.csv --out ./out/train.jsonl
fi
if [ $STAGE -le 3 ]; then
  python3 {script} {switch} --jsonl ./out/train.jsonl --base_model unsloth/llama-3-8b-bnb-4bit --max_steps 500
fi
"""


def test_a_staged_pipeline_is_refused_as_running_its_training_step(tmp_path):
    def check(script, switch, words):
        msg = refusal(tmp_path, "run.sh", _PIPELINE.format(script=script, switch=switch))
        assert f"runs {words}," in msg, msg

    cases = []
    for script in ("speech_pipeline.py", "motion_lm.py"):
        for switch in ("--train", "--do_train", "--mode train", "--mode=train", "--train true"):
            cases.append((f"{script} {switch}", (script, switch, script)))
        # near misses: the switch says no, or there is none: the first step with options, as before
        cases.append((f"{script} --train false", (script, "--train false", "dataset_to_csv.py")))
        cases.append((f"{script} no switch", (script, "--run", "dataset_to_csv.py")))
    each(cases, check)
