"""Issue 24, helper cfg83 (session 20): every documented way an LLM trainer's settings are written in a Python script.

Each case is a small synthetic script (written by cfg83 in tmp_path) spelling the attention implementation, the compute
dtype or torch.compile one way the trainers' own source, examples and notebooks write them, with the reading the
trainer's semantics give. Sources (snapshots fetched 2026-11-30): huggingface/trl@f2cd577 (trl/scripts/sft.py,
examples/scripts/*.py, trl/scripts/utils.py TrlParser, trl/trainer/base_config.py, model_config.py),
unslothai/unsloth@015bdef (unsloth/models/loader.py, llama.py, vision.py, rl.py), unslothai/notebooks@bdda2ef
(python_scripts/*.py, the notebooks as scripts), transformers' TrainingArguments / HfArgumentParser / from_pretrained
(src/transformers/training_args.py, hf_argparser.py, modeling_utils.py). The table of ways, with the source line of
each and whether it was read right before cfg83, is in fixtures/configs/real/SEMANTICS-llm-scripts.md.

Conventions (fixtures/configs/real/README.md): required lists the backends training calls (transformers' default,
eager and a Hub kernel require nothing); dtype is the dtype attention runs in (autocast's when the trainer autocasts),
"" when the GPU or the checkpoint decides; compile "none" when nothing is compiled. A value the script leaves to the GPU
(`bf16=is_bfloat16_supported()`) reads "", never a guess. A user's own loop stays refused."""

from __future__ import annotations

import pytest

from attn_doctor import configs
from attn_doctor.model import UsageError

HF = "import torch\nfrom transformers import AutoModelForCausalLM, TrainingArguments, Trainer\n"
RUN = "trainer = Trainer(model=model, args=args, train_dataset=ds)\ntrainer.train()\n"
M = '"Qwen/Qwen2.5-0.5B"'


def hf(load: str = "", args: str = "", pre: str = "", after: str = "") -> str:
    """A transformers Trainer script: from_pretrained(M, <load>), <after>, TrainingArguments(output_dir, <args>)."""
    return (HF + pre + f"model = AutoModelForCausalLM.from_pretrained({M}{', ' + load if load else ''})\n" + after +
            f'args = TrainingArguments(output_dir="out"{", " + args if args else ""})\n' + RUN)


def trl(cfg: str, load: str, args: str) -> str:
    """A TRL script: from_pretrained(M, <load>), <cfg>Config(output_dir, <args>), <cfg>Trainer."""
    return (f"import torch\nfrom transformers import AutoModelForCausalLM\nfrom trl import {cfg}Config, {cfg}Trainer\n"
            f"model = AutoModelForCausalLM.from_pretrained({M}, {load})\n"
            f'args = {cfg}Config(output_dir="out", {args})\n'
            f"trainer = {cfg}Trainer(model=model, args=args, train_dataset=ds)\ntrainer.train()\n")


UNSLOTH = "from unsloth import FastLanguageModel, is_bfloat16_supported\nimport torch\nfrom trl import SFTTrainer, SFTConfig\n"


def us(load: str, cfg: str, pre: str = "", loader: str = "FastLanguageModel", head: str = UNSLOTH,
       trainer: str = "SFTTrainer", args: str = "SFTConfig") -> str:
    """An Unsloth notebook as a script (unslothai/notebooks python_scripts/*.py: the Alpaca / Conversational shape)."""
    return (head + pre + f'model, tokenizer = {loader}.from_pretrained(\n    model_name = "unsloth/Llama-3.2-1B-Instruct",\n'
            f"    max_seq_length = 2048,\n    {load}\n)\n"
            f'model = {loader}.get_peft_model(model, r = 16, use_gradient_checkpointing = "unsloth")\n'
            f"trainer = {trainer}(\n    model = model,\n    tokenizer = tokenizer,\n    train_dataset = dataset,\n"
            f"    args = {args}(\n        per_device_train_batch_size = 2,\n        {cfg}\n"
            f'        output_dir = "outputs",\n    ),\n)\ntrainer_stats = trainer.train()\n')


TRL_SCRIPT = '''from trl import ModelConfig, ScriptArguments, SFTConfig, SFTTrainer, TrlParser


def main(script_args, training_args, model_args):
    training_args.model_init_kwargs = dict(
        revision=model_args.model_revision,
        attn_implementation=model_args.attn_implementation,
        dtype=model_args.dtype,
    )
    trainer = SFTTrainer(model=model_args.model_name_or_path, args=training_args, train_dataset=ds)
    trainer.train()


if __name__ == "__main__":
    parser = TrlParser((ScriptArguments, SFTConfig, ModelConfig))
    script_args, training_args, model_args = parser.parse_args_and_config()
    main(script_args, training_args, model_args)
'''

TRL_SCRIPT_MODEL = '''from transformers import AutoModelForCausalLM
from trl import ModelConfig, ScriptArguments, SFTConfig, SFTTrainer, TrlParser

parser = TrlParser(dataclass_types=[ScriptArguments, SFTConfig, ModelConfig])
script_args, training_args, model_args = parser.parse_args_and_config()
model = AutoModelForCausalLM.from_pretrained(model_args.model_name_or_path,
                                             attn_implementation=model_args.attn_implementation, dtype=model_args.dtype)
trainer = SFTTrainer(model=model, args=training_args, train_dataset=ds)
trainer.train()
'''

