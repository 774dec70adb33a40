"""Round 65 read as training material (helper cfg65): the reader changes its half A asked for, each on variants written
here (other names, layouts, trainers, spellings), and the cases that must stay as they were.

- bash's `time [-p]` is a reserved word in front of a pipeline, as `!` is: assignments after it are the command's
  prefixes (`time CUDA_VISIBLE_DEVICES=$DEVICES ./train-unsloth.py "$LOG"`), not its program;
- inside double quotes the word of `${2:-"-m axolotl.cli.train"}` loses its own quotes (bash's quote removal);
- a double-quoted value over several lines that closes and reopens its quote after a word (`--rdzv_conf
  "r=$HOST:$PORT" \\`) is one value, and the `\\$(hostname -s|tr -dc '0-9')` it escapes for the shell that
  `srun bash -c "$CMD"` starts is one word of that shell (a substitution of its own, its `|` inside);
- a value holding a quote-free command substitution (a variable expanded into it) beside a quoted word elsewhere is
  the script's own text, not a command's output; `V=$(python -c "...")` still is one;
- a launcher's positional words to a script that reads its command line only as `sys.argv[N]` land there and set
  nothing else: the script's reading is the run's; an option word (`--lr 1e-4`) keeps the refusal;
- a config a job names by its bare name after `cd`-ing to a folder this machine does not have (the user's cluster
  checkout) is the one file of that name in a folder beside the job's (train/slurm/x.slurm, train/ablations/x.yaml);
  two such files, or no `cd` away, leave it unread;
- an entry script with no trainer calls that calls functions it imports from modules of its repository (main.py:
  `from model.loader import load_model`) runs their trainer calls: read through them, one import deep;
- an array assigned in a branch the script settles false is never assigned (`BF16_FLAGS=(--bf16 true)` / else);
- (from half B, after its measurement) a user's script that only wraps ms-swift's entry point (`from swift.pipelines
  import sft_main; sft_main()` after a patch) is `swift sft` on its own command line: a launch that runs it is read as
  `swift sft OPTIONS`, and the file alone as `swift sft`; an entry called with arguments, or a file that assigns
  sys.argv first, is not this form."""

from __future__ import annotations

import pytest

from attn_doctor import configs
from attn_doctor.model import UsageError
from configs_corpus import read, reading, write

UNSLOTH_SCRIPT = '''#!/usr/bin/env python
import sys
from unsloth import FastLanguageModel, is_bfloat16_supported
from trl import SFTTrainer
from transformers import TrainingArguments

log_file = sys.argv[1]
model, tokenizer = FastLanguageModel.from_pretrained(model_name="unsloth/Llama-3.2-3B", max_seq_length=2048,
                                                     dtype=None, load_in_4bit=True)
trainer = SFTTrainer(model=model, train_dataset=ds, tokenizer=tokenizer,
                     args=TrainingArguments(output_dir="out", bf16={bf16}, fp16=False))
trainer.train()
'''


@pytest.mark.parametrize("line", [
    'time CUDA_VISIBLE_DEVICES=$DEVICES ./train_u.py "$LOG_FILE" | tee -a "$LOG_FILE"',
    'time -p CUDA_VISIBLE_DEVICES=0 HF_HOME=/tmp/hf python train_u.py run.log',
    'time CUDA_VISIBLE_DEVICES=0 python3 train_u.py',
])
def test_time_then_assignments_runs_the_script(tmp_path, line):
    write(tmp_path, "train_u.py", UNSLOTH_SCRIPT.format(bf16="True"))
    text = ('#!/bin/bash\nDEVICES=1\nLOG_FILE="run-$(date +%s).log"\nsource "/opt/mambaforge/etc/profile.d/conda.sh"\n'
            'mamba activate unsloth\n' + line + "\n")
    assert read(tmp_path, "go.sh", text) == ("unsloth", [], "bfloat16", "none")


def test_positional_words_reach_sys_argv_only(tmp_path):
    write(tmp_path, "train_u.py", UNSLOTH_SCRIPT.format(bf16="False"))
    assert read(tmp_path, "go.sh", "#!/bin/bash\npython train_u.py logs/run1.log\n") == ("unsloth", [], "", "none")


