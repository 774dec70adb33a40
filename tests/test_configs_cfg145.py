"""Helper cfg145 (session 41, issue 24): what reading round 145m found, each mechanism with variants of our own (other
users' shapes of the same thing) and near misses, none of them a file of a set.

1. A launcher that renders its LLaMA-Factory YAML from a template with envsubst (`envsubst < examples/x_template.yaml >
   tmp/${TASK}.yaml`, then `llamafactory-cli train tmp/${TASK}.yaml`; round 145m's joliang17 SLURM launcher) trains on
   the template with the exported variables filled in: read as a copy (shell._piped_copy), as `sed EXPR SRC > DST` was.
2. A driver that runs the CLI's training twice (a smoke run, then the long one; round 145m's longyueyyyy driver): when
   the first run's YAML is not here and a later run's is, the later one is read (llamafactory._later_train_yamls), the
   first staying noted unread.
3. A refusal of a file that only submits a job (`sbatch --export=... job.sbatch`; round 145m's saikoneru submit_job.sh)
   names the job script (configs._job_file), and a refusal of a script no reader ships names the path the launch writes
   beside its name (`train.py (src/training/train.py)`, configs._as_written; round 145m's minha12 launcher).
4. The decisions round 145m's labels were set to, held by the readers as they were: an ai-toolkit model that calls SDPA
   whatever the job says requires sdpa (a diffusers model's default requires nothing); a musubi-tuner fork's own
   ltx2_train_network.py is refused naming it, while a launch that names musubi-tuner's package is musubi-tuner's."""

from __future__ import annotations

from configs_corpus import put, read, refusal, trainer_reading, write
from each_case import each

from attn_doctor import configs

# 1. envsubst ---------------------------------------------------------------------------------------------------------

_TEMPLATE = """### model
model_name_or_path: Qwen/Qwen2.5-7B-Instruct
### method
stage: sft
do_train: true
finetuning_type: lora
lora_target: all
### dataset
dataset: ${DATASET}
template: qwen
cutoff_len: 2048
### output
output_dir: ${OUTPUT_DIR}
### train
per_device_train_batch_size: 1
gradient_accumulation_steps: 8
learning_rate: 1.0e-4
num_train_epochs: 3.0
{extra}"""


def _fresh(tmp_path):
    """A folder of its own for one case's synthetic repository."""
    d = tmp_path / f"case{sum(1 for _ in tmp_path.iterdir())}"
    d.mkdir()
    return d


def _template(extra: str) -> str:
    return _TEMPLATE.replace("{extra}", extra)


def _lf(tmp_path, launcher: str, files: dict) -> tuple:
    for rel, text in files.items():
        put(tmp_path, rel, text)
    cfg = configs.load(str(put(tmp_path, "scripts/run.sh", launcher)))
    return cfg["detected"]["trainer"], sorted(cfg["required"]), cfg["dtype"] or "", cfg.get("unread") or []


def test_a_yaml_rendered_with_envsubst_is_read_as_its_template(tmp_path):
    def check(launcher, files, want):
        assert _lf(_fresh(tmp_path), launcher, files)[:3] == want

    tmpl = {"configs/sft_template.yaml": _template("bf16: true\nflash_attn: fa2\n")}
    each([
        # `envsubst < SRC > DST` after exports, the rendered name built from a variable
        ("input redirection", ("#!/bin/bash\nexport DATASET=alpaca_en\nexport TASK=run1\nexport OUTPUT_DIR=/out/$TASK\n"
                               "mkdir -p tmp\nenvsubst < configs/sft_template.yaml > tmp/${TASK}.yaml\n"
                               "llamafactory-cli train tmp/${TASK}.yaml\n", tmpl,
                               ("llama-factory", ["fa2"], "bfloat16"))),
        # `cat SRC | envsubst > DST`, the destination quoted, a SHELL-FORMAT naming the variables to fill
        ("piped, with a shell format", ("#!/usr/bin/env bash\nset -e\nexport DATASET=\"ko_wiki\"\n"
                                        "cat configs/sft_template.yaml | envsubst '$DATASET $OUTPUT_DIR' > \"/tmp/rendered.yaml\"\n"
                                        "FORCE_TORCHRUN=1 llamafactory-cli train /tmp/rendered.yaml\n", tmpl,
                                        ("llama-factory", ["fa2"], "bfloat16"))),
        # a key the template leaves to an exported variable: the script's value is what envsubst writes
        ("a setting from an exported variable", ("#!/bin/bash\nexport ATTN=sdpa\nexport PRECISION_KEY=fp16\n"
                                                 "envsubst < configs/t.yaml > configs/rendered.yaml\n"
                                                 "llamafactory-cli train configs/rendered.yaml\n",
                                                 {"configs/t.yaml": _template("fp16: true\nflash_attn: ${ATTN}\n")},
                                                 ("llama-factory", ["sdpa"], "float16"))),
        # near miss: `envsubst -v` prints the variables' names, it writes no copy: the rendered file stays unread
        ("envsubst -v writes no copy", ("#!/bin/bash\nenvsubst -v < configs/sft_template.yaml > tmp/vars.yaml\n"
                                        "llamafactory-cli train tmp/vars.yaml\n", tmpl, ("llama-factory", [], ""))),
        # near miss: the template is not here (another machine's checkout): unread, no dtype guessed
        ("the template not here", ("#!/bin/bash\nexport DATASET=x\nenvsubst < configs/missing.yaml > tmp/r.yaml\n"
                                   "llamafactory-cli train tmp/r.yaml\n", tmpl, ("llama-factory", [], ""))),
    ], check)


