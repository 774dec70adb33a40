"""Helper cfg40 (session 9, issue 24): the mechanisms behind round 33m's misses once it became training material (its
README, "Read after its final measurement"). Each has variants written here (another trainer, script, spelling or layout
of the same shape) and near misses that must keep what they read or stay refused.

1. Unsloth: the model a notebook trains is the last one it loads before its last `trainer.train()`; a load after it
   reloads the saved adapter to generate, merge or export. And a name the notebook assigns again further on
   (`dtype = ...` in a later cell) holds, where the model is loaded, the value assigned last before that line.
2. A shell variable that holds a script (`CMD="... echo \\"host=\\$(hostname)\\" ... python train.py ..."`) run by
   `bash -c "$CMD"` (behind srun): an escaped `\\$(` is literal text, not a command's output, and "$CMD" is one word
   whatever quotes it holds, so the command inside is read.
3. A script whose HfArgumentParser fills transformers' TrainingArguments (or a subclass of its own) takes every
   TrainingArguments field on the command line (`--num_train_epochs`, `--bf16 True`), declared in the script or not;
   the launcher's `--bf16` / `--fp16` / `--torch_compile` are the Trainer's.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from configs_corpus import reading

from attn_doctor import configs
from attn_doctor.configs.shell_words import expand
from attn_doctor.model import UsageError


def put(root: Path, files: dict) -> None:
    for name, text in files.items():
        p = root / name
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text, encoding="utf-8", newline="")


def load(root: Path, name: str) -> tuple:
    return reading(configs.load(str(root / name)))


def refused(root: Path, name: str) -> str:
    with pytest.raises(UsageError) as err:
        configs.load(str(root / name))
    return str(err.value).replace(str(root), "")


# --- 1. Unsloth: the trained load, and the value a reassigned name holds there -------------------------------------------

UNSLOTH_RELOAD = '''from unsloth import FastLanguageModel, is_bfloat16_supported
import torch
from trl import {config}, {trainer}

dtype = torch.bfloat16 if is_bfloat16_supported() else torch.float16
model, tokenizer = FastLanguageModel.from_pretrained(model_name="unsloth/Qwen2.5-0.5B", max_seq_length=2048,
                                                     dtype={load_dtype}, load_in_4bit=True)
model = FastLanguageModel.get_peft_model(model, r=16)
args = {config}(output_dir="out", fp16=(dtype == torch.float16), bf16=(dtype == torch.bfloat16))
trainer = {trainer}(model=model, args=args, train_dataset=ds, processing_class=tokenizer)
trainer.train()
model.save_pretrained("adapter")

{reload_assign}
base, tok = FastLanguageModel.from_pretrained(model_name="unsloth/Qwen2.5-0.5B", max_seq_length=2048,
                                              dtype={reload_dtype}, load_in_4bit=True)
'''


@pytest.mark.parametrize("config,trainer,load_dtype,reload_assign,reload_dtype", [
    # a later cell sets the same name again for the reload (round 33m's DPO notebook)
    ("DPOConfig", "DPOTrainer", "dtype", "dtype = torch.float16 if torch.cuda.is_available() else torch.float32",
     "dtype"),
    # the reload's dtype written in the call (round 33m's GRPO notebook), the trained load's too
    ("GRPOConfig", "GRPOTrainer", "torch.bfloat16 if is_bfloat16_supported() else torch.float16", "pass",
     "torch.float16"),
    # an SFT run, the reload in float32 under another variable name
    ("SFTConfig", "SFTTrainer", "dtype", "infer_dtype = torch.float32", "infer_dtype"),
])
def test_a_load_after_training_is_not_the_trained_model(tmp_path, config, trainer, load_dtype, reload_assign,
                                                         reload_dtype):
    put(tmp_path, {"nb.py": UNSLOTH_RELOAD.format(config=config, trainer=trainer, load_dtype=load_dtype,
                                                  reload_assign=reload_assign, reload_dtype=reload_dtype)})
    assert load(tmp_path, "nb.py") == ("unsloth", [], "", "none")  # the GPU decides (is_bfloat16_supported)


def test_the_trained_loads_own_dtype_is_still_read(tmp_path):
    """Near miss: the model trained is loaded with a literal dtype, the reload after training in another one."""
    text = UNSLOTH_RELOAD.format(config="SFTConfig", trainer="SFTTrainer", load_dtype="torch.bfloat16",
                                 reload_assign="pass", reload_dtype="torch.float16")
    put(tmp_path, {"nb.py": text})
    assert load(tmp_path, "nb.py")[2] == "bfloat16"


def test_a_reassigned_name_before_the_load_is_the_value_it_holds(tmp_path):
    """Near miss: the name is set twice before the load, both times at the top level: the later one is used."""
    put(tmp_path, {"nb.py": '''from unsloth import FastLanguageModel
import torch
from trl import SFTConfig, SFTTrainer

dtype = torch.float16
dtype = torch.bfloat16
model, tokenizer = FastLanguageModel.from_pretrained("unsloth/Qwen2.5-0.5B", dtype=dtype, load_in_4bit=True)
trainer = SFTTrainer(model=model, args=SFTConfig(output_dir="o"), train_dataset=ds)
trainer.train()
'''})
    assert load(tmp_path, "nb.py")[2] == "bfloat16"


def test_a_notebook_with_no_training_call_keeps_its_last_load(tmp_path):
    """Near miss: no `trainer.train()` (a loading-only notebook): the last load is the one read, as before."""
    put(tmp_path, {"nb.py": '''from unsloth import FastLanguageModel
import torch
model, tok = FastLanguageModel.from_pretrained("unsloth/Qwen2.5-0.5B", dtype=torch.bfloat16)
model, tok = FastLanguageModel.from_pretrained("unsloth/Qwen2.5-1.5B", dtype=torch.float16)
'''})
    assert load(tmp_path, "nb.py")[2] == "float16"


# --- 2. a script in a variable, run by bash -c "$CMD" ---------------------------------------------------------------------

TRL_YAML = "model_name_or_path: Qwen/Qwen2.5-0.5B\nattn_implementation: flash_attention_2\ntorch_dtype: bfloat16\n" \
           "dataset_name: trl-lib/Capybara\nlearning_rate: 2.0e-5\nuse_peft: true\nlora_r: 16\n"


@pytest.mark.parametrize("job", [
    # a Slurm job (round 33m's single-GPU job, another script and config name)
    '''#!/bin/bash
#SBATCH --nodes=1
CMD="
    echo \\"[srun] rank=\\$SLURM_PROCID host=\\$(hostname)\\"
    cd $PROJECT_DIR
    python sft.py --config configs/run.yaml
"
srun --environment=$ENVIRONMENT bash -c "$CMD"
''',
    # the variable spelt ${...}, a backtick substitution escaped, run by plain bash -c
    '''#!/bin/bash
RUN="
  echo \\"started at \\`date\\`\\"
  accelerate launch sft.py --config configs/run.yaml
"
bash -c "${RUN}"
''',
])
def test_a_command_string_with_escaped_substitutions_is_read(tmp_path, job):
    put(tmp_path, {"scripts/job.sbatch": job, "configs/run.yaml": TRL_YAML})
    assert load(tmp_path, "scripts/job.sbatch") == ("transformers", ["fa2"], "bfloat16", "none")


def test_a_value_that_is_a_commands_output_stays_unknown():
    """Near miss: an unescaped `$(...)` with quotes in it is a command's output: the reference stays as written."""
    env = {"SCRIPT": '$(python -c "import x; print(x.__file__)")'}
    assert expand('torchrun "$SCRIPT" --a 1', env) == 'torchrun "$SCRIPT" --a 1'


