"""Issue 24, round 7: users' launch scripts and configs of the diffusion trainers, taken as searches returned them.

Two parts. The real files of fixtures/configs/round7/ (see its README: users' repositories on the train side of the split,
labelled from the trainers' and the scripts' own source) are each read as their expect file says. And variants written
for this test (what each fakes is in its name) of the mechanisms round 7 added:
- reading: a .bat / .cmd / .ps1 / shell script saved in a legacy code page (a GBK `REM 训练` comment) runs, as cmd.exe,
  Windows PowerShell 5 and bash read it: its ASCII commands are read, the other bytes are U+FFFD (a TOML or a .env in
  such a code page is still refused: their parsers read UTF-8);
- shell: a command substitution holding quotes is one word (`sh $(dirname "$0")/run_g.sh`), and a variable holding one
  is not pasted into the words around it (`V=$(python -c "import diffusers; print(...)")` then `".../v${V}/..."`);
- shell: a launch file that only hands over to another script names it: `sh $(dirname "$0")/run_g.sh`, a script run
  by its path (`/workspace/x/train_t2v.sh`), cmd.exe's `call %~dp0run.bat` (%~dp0: the batch file's own folder);
- shell: a wrapper that forwards its arguments (`python run.py "$@"`, `%*`) runs that script with options, and is
  judged by it, not by a helper script its install guard runs;
- musubi-tuner: the word "musubi" is evidence on a command line (a script under musubi-tuner/, `-m musubi_tuner.x`, its
  options), not in an installer's `git clone .../musubi-tuner.git` or a web UI's start script;
- notebooks: a command list grown from a dict of settings (`for key, value in args.items(): cmd.append(f"--{key}")`,
  the dict a literal or what json.load reads back from the file json.dump wrote it to) and run with
  `!{" ".join(cmd)}` or subprocess is a command line; a `!` line inside an `if` no longer breaks the cell's parse;
- SimpleTuner: train.py run with no option of its own takes the job from config/config.json|toml|env (loader.py): read
  through when here, else only the trainer is known; such a launch script is no config.env however many variables it
  sets.
Run against main at c092bf3 (before round 7), the variants marked NEW fail there; the rest pass there too and guard
that the old readings hold."""

from __future__ import annotations

import pytest
from each_case import each

from attn_doctor import configs
from attn_doctor.configs import shell

from configs_corpus import CONFIGS as CORPUS, CLAIMED, check_read_as_expected, check_staged_expect, expect, files, \
    split_module
from configs_corpus import rel, write as _write, refusal as _refusal

FILES = files(CORPUS / "round7")
DIFFUSION = {"musubi-tuner", "blissful-tuner", "sd-scripts", "ai-toolkit", "diffusion-pipe", "onetrainer", "simpletuner",
             "diffusers"}


def test_the_corpus_is_there_and_on_the_readers_side_of_the_split():
    split = split_module()
    claimed = refused = unclaimed = 0
    for p in FILES:
        t = check_staged_expect(p, expect(p), split)
        assert t in DIFFUSION or t not in CLAIMED, p  # round 7 is a diffusion trainers' round
        claimed += t in CLAIMED
        refused += t not in CLAIMED
        unclaimed += t.startswith("unclaimed:") and t != "unclaimed:user-script"
    assert len(FILES) >= 45 and claimed >= 20 and refused >= 25 and unclaimed >= 10, (len(FILES), claimed, refused)


def test_real_file():
    each(((rel(p), (p,)) for p in FILES), check_read_as_expected)  # (one test over the set: tests/each_case.py)


def _read(tmp_path, name: str, text: str) -> tuple:
    """(trainer, required, dtype as read, None where unknown): these variants leave compile aside."""
    cfg = configs.load(_write(tmp_path, name, text))
    return cfg["detected"]["trainer"], sorted(cfg["required"]), cfg["dtype"]


def _bytes(tmp_path, name: str, data: bytes) -> str:
    p = tmp_path / name
    p.write_bytes(data)
    return str(p)


# ---------------------------------------------------------------------------------------------------------------------
# scripts saved in a legacy code page
# ---------------------------------------------------------------------------------------------------------------------

