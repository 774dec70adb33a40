"""Issue 24, round 5a: fresh files of the LLM trainers' users, and the frameworks and non-configs to refuse.

Two parts. The real files of fixtures/configs/round5a/ (see its README: users' repositories, labelled from the trainers'
own source) are each read as their expect file says, refusal words included. And variants written for this test (what
each fakes is in its name) of the mechanisms round 5a added:
- a script's `from_pretrained(**kw)` / `TrainingArguments(**kw)` reads the dict the script writes (`dict(...)`,
  `{...}`, a dict spread into another), as Python passes it (configs/pyscript.py keywords());
- a JSON Lines file (one JSON record per line: a dataset) is refused as that, not as broken JSON (configs/__init__.py);
- a YAML with LitGPT-like names but keys LitGPT's CLI refuses and nothing naming the model is not LitGPT's
  (configs/litgpt.py SETUP_KEYS / NAMES_THE_MODEL), while a fork's config that names its checkpoint still is;
- Determined AI experiments, THUDM's finetune_demo configs and Liquid AI leap-finetune job configs are recognised and
  refused (configs/others.py);
and, after round5a2 (files gathered after those changes, measured first at 77cb92b):
- `$(which prog)` / `` `which prog` `` / `$(command -v prog)` as a command's word is `prog` (configs/shell.py), and a
  launcher's first argument `train` is llamafactory-cli's subcommand, not its config (configs/llamafactory.py);
- a Python driver's launch lines (subprocess / os.system / its own run() wrapper) are read by LLaMA-Factory's reader
  with the YAML the script writes before them (configs/__init__.py python_written_files for .py as for notebooks);
- a script that calls a LitGPT / lit-gpt entry point's setup() itself is LitGPT's (configs/litgpt.py _python_setup).
Run against main at 42260be (before round 5a), 33 of these tests fail: 8 real files (4 read wrong, 4 refused with other
words) and 25 variants; against 77cb92b (round 5a's first changes), the 10 of the round-5a2 part. The rest pass there
too and guard what already worked (a dict built at run time, broken JSON, a LitGPT fork's config, a user's own
`lora.setup()`)."""

from __future__ import annotations

import json

import pytest
from each_case import each

from attn_doctor import configs

from configs_corpus import CONFIGS as CORPUS, CLAIMED, check_read_as_expected, check_staged_expect, expect, files, \
    split_module
from configs_corpus import rel, write as _write, refusal as _refusal, read as _read

FILES = files(CORPUS / "round5a")
LLM = {"axolotl", "llama-factory", "transformers", "torchtune", "litgpt", "ms-swift", "unsloth"}



def test_the_corpus_is_there_and_on_the_readers_side_of_the_split():
    split = split_module()
    llm = refused = 0
    for p in FILES:
        t = check_staged_expect(p, expect(p), split)
        llm += t in LLM
        refused += t not in CLAIMED
    assert llm >= 30 and refused >= 12, (llm, refused)


def test_real_file():
    each(((rel(p), (p,)) for p in FILES), check_read_as_expected)  # (one test over the set: tests/each_case.py)





# ---------------------------------------------------------------------------------------------------------------------
# `**kwargs` spread into a call: Python passes f(**{"a": 1}) as f(a=1)
# ---------------------------------------------------------------------------------------------------------------------

TRL_HEAD = "import torch\nfrom transformers import AutoModelForCausalLM\nfrom trl import SFTConfig, SFTTrainer\n\n"


def test_spread_of_a_dict_literal_with_single_quotes(tmp_path):
    src = TRL_HEAD + ("kw = {'attn_implementation': 'flash_attention_2',  # the fast one\n"
                      "      'torch_dtype': torch.float16}\n"
                      "model = AutoModelForCausalLM.from_pretrained('m', **kw)\n"
                      "args = SFTConfig(output_dir='o')\n")
    assert _read(tmp_path, "train.py", src) == ("transformers", ["fa2"], "float16", "none")


def test_spread_of_an_inline_dict_call(tmp_path):
    src = TRL_HEAD + ("model = AutoModelForCausalLM.from_pretrained(\n    'm',\n"
                      "    **dict(attn_implementation=\"sdpa\", dtype=torch.bfloat16),\n)\n"
                      "trainer = SFTTrainer(model=model, args=SFTConfig(output_dir='o'))\n")
    assert _read(tmp_path, "sft.py", src) == ("transformers", ["sdpa"], "bfloat16", "none")


