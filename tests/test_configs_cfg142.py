"""Helper cfg142 (session 38, issue 24): what reading round 142 found, each mechanism with variants of our own, none of
them a file of a set.

1. A Python wrapper that runs accelerate's console script as a module (`[sys.executable, "-m",
   "accelerate.commands.accelerate_cli", "launch", ...]`; accelerate's setup.py entry point
   `accelerate=accelerate.commands.accelerate_cli:main`, which runs main() as __main__ too) was read as running a
   script named accelerate_cli.py: it is `accelerate launch`, whose script is the trainer's (shell.py). The same module
   with another subcommand (`config`, `env`) launches nothing.
2. The training script a wrapper names through a computed folder on both sides of a conditional expression
   (`os.path.join(SCRIPT_PREFIX, "wan_train_network.py") if SCRIPT_PREFIX else "wan_train_network.py"`,
   `Path(root) / "train_network.py"`) was an unknown word: the file each side names is the script (launchers.py
   _script_tails). Sides naming different trainers' scripts, or a script in the wrapper's own folder, stay unknown."""

from __future__ import annotations

from attn_doctor.configs.launchers import python_commands
from attn_doctor import configs
from configs_corpus import read, reading, refusal, write
from each_case import each

_LIST = """import subprocess, sys

cmd = [{python}, "-m", "accelerate.commands.accelerate_cli", "launch", "--num_cpu_threads_per_process", "1",
       "--mixed_precision", "{mp}", "{script}", "--task", "t2v-A14B", "--dit", "/m/dit.safetensors",
       "--dataset_config", "/d/ds.toml", "{attn}", "--mixed_precision", "{mp}", "--fp8_base"]
subprocess.run(cmd, check=True)
"""


def test_accelerate_cli_module_launch_is_accelerate_launch(tmp_path):
    def check(python, script, attn, mp, want):
        got = read(tmp_path, "train_wan.py", _LIST.format(python=python, script=script, attn=attn, mp=mp))
        assert got == want, got

    cases = []
    for python in ("sys.executable", '"python"', '"/venv/bin/python3"'):
        cases.append((f"{python} wan sdpa fp16", (python, "src/musubi_tuner/wan_train_network.py", "--sdpa", "fp16",
                                                  ("musubi", ["sdpa"], "float16", "none"))))
        cases.append((f"{python} wan xformers bf16", (python, "wan_train_network.py", "--xformers", "bf16",
                                                      ("musubi", ["xformers"], "bfloat16", "none"))))
    each(cases, check)


def test_accelerate_cli_module_without_launch_runs_no_trainer(tmp_path):
    def check(text):
        msg = refusal(tmp_path, "setup_env.py", text)
        assert "musubi" not in msg.split("(it reads")[0].lower(), msg

    each([(sub, (f'import subprocess, sys\nsubprocess.run([sys.executable, "-m", '
                 f'"accelerate.commands.accelerate_cli", {sub}])\n',)) for sub in ('"config", "default"', '"env"')],
         check)


_WRAPPER = '''import os, subprocess, sys

MUSUBI_DIR = "/workspace/musubi-tuner"
{prefix}


def train(dit, dataset_config):
    train_script = {script}
    cmd = [sys.executable, "-m", "accelerate.commands.accelerate_cli", "launch", "--num_cpu_threads_per_process", "1",
           "--mixed_precision", "{mp}", train_script, "--task", "t2v-A14B", "--dit", dit,
           "--dataset_config", dataset_config, "{attn}", "--mixed_precision", "{mp}", "--fp8_base"]
    subprocess.run(cmd, cwd=MUSUBI_DIR, check=True)
'''
_PREFIX = ('if os.path.exists(os.path.join(MUSUBI_DIR, "src", "musubi_tuner", "wan_train_network.py")):\n'
           '    SCRIPT_PREFIX = os.path.join("src", "musubi_tuner")\nelse:\n    SCRIPT_PREFIX = ""')


def test_a_script_named_through_a_computed_folder_is_the_trainers(tmp_path):
    def check(prefix, script, attn, mp, want):
        cfg = configs.load(write(tmp_path, "train_local.py", _WRAPPER.format(prefix=prefix, script=script, attn=attn,
                                                                             mp=mp)))
        # the script itself, not an unknown word the options alone tell musubi-tuner's by
        assert reading(cfg) == want and cfg["script"] == "wan_train_network", (reading(cfg), cfg["script"])

    sides = ['os.path.join(SCRIPT_PREFIX, "wan_train_network.py") if SCRIPT_PREFIX else "wan_train_network.py"',
             '"wan_train_network.py" if not SCRIPT_PREFIX else os.path.join(SCRIPT_PREFIX, "wan_train_network.py")',
             'os.path.join(MUSUBI_DIR, SCRIPT_PREFIX, "wan_train_network.py")',
             'Path(MUSUBI_DIR) / SCRIPT_PREFIX / "wan_train_network.py"']
    cases = []
    for i, script in enumerate(sides):
        prefix = _PREFIX + ("\nfrom pathlib import Path" if "Path(" in script else "")
        cases.append((f"side {i} sdpa fp16", (prefix, script, "--sdpa", "fp16", ("musubi", ["sdpa"], "float16", "none"))))
        cases.append((f"side {i} flash_attn bf16", (prefix, script, "--flash_attn", "bf16",
                                                    ("musubi", ["fa2"], "bfloat16", "none"))))
    each(cases, check)


def test_sides_naming_other_scripts_or_the_wrappers_own_folder_stay_unknown():
    def check(prefix, script):
        text = _WRAPPER.format(prefix=prefix, script=script, attn="--sdpa", mp="bf16")
        line = python_commands(text).splitlines()[-1]
        assert "launch" in line and " $PY_VALUE --task" in line, line

    cases = [
        # the two sides name different scripts (a Wan and a HunyuanVideo trainer): which one runs is not known here
        ("two scripts", (_PREFIX, 'os.path.join(SCRIPT_PREFIX, "wan_train_network.py") if SCRIPT_PREFIX else '
                                  '"hv_train_network.py"')),
        # the script beside the wrapper itself: the repository's own file, whatever its name (literal_path's rule)
        ("own folder", (_PREFIX, 'os.path.join(os.path.dirname(os.path.abspath(__file__)), "wan_train_network.py") '
                                 'if SCRIPT_PREFIX else os.path.join(os.path.dirname(__file__), "wan_train_network.py")')),
        # a side that is not a script file at all
        ("not a script", (_PREFIX, 'os.path.join(SCRIPT_PREFIX, "wan_train_network") if SCRIPT_PREFIX else '
                                   '"wan_train_network"')),
    ]
    each(cases, check)
