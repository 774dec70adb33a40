"""Helper cfg111 (session 27, issue 24): round 107m's misses read after its measurement (fixtures/configs/round107m/
README.md, "Read after its measurement"), each mechanism with variants of our own, none of them a file of the set."""

from __future__ import annotations

import pytest

from configs_corpus import read, refusal

# 1. A script that takes a helper from Unsloth (`from unsloth.chat_templates import get_chat_template`) and loads its
# model with transformers' from_pretrained trains transformers' model: Unsloth's import patches libraries and trainers,
# not the model's attention, which only Unsloth's own loaders replace (hf_transformers.unsloth_script).
_HF_LOAD = """import torch
{imports}
from transformers import {model_class}, AutoTokenizer, Trainer, TrainingArguments

tok = AutoTokenizer.from_pretrained("Qwen/Qwen2.5-1.5B")
{helper}
model = {model_class}.from_pretrained("Qwen/Qwen2.5-1.5B", torch_dtype=torch.{dtype}{attn})
args = TrainingArguments(output_dir="out", {amp}=True, per_device_train_batch_size=2)
Trainer(model=model, args=args, train_dataset=None).train()
"""
_HELPERS = [
    ("from unsloth.chat_templates import get_chat_template", 'tok = get_chat_template(tok, chat_template="chatml")'),
    ("import unsloth", ""),
    ("from unsloth import is_bfloat16_supported", "print(is_bfloat16_supported())"),
]


@pytest.mark.parametrize("imports, helper", _HELPERS)
@pytest.mark.parametrize("model_class", ["AutoModelForCausalLM", "Qwen2ForCausalLM"])
@pytest.mark.parametrize("dtype, amp, want", [("bfloat16", "bf16", "bfloat16"), ("float16", "fp16", "float16")])
@pytest.mark.parametrize("attn, required", [("", []), (', attn_implementation="flash_attention_2"', ["fa2"])])
def test_an_unsloth_helper_beside_a_transformers_load_is_transformers_run(tmp_path, imports, helper, model_class,
                                                                          dtype, amp, want, attn, required):
    text = _HF_LOAD.format(imports=imports, helper=helper, model_class=model_class, dtype=dtype, amp=amp, attn=attn)
    assert read(tmp_path, "finetune.py", text) == ("transformers", required, want, "none")


_UNSLOTH_LOAD = """from unsloth import {loader}
from unsloth.chat_templates import get_chat_template
from transformers import AutoTokenizer, TrainingArguments
from trl import SFTTrainer

model, tok = {loader}.from_pretrained("unsloth/Qwen2.5-1.5B", dtype=None, load_in_4bit=True)
tok = get_chat_template(tok, chat_template="chatml")
args = TrainingArguments(output_dir="out", bf16=True)
SFTTrainer(model=model, tokenizer=tok, args=args, train_dataset=None).train()
"""


@pytest.mark.parametrize("loader", ["FastLanguageModel", "FastModel"])
def test_an_unsloth_loader_keeps_the_script_unsloths(tmp_path, loader):
    """The same helper beside one of Unsloth's own loaders: Unsloth's run, as before."""
    assert read(tmp_path, "finetune.py", _UNSLOTH_LOAD.format(loader=loader))[0] == "unsloth"


def test_an_unsloth_cell_with_no_load_of_its_own_stays_unsloths(tmp_path):
    """A notebook's later cell (the model loaded by an earlier one): Unsloth imported, no loader named, no transformers
    load either: Unsloth's, as before."""
    text = ("from unsloth import is_bfloat16_supported\nfrom trl import SFTTrainer, SFTConfig\n"
            "args = SFTConfig(output_dir='out', bf16=is_bfloat16_supported(), fp16=not is_bfloat16_supported())\n"
            "SFTTrainer(model=model, args=args, train_dataset=ds).train()\n")
    assert read(tmp_path, "cell.py", text)[0] == "unsloth"


