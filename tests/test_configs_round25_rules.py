"""Issue 24, round 25: the reader changes round 25's misses asked for, with variants written for this test (what each
fakes is in its text) and near misses that must keep their reading:
- LLaMA-Factory's CLI given a config path the launching Python script computes (`str(cfg_path)`, an f-string, a
  variable) and writes a dict of its own to (`cfg_path.write_text(yaml.safe_dump(cfg))`, `yaml.dump(cfg, fh)`): the
  settings are that dict's, as they already were for a literal `x.yaml` (llamafactory._settings / _dumped);
- a config dumped to a path held in a variable the script spells out (`cfg_path = OUT / "x.yaml"`,
  `os.path.join("configs", "qlora.yml")`) is also the one a launch naming that path reads (launchers.literal_path in
  python_dumped_configs), for every reader that takes dumped configs;
- a shell script whose training is Python written inside it, `python -c "..."` or `python - <<'EOF' ... EOF`, with
  no command that trains by name: the file is read as that Python script (launchers.inline_python, configs.make_doc).
  Inline code counts only when it calls a trainer's .train(); a check (`python -c "import torch; ..."`) or a
  post-processing step does not.
Run against the code before this change (c77477b), the variants marked NEW fail there; the rest pass there too and
guard that the old readings hold."""

from __future__ import annotations

from configs_corpus import read as _read, refusal as _refusal

# ---------------------------------------------------------------------------------------------------------------------
# LLaMA-Factory: a config the wrapper writes to a path it computes
# ---------------------------------------------------------------------------------------------------------------------

LF_WRITE_TEXT = '''\
"""Build a LoRA config and hand it to llamafactory-cli (a user's wrapper)."""
import subprocess
import tempfile
from pathlib import Path

import yaml


def train(model: str, epochs: float) -> None:
    cfg = {
        "model_name_or_path": model,
        "stage": "sft",
        "do_train": True,
        "finetuning_type": "lora",
        "dataset": "my_data",
        "template": "qwen",
        "num_train_epochs": epochs,
        "fp16": True,
    }
    cfg_path = Path(tempfile.mkdtemp()) / "train_lora.yaml"
    cfg_path.write_text(yaml.safe_dump(cfg, sort_keys=False), encoding="utf-8")
    subprocess.run(["llamafactory-cli", "train", str(cfg_path)], check=True)
'''

LF_OPEN_DUMP = '''\
import os
import yaml

config_file = os.path.join(os.environ.get("WORK", "/tmp"), "sft.yaml")
settings = dict(stage="sft", do_train=True, model_name_or_path="Qwen/Qwen2.5-7B-Instruct", dataset="alpaca_en_demo",
                template="qwen", finetuning_type="lora", flash_attn="fa2", bf16=True, output_dir="saves/x")
with open(config_file, "w") as fh:
    yaml.dump(settings, fh)
os.system(f"llamafactory-cli train {config_file}")
'''

LF_NOTHING_WRITTEN = '''\
import subprocess
import sys

cfg = sys.argv[1]  # the user's own YAML, given on the command line
subprocess.run(["llamafactory-cli", "train", cfg], check=True)
'''

OWN_TRAINER_DUMP = '''\
import subprocess
from pathlib import Path

import yaml

cfg = {"model": "llama", "lr": 1e-4, "bf16": True, "epochs": 3}
path = Path("cfg") / "run.yaml"
path.write_text(yaml.safe_dump(cfg))
subprocess.run(["python", "my_train.py", str(path)], check=True)
'''


def test_lf_wrapper_writes_the_config_it_hands_the_cli(tmp_path):  # NEW
    assert _read(tmp_path, "train.py", LF_WRITE_TEXT) == ("llama-factory", [], "float16", "none")


def test_lf_wrapper_dumps_to_a_joined_path_and_runs_an_fstring(tmp_path):  # NEW
    assert _read(tmp_path, "launch.py", LF_OPEN_DUMP) == ("llama-factory", ["fa2"], "bfloat16", "none")


def test_lf_wrapper_that_writes_nothing_tells_only_the_trainer(tmp_path):
    got = _read(tmp_path, "run.py", LF_NOTHING_WRITTEN)
    assert got[0] == "llama-factory" and got[1] == [] and got[2] == ""


def test_near_miss_a_dumped_config_for_the_repository_s_own_trainer_stays_refused(tmp_path):
    msg = _refusal(tmp_path, "wrapper.py", OWN_TRAINER_DUMP)
    assert "my_train.py" in msg


LF_CONSTANT_PATH = '''\
import subprocess
from pathlib import Path

import yaml

OUT = Path("runs")


def train(model: str) -> None:
    cfg = {"model_name_or_path": model, "stage": "sft", "do_train": True, "finetuning_type": "lora",
           "dataset": "my_data", "template": "qwen", "fp16": True}
    cfg_path = OUT / "train_lora.yaml"
    cfg_path.write_text(yaml.safe_dump(cfg), encoding="utf-8")
    subprocess.run(["llamafactory-cli", "train", str(cfg_path)], check=True)
'''

AXOLOTL_JOINED_PATH = '''\
import os
import subprocess
from pathlib import Path

import yaml

cfg = {"base_model": "NousResearch/Meta-Llama-3-8B", "adapter": "qlora", "load_in_4bit": True, "sequence_len": 2048,
       "sample_packing": True, "flash_attention": True, "bf16": True, "micro_batch_size": 2,
       "datasets": [{"path": "data.jsonl", "type": "alpaca"}]}
cfg_file = os.path.join("configs", "qlora.yml")
Path(cfg_file).write_text(yaml.dump(cfg))
subprocess.run(["accelerate", "launch", "-m", "axolotl.cli.train", cfg_file], check=True)
'''