def test_an_option_word_to_a_sys_argv_script_is_still_refused(tmp_path):
    write(tmp_path, "train_u.py", UNSLOTH_SCRIPT.format(bf16="True"))
    with pytest.raises(UsageError) as err:
        configs.load(write(tmp_path, "go.sh", "#!/bin/bash\npython train_u.py --lr 1e-4\n"))
    assert "a script of its own, with options attn-doctor does not read" in str(err.value)


def test_a_script_handing_sys_argv_on_whole_is_not_taken_as_positional_only(tmp_path):
    text = UNSLOTH_SCRIPT.format(bf16="True").replace("log_file = sys.argv[1]", "cfg = load(sys.argv)")
    write(tmp_path, "train_u.py", text)
    with pytest.raises(UsageError):
        configs.load(write(tmp_path, "go.sh", "#!/bin/bash\npython train_u.py run.log\n"))


@pytest.mark.parametrize("program", ['${2:-"-m axolotl.cli.train"}', "${PROG:-\"-m axolotl.cli.train\"}"])
def test_quoted_default_inside_double_quotes(tmp_path, program):
    write(tmp_path, "qlora.yml", "base_model: NousResearch/Llama-3.2-1B\nadapter: qlora\nbf16: true\n"
                                 "flash_attention: true\n")
    text = ('#!/bin/bash\nLAUNCHER="accelerate launch --num_processes 8 "\nexport PROGRAM="\\\n    ' + program +
            ' \\\n    qlora.yml \\\n"\nexport CMD="$LAUNCHER $PROGRAM"\nsrun bash -c "$CMD" 2>&1 | tee -a log\n')
    assert read(tmp_path, "job.slurm", text) == ("axolotl", ["fa2"], "bfloat16", "none")


MULTILINE = '''#!/bin/bash
#SBATCH --nodes=2
MASTER_ADDR=$(scontrol show hostnames $SLURM_JOB_NODELIST | head -n 1)
MASTER_PORT=6000
LAUNCHER="python -u -m accelerate.commands.launch \\
    --rdzv_conf "rdzv_backend=c10d,rdzv_endpoint=$MASTER_ADDR:$MASTER_PORT" \\
    --machine_rank \\$SLURM_PROCID \\
    --role \\$(hostname -s|tr -dc '0-9'): --tee 3 \\
    "
CMD="$LAUNCHER {program}"
srun --jobid $SLURM_JOB_ID bash -c "$CMD" 2>&1 | tee -a main_log.txt
'''


def test_reopened_quote_and_escaped_substitution_in_a_launcher_variable(tmp_path):
    write(tmp_path, "sft.yaml", "base_model: Qwen/Qwen3-8B\nbf16: auto\nflash_attention: true\n")
    assert read(tmp_path, "multi.slurm", MULTILINE.format(program="-m axolotl.cli.train sft.yaml")) == \
        ("axolotl", ["fa2"], "bfloat16", "none")


def test_same_launcher_with_a_script_of_a_trainer(tmp_path):
    program = ("train_text_to_image_lora.py --pretrained_model_name_or_path=runwayml/stable-diffusion-v1-5 "
               "--mixed_precision=fp16 --enable_xformers_memory_efficient_attention")
    assert read(tmp_path, "multi.slurm", MULTILINE.format(program=program)) == \
        ("diffusers", ["xformers"], "float16", "none")


def test_a_substitution_with_quotes_of_its_own_stays_unknown(tmp_path):
    text = ('#!/bin/bash\nATTN=$(python -c "import os; print(os.environ.get(\'A\', \'sdpa\'))")\n'
            'swift sft --model Qwen/Qwen3-8B --attn_impl $ATTN --torch_dtype bfloat16\n')
    got = configs.load(write(tmp_path, "s.sh", text))
    assert got["detected"]["trainer"] == "ms-swift" and got["required"] == []