# 2. SimpleTuner's config.env of train.sh's launch variables alone (TRAINING_NUM_PROCESSES, TRAINING_DYNAMO_BACKEND ...):
# train.sh sources it for its `accelerate launch` and takes the job from config.json / config.toml beside it, so the
# env decides the compile but not the run's mixed precision (simpletuner.LAUNCH_ENV).
@pytest.mark.parametrize("env, mode", [
    ("TRAINING_NUM_PROCESSES=2\nTRAINING_DYNAMO_BACKEND=inductor\n", "default"),
    ("export TRAINING_NUM_PROCESSES=1\nexport TRAINING_NUM_MACHINES=1\nTRAINING_DYNAMO_BACKEND='inductor'\n", "default"),
    ("TRAINING_DYNAMO_BACKEND=no\nACCELERATE_EXTRA_ARGS=\"--main_process_port 29501\"\nDISABLE_UPDATES=1\n", "none"),
])
def test_a_config_env_of_launch_variables_leaves_the_dtype_to_the_job(tmp_path, env, mode):
    assert read(tmp_path, "config.env", env) == ("simpletuner", [], "", mode)


@pytest.mark.parametrize("extra, dtype", [("MIXED_PRECISION=fp16\n", "float16"), ("MODEL_TYPE=lora\n", "bfloat16"),
                                          ('TRAINER_EXTRA_ARGS="--lora_rank=16"\n', "bfloat16")])
def test_a_config_env_with_a_training_setting_is_the_job(tmp_path, extra, dtype):
    """One setting env_file.py maps to a training option makes the env the job (SimpleTuner's env backend): its own
    mixed_precision, else SimpleTuner's default bf16, as before."""
    assert read(tmp_path, "config.env", "TRAINING_DYNAMO_BACKEND=inductor\n" + extra) == (
        "simpletuner", [], dtype, "default")


# 3. SimpleTuner's dataloader config (the list of datasets --data_backend_config names) is refused as the dataset config
# it is (rounds 99m, 103m and 107m label it so: "dataset", "dataset config"), still naming the option that reads it.
@pytest.mark.parametrize("entry", [
    '{"id": "pics", "type": "local", "instance_data_dir": "/data/pics", "resolution": 1024}',
    '{"id": "s3", "type": "aws", "aws_bucket_name": "b", "caption_strategy": "textfile"}',
    '{"id": "te", "type": "local", "dataset_type": "text_embeds", "default": true, "cache_dir": "cache/te"}',
])
def test_a_simpletuner_dataloader_config_is_refused_as_a_dataset_config(tmp_path, entry):
    msg = refusal(tmp_path, "multidatabackend.json", f"[\n  {entry}\n]\n")
    assert "SimpleTuner dataset config" in msg and "--data_backend_config" in msg and "dataloader config" in msg


# 4. A script that hands its model to DeepSpeed's inference engine only (deepspeed.init_inference) and never to its
# training engine nor a backward pass serves a model: refused as the inference script it is (others.what_file), not as
# a DeepSpeed script attn-doctor does not read yet.
_DS_INFERENCE = """import torch
{imp}
from transformers import AutoModelForCausalLM, AutoTokenizer

tok = AutoTokenizer.from_pretrained("Qwen/Qwen2.5-7B-Instruct")
model = AutoModelForCausalLM.from_pretrained("Qwen/Qwen2.5-7B-Instruct", torch_dtype=torch.float16)
engine = {call}(model, tensor_parallel={{"tp_size": 2}}, dtype=torch.float16, replace_with_kernel_inject=True)
out = engine.module.generate(**tok("hello", return_tensors="pt").to("cuda"), max_new_tokens=64)
{extra}"""
_DS_NAMES = [("import deepspeed", "deepspeed.init_inference"), ("import deepspeed as ds", "ds.init_inference"),
             ("from deepspeed import init_inference", "init_inference")]


@pytest.mark.parametrize("imp, call", _DS_NAMES)
def test_a_deepspeed_inference_script_is_refused_as_one(tmp_path, imp, call):
    msg = refusal(tmp_path, "serve.py", _DS_INFERENCE.format(imp=imp, call=call, extra=""))
    assert "DeepSpeed inference script" in msg and "no trainer calls" in msg


@pytest.mark.parametrize("imp, call", _DS_NAMES)
@pytest.mark.parametrize("extra", [
    "loss = engine(**batch).loss\nloss.backward()\n",
    "import deepspeed as d2\nmodel_engine, opt, _, _ = d2.initialize(model=model, config='ds.json')\n",
])
def test_a_deepspeed_script_that_trains_is_not_taken_for_inference(tmp_path, imp, call, extra):
    msg = refusal(tmp_path, "train.py", _DS_INFERENCE.format(imp=imp, call=call, extra=extra))
    assert "DeepSpeed inference script" not in msg and "looks like a script of DeepSpeed" in msg
