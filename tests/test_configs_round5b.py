"""Issue 24, round 5b: diffusion trainers' launch scripts as the shell and the trainer read them.

Two parts. The real files of fixtures/configs/round5b/ (see its README: users' repositories, labelled from the trainers'
and the scripts' own source) are each read as their expect file says. And variants written for this test (what each
fakes is in its name) of the mechanisms round 5b added or fixed:
- cmd.exe `if` blocks and one-line `if`s settled by the script's own `set` values, and delayed expansion (`!VAR!`);
- PowerShell array literals `@( ... )` and splatting (`& accelerate launch x.py @args`);
- a notebook's `%env NAME=VALUE` and the Python literals its `!` lines name as `{name}` / `$name` (IPython expands them);
- bash `case ... esac` (the first matching pattern runs) and `for NAME in ...` loops (every value is a run);
- a command line's options are parsed by the script it runs: the script's owner wins over a reader that knows only some
  option names, diffusers' xformers flag on a script of the user's own is no diffusers evidence, and sd-scripts' name in
  a file that passes no option and runs no script (an installer) is no sd-scripts launch.
Run against main at 42260be (before round 5b), 30 of these fail: 3 real files (the installer, a user's train.py, a
diffusers-derived SD3 script refused for the wrong reason) and 27 variants; the rest pass there too and guard that the
old readings hold."""

from __future__ import annotations

import pytest
from each_case import each

from attn_doctor import configs

from configs_corpus import CONFIGS as CORPUS, CLAIMED, check_read_as_expected, check_staged_expect, expect, files, \
    split_module
from configs_corpus import rel, write as _write, refusal as _refusal

FILES = files(CORPUS / "round5b")
DIFFUSION = {"musubi-tuner", "blissful-tuner", "sd-scripts", "ai-toolkit", "diffusion-pipe", "onetrainer", "simpletuner",
             "diffusers"}



def test_the_corpus_is_there_and_on_the_readers_side_of_the_split():
    split = split_module()
    claimed = refused = 0
    for p in FILES:
        t = check_staged_expect(p, expect(p), split)
        assert t in DIFFUSION or t not in CLAIMED, p  # round 5b is the diffusion trainers' round
        claimed += t in CLAIMED
        refused += t not in CLAIMED
    assert len(FILES) >= 30 and claimed >= 15 and refused >= 10, (len(FILES), claimed, refused)


def test_real_file():
    each(((rel(p), (p,)) for p in FILES), check_read_as_expected)  # (one test over the set: tests/each_case.py)





SDXL = "sdxl_train_network.py --pretrained_model_name_or_path=m.safetensors --network_module=networks.lora"

# ---------------------------------------------------------------------------------------------------------------------
# cmd.exe
# ---------------------------------------------------------------------------------------------------------------------