SLURM = '''#!/bin/bash
#SBATCH --job-name={name}
AXOLOTL_CFG={name}.yaml
source /fsx/user/.bashrc
cd /fsx/user/axolotl
CMD="-m axolotl.cli.train $AXOLOTL_CFG"
LAUNCHER="accelerate launch --multi_gpu --dynamo_backend no --mixed_precision bf16 --num_machines $NNODES"
srun --wait=60 --jobid $SLURM_JOB_ID bash -c "$LAUNCHER $CMD"
'''
SIBLING_YAML = "base_model: meta-llama/Llama-3.1-8B\nsample_packing: true\nbf16: auto\nflash_attention: true\n"


def test_config_named_after_cd_away_is_the_sibling_folders_one(tmp_path):
    (tmp_path / "train" / "jobs").mkdir(parents=True)
    (tmp_path / "train" / "experiments").mkdir()
    (tmp_path / "train" / "experiments" / "lr-sweep.yaml").write_text(SIBLING_YAML)
    p = tmp_path / "train" / "jobs" / "lr-sweep.slurm"
    p.write_text(SLURM.format(name="lr-sweep"))
    assert reading(configs.load(str(p))) == ("axolotl", ["fa2"], "bfloat16", "none")


def test_two_sibling_copies_leave_it_unread(tmp_path):
    (tmp_path / "train" / "jobs").mkdir(parents=True)
    for d in ("a", "b"):
        (tmp_path / "train" / d).mkdir()
        (tmp_path / "train" / d / "lr-sweep.yaml").write_text(SIBLING_YAML)
    p = tmp_path / "train" / "jobs" / "lr-sweep.slurm"
    p.write_text(SLURM.format(name="lr-sweep"))
    got = configs.load(str(p))
    assert reading(got) == ("axolotl", [], "", "none") and "lr-sweep.yaml" in got["unread"]


def test_without_a_cd_away_a_sibling_is_not_looked_for(tmp_path):
    (tmp_path / "train" / "jobs").mkdir(parents=True)
    (tmp_path / "train" / "experiments").mkdir()
    (tmp_path / "train" / "experiments" / "lr-sweep.yaml").write_text(SIBLING_YAML)
    p = tmp_path / "train" / "jobs" / "lr-sweep.slurm"
    p.write_text(SLURM.format(name="lr-sweep").replace("cd /fsx/user/axolotl\n", ""))
    got = configs.load(str(p))
    assert reading(got) == ("axolotl", [], "", "none") and "lr-sweep.yaml" in got["unread"]


ENTRY = '''from {pkg}.loader import load_model_and_tokenizer
from {train}.train import train_model


def main():
    model, tokenizer = load_model_and_tokenizer()
    train_model(model, tokenizer)


if __name__ == "__main__":
    main()
'''
LOADER = '''from unsloth import FastModel


def load_model_and_tokenizer():
    model, tokenizer = FastModel.from_pretrained(model_name="unsloth/gemma-3-4b-it", max_seq_length=2048,
                                                 load_in_4bit=False, full_finetuning=False)
    return FastModel.get_peft_model(model, r=8), tokenizer
'''
TRAIN = '''from trl import GRPOConfig, GRPOTrainer


def train_model(model, tokenizer):
    args = GRPOConfig(output_dir="outputs", learning_rate=5e-6, {prec})
    GRPOTrainer(model=model, processing_class=tokenizer, args=args, reward_funcs=[]).train()
'''


@pytest.mark.parametrize("pkg,train,prec,dtype", [
    ("model", "train_module", "max_steps=50", ""),
    ("models", "training", "bf16=True", "bfloat16"),
])
def test_entry_script_read_through_its_own_modules(tmp_path, pkg, train, prec, dtype):
    for d, name, text in ((pkg, "loader.py", LOADER), (train, "train.py", TRAIN.format(prec=prec))):
        (tmp_path / d).mkdir(exist_ok=True)
        (tmp_path / d / name).write_text(text)
    assert read(tmp_path, "main.py", ENTRY.format(pkg=pkg, train=train)) == ("unsloth", [], dtype, "none")


