"""Helper cfg136 (session 34, issue 24): what reading round 136 found, each mechanism with variants of our own, none of
them a file of the set.

1. torchtune with `dataset.packed: True` was read as FlexAttention whatever `device:` said. The recipe trains on the
   config's device (torchtune/utils/_device.py get_device; _validate_device_from_env refuses a device the machine lacks),
   and FlexAttention only forms where _import_guard.py's _SUPPORTS_FLEX_ATTENTION holds: torch.cuda.is_available() and
   sm75+. On `device: mps` (Apple), `npu`, `xpu` or `hpu` no CUDA is there, the packed BlockMask never forms and
   attention is SDPA: nothing required. `cuda`, `cuda:1`, no device (the machine's: CUDA first) and `cpu` keep the
   reading they had.
2. A .py whose every statement is a string literal (a note keeping a command line in a docstring) was read as a Python
   script "with no trainer calls": it runs nothing as Python, so the command it holds is what it says. When the strings
   hold a training command or a framework's launch (others.command_lines), the file is read as that text; a .py with
   any code, or strings holding only prose, is read as Python, as before.
3. A TOML of nanochat's base_train.py settings (a fork's train_config.toml: depth, matrix_lr / embedding_lr /
   unembedding_lr, target_param_data_ratio, core_metric_every) was refused as "not a trainer config attn-doctor
   recognises": those names are nanochat's own (karpathy/nanochat scripts/base_train.py), so the refusal names nanochat
   (others.nanochat), in TOML, YAML or JSON; a config sharing only one or two of them is not taken for it."""

from __future__ import annotations

from configs_corpus import read, refusal
from each_case import each

_TT = """output_dir: out/run
tokenizer:
  _component_: torchtune.models.{tok}
  path: models/base/tokenizer.model
model:
  _component_: torchtune.models.{model}
  lora_rank: 8
checkpointer:
  _component_: torchtune.training.FullModelHFCheckpointer
  checkpoint_dir: models/base/
dataset:
  _component_: torchtune.datasets.alpaca_dataset
  packed: {packed}
{device}dtype: bf16
compile: False
batch_size: 2
"""
_MODELS = [("llama3.llama3_tokenizer", "llama3_2.lora_llama3_2_1b"), ("qwen2_5.qwen2_5_tokenizer", "qwen2_5.lora_qwen2_5_3b"),
           ("mistral.mistral_tokenizer", "mistral.lora_mistral_7b")]


def test_torchtune_packing_on_a_machine_without_cuda_is_sdpa(tmp_path):
    def check(tok, model, device, packed, want):
        text = _TT.format(tok=tok, model=model, packed=packed, device=f"device: {device}\n" if device else "")
        got = read(tmp_path, "my_lora.yaml", text)
        assert got[0] == "torchtune" and got[1] == want and got[2] == "bfloat16", got

    cases = []
    for tok, model in _MODELS:
        for device in ("mps", "npu", "xpu", "hpu", "mps:0", "MPS", "xpu:1"):
            cases.append((f"{model} {device} packed", (tok, model, device, "True", [])))
        for device in ("cuda", "cuda:1", "", "cpu"):  # CUDA (or the machine's pick, CUDA first): the reading it had
            cases.append((f"{model} {device or 'no device'} packed", (tok, model, device, "True", ["flex"])))
        for device in ("mps", "cuda", ""):
            cases.append((f"{model} {device or 'no device'} unpacked", (tok, model, device, "False", [])))
    each(cases, check)


_NOTES = {
    "fairseq": ("'''\nCUDA_VISIBLE_DEVICES=0 fairseq-train data-bin/wmt \\\n    --arch transformer --fp16 \\\n"
                "    --optimizer adam --lr 5e-4 --max-tokens 4096 > log/train.log\n'''\n"),
    "fairseq-hydra": '"""Run it as:\n\nfairseq-hydra-train --config-dir configs --config-name base task.data=/data\n"""\n',
    "mlx": '"""\nmlx_lm.lora --model mlx-community/Qwen2.5-1.5B-4bit --train --data data --iters 600\n"""\n',
    "XTuner": "r'''NPROC_PER_NODE=4 xtuner train my_qwen_qlora_config.py --deepspeed deepspeed_zero2'''\n",
}


def test_a_py_note_holding_a_framework_launch_names_the_framework(tmp_path):
    def check(words, text):
        msg = refusal(tmp_path, "step96.py", text)
        assert words in msg and "no trainer calls" not in msg, msg

    each(((k, (k.split("-")[0], v)) for k, v in _NOTES.items()), check)


def test_a_py_note_holding_a_trainer_launch_is_read_as_that_launch(tmp_path):
    text = ('"""How I ran it:\n\naccelerate launch --mixed_precision=bf16 sdxl_train_network.py \\\n'
            '  --pretrained_model_name_or_path=/m/sdxl.safetensors --network_module=networks.lora \\\n'
            '  --dataset_config=ds.toml --output_dir=out --sdpa --mixed_precision=bf16\n"""\n')
    got = read(tmp_path, "notes.py", text)
    assert got[0] == "sd-scripts" and got[1] == ["sdpa"] and got[2] == "bfloat16", got


def test_a_py_with_code_or_only_prose_is_read_as_python(tmp_path):
    def check(text):
        msg = refusal(tmp_path, "notes.py", text)
        assert "a Python script" in msg or "Python" in msg, msg
        assert "fairseq" not in msg.replace("fairseq_cli", ""), msg

    prose = '"""Translation experiments for chapter 10.\n\nThe model trains for five epochs."""\n'
    with_code = _NOTES["fairseq"] + "import os\nprint(os.getcwd())\n"  # code after the note: a script, read as Python
    each([("prose only", (prose,)), ("note and code", (with_code,))], check)


_NANO = {"depth": 12, "device_batch_size": 16, "total_batch_size": 262144, "matrix_lr": 0.02, "embedding_lr": 0.2,
         "unembedding_lr": 0.004, "target_param_data_ratio": 20, "core_metric_every": 1000, "warmdown_ratio": 0.2,
         "max_seq_len": 1024, "weight_decay": 0.0, "eval_every": 250}


def _as(fmt: str, d: dict) -> str:
    import json

    if fmt == "json":
        return json.dumps(d)
    sep = " = " if fmt == "toml" else ": "
    return "".join(f"{k}{sep}{json.dumps(v)}\n" for k, v in d.items())


def test_nanochat_base_train_settings_are_refused_as_nanochat(tmp_path):
    def check(fmt, keys, named):
        d = {k: v for k, v in _NANO.items() if k in keys}
        msg = refusal(tmp_path, f"train_config.{fmt}", _as(fmt, d))
        assert ("nanochat" in msg) == named, (fmt, keys, msg)

    full = list(_NANO)
    cases = []
    for fmt in ("toml", "yaml", "json"):
        cases.append((f"{fmt} all", (fmt, full, True)))
        cases.append((f"{fmt} three lrs + depth", (fmt, ["depth", "matrix_lr", "embedding_lr", "unembedding_lr"], True)))
        cases.append((f"{fmt} ratio + cadence + batch", (fmt, ["device_batch_size", "target_param_data_ratio",
                                                                "core_metric_every", "warmdown_ratio"], True)))
        # near misses: two of its names, or its names without a model size or batch of its own
        cases.append((f"{fmt} two names", (fmt, ["depth", "matrix_lr", "embedding_lr", "max_seq_len"], False)))
        cases.append((f"{fmt} no depth/batch", (fmt, ["matrix_lr", "embedding_lr", "unembedding_lr", "eval_every"], False)))
    each(cases, check)