def test_a_quoted_reference_keeps_its_value_one_word():
    """The quotes inside a value are literal (bash never re-reads them): escaped, so the word stays one."""
    env = {"CMD": 'echo "hi there" && python x.py'}
    assert expand('bash -c "$CMD"', env) == 'bash -c "echo \\"hi there\\" && python x.py"'
    assert expand('bash -c $CMD', env) == 'bash -c echo "hi there" && python x.py'  # unquoted: pasted as it is


# --- 3. TrainingArguments fields a script inherits -------------------------------------------------------------------

SCRIPT = '''import torch
import transformers
from dataclasses import dataclass, field
from typing import Optional
{imports}

@dataclass
class ModelArguments:
    model_name_or_path: Optional[str] = field(default="deepseek-ai/deepseek-coder-1.3b-instruct")

@dataclass
class DataArguments:
    data_path: str = field(default=None)

{args_class}

def train():
    parser = transformers.HfArgumentParser((ModelArguments, DataArguments, {parsed}))
    model_args, data_args, training_args = parser.parse_args_into_dataclasses()
    model = transformers.AutoModelForCausalLM.from_pretrained(model_args.model_name_or_path{load})
    trainer = Trainer(model=model, args=training_args)
    trainer.train()

if __name__ == "__main__":
    train()
'''
SUBCLASS = '''@dataclass
class TrainingArguments(transformers.TrainingArguments):
    cache_dir: Optional[str] = field(default=None)
    model_max_length: int = field(default=512)'''
