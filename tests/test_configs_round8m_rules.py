"""Issue 24: the mechanisms round 8m (a measure-only set, measured once at 66ad44f: 32/38 claimed files right in all
four fields, 16/18 others refused) showed missing, written in the next step with round 8m as training material.

Every case is a variant written for this test (what it fakes is in its text), not a copy of a round-8m file:
- a trainer CLI's entry module run with -m is that CLI: `torchrun ... -m llamafactory.cli train ...` is
  `llamafactory-cli train` (src/llamafactory/cli.py), `python -m swift.cli.sft ...` is `swift sft`;
- diffusion-pipe's README line with the TOML in a variable the script does not set
  (`deepspeed --num_gpus=$N train.py --deepspeed --config ${CONFIG_PATH}`): diffusion-pipe, settings unknown;
- a Python script this Python cannot parse in places (3.12's f-strings reusing their quotes) is still read around
  those lines;
- a name set to different values in a script's branches (bf16 if the GPU supports it, else fp16) is decided when the
  script runs: no dtype read from it;
- a script that runs only sd-scripts' tools (captioning, tagging, merging) starts no training: refused, naming it.
Marked NEW: fail on main before this change (59e27e4)."""

from __future__ import annotations

from configs_corpus import read as _read, refusal as _refusal

LF_LINE = ("torchrun --nproc_per_node 8 --master_port 29511 \\\n    -m llamafactory.cli train \\\n"
           "    --model_name_or_path Qwen/Qwen2.5-7B --stage sft --do_train --finetuning_type lora --template qwen \\\n"
           "    --dataset alpaca_en_demo --flash_attn {fa} --bf16 true --output_dir saves/q7\n")


def test_llamafactory_cli_module_under_torchrun(tmp_path):  # (read before too, through LLaMA-Factory's own options)
    assert _read(tmp_path, "run.sh", "#!/bin/bash\n" + LF_LINE.format(fa="fa2"))[:3] == ("llama-factory", ["fa2"], "bfloat16")
    assert _read(tmp_path, "run2.sh", LF_LINE.format(fa="sdpa"))[:2] == ("llama-factory", ["sdpa"])


def test_llamafactory_cli_module_with_a_yaml(tmp_path):  # NEW
    (tmp_path / "sft.yaml").write_text("model_name_or_path: meta-llama/Llama-3.1-8B\nstage: sft\ndo_train: true\n"
                                       "finetuning_type: lora\ntemplate: llama3\nflash_attn: fa2\nbf16: true\n")
    assert _read(tmp_path, "go.sh", "python -m llamafactory.cli train sft.yaml\n")[:3] == ("llama-factory", ["fa2"],
                                                                                         "bfloat16")


def test_swift_cli_module_names_its_subcommand(tmp_path):
    got = _read(tmp_path, "sft.sh", "CUDA_VISIBLE_DEVICES=0 python -m swift.cli.sft --model Qwen/Qwen2.5-7B-Instruct "
                                    "--train_type lora --dataset AI-ModelScope/alpaca-gpt4-data-en "
                                    "--attn_impl flash_attn --torch_dtype bfloat16 --output_dir out\n")
    assert got[0] == "ms-swift" and got[1] == ["fa2"] and got[2] == "bfloat16", got


def test_a_module_of_another_package_stays_its_own(tmp_path):
    msg = _refusal(tmp_path, "x.sh", "torchrun --nproc_per_node 2 -m mypkg.cli train --flash_attn fa2 --lr 1e-4\n")
    assert "mypkg.cli" in msg


def test_diffusion_pipe_readme_line_with_the_toml_in_a_variable(tmp_path):  # NEW
    got = _read(tmp_path, "entrypoint.sh", "#!/bin/bash\nset -e\ncd /opt/diffusion-pipe\n"
                                           "deepspeed --num_gpus=${GPUS:-1} train.py --deepspeed --config $TRAIN_TOML\n")
    assert got[0] == "diffusion-pipe" and got[1] == [], got


def test_train_py_with_a_json_config_is_not_diffusion_pipe(tmp_path):
    msg = _refusal(tmp_path, "go.sh", "deepspeed --num_gpus=8 train.py --deepspeed --config ds_zero3.json --lr 2e-5\n")
    assert "train.py" in msg