def test_spread_of_a_dict_built_from_another_written_dict(tmp_path):
    src = TRL_HEAD + ("def load(name):\n"
                      "    base = dict(dtype=torch.bfloat16, use_cache=False)\n"
                      "    kwargs = {**base, \"attn_implementation\": \"flash_attention_2\"}\n"
                      "    return AutoModelForCausalLM.from_pretrained(name, **kwargs)\n\n"
                      "args = SFTConfig(output_dir='o')\n")
    assert _read(tmp_path, "train_sft.py", src) == ("transformers", ["fa2"], "bfloat16", "none")


def test_spread_into_the_training_arguments(tmp_path):
    src = TRL_HEAD + ("model = AutoModelForCausalLM.from_pretrained('m')\n"
                      "targs = dict(output_dir='o', bf16=True, torch_compile=True)\n"
                      "args = SFTConfig(**targs)\n")
    assert _read(tmp_path, "run.py", src) == ("transformers", [], "bfloat16", "default")


def test_a_dict_built_at_run_time_says_nothing(tmp_path):
    src = TRL_HEAD + ("kw = load_kwargs_from_yaml('cfg.yaml')\n"
                      "model = AutoModelForCausalLM.from_pretrained('m', **kw)\n"
                      "args = SFTConfig(output_dir='o', bf16=True)\n")
    assert _read(tmp_path, "train.py", src) == ("transformers", [], "bfloat16", "none")


def test_unsloth_loader_and_arguments_spread(tmp_path):
    src = ("from unsloth import FastLanguageModel\nimport torch\nfrom transformers import TrainingArguments\n"
           "load = {\"model_name\": \"unsloth/llama-3-8b\", \"dtype\": torch.float16, \"load_in_4bit\": True}\n"
           "model, tok = FastLanguageModel.from_pretrained(**load)\n"
           "args = TrainingArguments(**dict(output_dir=\"o\", fp16=True))\n")
    assert _read(tmp_path, "finetune.py", src) == ("unsloth", [], "float16", "none")


# ---------------------------------------------------------------------------------------------------------------------
# JSON Lines: data, one record per line
# ---------------------------------------------------------------------------------------------------------------------

def test_chat_messages_jsonl_is_refused_as_json_lines(tmp_path):
    rec = {"messages": [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "hello"}]}
    msg = _refusal(tmp_path, "train.jsonl", "\r\n".join(json.dumps(rec) for _ in range(3)) + "\r\n\r\n")
    assert "JSON Lines" in msg and "not a trainer config" in msg


def test_json_lines_under_a_json_name_and_arrays(tmp_path):
    msg = _refusal(tmp_path, "data.json", '["a", 1]\n\n["b", 2]\n')
    assert "JSON Lines" in msg and "not a trainer config" in msg


def test_broken_json_is_still_broken_json(tmp_path):
    msg = _refusal(tmp_path, "config.json", '{"learning_rate": 1e-4,\n "bf16": true,}\n')
    assert "not valid JSON" in msg and "JSON Lines" not in msg


def test_a_json_record_then_garbage_is_not_json_lines(tmp_path):
    msg = _refusal(tmp_path, "config.json", '{"bf16": true}\nnot json at all\n')
    assert "not valid JSON" in msg


# ---------------------------------------------------------------------------------------------------------------------
# LitGPT: what its CLI would refuse
# ---------------------------------------------------------------------------------------------------------------------

LITGPT_LIKE = """\
out_dir: ./ckpt
precision: bf16-mixed
logger_name: tensorboard
train:
  global_batch_size: 64
  micro_batch_size: 2
{extra}
"""


def test_own_loop_config_with_litgpt_names_is_not_litgpt(tmp_path):
    text = LITGPT_LIKE.format(extra="ema:\n  decay: 0.999\nrun_name: \"moe-test\"  # my own script reads these\n")
    assert "not a trainer config" in _refusal(tmp_path, "train.yaml", text)


def test_own_loop_config_in_json(tmp_path):
    d = {"out_dir": "o", "precision": "16-mixed", "logger_name": "csv",
         "train": {"global_batch_size": 8, "micro_batch_size": 1}, "wandb_project": "x", "compile_cfg": {"mode": "max"}}
    assert "not a trainer config" in _refusal(tmp_path, "train.json", json.dumps(d, indent=2))


