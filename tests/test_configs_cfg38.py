"""Helper cfg38 (session 9, issue 24): the mechanisms behind blind round 29m's claimed files that were refused,
taken from the cross-blind study (benchmarks/results/configs-blind-misses-s9.md). Each mechanism has variants written
here (another trainer, script, layout or spelling of the same shape) and near misses that must stay refused or keep
what they read.

1. A list of option strings ("--mixed_precision fp16", "accelerate launch ...") split into one argv, by a function of
   the script's own (`for item in CMD: result.extend(item.split())`), `" ".join(CMD).split()`, `shlex.split(...)` or a
   comprehension, then run: that command line.
2. TRL's orpo.py / cpo.py (trl/scripts/, examples/scripts/: a TRL checkout or a vendored copy) load the policy with
   `from_pretrained(model_name_or_path, trust_remote_code=...)` only: their `--attn_implementation` / `--torch_dtype`
   never reach the model. TRL's other scripts keep reading them.
3. `-m pkg.module` of the repository's own package: the module's file where Python finds it (pkg/module.py, or under
   src/ in a src layout), read as a launch file's script is.
4. A launch file whose only job is to run another shell script that is here (`bash sft.sh` in a Slurm job), with no
   arguments of its own: that script's reading.
5. A batch job that `cd`s to the directory it was submitted from (`$SLURM_SUBMIT_DIR`, `$PBS_O_WORKDIR`): its script is
   looked for in the job file's folder and the two above it.
6. A Python job spec (a Modal app) that starts the repository's own training scripts: those scripts, when they are
   here and all read as one trainer.
7. A launcher's option whose value is left to run time (`--run-name "$RUN"`) is unknown to the script; the launch is
   read with the rest of its options, not refused.
8. A training run that is an `if`'s condition (`if eval "$TRAIN_CMD"; then`, `if ! accelerate launch ...; then`) runs:
   bash runs the condition's command. A test or a query (`[ -f x ]`, `command -v accelerate`) runs nothing.
"""

from __future__ import annotations

from pathlib import Path

from configs_corpus import read, reading, refusal

from attn_doctor import configs


def put(root: Path, files: dict) -> None:
    for name, text in files.items():
        p = root / name
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text, encoding="utf-8", newline="")


def load(root: Path, name: str) -> tuple:
    return reading(configs.load(str(root / name)))


def refused(root: Path, name: str) -> str:
    import pytest

    from attn_doctor.model import UsageError

    with pytest.raises(UsageError) as err:
        configs.load(str(root / name))
    return str(err.value).replace(str(root), "")


# --- 1. a list of option strings split into one argv -----------------------------------------------------------------

SD_SCRIPTS_LIST = '''import subprocess

CMD = [
    "accelerate launch --num_cpu_threads_per_process 1",
    "sdxl_train_network.py",
    "--pretrained_model_name_or_path models/sdxl.safetensors",
    "--network_module networks.lora",
    "--mixed_precision bf16",
    "--sdpa",
    "--dataset_config dataset.toml",
]
'''


def test_list_flattened_by_a_function_of_the_script(tmp_path):
    src = SD_SCRIPTS_LIST + '''

def build_cmd():
    out = []
    for item in CMD:
        out += item.split()
    return out


def main():
    cmd = build_cmd()
    subprocess.Popen(cmd).wait()


if __name__ == "__main__":
    main()
'''
    assert read(tmp_path, "train_lora.py", src) == ("sd-scripts", ["sdpa"], "bfloat16", "none")


def test_list_flattened_by_join_split_and_shlex(tmp_path):
    src = SD_SCRIPTS_LIST + '''
subprocess.run(" ".join(CMD).split(), check=True)
'''
    assert read(tmp_path, "a.py", src) == ("sd-scripts", ["sdpa"], "bfloat16", "none")
    musubi = '''import shlex, subprocess

ARGS = [
    "accelerate launch --mixed_precision bf16",
    "src/musubi_tuner/hv_train_network.py",
    "--dit ckpts/dit.safetensors --dataset_config data.toml",
    "--flash_attn --mixed_precision bf16 --fp8_base",
    "--network_module networks.lora",
]
argv = [w for part in ARGS for w in shlex.split(part)]
subprocess.check_call(argv)
'''
    assert read(tmp_path, "b.py", musubi) == ("musubi", ["fa2"], "bfloat16", "none")
    joined = musubi.replace("argv = [w for part in ARGS for w in shlex.split(part)]", 'argv = shlex.split(" ".join(ARGS))')
    assert read(tmp_path, "c.py", joined) == ("musubi", ["fa2"], "bfloat16", "none")