SDS = ("accelerate launch --num_cpu_threads_per_process 1 train_network.py --pretrained_model_name_or_path=m.safetensors "
       "--network_module=networks.lora --xformers --mixed_precision=fp16")

CODEPAGES = {
    "NEW a GBK .bat: REM in Chinese, an sd-scripts launch": (
        "train.bat", ("@echo off\r\nREM 训练 LoRA\r\n" + SDS + "\r\npause\r\n").encode("gbk"),
        ("sd-scripts", ["xformers"], "float16")),
    "NEW a cp1252 .ps1: an accented comment, musubi-tuner": (
        "train.ps1", ("# entraînement\naccelerate launch wan_train_network.py --task t2v-14B --dit d.safetensors "
                      "--sdpa --mixed_precision bf16\n").encode("cp1252"), ("musubi", ["sdpa"], "bfloat16")),
    "NEW a Shift-JIS .sh: an echo in Japanese": (
        "train.sh", ("#!/bin/bash\necho \"学習を開始\"\n" + SDS + "\n").encode("shift_jis"),
        ("sd-scripts", ["xformers"], "float16")),
    "a UTF-8 .bat (the old reading)": (
        "train.bat", ("@echo off\r\nREM 训练\r\n" + SDS + "\r\n").encode("utf-8"), ("sd-scripts", ["xformers"], "float16")),
}


@pytest.mark.parametrize("case", CODEPAGES, ids=list(CODEPAGES))
def test_a_script_in_a_legacy_code_page_is_read(tmp_path, case):
    name, data, want = CODEPAGES[case]
    cfg = configs.load(_bytes(tmp_path, name, data))
    assert (cfg["detected"]["trainer"], sorted(cfg["required"]), cfg["dtype"]) == want


def test_a_gbk_bat_running_a_foreign_trainer_is_refused_naming_it(tmp_path):  # NEW
    data = "@echo off\r\nREM 双击启动 WanVideo LoRA 训练\r\ncd /d G:\\H\\DiffSynth-Studio\r\n" \
           "python examples\\wanvideo\\model_training\\train_lora.py\r\npause\r\n".encode("gbk")
    with pytest.raises(configs.UsageError) as err:
        configs.load(_bytes(tmp_path, "train_lora.bat", data))
    assert "runs train_lora.py" in str(err.value)


@pytest.mark.parametrize("name, data", [
    ("config.toml", 'mixed_precision = "fp16"\n# 训练\nxformers = true\n'.encode("gbk")),
    ("x.env", "MODEL_FAMILY=caf\xe9\n".encode("latin-1")),
], ids=["a GBK TOML", "a latin-1 .env"])
def test_configs_in_a_legacy_code_page_are_still_refused(tmp_path, name, data):
    with pytest.raises(configs.UsageError, match="not UTF-8"):
        configs.load(_bytes(tmp_path, name, data))


# ---------------------------------------------------------------------------------------------------------------------
# command substitutions holding quotes
# ---------------------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("line, words", [
    ('sh $(dirname "$0")/run_g.sh --task-flag x', ["sh", '$(dirname "$0")/run_g.sh', "--task-flag", "x"]),  # NEW
    ('bash $(dirname "$(realpath "$0")")/train.sh', ["bash", '$(dirname "$(realpath "$0")")/train.sh']),  # NEW
    ("cd $(dirname $0) && python x.py", ["cd", "$(dirname $0)"]),
])
def test_a_command_substitution_is_one_word(line, words):
    assert shell.words_of(line, "posix")[0] == words


def test_a_variable_holding_a_quoted_command_is_not_pasted_into_a_string(tmp_path):
    # (main read it right by luck: the substitution's words fell apart before they were pasted in)
    text = ('SCRIPT="train_dreambooth_lora_sdxl.py"\nif [ ! -f "$SCRIPT" ]; then\n'
            '  V=$(python -c "import diffusers; print(diffusers.__version__)")\n'
            '  curl -fsSL -o "$SCRIPT" "https://example.org/diffusers/v${V}/examples/dreambooth/${SCRIPT}"\nfi\n'
            'accelerate launch "$SCRIPT" --pretrained_model_name_or_path=m --instance_data_dir=d --instance_prompt=p '
            '--mixed_precision="bf16" --resolution=1024\n')
    assert _read(tmp_path, "train_lora.sh", text) == ("diffusers", [], "bfloat16")


