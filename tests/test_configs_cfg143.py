"""Helper cfg143 (session 40, issue 24): what reading round 143m found, each mechanism with variants of our own, none of
them a file of a set.

1. (Withdrawn by the lead, session 40.) cfg143 read a TOML half of whose keys are no option of musubi-tuner's scripts
   (nor sd-scripts') as another program's and refused it (round 143m's stand-alone Z-Image trainer's config). Measured on
   configs round 145m, gathered blind the same session and measured first before the rule was merged, it refused a real
   musubi-tuner config (an LTX-2 fork's, whose options the reader's option table lacks) that the readers without it read
   right: a rule fitted on one training file that costs one fresh file. Withdrawn; round 143m's Z-Image TOML is a strict
   xfail again. What stays is its guard below: musubi-tuner's own TOMLs with a fork's keys, sd-scripts' keys and
   misspellings stay musubi-tuner's.
2. A file no reader claims, whose one command runs a Python module (`python -m pkg.module`, round 143m: a Windows .bat
   running `".venv\\Scripts\\python.exe" -m pipeline.run_full_pipeline ^ ...`), was refused without naming what it runs,
   as a file running a .py script by name is: the last module a `python -m` or a launcher's `-m` runs (`!torchrun -m
   train`, round 28's mistral-finetune notebook) is named now, not an installer's (pip, venv ...)."""

from __future__ import annotations

import json

from configs_corpus import read, refusal
from each_case import each

# 1. musubi-tuner's own TOMLs stay its own ------------------------------------------------------------------------------

_MUSUBI = """[model]
dit = "/m/wan2.1_t2v_14B_bf16.safetensors"
t5 = "/m/models_t5_umt5-xxl-enc-bf16.pth"
vae = "/m/wan_2.1_vae.safetensors"
task = "t2v-14B"

[network]
network_module = "networks.lora_wan"
network_dim = 32
network_alpha = 16

[training]
{attn} = true
mixed_precision = "bf16"
optimizer_type = "adamw8bit"
learning_rate = 2e-4
gradient_checkpointing = true
max_train_epochs = 16
save_every_n_epochs = 2
timestep_sampling = "shift"
discrete_flow_shift = 3.0
dataset_config = "/cfg/dataset.toml"
output_dir = "/out"
output_name = "my_lora"
{extra}"""


def test_musubi_tuners_own_tomls_stay_its_own(tmp_path):
    def check(name, text, want):
        assert read(tmp_path, name, text) == want

    each([
        ("sections of its options only", ("wan.toml", _MUSUBI.format(attn="sdpa", extra=""),
                                          ("musubi", ["sdpa"], "bfloat16", "none"))),
        # a fork's few keys of its own among many of musubi-tuner's (round 62's adapted-musubi-tuner: 10 of 54)
        ("a fork's three keys", ("fork.toml", _MUSUBI.format(attn="flash_attn", extra="auto_blocks_to_swap = true\n"
                                                             "console_width = 120\nskip_cache = false\n"),
                                 ("musubi", ["fa2"], "bfloat16", "none"))),
        # sd-scripts' options beside its own (the same author's names: round 21's FLUX.2 profiling TOML), and a
        # misspelt option: neither is another program's key
        ("sd-scripts' keys and a misspelling", ("habits.toml", "[model]\ndit = \"/m/qwen_image_bf16.safetensors\"\n"
                                                "vae = \"/m/vae.safetensors\"\nnetwork_module = \"networks.lora_qwen_image\"\n"
                                                "[train]\nsdpa = true\nflash-attn = true\nmixed_precision = \"bf16\"\n"
                                                "save_model_as = \"safetensors\"\ncache_latents = true\n"
                                                "network_train_unet_only = true\nunet_lr = 1e-4\nmin_snr_gamma = 5\n"
                                                "noise_offset = 0.05\nlowram = true\n",
                                                ("musubi", ["sdpa"], "bfloat16", "none"))),
        # its dataset config's keys carried along ([general] / [[datasets]]): options read_config_from_file sets too
        ("its dataset keys along", ("withdata.toml", _MUSUBI.format(attn="xformers", extra="split_attn = true\n") +
                                    "\n[general]\nresolution = [960, 544]\nbatch_size = 1\nenable_bucket = true\n"
                                    "\n[[datasets]]\nimage_directory = \"/d/img\"\ncache_directory = \"/d/cache\"\n"
                                    "num_repeats = 1\n",
                                    ("musubi", ["xformers"], "bfloat16", "none"))),
    ], check)


# 2. a module run named in the refusal ----------------------------------------------------------------------------------

def test_a_module_run_is_named_in_the_refusal(tmp_path):
    def check(name, text, words):
        msg = refusal(tmp_path, name, text)
        assert words in msg, msg

    each([
        ("a .bat, quoted venv python, ^ continuations",
         ("RUN_ALL.bat", "@echo off\r\nsetlocal\r\nset /p SRC=\"Photos folder: \"\r\n"
                         "\".venv\\Scripts\\python.exe\" -m studio.prepare_and_launch ^\r\n  --src \"%SRC%\" ^\r\n"
                         "  --preset klein_4b\r\nif errorlevel 1 exit /b 1\r\npause\r\n",
          "it runs studio.prepare_and_launch (-m), which is none of the trainers' training modules")),
        ("a .cmd, plain python",
         ("go.cmd", "@echo off\r\npython -m tools.make_job --out job.yaml\r\n", "tools.make_job (-m)")),
        # a notebook's last module run is the launcher's (`!torchrun -m fit`), after a check of the data
        ("a notebook, torchrun -m after python -m",
         ("finetune.ipynb", json.dumps({"cells": [
             {"cell_type": "code", "metadata": {}, "outputs": [],
              "source": ["!git clone https://github.com/someone/finetune-kit.git\n", "%cd finetune-kit\n"]},
             {"cell_type": "code", "metadata": {}, "outputs": [],
              "source": ["!python -m utils.check_data --yaml run.yaml\n"]},
             {"cell_type": "code", "metadata": {}, "outputs": [],
              "source": ["!torchrun --nproc-per-node 1 -m fit run.yaml\n"]}],
             "metadata": {}, "nbformat": 4, "nbformat_minor": 5}), "it runs fit (-m)")),
        ("a shell script, after pip",
         ("run.sh", "#!/bin/bash\nset -e\npython -m pip install -r requirements.txt\npython3 -m app.pipeline "
                    "--input ./photos --steps 1500\n", "it runs app.pipeline (-m)")),
    ], check)


def test_what_a_refusal_names_otherwise_is_kept(tmp_path):
    def check(name, text, words, absent):
        msg = refusal(tmp_path, name, text)
        assert words in msg and absent not in msg, msg

    each([
        # an installer's module runs nothing of the project's: nothing is named
        ("pip and venv only", ("setup.bat", "@echo off\r\npython -m venv .venv\r\n"
                                            ".venv\\Scripts\\python.exe -m pip install -r requirements.txt\r\n",
                               "not a trainer config attn-doctor recognises", "(-m)")),
        # a .py script the file runs by name is still what it names, before any module
        ("a script after a module", ("start.sh", "#!/bin/bash\npython -m tools.check_gpu\npython app.py --port 7860\n",
                                     "runs app.py", "(-m)")),
    ], check)