def test_flattened_list_of_a_users_own_script_stays_refused(tmp_path):
    src = '''import subprocess

CMD = ["python my_trainer.py", "--lr 1e-4", "--epochs 3", "--precision fp16"]


def build():
    r = []
    for c in CMD:
        r.extend(c.split())
    return r


subprocess.run(build())
'''
    msg = refusal(tmp_path, "go.py", src)
    assert "my_trainer.py" in msg


def test_a_list_split_only_under_another_name_is_not_that_list(tmp_path):
    # the function splits a list the script never runs; what it runs is a list of its own: nothing claimed
    src = '''import subprocess

NOTES = ["accelerate launch sdxl_train_network.py", "--sdpa --mixed_precision bf16"]


def words():
    return " ".join(NOTES).split()


print(words())
subprocess.run(["nvidia-smi"])
'''
    msg = refusal(tmp_path, "n.py", src)
    assert "no trainer calls" in msg or "not a trainer config" in msg


# --- 2. TRL's orpo.py / cpo.py ---------------------------------------------------------------------------------------


def test_trl_cpo_example_script_ignores_model_config_attention(tmp_path):
    sh = '''accelerate launch examples/scripts/cpo.py \\
    --model_name_or_path Qwen/Qwen2.5-0.5B-Instruct \\
    --dataset_name trl-lib/ultrafeedback_binarized \\
    --per_device_train_batch_size 2 \\
    --learning_rate 5e-7 \\
    --gradient_accumulation_steps 8 \\
    --attn_implementation flash_attention_2 \\
    --torch_dtype bfloat16 \\
    --bf16 \\
    --output_dir out/cpo
'''
    assert read(tmp_path, "run_cpo.sh", sh) == ("transformers", [], "bfloat16", "none")


def test_vendored_trl_orpo_with_fp16(tmp_path):
    sh = '''python trl/scripts/orpo.py --model_name_or_path m --dataset_name d --output_dir o \\
  --per_device_train_batch_size 1 --num_train_epochs 1 --learning_rate 8e-6 --logging_steps 10 \\
  --attn_implementation sdpa --torch_dtype float16 --fp16 true --beta 0.1
'''
    assert read(tmp_path, "orpo_run.sh", sh) == ("transformers", [], "float16", "none")


def test_trl_dpo_script_still_reads_its_attention(tmp_path):
    # near miss: dpo.py passes ModelConfig's attn_implementation to from_pretrained (model_kwargs)
    sh = '''accelerate launch trl/scripts/dpo.py --model_name_or_path m --dataset_name d --output_dir o \\
  --per_device_train_batch_size 1 --learning_rate 5e-7 --num_train_epochs 1 \\
  --attn_implementation flash_attention_2 --torch_dtype bfloat16 --bf16 true
'''
    assert read(tmp_path, "dpo_run.sh", sh) == ("transformers", ["fa2"], "bfloat16", "none")


def test_users_own_orpo_py_stays_a_foreign_script(tmp_path):
    sh = '''python orpo.py --model_path /models/llama --use_lora --data_file prefs.jsonl --attn_implementation flash_attention_2
'''
    msg = refusal(tmp_path, "train_orpo.sh", sh)
    assert "orpo.py" in msg


# --- 3. `-m pkg.module` of the repository's own package ---------------------------------------------------------------

TRAINER_SCRIPT = '''import torch
from transformers import AutoModelForCausalLM, Trainer, TrainingArguments

model = AutoModelForCausalLM.from_pretrained("gpt2", attn_implementation="sdpa", torch_dtype=torch.bfloat16)
args = TrainingArguments(output_dir="out", bf16=True, per_device_train_batch_size=2)
Trainer(model=model, args=args).train()
'''


def test_module_in_src_layout_from_a_launcher_in_scripts(tmp_path):
    put(tmp_path, {"src/proj/training/sft.py": TRAINER_SCRIPT,
                   "scripts/launch.sh": "#!/bin/bash\naccelerate launch --num_processes 2 -m proj.training.sft\n"})
    assert load(tmp_path, "scripts/launch.sh") == ("transformers", ["sdpa"], "bfloat16", "none")


def test_module_at_the_repository_root_under_torchrun(tmp_path):
    put(tmp_path, {"mypkg/train.py": TRAINER_SCRIPT,
                   "job.sbatch": "#!/bin/bash\n#SBATCH --gres=gpu:4\nsrun torchrun --nproc_per_node 4 -m mypkg.train\n"})
    assert load(tmp_path, "job.sbatch") == ("transformers", ["sdpa"], "bfloat16", "none")


def test_module_not_here_stays_refused(tmp_path):
    put(tmp_path, {"run.sh": "#!/bin/bash\naccelerate launch -m somepkg.train --epochs 3\n"})
    assert "somepkg.train (-m)" in refused(tmp_path, "run.sh")