BAT = {
    "if/else block settled true (the else branch's set is skipped)": (
        "@echo off\nset USE_XFORMERS=1\nif \"%USE_XFORMERS%\"==\"1\" (\n  set ATTN=--xformers\n) else (\n  set ATTN=--sdpa\n)\n"
        f"accelerate launch {SDXL} %ATTN% --mixed_precision=bf16\n", ("sd-scripts", ["xformers"], "bfloat16")),
    "if/else block settled false": (
        "@echo off\nset USE_XFORMERS=0\nif \"%USE_XFORMERS%\"==\"1\" (\n  set ATTN=--xformers\n) else (\n  set ATTN=--sdpa\n)\n"
        f"accelerate launch {SDXL} %ATTN% --mixed_precision=bf16\n", ("sd-scripts", ["sdpa"], "bfloat16")),
    "if /i compares without case": (
        "set GPU=RTX4090\nif /i \"%GPU%\"==\"rtx4090\" (\n set MP=bf16\n) else (\n set MP=fp16\n)\n"
        f"accelerate launch {SDXL} --sdpa --mixed_precision=%MP%\n", ("sd-scripts", ["sdpa"], "bfloat16")),
    "if not ... ( block": (
        "set LOWVRAM=0\nset ATTN=--xformers\nif not \"%LOWVRAM%\"==\"0\" (\n  set ATTN=--mem_eff_attn\n)\n"
        f"accelerate launch {SDXL} %ATTN% --mixed_precision=fp16\n", ("sd-scripts", ["xformers"], "float16")),
    "numeric EQU / GEQ comparisons": (
        "set VRAM=24\nset ATTN=--sdpa\nif %VRAM% GEQ 16 set ATTN=--xformers\nif %VRAM% EQU 8 set ATTN=--mem_eff_attn\n"
        f"accelerate launch {SDXL} %ATTN% --mixed_precision=fp16\n", ("sd-scripts", ["xformers"], "float16")),
    "one-line if COND set, settled false": (
        "set FAST=0\nset ATTN=--sdpa\nif \"%FAST%\"==\"1\" set ATTN=--xformers\n"
        f"accelerate launch {SDXL} %ATTN% --mixed_precision=bf16\n", ("sd-scripts", ["sdpa"], "bfloat16")),
    "one-line if COND (A) else (B)": (
        "set GPU=4090\nif \"%GPU%\"==\"4090\" (set PREC=bf16) else (set PREC=fp16)\n"
        f"accelerate launch {SDXL} --xformers --mixed_precision=%PREC%\n", ("sd-scripts", ["xformers"], "bfloat16")),
    "if defined X: set earlier in the script": (
        "set XF=1\nset ATTN=--sdpa\nif defined XF set ATTN=--xformers\n"
        f"accelerate launch {SDXL} %ATTN% --mixed_precision=bf16\n", ("sd-scripts", ["xformers"], "bfloat16")),
    "a nested block inside a false branch stays skipped": (
        "set A=0\nset B=1\nset ATTN=--sdpa\nif \"%A%\"==\"1\" (\n  if \"%B%\"==\"1\" (\n    set ATTN=--xformers\n  )\n)\n"
        f"accelerate launch {SDXL} %ATTN% --mixed_precision=bf16\n", ("sd-scripts", ["sdpa"], "bfloat16")),
    "else if chain": (
        "set MODE=flux\nif \"%MODE%\"==\"sdxl\" (\n set S=sdxl_train_network.py\n) else if \"%MODE%\"==\"flux\" (\n"
        " set S=flux_train_network.py\n) else (\n set S=train_network.py\n)\naccelerate launch %S% "
        "--pretrained_model_name_or_path=m --network_module=networks.lora_flux --sdpa --mixed_precision=bf16\n",
        ("sd-scripts", ["sdpa"], "bfloat16")),
    "the two branches run different commands: only the settled one is read": (
        "set ARCH=wan\nif \"%ARCH%\"==\"wan\" (\n  accelerate launch wan_train_network.py --task t2v-1.3B --dit d.safetensors "
        "--sdpa --mixed_precision bf16\n) else (\n  accelerate launch hv_train_network.py --dit d.pt --xformers "
        "--split_attn --mixed_precision fp16\n)\n", ("musubi", ["sdpa"], "bfloat16")),
    "a condition on the caller's argument reads as written": (
        "if \"%1\"==\"xl\" (\n  set SCRIPT=sdxl_train_network.py\n) else (\n  set SCRIPT=train_network.py\n)\n"
        "accelerate launch %SCRIPT% --pretrained_model_name_or_path=m --network_module=networks.lora --xformers "
        "--mixed_precision=fp16\n", ("sd-scripts", ["xformers"], "float16")),
    "setlocal enabledelayedexpansion: !VAR! is the variable": (
        "@echo off\nsetlocal enabledelayedexpansion\nset ATTN=--xformers\nset MP=fp16\n"
        f"accelerate launch {SDXL} !ATTN! --mixed_precision=!MP!\n", ("sd-scripts", ["xformers"], "float16")),
    "set inside a block read with delayed expansion": (
        "setlocal EnableDelayedExpansion\nset X=1\nif \"%X%\"==\"1\" (\n  set ATTN=--sdpa\n  accelerate launch "
        f"{SDXL} !ATTN! --mixed_precision=bf16\n)\n", ("sd-scripts", ["sdpa"], "bfloat16")),
}


@pytest.mark.parametrize("case", BAT, ids=list(BAT))
def test_cmd_exe(tmp_path, case):
    text, want = BAT[case]
    assert _read(tmp_path, "train.bat", text) == want