def test_a_fork_config_that_names_its_checkpoint_is_still_litgpt(tmp_path):
    text = "checkpoint_dir: checkpoints/TinyLlama\n" + LITGPT_LIKE.format(extra="fsdp:\n  activation_checkpointing: true\n")
    assert _read(tmp_path, "full.yaml", text) == ("litgpt", [], "bfloat16", "none")


def test_a_pretrain_config_with_only_litgpt_keys_is_litgpt(tmp_path):
    text = "model_name: pythia-14m\n" + LITGPT_LIKE.format(extra="seed: 42\nresume: auto\n")
    assert _read(tmp_path, "pretrain.yaml", text) == ("litgpt", [], "bfloat16", "default")


# ---------------------------------------------------------------------------------------------------------------------
# Frameworks attn-doctor does not read: Determined, THUDM finetune_demo, leap-finetune
# ---------------------------------------------------------------------------------------------------------------------

def test_determined_experiment_without_entrypoint(tmp_path):
    text = ("name: llama-lora\nresources:\n  slots_per_trial: 8\n"
            "searcher:\n  name: adaptive_asha   # early stopping search\n  metric: eval_loss\n  max_trials: 16\n"
            "hyperparameters:\n  model: meta-llama/Llama-2-7b-hf\n  training_args:\n    bf16: true\n")
    msg = _refusal(tmp_path, "const.yaml", text)
    assert "Determined AI" in msg and "which attn-doctor does not read yet" in msg


def test_determined_json_experiment(tmp_path):
    d = {"entrypoint": "python3 -m determined.launch.torch_distributed python3 finetune.py",
         "searcher": {"name": "single", "metric": "eval_accuracy", "max_length": {"batches": 100}},
         "hyperparameters": {"model": "gpt2", "bf16": True, "attn_implementation": "flash_attention_2"}}
    assert "Determined AI" in _refusal(tmp_path, "exp.json", json.dumps(d))


def test_a_searcher_without_a_metric_is_no_determined_evidence(tmp_path):
    from attn_doctor.configs import others

    doc = {"data": {"searcher": {"name": "single"}, "entrypoint": "python x.py"}}
    assert not others.determined(doc).own


def test_glm4_finetune_demo_config(tmp_path):
    text = ("data_config:\n  train_file: train.jsonl\n  val_file: dev.jsonl\n  test_file: dev.jsonl\n  num_proc: 1\n"
            "combine: True\nfreezeV: True\nmax_input_length: 512\nmax_output_length: 512\n"
            "training_args:\n  bf16: true\n  output_dir: ./output\n  max_steps: 3000\n"
            "peft_config:\n  peft_type: LORA\n  task_type: CAUSAL_LM\n  r: 8\n")
    msg = _refusal(tmp_path, "lora.yaml", text)
    assert "THUDM" in msg and "finetune_demo" in msg and "which attn-doctor does not read yet" in msg


def test_chatglm3_finetune_demo_in_json(tmp_path):
    d = {"max_output_length": 128, "max_input_length": 128, "data_config": {"train_file": "train.json"},
         "training_args": {"output_dir": "o", "fp16": True}}
    assert "THUDM" in _refusal(tmp_path, "ptuning.json", json.dumps(d))


def test_leap_finetune_peft_extends_only(tmp_path):
    text = ("model_name: \"LFM2-VL-1.6B\"\ntraining_type: 'vlm_sft'\ndataset:\n  path: data/vlm.jsonl\n  type: vlm_sft\n"
            "peft_config:\n  extends: \"DEFAULT_LORA\"   # rank 8 defaults\n  use_peft: true\n")
    msg = _refusal(tmp_path, "vlm_lora.yaml", text)
    assert "Liquid AI leap-finetune" in msg and "which attn-doctor does not read yet" in msg


def test_leap_finetune_moe_defaults(tmp_path):
    text = "training_type: moe_sft\ndataset: {path: x, type: sft}\ntraining_config:\n  extends: MOE_SFT\n  bf16: true\n"
    assert "Liquid AI leap-finetune" in _refusal(tmp_path, "moe.yaml", text)