def test_one_part_module_is_not_looked_up(tmp_path):
    # `-m train` is as often an installed tool's as the user's: left as it was (refused, naming it)
    put(tmp_path, {"train.py": TRAINER_SCRIPT, "run.sh": "#!/bin/bash\ntorchrun --nproc_per_node 2 -m train\n"})
    assert "train" in refused(tmp_path, "run.sh")


# --- 4. a launch file that hands over to another shell script ---------------------------------------------------------

SFT_SH = '''accelerate launch trl/scripts/sft.py --model_name_or_path m --dataset_name d --output_dir o \\
  --per_device_train_batch_size 1 --learning_rate 2e-5 --num_train_epochs 1 --logging_steps 1 \\
  --attn_implementation flash_attention_2 --torch_dtype bfloat16 --bf16 true
'''


def test_slurm_job_running_a_script_beside_it(tmp_path):
    put(tmp_path, {"sft.sh": SFT_SH,
                   "job.slurm": "#!/bin/bash\n#SBATCH --nodes=1\n#SBATCH --gres=gpu:4\nsource ~/.bashrc\n"
                                "cd /scratch/me/project\nsource .venv/bin/activate\nsh ./sft.sh\n"})
    assert load(tmp_path, "job.slurm") == ("transformers", ["fa2"], "bfloat16", "none")


def test_wrapper_running_a_script_under_scripts(tmp_path):
    put(tmp_path, {"scripts/train_sdxl.sh": "accelerate launch sdxl_train_network.py --network_module networks.lora "
                                            "--xformers --mixed_precision fp16 --pretrained_model_name_or_path m\n",
                   "run_all.sh": '#!/bin/bash\nset -e\nbash scripts/train_sdxl.sh "$@"\n'})
    assert load(tmp_path, "run_all.sh") == ("sd-scripts", ["xformers"], "float16", "none")


def test_hand_over_with_arguments_stays_refused(tmp_path):
    # the other script is given arguments of its own ($1, $2 ...): its reading with its defaults is not this run
    put(tmp_path, {"sft.sh": SFT_SH, "job.slurm": "#!/bin/bash\n#SBATCH --nodes=1\nbash sft.sh qwen 3\n"})
    assert "sft.sh" in refused(tmp_path, "job.slurm")


def test_hand_over_to_a_script_that_trains_nothing_stays_refused(tmp_path):
    put(tmp_path, {"prep.sh": "python make_captions.py --dir data\n",
                   "job.slurm": "#!/bin/bash\n#SBATCH --nodes=1\nbash prep.sh\n"})
    assert "prep.sh" in refused(tmp_path, "job.slurm")


# --- 5. a batch job run from where it was submitted ------------------------------------------------------------------

HF_SCRIPT = '''import argparse
import torch
from transformers import AutoModelForCausalLM, Trainer, TrainingArguments

p = argparse.ArgumentParser()
p.add_argument("--model", default="gpt2")
p.add_argument("--fp16", action="store_true")
p.add_argument("--run-name", default="r")
args = p.parse_args()
model = AutoModelForCausalLM.from_pretrained(args.model, attn_implementation="eager")
Trainer(model=model, args=TrainingArguments(output_dir="o", fp16=args.fp16)).train()
'''


def test_slurm_submit_dir_finds_the_script_at_the_repository_root(tmp_path):
    put(tmp_path, {"train.py": HF_SCRIPT,
                   "slurm/run.slurm": '#!/bin/bash\n#SBATCH --gres=gpu:1\ncd "${SLURM_SUBMIT_DIR}"\n'
                                      'python train.py --model Qwen/Qwen2.5-0.5B --fp16\n'})
    assert load(tmp_path, "slurm/run.slurm") == ("transformers", [], "float16", "none")


def test_pbs_workdir_two_folders_up(tmp_path):
    put(tmp_path, {"train.py": HF_SCRIPT,
                   "jobs/pbs/run.pbs": "#!/bin/bash\n#PBS -l select=1:ngpus=1\ncd $PBS_O_WORKDIR\npython train.py --fp16\n"})
    assert load(tmp_path, "jobs/pbs/run.pbs") == ("transformers", [], "float16", "none")


def test_a_cd_to_another_unknown_folder_does_not_look_above(tmp_path):
    put(tmp_path, {"train.py": HF_SCRIPT,
                   "slurm/run.slurm": '#!/bin/bash\n#SBATCH --gres=gpu:1\ncd "$PROJECT_HOME"\npython train.py --fp16\n'})
    assert "train.py" in refused(tmp_path, "slurm/run.slurm")


# --- 6. a Modal app that starts the repository's training scripts ----------------------------------------------------