def test_without_delayed_expansion_bang_names_are_literal(tmp_path):
    """FAKE: no `setlocal enabledelayedexpansion`: cmd.exe passes `!ATTN!` as written, so no attention flag reaches the
    script (and the variable's value is not read into it)."""
    text = f"set ATTN=--xformers\naccelerate launch {SDXL} !ATTN! --mixed_precision=fp16\n"
    assert _read(tmp_path, "train.bat", text) == ("sd-scripts", [], "float16")


def _read(tmp_path, name: str, text: str) -> tuple:
    """(trainer, required, dtype as read, None where unknown): these variants leave compile aside."""
    cfg = configs.load(_write(tmp_path, name, text))
    return cfg["detected"]["trainer"], sorted(cfg["required"]), cfg["dtype"]


# ---------------------------------------------------------------------------------------------------------------------
# PowerShell
# ---------------------------------------------------------------------------------------------------------------------

PS1 = {
    "a multi-line @( ) array splatted with the call operator": (
        '$opts = @(\n  "--pretrained_model_name_or_path=m.safetensors",\n  "--network_module=networks.lora",\n  "--sdpa",\n'
        '  "--mixed_precision=bf16"\n)\n& accelerate launch --num_cpu_threads_per_process 8 sdxl_train_network.py @opts\n',
        ("sd-scripts", ["sdpa"], "bfloat16")),
    "a one-line array splatted": (
        "$attn = @('--xformers')\naccelerate launch train_network.py --pretrained_model_name_or_path=m "
        "--network_module=networks.lora @attn --mixed_precision=fp16\n", ("sd-scripts", ["xformers"], "float16")),
    "an e-mail address is no splat": (
        "$note = 'me@example.com'\naccelerate launch train_network.py --pretrained_model_name_or_path=m "
        "--network_module=networks.lora --sdpa --mixed_precision=fp16 --training_comment=me@example\n",
        ("sd-scripts", ["sdpa"], "float16")),
}


@pytest.mark.parametrize("case", PS1, ids=list(PS1))
def test_powershell(tmp_path, case):
    text, want = PS1[case]
    assert _read(tmp_path, "train.ps1", text) == want


# ---------------------------------------------------------------------------------------------------------------------
# bash
# ---------------------------------------------------------------------------------------------------------------------

WAN = "wan_train_network.py --task t2v-1.3B --dit d.safetensors --dataset_config ds.toml"
BASH = {
    "case settled by the script (a one-line branch)": (
        'MODEL=sdxl\ncase "$MODEL" in\n  sdxl) SCRIPT=sdxl_train_network.py; ATTN=--xformers ;;\n  flux)\n'
        "    SCRIPT=flux_train_network.py\n    ATTN=--sdpa\n    ;;\nesac\naccelerate launch $SCRIPT "
        "--pretrained_model_name_or_path m --network_module networks.lora $ATTN --mixed_precision fp16\n",
        ("sd-scripts", ["xformers"], "float16")),
    "case with a glob and alternatives": (
        "ARCH=wan2.2\ncase $ARCH in\n  hv|hunyuan*) FLAG=--xformers ;;\n  wan*) FLAG=--flash_attn ;;\n  *) FLAG=--sdpa ;;\n"
        f"esac\naccelerate launch {WAN} $FLAG --mixed_precision bf16\n", ("musubi", ["fa2"], "bfloat16")),
    "case falls through to *": (
        'A=other\ncase "$A" in\n  x) FLAG=--xformers ;;\n  *) FLAG=--sdpa ;;\nesac\n'
        f"accelerate launch {WAN} $FLAG --mixed_precision bf16\n", ("musubi", ["sdpa"], "bfloat16")),
    "case on ${1:-default}: the default is the word": (
        "M=${1:-sd15}\ncase $M in\n  sdxl) S=sdxl_train_network.py ;;\n  sd15) S=train_network.py ;;\nesac\n"
        "accelerate launch $S --pretrained_model_name_or_path m --network_module networks.lora --xformers "
        "--mixed_precision fp16\n", ("sd-scripts", ["xformers"], "float16")),
    "an exit in a branch that does not run": (
        'MODEL=flux\ncase "$MODEL" in\n  flux) ATTN=--sdpa ;;\n  *) echo "unknown"; exit 1 ;;\nesac\n'
        "accelerate launch flux_train_network.py --pretrained_model_name_or_path m --network_module networks.lora_flux "
        "$ATTN --mixed_precision bf16\n", ("sd-scripts", ["sdpa"], "bfloat16")),
    "a for loop over attention flags: every run's flag": (
        "for ATTN in --sdpa --xformers; do\n  accelerate launch train_network.py --pretrained_model_name_or_path m "
        "--network_module networks.lora $ATTN --mixed_precision bf16\ndone\n", ("sd-scripts", ["sdpa", "xformers"], "bfloat16")),
    "a for loop over learning rates leaves the rest as written": (
        "for LR in 1e-4 5e-5; do\n  accelerate launch train_network.py --pretrained_model_name_or_path m "
        "--network_module networks.lora --learning_rate $LR --xformers --mixed_precision fp16\ndone\n",
        ("sd-scripts", ["xformers"], "float16")),
    "a one-line for loop over musubi flags": (
        f"for A in --flash_attn --sdpa; do accelerate launch {WAN} $A --mixed_precision bf16; done\n",
        ("musubi", ["fa2", "sdpa"], "bfloat16")),
}


