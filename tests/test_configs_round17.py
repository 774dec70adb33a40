"""Issue 24, round 17: users' trainer configs and launch scripts chosen for what decides `required` and `dtype`.

Two parts. The real files of fixtures/configs/round17/ (see its README: users' repositories on the train side of the
split, labelled from the trainers' own source before any reader ran) are each read as their expect file says. And
variants written for this test (what each fakes is in its text) of the mechanisms round 17 added:
- a TrlParser / alignment-handbook YAML may leave the model to the command line: TRL's ModelConfig.model_name_or_path
  is optional (huggingface/trl@f2cd577 trl/trainer/model_config.py:81), so TrainingArguments / TRL fields throughout
  with ModelConfig's `model_revision` and another of its fields are TRL's (hf_transformers.model_from_command_line);
- a script's two spellings of its argument parsing (`args = parser.parse_args()` inside parse_args(), `args =
  parse_args()` under `if __name__ == "__main__":`) are one parsed namespace, so `bf16=args.bf16` is the option's
  argparse default (pyscript.constants, _parse_call);
- through that, Unsloth's `FastLanguageModel.from_pretrained(full_finetuning = not args.lora, attn_implementation=X)`
  with `--lora` off delegates to FastModel, which honours X (unslothai/unsloth@015bdef models/loader.py:487-522);
- `python -m pkg.train.sft` runs a module of the user's own package, never TRL's sft.py (hf_transformers.hf_script), and
  a refusal names the module when a part of its path says it trains (configs._module_run).
Run against the code before this change (061c77d), the variants marked NEW fail there; the rest pass there too and
guard that the old readings hold."""

from __future__ import annotations

import pytest
from each_case import each

from configs_corpus import repo_of, repos_outside
from configs_corpus import CONFIGS as CORPUS, CLAIMED, check_read_as_expected, check_staged_expect, expect, files, \
    split_module
from configs_corpus import read as _read, refusal as _refusal, rel

FILES = files(CORPUS / "round17")


def test_the_corpus_is_there_and_on_the_readers_side_of_the_split():
    split = split_module()
    claimed = refused = 0
    repos = set()
    for p in FILES:
        e = expect(p)
        t = check_staged_expect(p, e, split)
        assert e["captured"] == "2026-11-28" and len(e["commit"]) == 40, p
        repos.add(e["source"].split(":", 1)[0])
        claimed += t in CLAIMED
        refused += t not in CLAIMED
    assert len(FILES) >= 52 and claimed >= 24 and refused >= 28 and len(repos) >= 31, (len(FILES), claimed, refused)


def test_no_repository_is_shared_with_another_set():
    mine = {repo_of(expect(p)["source"]) for p in FILES}
    others = repos_outside("round17")
    assert not mine & others, sorted(mine & others)


def test_real_file():
    each(((rel(p), (p,)) for p in FILES), check_read_as_expected)  # (one test over the set: tests/each_case.py)


# ---------------------------------------------------------------------------------------------------------------------
# TrlParser YAMLs whose model the command line names
# ---------------------------------------------------------------------------------------------------------------------

_TRAIN_KEYS = ("bf16: true\ngradient_accumulation_steps: 4\ngradient_checkpointing: true\nlearning_rate: 1.0e-05\n"
               "logging_steps: 5\nlr_scheduler_type: cosine\nnum_train_epochs: 1\nper_device_train_batch_size: 2\n"
               "save_strategy: epoch\nseed: 42\nwarmup_ratio: 0.1\nreport_to:\n- wandb\n")