# ---------------------------------------------------------------------------------------------------------------------
# a launch file that hands over to another script
# ---------------------------------------------------------------------------------------------------------------------

HANDOVER = {
    "NEW sh $(dirname \"$0\")/run_g.sh with options": (
        "train.sh", 'task_flag="x"\nsh $(dirname "$0")/run_g.sh \\\n    --task-flag ${task_flag} --use-flash-attn\n',
        "only runs another script (run_g.sh)"),
    "NEW a script run by its absolute path, no newline": (
        "mtrain.sh", "/workspace/Open-Sora-Plan/myscripts/multinode_train_t2v_480.sh",
        "only runs another script (multinode_train_t2v_480.sh)"),
    "NEW ./scripts/train.sh with an argument": (
        "go.sh", "set -e\n./scripts/train.sh mychar\n", "only runs another script (train.sh)"),
    "NEW cmd.exe call %~dp0X.bat %*": (
        "run.bat", "@echo off\r\nchcp 65001 > NUL\r\n\r\ncall %~dp0ComfyUi_NoArgs.bat --fast --use-sage-attention %*\r\n",
        "only runs another script (ComfyUi_NoArgs.bat)"),
    "NEW cmd.exe call \"%~dp0sub\\train.cmd\"": (
        "go.bat", '@echo off\r\ncall "%~dp0sub\\train.cmd"\r\n', "only runs another script (train.cmd)"),
    "bash scripts/train_sft.sh (the old reading, the path as written)": (
        "sft.sh", "export M=x\nbash scripts/train_sft.sh\n", "only runs another script (scripts/train_sft.sh)"),
}


@pytest.mark.parametrize("case", HANDOVER, ids=list(HANDOVER))
def test_a_handover_names_the_script(tmp_path, case):
    name, text, words = HANDOVER[case]
    assert words in _refusal(tmp_path, name, text)


FORWARDED = {
    "NEW python run.py \"$@\" after an install guard": (
        "run.sh", 'if [ ! -d venv ]; then\n  python3 -m venv venv\n  first=true\nfi\nif [first]; then\n'
        'bash install_packages.sh\nfi\nsource venv/bin/activate\npython run.py "$@"\n', "runs run.py"),
    "python my_trainer.py $*": ("go.sh", "python my_trainer.py $*\n", "runs my_trainer.py"),
    "cmd.exe python my_trainer.py %*": ("go.bat", "@echo off\r\npython my_trainer.py %*\r\n", "runs my_trainer.py"),
    "a script with options (the old reading)": ("go.sh", "python my_trainer.py --lr 1e-4\n", "runs my_trainer.py"),
}


@pytest.mark.parametrize("case", FORWARDED, ids=list(FORWARDED))
def test_forwarded_arguments_are_options(tmp_path, case):
    name, text, words = FORWARDED[case]
    assert words in _refusal(tmp_path, name, text)


# ---------------------------------------------------------------------------------------------------------------------
# the word "musubi"
# ---------------------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text", [
    "#!/bin/bash\nset -e\nMUSUBI=\"$ROOT/musubi-tuner\"\nif [ ! -d \"$MUSUBI/.git\" ]; then\n"
    "  git clone https://github.com/kohya-ss/musubi-tuner.git \"$MUSUBI\"\nfi\ncd \"$MUSUBI\"\nuv venv --python 3.11 .venv\n"
    "uv pip install -e .\n",  # NEW
    "#!/bin/bash\n# separate from the heavy training venv inside musubi-tuner/.venv\npython3 -m venv .webvenv\n"
    "exec ./.webvenv/bin/uvicorn backend.main:app --host 0.0.0.0 --port 8000\n",  # NEW
    "echo 'Musubi Tuner GUI'\npython gui.py --listen 0.0.0.0\n",
], ids=["an installer that clones musubi-tuner", "a web UI's start script", "a GUI launcher"])
def test_a_file_that_only_mentions_musubi_is_refused(tmp_path, text):
    with pytest.raises(configs.UsageError):
        configs.load(_write(tmp_path, "run.sh", text))