HF_PARSER = '''import torch
from dataclasses import dataclass
from transformers import AutoModelForCausalLM, HfArgumentParser, TrainingArguments, Trainer


@dataclass
class ModelArguments:
    model_name_or_path: str = None
    attn_implementation: str = None
    torch_dtype: str = None


parser = HfArgumentParser((ModelArguments, TrainingArguments))
model_args, args = parser.{how}
model = AutoModelForCausalLM.from_pretrained(model_args.model_name_or_path,
                                             attn_implementation=model_args.attn_implementation,
                                             torch_dtype=model_args.torch_dtype)
''' + RUN

# (id, {file: text}, the file read, (trainer, required, dtype, compile)). The first file is the one read unless named.
WAYS = [
    # ---- attention, transformers' from_pretrained (modeling_utils.py from_pretrained attn_implementation=; the names
    # transformers knows: eager, sdpa, flash_attention_2/3, flex_attention, paged|X, a Hub kernel org/repo)
    ("attn-fa2", {"t.py": hf('attn_implementation="flash_attention_2", torch_dtype=torch.bfloat16', "bf16=True")},
     ("transformers", ["fa2"], "bfloat16", "none")),
    ("attn-sdpa", {"t.py": hf('attn_implementation="sdpa", torch_dtype=torch.bfloat16', "bf16=True")},
     ("transformers", ["sdpa"], "bfloat16", "none")),
    ("attn-flex", {"t.py": hf('attn_implementation="flex_attention", dtype=torch.bfloat16', "bf16=True")},
     ("transformers", ["flex"], "bfloat16", "none")),
    ("attn-fa3", {"t.py": hf('attn_implementation="flash_attention_3", dtype=torch.bfloat16', "bf16=True")},
     ("transformers", ["fa3"], "bfloat16", "none")),
    ("attn-hub-kernel", {"t.py": hf('attn_implementation="kernels-community/flash-attn", dtype="bfloat16"', "bf16=True")},
     ("transformers", [], "bfloat16", "none")),
    ("attn-eager", {"t.py": hf('attn_implementation="eager", torch_dtype=torch.float16', "fp16=True")},
     ("transformers", [], "float16", "none")),
    ("attn-paged", {"t.py": hf('attn_implementation="paged|flash_attention_2", dtype=torch.bfloat16', "bf16=True")},
     ("transformers", ["fa2"], "bfloat16", "none")),
    ("attn-constant", {"t.py": hf("attn_implementation=ATTN, torch_dtype=torch.bfloat16", "bf16=True",
                                  pre='ATTN = "flash_attention_2"\n')}, ("transformers", ["fa2"], "bfloat16", "none")),
    ("attn-kwargs-dict", {"t.py": hf("**model_kwargs", "bf16=True", pre='model_kwargs = dict(attn_implementation='
                                     '"flash_attention_2", torch_dtype=torch.bfloat16, use_cache=False)\n')},
     ("transformers", ["fa2"], "bfloat16", "none")),
    ("attn-kwargs-item-set", {"t.py": hf("**kw", "bf16=True", pre='kw = {"torch_dtype": torch.bfloat16}\n'
                                         'kw["attn_implementation"] = "sdpa"\n')},
     ("transformers", ["sdpa"], "bfloat16", "none")),
    ("attn-by-availability", {"t.py": hf('attn_implementation="flash_attention_2" if is_flash_attn_2_available() else '
                                         '"sdpa", torch_dtype=torch.bfloat16', "bf16=True",
                                         pre="from transformers.utils import is_flash_attn_2_available\n")},
     ("transformers", [], "bfloat16", "none")),  # the installed packages decide: nothing required for sure
    ("attn-config-attr", {"t.py": hf("torch_dtype=torch.bfloat16", "bf16=True",
                                     after='model.config._attn_implementation = "flash_attention_2"\n')},
     ("transformers", ["fa2"], "bfloat16", "none")),
    ("attn-set-method", {"t.py": hf("torch_dtype=torch.bfloat16", "bf16=True",
                                    after='model.set_attn_implementation("flex_attention")\n')},
     ("transformers", ["flex"], "bfloat16", "none")),
    ("attn-autoconfig", {"t.py": HF + "from transformers import AutoConfig\n"
                         f'config = AutoConfig.from_pretrained({M}, attn_implementation="flash_attention_2")\n'
                         f"model = AutoModelForCausalLM.from_pretrained({M}, config=config, torch_dtype=torch.bfloat16)\n"
                         'args = TrainingArguments(output_dir="out", bf16=True)\n' + RUN},
     ("transformers", ["fa2"], "bfloat16", "none")),
    ("attn-use-flash-attention-2", {"t.py": hf("use_flash_attention_2=True, torch_dtype=torch.float16", "fp16=True")},
     ("transformers", ["fa2"], "float16", "none")),
    # ---- attention, TRL: model_init_kwargs (trl/trainer/sft_config.py model_init_kwargs; the trainer loads a model
    # given by name with them), set in the call or, as TRL's own scripts do, on the config afterwards
    ("trl-model-init-kwargs", {"t.py": "from trl import SFTConfig, SFTTrainer\nargs = SFTConfig(output_dir=\"out\", "
                               "bf16=True, model_init_kwargs={\"attn_implementation\": \"flash_attention_2\", "
                               "\"dtype\": \"bfloat16\"})\ntrainer = SFTTrainer(model=\"Qwen/Qwen2.5-0.5B\", args=args, "
                               "train_dataset=ds)\ntrainer.train()\n"}, ("transformers", ["fa2"], "bfloat16", "none")),
    ("trl-model-init-kwargs-attr", {"t.py": "import torch\nfrom trl import SFTConfig, SFTTrainer\nargs = SFTConfig("
                                    "output_dir=\"out\", bf16=True)\nargs.model_init_kwargs = dict(attn_implementation="
                                    "\"flash_attention_2\", dtype=torch.bfloat16)\ntrainer = SFTTrainer(model="
                                    "\"Qwen/Qwen2.5-0.5B\", args=args, train_dataset=ds)\ntrainer.train()\n"},
     ("transformers", ["fa2"], "bfloat16", "none")),  # trl/scripts/sft.py:74-79, examples/scripts/gkd.py:72-84
    ("trl-modelconfig-object", {"t.py": "import torch\nfrom transformers import AutoModelForCausalLM\nfrom trl import "
                                "ModelConfig, SFTConfig, SFTTrainer\nmodel_args = ModelConfig(model_name_or_path="
                                f"{M}, attn_implementation=\"flash_attention_2\", dtype=\"bfloat16\")\nmodel = "
                                "AutoModelForCausalLM.from_pretrained(model_args.model_name_or_path, attn_implementation="
                                "model_args.attn_implementation, dtype=model_args.dtype)\ntrainer = SFTTrainer(model=model,"
                                " args=SFTConfig(output_dir=\"out\", bf16=True), train_dataset=ds)\ntrainer.train()\n"},
     ("transformers", ["fa2"], "bfloat16", "none")),
    # ---- TrlParser scripts (trl/scripts/utils.py:303-343; TRL's documented launch: trl/scripts/sft.py:17-58) run with
    # options, a --config YAML, or alone (ModelConfig's attn_implementation None: transformers' default; the `dtype=`
    # keyword dates the script to TRL >= 0.19, whose configs default bf16 to `not fp16`: base_config.py:104-105)
    ("trlparser-options", {"run.sh": "accelerate launch train.py --model_name_or_path Qwen/Qwen2-0.5B "
                           "--attn_implementation flash_attention_2 --dtype bfloat16 --output_dir out\n",
                           "train.py": TRL_SCRIPT}, ("transformers", ["fa2"], "bfloat16", "none")),
    ("trlparser-config-yaml", {"run.sh": "accelerate launch train.py --config sft.yaml --learning_rate 1e-5\n",
                               "train.py": TRL_SCRIPT, "sft.yaml": "model_name_or_path: Qwen/Qwen2-0.5B\n"
                               "attn_implementation: flex_attention\ndtype: bfloat16\ntorch_compile: true\n"
                               "output_dir: out\n"}, ("transformers", ["flex"], "bfloat16", "default")),
    ("trlparser-options-model-built", {"run.sh": "python train.py --model_name_or_path Qwen/Qwen3-0.6B "
                                       "--attn_implementation sdpa --dtype float16 --fp16 --packing --output_dir out\n",
                                       "train.py": TRL_SCRIPT_MODEL}, ("transformers", ["sdpa"], "float16", "none")),
    ("trlparser-own-config-subclass", {"run.sh": "python train.py --output_dir out --packing --max_length 2048 "
                                       "--torch_compile_mode max-autotune\n", "train.py": "from dataclasses import "
                                       "dataclass\nfrom trl import SFTConfig, SFTTrainer, TrlParser\n\n\n@dataclass\n"
                                       "class MyConfig(SFTConfig):\n    base_model: str = \"Qwen/Qwen3-0.6B\"\n\n\n"
                                       "parser = TrlParser(MyConfig)\n(args,) = parser.parse_args_and_config()\n"
                                       "args.model_init_kwargs = {\"attn_implementation\": \"flash_attention_2\", "
                                       "\"dtype\": \"bfloat16\"}\ntrainer = SFTTrainer(model=args.base_model, args=args, "
                                       "train_dataset=ds)\ntrainer.train()\n"},
     ("transformers", ["fa2"], "bfloat16", "max-autotune")),
    ("trlparser-alone", {"train.py": TRL_SCRIPT}, ("transformers", [], "bfloat16", "none")),
    ("trlparser-model-built-alone", {"train.py": TRL_SCRIPT_MODEL}, ("transformers", [], "bfloat16", "none")),
    # ---- HfArgumentParser filled from a file or a dict (transformers hf_argparser.py parse_yaml_file / parse_json_file /
    # parse_dict; transformers' examples: `parse_json_file(json_file=...)` of a JSON of TrainingArguments fields)
    ("hfparser-yaml", {"t.py": HF_PARSER.replace("{how}", 'parse_yaml_file(yaml_file="sft.yaml")'),
                       "sft.yaml": "model_name_or_path: Qwen/Qwen2.5-0.5B\nattn_implementation: flash_attention_2\n"
                       "torch_dtype: bfloat16\noutput_dir: out\nbf16: true\ntorch_compile: true\n"},
     ("transformers", ["fa2"], "bfloat16", "default")),
    ("hfparser-json", {"t.py": HF_PARSER.replace("{how}", 'parse_json_file("args.json")'),
                       "args.json": '{"model_name_or_path": "Qwen/Qwen2.5-0.5B", "attn_implementation": "sdpa", '
                       '"output_dir": "out", "fp16": true}'}, ("transformers", ["sdpa"], "float16", "none")),
    ("hfparser-dict", {"t.py": HF_PARSER.replace("{how}", 'parse_dict({"model_name_or_path": "Qwen/Qwen2.5-0.5B", '
                                                 '"attn_implementation": "flex_attention", "output_dir": "out", '
                                                 '"bf16": True, "torch_compile_mode": "max-autotune"})')},
     ("transformers", ["flex"], "bfloat16", "max-autotune")),
    ("hfparser-dataclass-defaults", {"t.py": HF_PARSER.replace("{how}", "parse_args_into_dataclasses()").replace(
        "attn_implementation: str = None", 'attn_implementation: str = "flash_attention_2"').replace(
        "torch_dtype: str = None", 'torch_dtype: str = "bfloat16"')}, ("transformers", ["fa2"], "bfloat16", "none")),
    # ---- dtype: TrainingArguments' bf16 / fp16 (autocast), from_pretrained's torch_dtype / dtype (the weights'), the GPU
    ("dtype-bf16", {"t.py": hf("", "bf16=True")}, ("transformers", [], "bfloat16", "none")),
    ("dtype-fp16", {"t.py": hf("", "fp16=True")}, ("transformers", [], "float16", "none")),
    ("dtype-gpu-decides", {"t.py": hf("", "bf16=torch.cuda.is_bf16_supported(), fp16=not torch.cuda.is_bf16_supported()")},
     ("transformers", [], "", "none")),
    ("dtype-gpu-variable", {"t.py": hf("", "bf16=use_bf16, fp16=not use_bf16",
                                       pre="use_bf16 = torch.cuda.is_available() and torch.cuda.is_bf16_supported()\n")},
     ("transformers", [], "", "none")),
    ("dtype-capability", {"t.py": hf("", "fp16=not ok, bf16=ok",
                                     pre="ok = torch.cuda.get_device_capability()[0] >= 8\n")}, ("transformers", [], "", "none")),
    ("dtype-weights", {"t.py": hf("torch_dtype=torch.bfloat16")}, ("transformers", [], "bfloat16", "none")),
    ("dtype-weights-string", {"t.py": hf('dtype="float16"')}, ("transformers", [], "float16", "none")),
    ("dtype-auto", {"t.py": hf('torch_dtype="auto"')}, ("transformers", [], "", "none")),
    ("dtype-weights-by-gpu", {"t.py": hf("torch_dtype=dt", pre="dt = torch.bfloat16 if torch.cuda.is_bf16_supported() "
                                         "else torch.float16\n")}, ("transformers", [], "", "none")),
    ("dtype-cast-half", {"t.py": hf("", "", after="model = model.half()\n")}, ("transformers", [], "float16", "none")),
    ("dtype-cast-to", {"t.py": hf("", "", after="model.to(torch.bfloat16)\n")}, ("transformers", [], "bfloat16", "none")),
    ("dtype-args-attr", {"t.py": hf("", "", after="").replace('args = TrainingArguments(output_dir="out")\n',
                                                              'args = TrainingArguments(output_dir="out")\n'
                                                              "args.fp16 = True\n")}, ("transformers", [], "float16", "none")),
    ("dtype-dataclasses-replace", {"t.py": hf("", "").replace('args = TrainingArguments(output_dir="out")\n',
                                                              'args = TrainingArguments(output_dir="out")\n'
                                                              "args = dataclasses.replace(args, bf16=True)\n").replace(
        "import torch\n", "import dataclasses, torch\n")}, ("transformers", [], "bfloat16", "none")),
    ("dtype-to-dict", {"t.py": "import torch\nfrom transformers import AutoModelForCausalLM, TrainingArguments\nfrom trl "
                       "import SFTConfig, SFTTrainer\nmodel = AutoModelForCausalLM.from_pretrained(\"Qwen/Qwen2.5-0.5B\", "
                       "dtype=torch.bfloat16)\nbase = TrainingArguments(output_dir=\"out\", bf16=True)\nargs = SFTConfig("
                       "**base.to_dict(), max_length=1024)\ntrainer = SFTTrainer(model=model, args=args)\ntrainer.train()\n"},
     ("transformers", [], "bfloat16", "none")),
    ("dtype-args-dict", {"t.py": HF + f"model = AutoModelForCausalLM.from_pretrained({M})\ncfg = dict(output_dir=\"out\", "
                         "bf16=True, torch_compile=True)\nargs = TrainingArguments(**cfg)\n" + RUN},
     ("transformers", [], "bfloat16", "default")),
    ("dtype-yaml-loaded", {"t.py": "import yaml, torch\nfrom transformers import AutoModelForCausalLM, TrainingArguments, "
                           "Trainer\nwith open(\"train.yaml\") as f:\n    cfg = yaml.safe_load(f)\nmodel = AutoModelForCausalLM"
                           ".from_pretrained(cfg[\"model\"][\"name\"], attn_implementation=cfg[\"model\"][\"attn\"])\n"
                           "args = TrainingArguments(**cfg[\"training\"])\n" + RUN,
                           "train.yaml": "model:\n  name: Qwen/Qwen2.5-0.5B\n  attn: sdpa\ntraining:\n  output_dir: out\n"
                           "  fp16: true\n  torch_compile_mode: reduce-overhead\n"},
     ("transformers", ["sdpa"], "float16", "reduce-overhead")),
    ("dtype-argparse-flag", {"t.py": "import argparse, torch\nfrom transformers import AutoModelForCausalLM, "
                             "TrainingArguments, Trainer\np = argparse.ArgumentParser()\np.add_argument(\"--fp16\", "
                             "action=\"store_true\")\na = p.parse_args()\nmodel = AutoModelForCausalLM.from_pretrained("
                             f"{M}, torch_dtype=torch.float32)\nargs = TrainingArguments(output_dir=\"out\", fp16=a.fp16)\n"
                             + RUN, "run.sh": "python t.py --fp16\n"}, ("transformers", [], "float16", "none"), "run.sh"),
    ("dtype-omegaconf-container", {"t.py": HF + "from omegaconf import OmegaConf\ncfg = OmegaConf.load(\"c.yaml\")\nmodel = "
                                   f"AutoModelForCausalLM.from_pretrained({M}, attn_implementation=cfg.model.attn)\nargs = "
                                   "TrainingArguments(**OmegaConf.to_container(cfg.train, resolve=True))\n" + RUN,
                                   "c.yaml": "train:\n  output_dir: out\n  bf16: true\n  torch_compile: true\nmodel:\n"
                                   "  attn: flash_attention_2\n"}, ("transformers", ["fa2"], "bfloat16", "default")),
    ("dtype-hydra", {"t.py": "import hydra, torch\nfrom transformers import AutoModelForCausalLM, TrainingArguments, Trainer\n"
                     "\n\n@hydra.main(config_path=\"conf\", config_name=\"config\", version_base=None)\ndef main(cfg):\n"
                     "    model = AutoModelForCausalLM.from_pretrained(cfg.model.name, attn_implementation=cfg.model.attn)\n"
                     "    trainer = Trainer(model=model, args=TrainingArguments(**cfg.training))\n    trainer.train()\n\n\n"
                     "if __name__ == \"__main__\":\n    main()\n",
                     "conf/config.yaml": "model:\n  name: Qwen/Qwen2.5-0.5B\n  attn: sdpa\ntraining:\n  output_dir: out\n"
                     "  fp16: true\n"}, ("transformers", ["sdpa"], "float16", "none")),
    ("dtype-vars-namespace", {"t.py": "import argparse, torch\nfrom transformers import AutoModelForCausalLM\nfrom trl import "
                              "SFTConfig, SFTTrainer\np = argparse.ArgumentParser()\np.add_argument(\"--output_dir\", "
                              "default=\"out\")\np.add_argument(\"--bf16\", action=\"store_true\")\np.add_argument("
                              "\"--torch_compile\", action=\"store_true\")\na = p.parse_args()\nmodel = AutoModelForCausalLM"
                              f".from_pretrained({M}, torch_dtype=torch.float32)\ntrainer = SFTTrainer(model=model, args="
                              "SFTConfig(**vars(a)))\ntrainer.train()\n", "run.sh": "python t.py --bf16 --torch_compile\n"},
     ("transformers", [], "bfloat16", "default"), "run.sh"),
    ("dtype-run-clm-choice", {"t.py": HF_PARSER.replace("{how}", "parse_args_into_dataclasses()").replace(
        "torch_dtype=model_args.torch_dtype)", "torch_dtype=torch_dtype)").replace(
        "model = AutoModelForCausalLM", 'torch_dtype = (model_args.torch_dtype if model_args.torch_dtype in ["auto", None]'
        " else getattr(torch, model_args.torch_dtype))\nmodel = AutoModelForCausalLM"),
        "run.sh": "torchrun --nproc_per_node 8 t.py --model_name_or_path Qwen/Qwen2.5-0.5B --torch_dtype bfloat16 "
        "--attn_implementation flash_attention_2 --output_dir out\n"}, ("transformers", ["fa2"], "bfloat16", "none"), "run.sh"),
    # ---- TRL configs beyond SFT (every TRL config extends TrainingArguments: bf16 / fp16 / torch_compile as there)
    ("trl-grpo", {"t.py": trl("GRPO", "dtype=torch.bfloat16", "bf16=True")}, ("transformers", [], "bfloat16", "none")),
    ("trl-dpo-fp16", {"t.py": trl("DPO", "torch_dtype=torch.float16", "fp16=True")}, ("transformers", [], "float16", "none")),
    ("trl-cpo-compile", {"t.py": trl("CPO", "torch_dtype=torch.bfloat16", "bf16=True, torch_compile=True")},
     ("transformers", [], "bfloat16", "default")),
    ("trl-rloo-compile-mode", {"t.py": trl("RLOO", 'attn_implementation="sdpa", torch_dtype=torch.bfloat16',
                                           'bf16=True, torch_compile_mode="max-autotune"')},
     ("transformers", ["sdpa"], "bfloat16", "max-autotune")),
    ("trl-online-dpo-backend", {"t.py": trl("OnlineDPO", "torch_dtype=torch.bfloat16", 'bf16=True, '
                                            'torch_compile_backend="inductor"')}, ("transformers", [], "bfloat16", "default")),
    # ---- compile (TrainingArguments torch_compile / _mode / _backend: a mode or backend alone turns it on; a script's
    # torch.compile(model) is the module the Trainer runs)
    ("compile-flag", {"t.py": hf("", "bf16=True, torch_compile=True")}, ("transformers", [], "bfloat16", "default")),
    ("compile-mode", {"t.py": hf("", 'bf16=True, torch_compile_mode="max-autotune"')},
     ("transformers", [], "bfloat16", "max-autotune")),
    ("compile-backend", {"t.py": hf("", 'bf16=True, torch_compile_backend="inductor"')},
     ("transformers", [], "bfloat16", "default")),
    ("compile-torch", {"t.py": hf("", "bf16=True", after="model = torch.compile(model)\n")},
     ("transformers", [], "bfloat16", "default")),
    ("compile-off", {"t.py": hf("", "bf16=True, torch_compile=False")}, ("transformers", [], "bfloat16", "none")),
    # ---- how the arguments reach the trainer
    ("reach-positional", {"t.py": HF + f'model = AutoModelForCausalLM.from_pretrained({M}, attn_implementation="sdpa")\n'
                          'trainer = Trainer(model, TrainingArguments("out", bf16=True))\ntrainer.train()\n'},
     ("transformers", ["sdpa"], "bfloat16", "none")),
    ("reach-function", {"t.py": HF + 'def get_args():\n    return TrainingArguments(output_dir="out", fp16=True, '
                        'torch_compile=True)\n\n\ndef main():\n    model = AutoModelForCausalLM.from_pretrained('
                        f'{M}, attn_implementation="flash_attention_2", torch_dtype=torch.float16)\n    trainer = '
                        'Trainer(model=model, args=get_args())\n    trainer.train()\n\n\nif __name__ == "__main__":\n'
                        '    main()\n'}, ("transformers", ["fa2"], "float16", "default")),
    ("reach-module-attrs", {"t.py": "import torch, transformers\nmodel = transformers.AutoModelForCausalLM.from_pretrained("
                            f"{M}, attn_implementation=\"flash_attention_2\", torch_dtype=torch.bfloat16)\nargs = "
                            "transformers.TrainingArguments(output_dir=\"out\", bf16=True)\ntrainer = transformers.Trainer("
                            "model=model, args=args)\ntrainer.train()\n"}, ("transformers", ["fa2"], "bfloat16", "none")),
    # ---- Unsloth (notebooks' shape; loader.py:410-414 dtype None = the GPU's; llama.py:2651 FastLanguageModel drops
    # attn_implementation; vision.py:1130-1144 FastModel / FastVisionModel honour it; rl.py:2350-2435 bf16 / fp16)
    ("unsloth-notebook", {"t.py": us("dtype = dtype,\n    load_in_4bit = load_in_4bit,", "fp16 = not is_bfloat16_supported(),"
                                     "\n        bf16 = is_bfloat16_supported(),",
                                     pre="dtype = None # None for auto detection\nload_in_4bit = True\n")},
     ("unsloth", [], "", "none")),
    ("unsloth-cuda-probe", {"t.py": us("dtype = None,", "fp16 = not torch.cuda.is_bf16_supported(),\n"
                                       "        bf16 = torch.cuda.is_bf16_supported(),")}, ("unsloth", [], "", "none")),
    ("unsloth-bf16", {"t.py": us("dtype = torch.bfloat16,\n    load_in_4bit = True,", "bf16 = True,")},
     ("unsloth", [], "bfloat16", "none")),
    ("unsloth-t4-fp16", {"t.py": us("dtype = torch.float16,", "fp16 = True,")}, ("unsloth", [], "float16", "none")),
    ("unsloth-dropped-attn", {"t.py": us('dtype = torch.bfloat16,\n    attn_implementation = "flash_attention_2",',
                                         "bf16 = True,")}, ("unsloth", [], "bfloat16", "none")),
    ("unsloth-fastmodel-attn", {"t.py": us('dtype = None,\n    attn_implementation = "flash_attention_2",', "bf16 = True,",
                                           loader="FastModel", head="from unsloth import FastModel\nimport torch\n"
                                           "from trl import SFTTrainer, SFTConfig\n")}, ("unsloth", ["fa2"], "bfloat16", "none")),
    ("unsloth-trainer", {"t.py": us("dtype = torch.bfloat16,", "bf16 = True,\n        embedding_learning_rate = 5e-6,",
                                    head="from unsloth import FastLanguageModel, UnslothTrainer, UnslothTrainingArguments\n"
                                    "import torch\n", trainer="UnslothTrainer", args="UnslothTrainingArguments")},
     ("unsloth", [], "bfloat16", "none")),
    ("unsloth-grpo-gpu", {"t.py": us("load_in_4bit = True,\n    fast_inference = True,", "bf16 = is_bfloat16_supported(),\n"
                                     "        fp16 = not is_bfloat16_supported(),", trainer="GRPOTrainer",
                                     args="GRPOConfig", head="from unsloth import FastLanguageModel, is_bfloat16_supported"
                                     "\nimport torch\nfrom trl import GRPOConfig, GRPOTrainer\n")}, ("unsloth", [], "", "none")),
    ("unsloth-cpo-compile", {"t.py": us("dtype = torch.bfloat16,", "bf16 = True,\n        torch_compile = True,",
                                        trainer="CPOTrainer", args="CPOConfig", head="from unsloth import FastLanguageModel"
                                        "\nimport torch\nfrom trl import CPOConfig, CPOTrainer\n")},
     ("unsloth", [], "bfloat16", "default")),
    ("unsloth-dtype-by-gpu", {"t.py": UNSLOTH + "dtype = torch.bfloat16 if is_bfloat16_supported() else torch.float16\n"
                              'model, tokenizer = FastLanguageModel.from_pretrained("unsloth/Qwen3-4B", dtype=dtype)\n'
                              'trainer = SFTTrainer(model=model, args=SFTConfig(output_dir="out"))\ntrainer.train()\n'},
     ("unsloth", [], "", "none")),
    ("unsloth-patchfastrl-grpo", {"t.py": "from unsloth import FastLanguageModel, PatchFastRL\nPatchFastRL(\"GRPO\", "
                                  "FastLanguageModel)\nfrom unsloth import is_bfloat16_supported\nfrom trl import GRPOConfig, "
                                  "GRPOTrainer\nmodel, tokenizer = FastLanguageModel.from_pretrained(model_name = "
                                  "\"Qwen/Qwen2.5-3B-Instruct\", load_in_4bit = True, fast_inference = True)\nargs = GRPOConfig("
                                  "use_vllm = True, bf16 = is_bfloat16_supported(), fp16 = not is_bfloat16_supported(), "
                                  "output_dir = \"outputs\")\ntrainer = GRPOTrainer(model = model, reward_funcs = [r], args = "
                                  "args, train_dataset = dataset)\ntrainer.train()\n"}, ("unsloth", [], "", "none")),
    ("unsloth-args-attr", {"t.py": UNSLOTH + 'model, tokenizer = FastLanguageModel.from_pretrained("unsloth/Qwen3-4B", '
                           'dtype=None, load_in_4bit=True)\nargs = SFTConfig(output_dir="out")\nargs.bf16 = True\ntrainer '
                           "= SFTTrainer(model=model, tokenizer=tokenizer, train_dataset=ds, args=args)\ntrainer.train()\n"},
     ("unsloth", [], "bfloat16", "none")),
    ("unsloth-args-attr-gpu", {"t.py": UNSLOTH + 'model, tokenizer = FastLanguageModel.from_pretrained("unsloth/Qwen3-4B")\n'
                               'args = SFTConfig(output_dir="out", bf16=True)\nargs.bf16 = is_bfloat16_supported()\n'
                               "args.fp16 = not is_bfloat16_supported()\ntrainer = SFTTrainer(model=model, args=args)\n"
                               "trainer.train()\n"}, ("unsloth", [], "", "none")),
    ("unsloth-args-attr-gpu-bf16-weights", {"t.py": UNSLOTH + 'model, tokenizer = FastLanguageModel.from_pretrained('
                                           '"unsloth/Qwen3-4B", dtype=torch.bfloat16)\nargs = SFTConfig(output_dir="out")\n'
                                           "args.bf16 = is_bfloat16_supported()\ntrainer = SFTTrainer(model=model, args=args)"
                                           "\ntrainer.train()\n"}, ("unsloth", [], "bfloat16", "none")),
    ("unsloth-torch-compile", {"t.py": UNSLOTH + 'model, tokenizer = FastLanguageModel.from_pretrained("unsloth/Qwen3-4B", '
                               'dtype=torch.bfloat16)\nmodel = torch.compile(model, mode="reduce-overhead")\ntrainer = '
                               'SFTTrainer(model=model, args=SFTConfig(output_dir="out", bf16=True))\ntrainer.train()\n'},
     ("unsloth", [], "bfloat16", "reduce-overhead")),
    ("unsloth-yaml-loaded", {"t.py": "import yaml\nfrom unsloth import FastLanguageModel\nfrom trl import SFTTrainer, "
                             "SFTConfig\nwith open(\"config.yaml\") as f:\n    cfg = yaml.safe_load(f)\nmodel, tokenizer = "
                             "FastLanguageModel.from_pretrained(**cfg[\"model\"])\ntrainer = SFTTrainer(model=model, "
                             "train_dataset=ds, args=SFTConfig(**cfg[\"train\"]))\ntrainer.train()\n",
                             "config.yaml": "model:\n  model_name: unsloth/Qwen3-4B\n  dtype: bfloat16\ntrain:\n"
                             "  output_dir: out\n  bf16: true\n  torch_compile: true\n"},
     ("unsloth", [], "bfloat16", "default")),
    # ---- a TRL config built from a spread of a settings file that is not here: the spread may set bf16 / fp16 itself,
    # so TRL's `bf16 = not fp16` default is not the run's (dtype unknown, never a guess; the lead's review of cfg83); the
    # same script with the dict written out reads what it says
    ("trl-config-opaque-spread", {"t.py": "import yaml, torch\nfrom transformers import AutoModelForCausalLM\nfrom trl "
                                  "import SFTConfig, SFTTrainer\ncfg = yaml.safe_load(open(\"train.yaml\"))\nmodel = "
                                  f"AutoModelForCausalLM.from_pretrained({M}, dtype=\"auto\")\ntrainer = SFTTrainer("
                                  "model=model, args=SFTConfig(**cfg[\"train\"]))\ntrainer.train()\n"},
     ("transformers", [], "", "none")),
    ("trl-config-written-spread", {"t.py": "import torch\nfrom transformers import AutoModelForCausalLM\nfrom trl import "
                                   "SFTConfig, SFTTrainer\ntrain = {\"output_dir\": \"out\", \"fp16\": True}\nmodel = "
                                   f"AutoModelForCausalLM.from_pretrained({M}, dtype=torch.float16)\ntrainer = SFTTrainer("
                                   "model=model, args=SFTConfig(**train))\ntrainer.train()\n"},
     ("transformers", [], "float16", "none")),
    ("unsloth-kwargs", {"t.py": "from unsloth import FastLanguageModel\nimport torch\nfrom trl import SFTTrainer, SFTConfig\n"
                        "load = dict(model_name=\"unsloth/Qwen3-4B\", max_seq_length=2048, dtype=torch.float16)\nmodel, "
                        "tokenizer = FastLanguageModel.from_pretrained(**load)\ntrain = {\"output_dir\": \"out\", \"fp16\": "
                        "True}\ntrainer = SFTTrainer(model=model, args=SFTConfig(**train))\ntrainer.train()\n"},
     ("unsloth", [], "float16", "none")),
    ("unsloth-argparse", {"t.py": "import argparse, torch\nfrom unsloth import FastLanguageModel\nfrom trl import SFTTrainer,"
                          " SFTConfig\np = argparse.ArgumentParser()\np.add_argument(\"--dtype\", default=\"bfloat16\")\n"
                          "p.add_argument(\"--compile\", action=\"store_true\")\na = p.parse_args()\nmodel, tok = "
                          "FastLanguageModel.from_pretrained(\"unsloth/Qwen3-4B\", dtype=getattr(torch, a.dtype))\ntrainer = "
                          "SFTTrainer(model=model, args=SFTConfig(output_dir=\"out\", bf16=a.dtype == \"bfloat16\", "
                          "fp16=a.dtype == \"float16\", torch_compile=a.compile))\ntrainer.train()\n",
                          "run.sh": "python t.py --dtype float16 --compile\n"}, ("unsloth", [], "float16", "default"), "run.sh"),
]


