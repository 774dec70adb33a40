"""Helper cfg132 (session 33, issue 24): what round 130m's reading and the issue's audit found, each mechanism with
variants of our own, none of them a file of a set.

1. A launch that sources a package manager's shell hook (`source ~/miniconda3/etc/profile.d/conda.sh`, so that
   `conda activate ENV` works in a non-interactive shell) and then runs the user's own script was refused as "it only
   runs another script (~/miniconda3/etc/profile.d/conda.sh)": the hook defines shell functions and trains nothing, so
   the refusal names the script the launch runs after it (configs/others.SHELL_HOOK). A file sourced by another name,
   or a shell script run by bash, is still the script the launch hands over to."""

from __future__ import annotations

from configs_corpus import refusal

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
            script = run.split()[1].rsplit("/", 1)[-1]
            msg = refusal(tmp_path, "run.sh", _RUN.format(hook=hook, run=run))
            assert f" runs {script}, " in msg, (hook, run, msg)  # the refusal of a launch of a script no reader claims
            assert "only runs another script" not in msg and "conda.sh" not in msg and "mamba.sh" not in msg, msg
    # near misses: a file of the user's own sourced, or a script run in a shell of its own, is what the launch hands
    # over to when it runs no program itself
    for hook, named in [("source ./train_env_and_run.sh", "./train_env_and_run.sh"),
                        ("bash scripts/launch_grpo.sh", "scripts/launch_grpo.sh"),
                        (". /etc/profile.d/conda.sh.d/run_job.sh", "/etc/profile.d/conda.sh.d/run_job.sh")]:
        msg = refusal(tmp_path, "run.sh", "#!/bin/bash\n" + hook + "\n")
        assert f"only runs another script ({named})" in msg, (hook, msg)