@pytest.mark.parametrize("text, want", [
    ("accelerate launch musubi-tuner/src/musubi_tuner/wan_train_network.py --task t2v-14B --sdpa "
     "--mixed_precision bf16\n", ("musubi", ["sdpa"], "bfloat16")),
    ("python -m musubi_tuner.wan_train_network --task t2v-14B --xformers --mixed_precision fp16\n",
     ("musubi", ["xformers"], "float16")),
    ("# musubi-tuner\naccelerate launch $SCRIPT --dit d.safetensors --sdpa --mixed_precision bf16\n",
     ("musubi", ["sdpa"], "bfloat16")),
], ids=["its script under musubi-tuner/", "-m musubi_tuner.x", "a script variable and its options"])
def test_musubi_on_a_command_line_is_still_read(tmp_path, text, want):
    assert _read(tmp_path, "train.sh", text) == want


# ---------------------------------------------------------------------------------------------------------------------
# an adapted copy of one of diffusers' examples (FaceChain's train_text_to_image_lora.py): still the example
# ---------------------------------------------------------------------------------------------------------------------

T2I = ("--pretrained_model_name_or_path=m --dataset_name=d --caption_column=text --resolution=512 --random_flip "
       "--train_batch_size=1 --num_train_epochs=200 --checkpointing_steps=5000 --learning_rate=1.5e-04 --seed=42 "
       "--output_dir=o")


@pytest.mark.parametrize("extra", [
    "--sub_path=s --output_dataset_name=x --lora_r=4 --lora_alpha=32",  # FaceChain's own options
    "--pretrained_model_name_or_pth=x",   # a typo (near --pretrained_model_name_or_path)
    "",
], ids=["FaceChain's options of its own", "a typo", "only the example's"])
def test_an_adapted_example_is_still_the_example(tmp_path, extra):
    # rounds 5b and 6b read an example's argparse plus options of its own (train_controlnet_sdxl.py --image_log_dir,
    # train_controlnet_ipadapter.py) as the example: its attention is the example's
    text = f"accelerate launch facechain/train_text_to_image_lora.py {T2I} --mixed_precision=fp16 {extra}\n"
    assert _read(tmp_path, "train.sh", text) == ("diffusers", [], "float16")


# ---------------------------------------------------------------------------------------------------------------------
# SimpleTuner's train.py with no options: config/config.*
# ---------------------------------------------------------------------------------------------------------------------

TRAIN_SH = ('[ -f "config/config.env" ] && source config/config.env\nexport TOKENIZERS_PARALLELISM=false\n'
            'if [[ "$PLATFORM" == "Darwin" ]]; then\n    export MIXED_PRECISION="no"\nfi\n'
            'if [ -z "${MIXED_PRECISION}" ]; then\n    MIXED_PRECISION=bf16\nfi\n'
            'if [ -z "${TRAINING_DYNAMO_BACKEND}" ]; then\n    TRAINING_DYNAMO_BACKEND="no"\nfi\n'
            'accelerate launch --mixed_precision="${MIXED_PRECISION}" --num_processes=1 '
            '--dynamo_backend="${TRAINING_DYNAMO_BACKEND}" train.py\n')


def test_bare_train_py_without_its_config_tells_only_the_trainer(tmp_path):  # NEW
    cfg = configs.load(_write(tmp_path, "train.sh", TRAIN_SH))
    assert (cfg["detected"]["trainer"], cfg["required"], cfg["dtype"], cfg["compile_mode"]) == \
        ("simpletuner", [], None, None)


def test_bare_train_py_reads_config_json_beside_it(tmp_path):  # NEW
    (tmp_path / "config").mkdir()
    _write(tmp_path, "config/config.json", '{"--model_family": "sdxl", "--mixed_precision": "fp16", '
                                           '"--attention_mechanism": "xformers"}')
    assert _read(tmp_path, "train.sh", TRAIN_SH) == ("simpletuner", ["xformers"], "float16")


def test_bare_train_py_reads_config_env_one_level_up(tmp_path):  # NEW
    (tmp_path / "config").mkdir()
    (tmp_path / "scripts").mkdir()
    _write(tmp_path, "config/config.env", "MODEL_FAMILY=flux\nMIXED_PRECISION=fp16\n")
    assert _read(tmp_path, "scripts/train.sh", TRAIN_SH)[::2] == ("simpletuner", "float16")