def test_entry_whose_modules_are_not_here_is_refused(tmp_path):
    with pytest.raises(UsageError) as err:
        configs.load(write(tmp_path, "main.py", ENTRY.format(pkg="model", train="train_module")))
    assert "no trainer calls" in str(err.value)


def test_imported_but_never_called_modules_are_not_read(tmp_path):
    (tmp_path / "model").mkdir()
    (tmp_path / "model" / "loader.py").write_text(LOADER)
    text = "from model.loader import load_model_and_tokenizer\n\nprint('see README')\n"
    with pytest.raises(UsageError):
        configs.load(write(tmp_path, "main.py", text))


@pytest.mark.parametrize("use,dtype", [("true", "bfloat16"), ("false", "float32")])
def test_array_in_a_settled_branch(tmp_path, use, dtype):
    text = (f'#!/bin/bash\nTORCH_DTYPE=float32\nUSE_BF16_MP={use}\nif [ "${{USE_BF16_MP}}" = "true" ]; then\n'
            '    BF16_FLAGS=("--bf16" "true" "--fp16" "false")\nelse\n    BF16_FLAGS=("--bf16" "false" "--fp16" "false")\n'
            'fi\nswift sft \\\n    --model /workspace/model \\\n    --torch_dtype "${TORCH_DTYPE}" \\\n'
            '    "${BF16_FLAGS[@]}" \\\n    --attn_impl flash_attention_2\n')
    assert read(tmp_path, "sft.sh", text) == ("ms-swift", ["fa2"], dtype, "none")


def test_array_in_an_unsettled_branch_keeps_the_last_value(tmp_path):
    text = ('#!/bin/bash\nif [ "$1" = "bf16" ]; then\n    FLAGS=(--bf16 true)\nelse\n    FLAGS=(--fp16 true)\nfi\n'
            'swift sft --model m --torch_dtype float32 "${FLAGS[@]}" --attn_impl sdpa\n')
    got = read(tmp_path, "sft.sh", text)
    assert (got[0], got[2]) == ("ms-swift", "float16")


WRAPPER = '''import sys
import my_patch  # noqa: F401
{imp}


if __name__ == "__main__":
    {call}
'''


@pytest.mark.parametrize("imp,call,sub", [
    ("from swift.pipelines import sft_main", "sft_main()", "sft"),
    ("from swift.llm import sft_main as run", "run()", "sft"),
    ("from swift.llm import rlhf_main", "rlhf_main()", "rlhf"),
])
def test_launch_of_a_swift_entry_wrapper_reads_as_swift(tmp_path, imp, call, sub):
    write(tmp_path, "swift_patched.py", WRAPPER.format(imp=imp, call=call))
    extra = " --rlhf_type dpo" if sub == "rlhf" else ""
    text = ("#!/bin/bash\n: \"${ATTN:=flash_attn}\"\nNPROC_PER_NODE=4 torchrun --nproc_per_node 4 swift_patched.py \\\n"
            "    --model Qwen/Qwen3-8B --torch_dtype bfloat16 --attn_impl \"${ATTN}\"" + extra + " \\\n"
            "    --dataset data.jsonl --sequence_parallel_size 2\n")
    assert read(tmp_path, "bench.sh", text) == ("ms-swift", ["fa2"], "bfloat16", "none")


def test_the_wrapper_alone_is_swift_with_no_options(tmp_path):
    text = WRAPPER.format(imp="from swift.pipelines import sft_main", call="sft_main()")
    assert read(tmp_path, "swift_patched.py", text) == ("ms-swift", [], "", "none")


@pytest.mark.parametrize("call", ["sft_main(SftArguments(model='Qwen/Qwen3-8B'))",
                                  "sys.argv = ['swift', '--model', 'x']; sft_main()"])
def test_not_a_plain_wrapper(tmp_path, call):
    """An entry given its arguments, or called after the file sets sys.argv, is read as before (not as `swift sft` on
    the file's own command line)."""
    text = WRAPPER.format(imp="from swift.llm import sft_main, SftArguments", call=call)
    try:
        got = configs.load(write(tmp_path, "w.py", text))
    except UsageError:
        return
    assert not any("on its own command line" in e for e in got["detected"]["evidence"])