LF_OTHER_FILE = '''\
import subprocess
from pathlib import Path

import yaml

cfg = {"stage": "sft", "do_train": True, "model_name_or_path": "m", "dataset": "d", "template": "qwen",
       "finetuning_type": "lora", "fp16": True}
written = Path("runs") / "draft.yaml"
written.write_text(yaml.safe_dump(cfg))
subprocess.run(["llamafactory-cli", "train", "runs/final.yaml"], check=True)
'''


def test_lf_config_dumped_to_a_path_the_script_spells_out(tmp_path):  # NEW
    assert _read(tmp_path, "train.py", LF_CONSTANT_PATH) == ("llama-factory", [], "float16", "none")


def test_axolotl_config_dumped_to_an_os_path_join(tmp_path):  # NEW
    got = _read(tmp_path, "launch.py", AXOLOTL_JOINED_PATH)
    assert got[:3] == ("axolotl", ["fa2"], "bfloat16")


def test_near_miss_a_dump_to_another_file_is_not_the_config_run(tmp_path):
    # the script writes runs/draft.yaml and trains on runs/final.yaml, which is not here: its settings are unknown
    got = _read(tmp_path, "train.py", LF_OTHER_FILE)
    assert got[0] == "llama-factory" and got[2] == ""


# ---------------------------------------------------------------------------------------------------------------------
# Python written inside a shell script
# ---------------------------------------------------------------------------------------------------------------------

INLINE_C_TRAINER = r'''#!/bin/bash
set -euo pipefail
OUT=out/lora
mkdir -p "$OUT"
python3 -c "
import torch
from transformers import AutoModelForCausalLM, TrainingArguments, Trainer

model = AutoModelForCausalLM.from_pretrained('meta-llama/Llama-3.2-1B')
args = TrainingArguments(output_dir='$OUT', bf16=True, per_device_train_batch_size=4)
trainer = Trainer(model=model, args=args, train_dataset=None)
trainer.train()
print(f\"done: {args.output_dir}\")
" 2>&1 | tee -a train.log
if [[ -f deploy.sh ]]; then
    bash deploy.sh "$OUT"
fi
'''

HEREDOC_TRL = r'''#!/usr/bin/env bash
#SBATCH --gres=gpu:1
module load cuda
srun python - <<'PY'
from transformers import AutoModelForCausalLM
from trl import SFTConfig, SFTTrainer

model = AutoModelForCausalLM.from_pretrained("Qwen/Qwen2.5-0.5B", attn_implementation="flash_attention_2",
                                             torch_dtype="bfloat16")
trainer = SFTTrainer(model=model, args=SFTConfig(output_dir="o", bf16=True), train_dataset=None)
trainer.train()
PY
echo finished
'''

HEREDOC_UNSLOTH = '''\
#!/bin/bash
python3 <<EOF
from unsloth import FastLanguageModel
from trl import SFTTrainer, SFTConfig

model, tok = FastLanguageModel.from_pretrained("unsloth/Llama-3.2-1B", dtype=None, load_in_4bit=True)
trainer = SFTTrainer(model=model, tokenizer=tok, args=SFTConfig(output_dir="o", fp16=True))
trainer.train()
EOF
'''

CHECK_THEN_OTHER_SCRIPT = '''\
#!/bin/bash
python -c "import torch; print(torch.cuda.is_available())"
bash scripts/run_job.sh
'''

PLAIN_TORCH_LOOP = r'''#!/bin/bash
python -c "
import torch
model = torch.nn.Linear(4, 4)
model.train()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
"
'''

POSTPROCESS_HEREDOC = '''\
#!/bin/bash
python -m mlx_lm lora --model mlx-community/Qwen2.5-7B-Instruct-4bit --train --data data --iters 400
python - "$ADAPTERS" <<'PY'
import shutil, sys
shutil.copyfile(sys.argv[1] + "/0000400_adapters.safetensors", sys.argv[1] + "/adapters.safetensors")
PY
'''


def test_inline_c_trainer_is_read_as_its_python(tmp_path):  # NEW
    assert _read(tmp_path, "train_lora.sh", INLINE_C_TRAINER) == ("transformers", [], "bfloat16", "none")


def test_heredoc_trl_script_is_read_as_its_python(tmp_path):  # NEW
    assert _read(tmp_path, "job.sbatch", HEREDOC_TRL) == ("transformers", ["fa2"], "bfloat16", "none")


def test_heredoc_unsloth_script_is_read_as_its_python(tmp_path):  # NEW
    got = _read(tmp_path, "ft.sh", HEREDOC_UNSLOTH)
    assert got[0] == "unsloth" and got[1] == [] and got[2] == "float16"


def test_near_miss_a_cuda_check_does_not_make_the_file_a_script(tmp_path):
    msg = _refusal(tmp_path, "run.sh", CHECK_THEN_OTHER_SCRIPT)
    assert "run_job.sh" in msg


def test_near_miss_a_plain_pytorch_inline_loop_stays_refused(tmp_path):
    # (`model.train()` is a module's training mode, not a trainer: the inline code is read, and no reader claims it)
    assert "no trainer calls" in _refusal(tmp_path, "loop.sh", PLAIN_TORCH_LOOP)


def test_near_miss_an_mlx_run_with_a_python_post_step_stays_mlx(tmp_path):
    msg = _refusal(tmp_path, "train_lora.sh", POSTPROCESS_HEREDOC)
    assert "mlx" in msg.lower()