@pytest.mark.parametrize("case", WAYS, ids=[w[0] for w in WAYS])
def test_each_documented_way_reads_as_the_trainer_runs_it(tmp_path, case):
    _id, files, want = case[:3]
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    read = case[3] if len(case) > 3 else next(iter(files))
    cfg = configs.load(str(tmp_path / read))
    got = (cfg["detected"]["trainer"], sorted(cfg["required"]), cfg["dtype"] or "", cfg["compile_mode"] or "none")
    assert got == (want[0], sorted(want[1]), want[2], want[3])


@pytest.mark.parametrize("text", [
    # a user's own loop over a transformers model: no Trainer / TRL trainer / trainer CLI runs it
    HF.replace(", TrainingArguments, Trainer", "") + f'model = AutoModelForCausalLM.from_pretrained({M}, '
    'attn_implementation="flash_attention_2", torch_dtype=torch.bfloat16).cuda()\nopt = torch.optim.AdamW('
    'model.parameters(), lr=1e-5)\nfor batch in loader:\n    model(**batch).loss.backward()\n    opt.step()\n',
    # the same under accelerate, with HfArgumentParser's neighbour argparse
    "import torch\nfrom accelerate import Accelerator\nfrom transformers import AutoModelForCausalLM\nacc = Accelerator("
    f'mixed_precision="bf16")\nmodel = AutoModelForCausalLM.from_pretrained({M}, attn_implementation="sdpa")\nopt = '
    "torch.optim.AdamW(model.parameters())\nmodel, opt, loader = acc.prepare(model, opt, loader)\nfor batch in loader:\n"
    "    acc.backward(model(**batch).loss)\n    opt.step()\n",
])
def test_a_users_own_loop_stays_refused(tmp_path, text):
    p = tmp_path / "train.py"
    p.write_text(text)
    with pytest.raises(UsageError) as err:
        configs.load(str(p))
    assert "training loop of the user's own" in str(err.value)


def test_a_trlparser_config_that_is_not_here_leaves_the_launch_refused(tmp_path):
    # `--config missing.yaml`: its values would be the defaults of every field, so the launch is not read without it
    (tmp_path / "train.py").write_text(TRL_SCRIPT)
    (tmp_path / "run.sh").write_text("python train.py --config missing.yaml\n")
    with pytest.raises(UsageError) as err:
        configs.load(str(tmp_path / "run.sh"))
    assert "a script of its own" in str(err.value)


def test_parse_dict_of_another_librarys_object_is_not_a_parser_fill(tmp_path):
    # a `parse_dict` of something that is not an HfArgumentParser / TrlParser fills no TrainingArguments
    text = hf("", "").replace('args = TrainingArguments(output_dir="out")\n',
                              'opts, = schema.parse_dict({"bf16": True})\nargs = TrainingArguments(output_dir="out")\n')
    (tmp_path / "t.py").write_text(text)
    cfg = configs.load(str(tmp_path / "t.py"))
    assert cfg["dtype"] in (None, "", "float32")