# 2. several training runs ----------------------------------------------------------------------------------------------

_DRIVER = """#!/usr/bin/env bash
set -euo pipefail
SMOKE_CONFIG="${{SMOKE_CONFIG:-configs/{smoke}}}"
TRAIN_CONFIG="${{TRAIN_CONFIG:-configs/{long}}}"
CUDA_VISIBLE_DEVICES=0 llamafactory-cli train "${{SMOKE_CONFIG}}" 2>&1 | tee smoke.log
(
  CUDA_VISIBLE_DEVICES=0,1 llamafactory-cli train "${{TRAIN_CONFIG}}"
) > train.log 2>&1 &
"""


def test_a_later_run_is_read_when_the_first_ones_yaml_is_not_here(tmp_path):
    def check(smoke, long, files, want, unread):
        got = _lf(_fresh(tmp_path), _DRIVER.format(smoke=smoke, long=long), files)
        assert got[:3] == want and got[3] == unread

    bf16 = _template("bf16: true\n")
    fp16 = _template("fp16: true\nflash_attn: fa2\n")
    each([
        # the smoke YAML not kept, the long run's here (round 145m's shape)
        ("smoke missing, long here", ("smoke.yaml", "long.yaml", {"configs/long.yaml": bf16},
                                      ("llama-factory", [], "bfloat16"), ["configs/smoke.yaml"])),
        # near miss: the first run's YAML is here: that one is read, whatever the later run's says
        ("both here: the first", ("smoke.yaml", "long.yaml", {"configs/smoke.yaml": bf16, "configs/long.yaml": fp16},
                                  ("llama-factory", [], "bfloat16"), [])),
        # near miss: neither here: unknown, and the unread file the first run's, as before
        ("neither here", ("smoke.yaml", "long.yaml", {}, ("llama-factory", [], ""), ["configs/smoke.yaml"])),
    ], check)


# 3. refusals that name what the file hands over ----------------------------------------------------------------------

def test_a_job_submitter_is_refused_naming_the_job_it_submits(tmp_path):
    def check(name, text, words, absent):
        msg = refusal(tmp_path, name, text)
        assert all(w in msg for w in words), msg
        assert absent not in msg, msg

    each([
        ("sbatch with options", ("submit.sh", "#!/bin/bash\nCFG=\"$1\"\n[ -f \"$CFG\" ] || exit 1\n"
                                 "sbatch --export=CFG=\"$CFG\" --job-name=sft jobs/train_job.slurm\n",
                                 ["jobs/train_job.slurm (sbatch)", "a shell script with no trainer calls"], "\n")),
        ("qsub", ("submit_pbs.sh", "#!/bin/sh\nqsub -V -q gpu run_finetune.pbs\necho submitted\n",
                  ["run_finetune.pbs (qsub)"], "\n")),
        # near miss: an installer that runs a downloaded shell installer is not handing a job over
        ("an installer's bash", ("install.sh", "#!/bin/bash\nwget -q https://example.com/Miniconda3.sh -O ~/miniconda.sh\n"
                                 "bash ~/miniconda.sh -b -p ~/miniconda3\nsource ~/.bashrc\n",
                                 ["a shell script with no trainer calls"], "the last script it starts")),
    ], check)