def test_an_extends_key_of_another_tool_is_no_leap_evidence():
    from attn_doctor.configs import others

    doc = {"data": {"training_config": {"extends": "base.yaml"}, "model_name": "x"}}
    assert not others.leap_finetune(doc).own


# ---------------------------------------------------------------------------------------------------------------------
# Round 5a2 (files gathered after the changes above; see fixtures/configs/round5a2/README.md): Python drivers
# ---------------------------------------------------------------------------------------------------------------------

FILES2 = files(CORPUS / "round5a2")


@pytest.mark.parametrize("path", FILES2, ids=rel)
def test_real_file_round5a2(path):
    check_staged_expect(path, expect(path), split_module())
    check_read_as_expected(path)


LF_YAML = "model_name_or_path: Qwen/Qwen2.5-7B\nstage: sft\nfinetuning_type: lora\ntemplate: qwen\n{extra}\n"


@pytest.mark.parametrize("launch", ["torchrun --nproc_per_node 2 $(which llamafactory-cli) train lf.yaml",
                                    "torchrun --nproc_per_node=2 `which llamafactory-cli` train lf.yaml",
                                    "accelerate launch $(command -v llamafactory-cli) train lf.yaml",
                                    'torchrun --nnodes 1 "$(which llamafactory-cli)" train lf.yaml  # quoted'],
                         ids=["which", "backquotes", "command-v", "quoted"])
def test_llamafactory_cli_found_by_which_under_a_launcher(tmp_path, launch):
    _write(tmp_path, "lf.yaml", LF_YAML.format(extra="flash_attn: fa2\nbf16: true"))
    assert _read(tmp_path, "train.sh", f"#!/bin/bash\nset -e\n{launch}\n") == ("llama-factory", ["fa2"], "bfloat16",
                                                                               "none")


def test_python_driver_writes_the_yaml_then_runs_the_cli(tmp_path):
    src = ('import subprocess\nfrom pathlib import Path\n\n'
           'cfg = """\n' + LF_YAML.format(extra="flash_attn: sdpa\nfp16: true") + '"""\n'
           'Path("run_cfg.yaml").write_text(cfg)\n'
           'subprocess.run(["llamafactory-cli", "train", "run_cfg.yaml"], check=True)\n')
    assert _read(tmp_path, "driver.py", src) == ("llama-factory", ["sdpa"], "float16", "none")


def test_python_driver_through_a_shell_string_wrapper(tmp_path):
    src = ('import os\n\ndef sh(cmd):\n    os.system(cmd)\n\n'
           "conf = '''\n" + LF_YAML.format(extra="bf16: true") + "'''\n"
           'with open("exp.yaml", "w") as fh:\n    fh.write(conf)\n'
           'os.system("FORCE_TORCHRUN=1 llamafactory-cli train exp.yaml")\n')
    assert _read(tmp_path, "go.py", src) == ("llama-factory", [], "bfloat16", "none")


def test_litgpt_setup_called_from_python(tmp_path):
    src = ("from pathlib import Path\nfrom litgpt.finetune.lora import setup as lora_setup\n\n"
           "lora_setup(Path('checkpoints/x'), precision='16-true', lora_r=16)\n")
    assert _read(tmp_path, "ft.py", src) == ("litgpt", [], "float16", "none")


def test_litgpt_pretrain_module_call(tmp_path):
    src = ("import litgpt.pretrain\n\nkw = dict(model_name='pythia-14m', precision='bf16-mixed')\n"
           "litgpt.pretrain.setup(**kw)\n")
    assert _read(tmp_path, "pt.py", src) == ("litgpt", [], "bfloat16", "default")


def test_lit_gpt_checkout_module_from_sys_path(tmp_path):
    src = ("import sys\nsys.path.insert(0, '/opt/lit-gpt/finetune')\nimport full\n\n"
           "full.setup(precision='bf16-true', out_dir='out/full')\n")
    assert _read(tmp_path, "run_full.py", src) == ("litgpt", [], "bfloat16", "none")


def test_a_setup_of_a_users_own_lora_module_is_not_litgpt(tmp_path):
    src = ("import torch\nimport lora  # my own module\n\nlora.setup(precision='bf16-true')\n")
    msg = _refusal(tmp_path, "mine.py", src)
    assert "LitGPT" not in msg.split("(it reads")[0]