OWN_NAME = '''@dataclass
class MyTrainingArguments(TrainingArguments):
    model_max_length: int = field(default=512)'''


@pytest.mark.parametrize("imports,args_class,parsed,loading,flags,want", [
    # round 33m's shape: a subclass named TrainingArguments, bf16 weights and --bf16 True
    ("from transformers import Trainer", SUBCLASS, "TrainingArguments", ", torch_dtype=torch.bfloat16",
     "--bf16 True --num_train_epochs 3 --lr_scheduler_type cosine --model_max_length 1024", "bfloat16"),
    # a subclass under its own name, no dtype at load: the launcher's bare --fp16 flag is the run's precision
    ("from transformers import Trainer, TrainingArguments", OWN_NAME, "MyTrainingArguments", "",
     "--fp16 --per_device_train_batch_size 4 --gradient_checkpointing True --model_max_length 2048", "float16"),
    # transformers' TrainingArguments itself, handed to HfArgumentParser
    ("from transformers import Trainer, TrainingArguments", "", "TrainingArguments", "",
     "--bf16 True --warmup_steps 30 --save_strategy steps --report_to tensorboard", "bfloat16"),
])
def test_inherited_training_arguments_options_are_the_scripts(tmp_path, imports, args_class, parsed, loading, flags,
                                                             want):
    put(tmp_path, {
        "finetune.py": SCRIPT.format(imports=imports, args_class=args_class, parsed=parsed, load=loading),
        "finetune.sh": f"#!bash\npython finetune.py \\\n    --model_name_or_path deepseek-ai/deepseek-coder-1.3b-instruct \\\n"
                       f"    --data_path ./train.json --output_dir ./out {flags}",
    })
    assert load(tmp_path, "finetune.sh") == ("transformers", [], want, "none")


def test_a_launchers_torch_compile_reaches_the_trainer(tmp_path):
    put(tmp_path, {
        "finetune.py": SCRIPT.format(imports="from transformers import Trainer", args_class=SUBCLASS,
                                     parsed="TrainingArguments", load=""),
        "finetune.sh": "python finetune.py --output_dir o --torch_compile True --torch_compile_mode max-autotune\n",
    })
    assert load(tmp_path, "finetune.sh")[3] == "max-autotune"


def test_a_plain_dataclass_does_not_inherit_training_arguments(tmp_path):
    """Near miss: the script's own arguments class extends no TrainingArguments: an option it does not declare is not
    its argparse's, and the launch is refused with the command that reads the script."""
    plain = '''@dataclass
class TrainingArguments:
    output_dir: str = field(default="out")
    model_max_length: int = field(default=512)'''
    put(tmp_path, {
        "finetune.py": SCRIPT.format(imports="from transformers import Trainer", args_class=plain,
                                     parsed="TrainingArguments", load=", torch_dtype=torch.bfloat16"),
        "finetune.sh": "python finetune.py --output_dir o --bf16 True --num_train_epochs 3\n",
    })
    assert "a script of its own, with options attn-doctor does not read" in refused(tmp_path, "finetune.sh")


def test_an_option_no_training_arguments_field_has_is_still_refused(tmp_path):
    """Near miss: a TrainingArguments subclass, but an option neither it nor TrainingArguments has (a typo)."""
    put(tmp_path, {
        "finetune.py": SCRIPT.format(imports="from transformers import Trainer", args_class=SUBCLASS,
                                     parsed="TrainingArguments", load=""),
        "finetune.sh": "python finetune.py --output_dir o --bf16 True --num_train_epoch 3\n",
    })
    assert "a script of its own, with options attn-doctor does not read" in refused(tmp_path, "finetune.sh")