@pytest.mark.parametrize("model, extra, want", [
    ("model_revision: main\ntorch_dtype: bfloat16\nattn_implementation: flash_attention_2\n", "packing: false\n",
     (["fa2"], "bfloat16")),  # NEW (open-r1's layout without its model_name_or_path)
    ("model_revision: main\ndtype: bfloat16\nattn_implementation: sdpa\n",
     "use_vllm: true\nnum_generations: 8\nmax_completion_length: 1024\n", (["sdpa"], "bfloat16")),  # NEW (GRPO)
    ("model_revision: main\nuse_peft: true\nlora_r: 16\nlora_target_modules: all-linear\n", "dataset_num_proc: 8\n",
     ([], "bfloat16")),  # NEW (no attention key: transformers' default)
    ("model_revision: main\ntorch_dtype: bfloat16\nattn_implementation: flex_attention\ntrust_remote_code: true\n",
     "use_liger: true\n", (["flex"], "bfloat16")),  # NEW (SFTConfig's use_liger of TRL 2024-08 to 2025-04)
    # the same with its model: read before this round too
    ("model_name_or_path: Qwen/Qwen2.5-1.5B\nmodel_revision: main\ntorch_dtype: bfloat16\n"
     "attn_implementation: flash_attention_2\n", "", (["fa2"], "bfloat16")),
])
def test_trl_yaml_with_the_model_on_the_command_line(tmp_path, model, extra, want):
    assert _read(tmp_path, "grpo.yaml", model + extra + _TRAIN_KEYS) == ("transformers", *want, "none")


@pytest.mark.parametrize("text", [
    # a user's own YAML of GRPOConfig-like keys, no ModelConfig field (round 14's CzD-CzD configs/grpo.yaml shape)
    "output_dir: out\nlearning_rate: 1.0e-6\nnum_generations: 8\nbeta: 0.04\nbf16: true\nfp16: false\n",
    # ModelConfig's model_revision alone beside TrainingArguments fields: one ModelConfig field is not enough
    "model_revision: main\n" + _TRAIN_KEYS,
    # ModelConfig's fields in a layout of the user's own (sections TrlParser would refuse)
    "model_revision: main\ntorch_dtype: bfloat16\nattn_implementation: flash_attention_2\nmodel:\n  name: qwen\n"
    "training:\n  epochs: 3\n  bf16: true\nlora:\n  r: 16\ndata:\n  path: d.jsonl\n",
])
def test_yaml_without_a_model_and_without_modelconfig_evidence_is_refused(tmp_path, text):
    msg = _refusal(tmp_path, "config.yaml", text)
    assert "not a trainer config" in msg


# ---------------------------------------------------------------------------------------------------------------------
# argparse namespaces assigned twice
# ---------------------------------------------------------------------------------------------------------------------

_SFT = '''import argparse

import torch
from transformers import AutoModelForCausalLM
from trl import SFTConfig, SFTTrainer


def parse_args():
    parser = argparse.ArgumentParser()
    parser.add_argument("--model", type=str, required=True)
    parser.add_argument("--fp16", action=argparse.BooleanOptionalAction, default={fp16})
    parser.add_argument("--bf16", action=argparse.BooleanOptionalAction, default={bf16})
    {assign_inner}
    return args


def train(args):
    model = AutoModelForCausalLM.from_pretrained(
        args.model, torch_dtype=torch.bfloat16 if args.bf16 else torch.float16, attn_implementation="sdpa")
    config = SFTConfig(output_dir="out", fp16=args.fp16, bf16=args.bf16)
    SFTTrainer(model=model, args=config).train()


if __name__ == "__main__":
    {assign_outer}
    train(args=args)
'''


@pytest.mark.parametrize("fp16, bf16, inner, outer, dtype", [
    ("False", "True", "args = parser.parse_args()", "args = parse_args()", "bfloat16"),  # NEW
    ("True", "False", "args = parser.parse_args()", "args = parse_args()", "float16"),  # NEW
    ("False", "True", "args, _ = parser.parse_known_args()", "args = parse_args()", "bfloat16"),  # (a tuple: one name)
    ("False", "True", "args = parser.parse_args()", "args = get_args()", "bfloat16"),  # NEW (any parse spelling)
    # one assignment is not a parse: which namespace the script trains with is decided when it runs
    ("False", "True", "args = parser.parse_args()", "args = load_namespace_from_yaml('run.yaml')", ""),
])
def test_two_spellings_of_the_parsing_are_one_namespace(tmp_path, fp16, bf16, inner, outer, dtype):
    text = _SFT.format(fp16=fp16, bf16=bf16, assign_inner=inner, assign_outer=outer)
    assert _read(tmp_path, "finetune_sft.py", text) == ("transformers", ["sdpa"], dtype, "none")