@pytest.mark.parametrize("case", BASH, ids=list(BASH))
def test_bash(tmp_path, case):
    text, want = BASH[case]
    assert _read(tmp_path, "train.sh", text) == want


def test_a_loop_over_precisions_leaves_the_dtype_unknown(tmp_path):
    """FAKE: two runs in two precisions have no one dtype (round 3b's reading, kept with the loop's other values now
    read): the attention flag outside the loop variable is still read."""
    text = "for P in fp16 bf16; do\n  accelerate launch train_network.py --network_module networks.lora --sdpa " \
           "--mixed_precision $P\ndone\n"
    assert _read(tmp_path, "loop.sh", text) == ("sd-scripts", ["sdpa"], None)


# ---------------------------------------------------------------------------------------------------------------------
# A command line's options belong to the script it runs
# ---------------------------------------------------------------------------------------------------------------------

REFUSED = {
    "a user's train.py with the examples' xformers flag and options of its own": (
        "t.sh", "accelerate launch src/train.py --pretrained_model_name_or_path m --modality depth --noise_type zeros "
        "--lr_exp_warmup_steps 100 --mixed_precision no --enable_xformers_memory_efficient_attention \"$@\";\n",
        "runs train.py"),
    "a user's main.py, python without accelerate": (
        "m.sh", "python main.py --pretrained_model_name_or_path m --use_ema --ema_decay 0.999 --my_loss l2 "
        "--enable_xformers_memory_efficient_attention\n", "runs main.py"),
    "a user's own script name with the flag": (
        "r.sh", "accelerate launch finetune_seg.py --pretrained_model_name_or_path m --seg_loss_weight 0.5 "
        "--num_seg_classes 21 --enable_xformers_memory_efficient_attention --mixed_precision fp16\n",
        "runs finetune_seg.py"),
    "an installer that clones kohya_ss": (
        "install.bat", "git clone --recurse-submodules https://github.com/bmaltais/kohya_ss.git kohya\n"
        "python -m venv .venv\ncall .venv\\Scripts\\activate.bat\npython --version\npause\n", "not a trainer config"),
    "a setup script that clones sd-scripts and installs its requirements": (
        "setup.sh", "git clone https://github.com/kohya-ss/sd-scripts\ncd sd-scripts\npython -m venv venv\n"
        "source venv/bin/activate\npip install -r requirements.txt\n", "not a trainer config"),
}


@pytest.mark.parametrize("case", REFUSED, ids=list(REFUSED))
def test_refused_as_the_script_s_own(tmp_path, case):
    name, text, words = REFUSED[case]
    assert words in _refusal(tmp_path, name, text)