def test_a_refusal_names_the_script_as_the_launch_writes_it(tmp_path):
    def check(name, text, words, absent):
        msg = refusal(tmp_path, name, text)
        assert all(w in msg for w in words), msg
        assert not absent or absent not in msg, msg

    each([
        ("under a folder", ("run.sh", "#!/bin/bash\naccelerate launch --config_file configs/acc.yaml src/training/train.py"
                            " --dataset_script_path data/ds.py --mixed_precision bf16 --learning_rate 1e-5\n",
                            ["runs train.py (src/training/train.py), a training script",
                             "src/training/train.py is not here"], "")),
        ("python, a deeper path", ("go.sh", "python3 -u tools/experiments/run_exp.py --epochs 3 --lr 1e-4\n",
                                   ["runs run_exp.py (tools/experiments/run_exp.py), a training script"], "")),
        # near misses: `./train.py` is the name itself; an absolute path or one through a variable stays the name
        ("dot slash", ("a.sh", "python ./train.py --epochs 3 --lr 1e-4\n", ["runs train.py, a training script"], "train.py (")),
        ("absolute", ("b.sh", "python /home/me/proj/train.py --epochs 3 --lr 1e-4\n",
                      ["runs train.py, a training script"], "/home/me")),
        ("through a variable", ("c.sh", "ROOT=$(pwd)\npython $ROOT/src/train.py --epochs 3 --lr 1e-4\n",
                                ["runs train.py, a training script"], "train.py (")),
    ], check)


# 4. the decisions round 145m's labels were set to, as the readers hold them -------------------------------------------

_AITK = """job: extension
config:
  name: my_lora
  process:
    - type: {ptype}
      training_folder: output
      device: cuda:0
      network:
        type: lora
        linear: 16
        linear_alpha: 16
      train:
        batch_size: 1
        steps: 2000
        gradient_checkpointing: true
        noise_scheduler: flowmatch
        optimizer: adamw8bit
        lr: 1e-4
        dtype: bf16
      model:
        name_or_path: /models/base
        arch: {arch}
        quantize: true
      sample:
        sample_every: 250
        prompts:
          - a cat
meta:
  name: my_lora
"""


def test_ai_toolkit_models_that_call_sdpa_whatever_the_job_says(tmp_path):
    def check(name, arch, ptype, want):
        assert read(tmp_path, name, _AITK.format(arch=arch, ptype=ptype)) == want

    each([
        # ai-toolkit's own ports calling F.scaled_dot_product_attention (configs/ai_toolkit.SDPA_ARCHS), under a fork's
        # own process type too
        ("krea2, a fork's flow_dpo", ("k.yaml", "krea2", "flow_dpo", ("ai-toolkit", ["sdpa"], "bfloat16", "none"))),
        ("flux2 klein 9b", ("f.yaml", "flux2_klein_9b", "diffusion_trainer", ("ai-toolkit", ["sdpa"], "bfloat16", "none"))),
        # near miss: a diffusers transformer with no attention key runs the trainer's default: nothing required
        ("flux (diffusers)", ("d.yaml", "flux", "sd_trainer", ("ai-toolkit", [], "bfloat16", "none"))),
    ], check)


def test_a_musubi_forks_own_script_is_refused_naming_it(tmp_path):
    def check(name, text, want):
        if want == "refused":
            assert "runs ltx2_train_network.py" in refusal(tmp_path, name, text)
        else:
            assert trainer_reading(write(tmp_path, name, text)) == want

    each([
        ("a .bat with a portable python", ("run.bat", '@echo off\nset "PY=python_embed"\nset "CFG=cfg.toml"\n'
                                           '"%PY%\\python.exe" -u ltx2_train_network.py --config_file "%CFG%"\npause\n',
                                           "refused")),
        ("accelerate launch", ("run.sh", "#!/bin/bash\ncd \"${REPO_DIR:-/workspace/trainer}\"\naccelerate launch "
                               "--mixed_precision bf16 ltx2_train_network.py --config_file cfg.toml --sdpa\n", "refused")),
        # near miss: the launch names musubi-tuner's package (round 139m): musubi-tuner's, its chain read
        ("musubi's package named", ("pkg.sh", "accelerate launch --mixed_precision bf16 --module "
                                    "musubi_tuner.ltx2_train_network --dit /m/ltx.safetensors --sdpa "
                                    "--mixed_precision bf16 --network_module networks.lora_ltx2\n",
                                    ("musubi", ["sdpa"], "bfloat16"))),
        # near miss: one of musubi-tuner's own scripts
        ("musubi's own script", ("own.sh", "accelerate launch --mixed_precision bf16 wan_train_network.py --task t2v-14B "
                                 "--dit /m/wan.safetensors --flash_attn --mixed_precision bf16 "
                                 "--network_module networks.lora_wan\n", ("musubi", ["fa2"], "bfloat16"))),
    ], check)