_UNSLOTH = '''import argparse

from unsloth import FastLanguageModel
from trl import SFTConfig, SFTTrainer


def parse_args():
    parser = argparse.ArgumentParser()
    parser.add_argument("--model", type=str, required=True)
    parser.add_argument("--quantization", type=int, choices=[4, 8, None], default=None)
    parser.add_argument("--lora", action=argparse.BooleanOptionalAction, default={lora})
    args = parser.parse_args()
    return args


def train(args):
    model, tokenizer = FastLanguageModel.from_pretrained(
        model_name=args.model, load_in_4bit=args.quantization == 4, load_in_8bit=args.quantization == 8,
        full_finetuning=not args.lora, attn_implementation="{impl}")
    SFTTrainer(model=model, tokenizer=tokenizer, args=SFTConfig(output_dir="out")).train()


if __name__ == "__main__":
    args = parse_args()
    train(args)
'''


@pytest.mark.parametrize("lora, impl, want", [
    ("False", "sdpa", ["sdpa"]),  # NEW (full fine-tuning: FastModel honours the choice)
    ("False", "flash_attention_2", ["fa2"]),  # NEW
    ("True", "sdpa", []),  # LoRA: FastLanguageModel drops it (models/llama.py:2651) and picks from what is installed
])
def test_unsloth_full_finetuning_from_an_argparse_default(tmp_path, lora, impl, want):
    assert _read(tmp_path, "finetune_unsloth.py", _UNSLOTH.format(lora=lora, impl=impl)) == ("unsloth", want, "",
                                                                                               "none")


# ---------------------------------------------------------------------------------------------------------------------
# python -m: the user's own package, not TRL's scripts
# ---------------------------------------------------------------------------------------------------------------------

_OWN_YAML = ("model_name: unsloth/Qwen3-4B-Instruct-2507\nmax_seq_length: 256\nload_in_4bit: true\nlora_r: 16\n"
             "packing: true\noutput_dir: outputs/sft\n")


@pytest.mark.parametrize("line, module", [
    ("python -m chess_llm.train.sft --config configs/sft.yaml", "chess_llm.train.sft"),  # NEW (was read as TRL)
    ("python3 -m mypkg.training.dpo --config configs/sft.yaml --max-steps 1", "mypkg.training.dpo"),  # NEW
    ("python -m src.train --config configs/sft.yaml", "src.train"),  # NEW (the refusal now names it)
])
def test_a_module_of_the_users_package_is_not_trls_script(tmp_path, line, module):
    (tmp_path / "configs").mkdir()
    (tmp_path / "configs" / "sft.yaml").write_text(_OWN_YAML, encoding="utf-8")
    text = 'set -eu\nsource "$(dirname "$0")/env.sh"\n' + line + "\n"
    msg = _refusal(tmp_path, "sft_full.sh", text)
    assert f"runs {module} (-m)" in msg and "does not read yet" in msg


def test_trls_own_sft_module_is_still_trl(tmp_path):
    (tmp_path / "recipe.yaml").write_text("model_name_or_path: Qwen/Qwen2.5-0.5B\nattn_implementation: sdpa\n"
                                          "bf16: true\noutput_dir: out\nlearning_rate: 2.0e-5\n", encoding="utf-8")
    assert _read(tmp_path, "run.sh", "python -m trl.scripts.sft --config recipe.yaml\n") == \
        ("transformers", ["sdpa"], "bfloat16", "none")


def test_a_tool_module_is_not_named_a_training_script(tmp_path):
    # a plain `python -m` of a module whose path says nothing of training is as likely a tool
    text = "python -m networks.wan_extract_lora --model base.safetensors --save_to out.safetensors\n"
    msg = _refusal(tmp_path, "extract.sh", text)
    assert "not a trainer config" in msg and "a training script" not in msg  # not called a training run
    assert "it runs networks.wan_extract_lora (-m), which is none of the trainers' training modules" in msg  # (cfg143)