READ = {
    # a renamed copy keeps the example's argparse: every option is an example's
    "a renamed copy of an example under a generic name": (
        "t.sh", "accelerate launch train.py --pretrained_model_name_or_path m --dataset_name d --resolution 512 "
        "--train_batch_size 1 --enable_xformers_memory_efficient_attention --mixed_precision fp16\n",
        ("diffusers", ["xformers"], "float16")),
    "a renamed copy under a name of its own": (
        "c.sh", "accelerate launch my_copy_of_t2i.py --pretrained_model_name_or_path m --dataset_name d --use_ema "
        "--enable_xformers_memory_efficient_attention --mixed_precision=bf16\n", ("diffusers", ["xformers"], "bfloat16")),
    # the script decides: a script named like an example with option names sd-scripts also has
    "an example-named script with sd-scripts' option names": (
        "sd3.sh", "accelerate launch ./sd/train_text_to_image_lora_sd3.py --pretrained_model_name_or_path m "
        "--train_data_dir d --text_encoder_lr 5e-6 --rank 64 --mixed_precision=fp16 --train_text_encoder\n",
        ("diffusers", [], "float16")),
    # ... and the other way round: sd-scripts' script with names diffusers' examples also use
    "sd-scripts' script with the examples' option names": (
        "s.sh", "accelerate launch sdxl_train_network.py --pretrained_model_name_or_path m --train_data_dir d "
        "--output_dir o --train_batch_size 1 --network_module networks.lora --sdpa --mixed_precision bf16\n",
        ("sd-scripts", ["sdpa"], "bfloat16")),
    # the repository's name beside options still supports sd-scripts (a script held in a variable)
    "sd-scripts named in a launch whose script is a variable": (
        "l.sh", "cd /opt/kohya_ss/sd-scripts\naccelerate launch \"$TRAIN_SCRIPT\" --pretrained_model_name_or_path m "
        "--network_module networks.lora --xformers --mixed_precision fp16 --cache_latents --max_token_length 225\n",
        ("sd-scripts", ["xformers"], "float16")),
}


@pytest.mark.parametrize("case", READ, ids=list(READ))
def test_read_by_the_script_that_runs(tmp_path, case):
    name, text, want = READ[case]
    assert _read(tmp_path, name, text) == want


# ---------------------------------------------------------------------------------------------------------------------
# Notebooks: what IPython expands in a `!` line
# ---------------------------------------------------------------------------------------------------------------------

def _notebook(*cells: str) -> str:
    import json

    return json.dumps({"cells": [{"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None,
                                  "source": c.splitlines(keepends=True)} for c in cells],
                       "metadata": {}, "nbformat": 4, "nbformat_minor": 5})


NOTEBOOKS = {
    "%env sets what a `!` line's $NAME is": (
        _notebook("%env MIXED=bf16\n", f"!accelerate launch --mixed_precision $MIXED {SDXL} --xformers "
                  "--mixed_precision $MIXED\n"), ("sd-scripts", ["xformers"], "bfloat16")),
    "Python literals named as {name} in a `!` line": (
        _notebook('attn = "--xformers"\nprec = "fp16"\n', f"!accelerate launch {SDXL} {{attn}} --mixed_precision {{prec}}\n"),
        ("sd-scripts", ["xformers"], "float16")),
    "a Python literal named as $name": (
        _notebook("attn_flag = '--flash_attn'\n", f"!accelerate launch {WAN} $attn_flag --mixed_precision bf16\n"),
        ("musubi", ["fa2"], "bfloat16")),
    "os.environ set in a cell": (
        _notebook('import os\nos.environ["MP"] = "bf16"\n', f"!accelerate launch {WAN} --sdpa --mixed_precision $MP\n"),
        ("musubi", ["sdpa"], "bfloat16")),
}


@pytest.mark.parametrize("case", NOTEBOOKS, ids=list(NOTEBOOKS))
def test_notebook_expansion(tmp_path, case):
    text, want = NOTEBOOKS[case]
    assert _read(tmp_path, "train.ipynb", text) == want


def test_python_variables_no_bang_line_names_stay_out_of_the_settings(tmp_path):
    """FAKE: a notebook's Python literals (load_in_4bit = True, as an Unsloth notebook has) are no settings of its `!`
    lines unless one names them: they must not become the file's keys, where readers would count them as evidence."""
    text = _notebook("load_in_4bit = True\nmax_seq_length = 2048\n", "!pip install -q unsloth\n")
    doc = configs.make_doc(_write(tmp_path, "nb.ipynb", text), text)
    assert not {"load_in_4bit", "max_seq_length"} & set(doc["env"])
