"""Helper cfg132 (session 33, issue 24): what round 130m's reading and the issue's audit found, each mechanism with
variants of our own, none of them a file of a set.

1. A launch that sources a package manager's shell hook (`source ~/miniconda3/etc/profile.d/conda.sh`, so that
   `conda activate ENV` works in a non-interactive shell) and then runs the user's own script was refused as "it only
   runs another script (~/miniconda3/etc/profile.d/conda.sh)": the hook defines shell functions and trains nothing, so
   the refusal names the script the launch runs after it (configs/others.SHELL_HOOK). A file sourced by another name,
   or a shell script run by bash, is still the script the launch hands over to.
2. sd-scripts with `mixed_precision = ""` (a template's blank) was read float32: read_config_from_file puts "" on the
   Namespace as it is and Accelerator(mixed_precision="") raises "Unknown mixed_precision mode" before the first step
   (on a command line argparse refuses "" as an invalid choice): no dtype reaches attention. A key left out is sd-scripts'
   default "no" (float32), and a kohya_ss GUI JSON's blank is never passed (the GUI adds --mixed_precision only when
   set)."""

from __future__ import annotations

import json
from pathlib import Path

from configs_corpus import read, refusal

_RUN = "#!/bin/bash\n{hook}\nconda activate posttrain\ncd ~/proj\n{run}\n"


def test_a_sourced_conda_hook_is_no_script_the_launch_hands_over_to(tmp_path):
    hooks = ["source ~/miniconda3/etc/profile.d/conda.sh", ". /opt/conda/etc/profile.d/conda.sh",
             'source "$HOME/anaconda3/etc/profile.d/conda.sh"', 'source "/opt/mambaforge/etc/profile.d/mamba.sh"',
             "source /software/Anaconda3/2023.07-2/etc/profile.d/conda.sh", ". ${CONDA_ROOT}/etc/profile.d/conda.sh",
             "source ~/micromamba.sh"]
    runs = ["python scripts/grpo_math.py 2>&1 | tee train.log", "python3 tools/sft_run.py > out.log 2>&1",
            "python scripts/grpo_math.py"]
    for hook in hooks:
        for run in runs:
            path = run.split()[1]
            script = path.rsplit("/", 1)[-1]
            msg = refusal(tmp_path, "run.sh", _RUN.format(hook=hook, run=run))
            # the refusal of a launch of a script no reader claims (since cfg145 it may add the path the launch writes)
            assert f" runs {script}, " in msg or f" runs {script} ({path}), " in msg, (hook, run, msg)
            assert "only runs another script" not in msg and "conda.sh" not in msg and "mamba.sh" not in msg, msg
    # near misses: a file of the user's own sourced, or a script run in a shell of its own, is what the launch hands
    # over to when it runs no program itself
    for hook, named in [("source ./train_env_and_run.sh", "./train_env_and_run.sh"),
                        ("bash scripts/launch_grpo.sh", "scripts/launch_grpo.sh"),
                        (". /etc/profile.d/conda.sh.d/run_job.sh", "/etc/profile.d/conda.sh.d/run_job.sh")]:
        msg = refusal(tmp_path, "run.sh", "#!/bin/bash\n" + hook + "\n")
        assert f"only runs another script ({named})" in msg, (hook, msg)


_TOML = """[model_arguments]
pretrained_model_name_or_path = "/models/sdxl.safetensors"
[training_arguments]
output_dir = "out"
{mp}sdpa = true
max_train_steps = 1000
[additional_network_arguments]
network_module = "networks.lora"
network_dim = 16
"""
GUI = Path(__file__).resolve().parents[1] / "fixtures/configs/real/sd-scripts/zhopkins__default_config.json"


def test_a_blank_mixed_precision_stops_sd_scripts_before_any_dtype(tmp_path):
    for mp, want in [('mixed_precision = ""\n', ""), ("mixed_precision = ''\n", ""), ("", "float32"),
                     ('mixed_precision = "no"\n', "float32"), ('mixed_precision = "bf16"\n', "bfloat16")]:
        assert read(tmp_path, "lora.toml", _TOML.format(mp=mp))[:3] == ("sd-scripts", ["sdpa"], want), mp
    cmd = ("accelerate launch sdxl_train_network.py --pretrained_model_name_or_path=/m/x.safetensors "
           "--dataset_config=ds.toml --output_dir=out --network_module=networks.lora --sdpa --mixed_precision {}\n")
    assert read(tmp_path, "train.sh", cmd.format('""'))[2] == ""
    assert read(tmp_path, "train.sh", cmd.format("fp16"))[2] == "float16"
    gui = json.loads(GUI.read_text(encoding="utf-8"))
    gui["mixed_precision"] = ""
    assert read(tmp_path, "gui.json", json.dumps(gui))[2] == "float32"  # the GUI leaves it out: sd-scripts' "no"