def test_a_config_env_is_still_read_as_one(tmp_path):
    text = "export MODEL_FAMILY=flux\nexport MIXED_PRECISION=fp16\nexport TRAINER_EXTRA_ARGS='--lora_rank=16'\n"
    assert _read(tmp_path, "config.env", text)[::2] == ("simpletuner", "float16")


# ---------------------------------------------------------------------------------------------------------------------
# a notebook's command list grown from a dict of settings
# ---------------------------------------------------------------------------------------------------------------------

def _nb(*cells: str) -> str:
    import json

    return json.dumps({"cells": [{"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None,
                                  "source": c.splitlines(keepends=True)} for c in cells],
                       "metadata": {}, "nbformat": 4, "nbformat_minor": 5})


SETUP = ('import os\nif not os.path.exists("/content/sd-scripts"):\n    !git clone https://github.com/kohya-ss/sd-scripts\n'
         'MIXED_PRECISION = "fp16" #@param ["fp16", "bf16"]\n')
ARGS = ('train_args = {\n    "pretrained_model_name_or_path": BASE,\n    "network_module": "networks.lora",\n'
        '    "mixed_precision": MIXED_PRECISION,\n    "xformers": True,\n    "sdpa": False,\n'
        '    "cache_latents": True,\n    "caption_extension": ".txt",\n    "enable_bucket": True,\n}\n')
LOOP = ('cmd = ["accelerate", "launch", "--num_cpu_threads_per_process=2", "sdxl_train_network.py"]\n'
        'for key, value in {src}.items():\n    if isinstance(value, bool):\n        if value:\n'
        '            cmd.append(f"--{{key}}")\n    elif isinstance(value, list):\n        for item in value:\n'
        '            cmd.extend([f"--{{key}}", str(item)])\n    else:\n        cmd.extend([f"--{{key}}", str(value)])\n')

NOTEBOOKS = {
    "NEW the dict written to JSON, read back, run with !{' '.join(cmd)}": (
        SETUP, ARGS + 'with open("/content/cfg.json", "w") as f:\n    json.dump(train_args, f)\n',
        'with open("/content/cfg.json") as f:\n    config = json.load(f)\n' + LOOP.format(src="config") +
        "%cd /content/sd-scripts\n!{' '.join(cmd)}\n"),
    "NEW the dict literal itself, subprocess.run(cmd)": (
        SETUP + ARGS, LOOP.format(src="train_args") + "import subprocess\nsubprocess.run(cmd, check=True)\n"),
    "NEW shlex.join": (SETUP + ARGS, LOOP.format(src="train_args") + "!{shlex.join(cmd)}\n"),
}


@pytest.mark.parametrize("case", NOTEBOOKS, ids=list(NOTEBOOKS))
def test_a_notebook_command_grown_from_a_dict(tmp_path, case):
    assert _read(tmp_path, "train.ipynb", _nb(*NOTEBOOKS[case])) == ("sd-scripts", ["xformers"], "float16")


def test_two_dumped_dicts_leave_the_options_unknown(tmp_path):  # NEW
    # which literal json.load reads back is the notebook's business: the options are not taken from either
    text = _nb(SETUP, ARGS + 'other = {"sdpa": True}\njson.dump(other, open("/content/o.json", "w"))\n'
               'json.dump(train_args, open("/content/cfg.json", "w"))\n',
               'config = json.load(open("/content/cfg.json"))\n' + LOOP.format(src="config") + "!{' '.join(cmd)}\n")
    trainer, required, _dtype = _read(tmp_path, "train.ipynb", text)
    # sdxl_train_network.py with no attention flag read: the SDXL U-Net's vanilla attention, nothing required (neither
    # the other dict's --sdpa nor train_args' --xformers was taken)
    assert (trainer, required) == ("sd-scripts", [])


def test_a_bang_line_in_an_if_keeps_the_cell_parsable():  # NEW
    from attn_doctor.configs.pyscript import tree

    assert tree("if x:\n    !pip install y\nelse:\n    z = 1\n%cd /content\n") is not None