SCRIPT_312 = '''import torch
from transformers import AutoModelForCausalLM, AutoTokenizer, Trainer, TrainingArguments

def fmt(item):
    return f"{item["question"]}\\n\\nAnswer: {item["answer"]}"

model = AutoModelForCausalLM.from_pretrained("Qwen/Qwen2.5-1.5B", torch_dtype=torch.bfloat16,
                                             attn_implementation="flash_attention_2")
args = TrainingArguments(output_dir="out", bf16=True, per_device_train_batch_size=4)
trainer = Trainer(model=model, args=args)
trainer.train()
'''


def test_a_script_with_newer_python_syntax_is_read_around_it(tmp_path):  # NEW (on Python < 3.12)
    got = _read(tmp_path, "sft.py", SCRIPT_312)
    assert got[:3] == ("transformers", ["fa2"], "bfloat16"), got


BRANCHED = '''import torch
from transformers import AutoModelForCausalLM, TrainingArguments

if torch.cuda.is_bf16_supported():
    compute_dtype = torch.bfloat16
else:
    compute_dtype = torch.float16
model = AutoModelForCausalLM.from_pretrained("m", torch_dtype=compute_dtype)
args = TrainingArguments(output_dir="o")
'''


def test_a_dtype_chosen_by_a_branch_is_decided_at_run_time(tmp_path):  # NEW
    assert _read(tmp_path, "t.py", BRANCHED)[2] == "", _read(tmp_path, "t.py", BRANCHED)


def test_a_dtype_set_twice_without_a_branch_is_the_last(tmp_path):
    text = BRANCHED.replace("if torch.cuda.is_bf16_supported():\n    compute_dtype = torch.bfloat16\nelse:\n    "
                            "compute_dtype = torch.float16\n",
                            "compute_dtype = torch.float16\ncompute_dtype = torch.bfloat16\n")
    assert _read(tmp_path, "t2.py", text)[2] == "bfloat16"


def test_only_sd_scripts_tools_is_no_training(tmp_path):  # NEW
    text = ("mkdir -p /workspace/data && cd /workspace/kohya_ss\n"
            "/workspace/kohya_ss/venv/bin/python3 finetune/make_captions.py --batch_size=2 --num_beams=3 "
            "--caption_extension=.caption /workspace/data/10_ohwx\n")
    msg = _refusal(tmp_path, "prep.sh", text)
    assert "make_captions.py" in msg, msg


def test_only_sd_scripts_tools_several(tmp_path):
    text = ("cd /workspace/kohya_ss\n"
            "./venv/bin/python finetune/tag_images_by_wd14_tagger.py --batch_size 4 --caption_extension .txt /data/img\n"
            "./venv/bin/python networks/merge_lora.py --save_to out.safetensors --models a.safetensors --ratios 1\n")
    msg = _refusal(tmp_path, "prep.sh", text)
    assert "tag_images_by_wd14_tagger.py" in msg or "merge_lora.py" in msg, msg


def test_tools_then_training_is_the_training(tmp_path):
    text = ("python finetune/make_captions.py --caption_extension .txt /data/img\n"
            "accelerate launch train_network.py --pretrained_model_name_or_path m.safetensors --train_data_dir /data "
            "--output_dir out --network_module networks.lora --xformers --mixed_precision fp16\n")
    assert _read(tmp_path, "all.sh", text)[:3] == ("sd-scripts", ["xformers"], "float16")


def test_llamafactory_src_train_in_its_checkout(tmp_path):  # NEW
    (tmp_path / "q.yaml").write_text("model_name_or_path: Qwen/Qwen2.5-3B\nstage: sft\ndo_train: true\n"
                                     "finetuning_type: full\ntemplate: qwen\nflash_attn: sdpa\nfp16: true\n")
    text = "set -e\ncd ~/src/LLaMA-Factory\nCFG=${1:-q.yaml}\npython src/train.py $CFG\n"
    assert _read(tmp_path, "train.sh", text)[:3] == ("llama-factory", ["sdpa"], "float16")
    # the config elsewhere, not here: only the trainer is known
    assert _read(tmp_path, "t2.sh", "cd /workspace/LlamaFactory && python src/train.py /cfg/x.yaml\n")[:2] == \
        ("llama-factory", [])


def test_src_train_of_another_project_is_not_llamafactory(tmp_path):
    msg = _refusal(tmp_path, "t.sh", "cd ~/projects/my-vlm\npython src/train.py configs/base.yaml\n")
    assert "train.py" in msg