UNSLOTH_SCRIPT = '''import argparse
from unsloth import FastLanguageModel
from trl import SFTConfig, SFTTrainer

p = argparse.ArgumentParser()
p.add_argument("--epochs", type=float, default=1.0)
p.add_argument("--out", default="outputs")
a = p.parse_args()
model, tok = FastLanguageModel.from_pretrained("unsloth/Qwen3-4B", load_in_4bit=True)
SFTTrainer(model=model, args=SFTConfig(output_dir=a.out, bf16=True, num_train_epochs=a.epochs)).train()
'''

MODAL_APP = '''import subprocess
import sys

import modal

app = modal.App("train")
image = modal.Image.debian_slim().pip_install("unsloth").add_local_dir("scripts", "/root/scripts")


@app.function(gpu="A100", image=image, timeout=86400)
def train(epochs: float = 1.0):
    cmd = [sys.executable, "/root/scripts/SCRIPT", "--epochs", str(epochs), "--out", "/vol/out"]
    subprocess.run(cmd, check=True)


@app.local_entrypoint()
def main():
    train.remote()
'''


def test_modal_app_running_a_script_of_the_repository(tmp_path):
    put(tmp_path, {"scripts/sft.py": UNSLOTH_SCRIPT, "modal_app.py": MODAL_APP.replace("SCRIPT", "sft.py")})
    assert load(tmp_path, "modal_app.py") == ("unsloth", [], "bfloat16", "none")


def test_modal_app_whose_script_is_not_here_stays_refused(tmp_path):
    put(tmp_path, {"modal_app.py": MODAL_APP.replace("SCRIPT", "sft.py")})
    msg = refused(tmp_path, "modal_app.py")
    assert "Modal app" in msg and "sft.py" in msg


def test_modal_app_running_scripts_of_two_trainers_stays_refused(tmp_path):
    two = MODAL_APP.replace("SCRIPT", "sft.py") + '''

@app.function(gpu="A100", image=image)
def train_other():
    subprocess.run([sys.executable, "/root/scripts/other.py", "--fp16"], check=True)
'''
    put(tmp_path, {"scripts/sft.py": UNSLOTH_SCRIPT, "scripts/other.py": HF_SCRIPT, "modal_app.py": two})
    assert "Modal app" in refused(tmp_path, "modal_app.py")


# --- 7. an option's value left to run time -----------------------------------------------------------------------------


def test_run_time_value_of_an_unrelated_option_is_read(tmp_path):
    put(tmp_path, {"train.py": HF_SCRIPT,
                   "run.sh": '#!/bin/bash\nRUN=$(date +%s)\npython train.py --run-name "$RUN" --fp16\n'})
    assert load(tmp_path, "run.sh") == ("transformers", [], "float16", "none")


def test_run_time_value_of_the_precision_option_leaves_the_dtype_unknown(tmp_path):
    script = HF_SCRIPT.replace('p.add_argument("--fp16", action="store_true")',
                               'p.add_argument("--precision", default="fp16")').replace(
        "fp16=args.fp16", 'fp16=args.precision == "fp16", bf16=args.precision == "bf16"')
    put(tmp_path, {"train.py": script, "run.sh": '#!/bin/bash\npython train.py --precision "$1"\n'})
    got = load(tmp_path, "run.sh")
    assert got[:2] == ("transformers", []) and got[2] == ""


# --- 8. a training run as an `if` condition ---------------------------------------------------------------------------

SDXL_LINE = "accelerate launch sdxl_train_network.py --network_module networks.lora --xformers --mixed_precision fp16"


def test_eval_of_a_command_variable_as_the_if_condition(tmp_path):
    sh = f'#!/bin/bash\nTRAIN_CMD="{SDXL_LINE}"\necho "$TRAIN_CMD"\nif eval "$TRAIN_CMD"; then\n  echo done\nelse\n' \
         '  echo failed\n  exit 1\nfi\n'
    assert read(tmp_path, "start.sh", sh) == ("sd-scripts", ["xformers"], "float16", "none")


def test_negated_launch_as_the_if_condition(tmp_path):
    sh = '#!/bin/bash\nset -u\nif ! torchrun --nproc_per_node 2 src/musubi_tuner/wan_train_network.py --task t2v-14B ' \
         '--dit dit.safetensors --dataset_config d.toml --sdpa --mixed_precision bf16; then\n  echo "training failed"\n' \
         '  exit 1\nfi\n'
    assert read(tmp_path, "wan.sh", sh) == ("musubi", ["sdpa"], "bfloat16", "none")


def test_queries_and_tests_in_an_if_run_nothing(tmp_path):
    sh = '#!/bin/bash\nif command -v accelerate >/dev/null 2>&1; then\n  echo found\nfi\n' \
         'if grep -q xformers requirements.txt; then\n  echo has xformers\nfi\nif [ -f config.toml ]; then\n' \
         '  echo config\nfi\n'
    assert "not a trainer config" in refusal(tmp_path, "check_env.sh", sh)

