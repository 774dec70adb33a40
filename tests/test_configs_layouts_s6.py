"""Issue 24, helper cfg23 (2026-11-28): `check --config LAUNCHER` follows the files a launcher names, where the
launcher's own run finds them (attn_doctor/configs/references.py), and names those it cannot read instead of guessing.

tests/data/config_layouts_s6/ (its README): 52 small repositories written by hand, each a launcher and the files it
references, modelled on corpus files; every layout is read as its layout.expect.toml says, from a working directory
outside it. Then the mechanisms, each with variants written here and near-misses that must not match: the launcher's
folder as bash / cmd.exe / PowerShell spell it, `cd` before the command, the repository root above a launcher in
scripts/, Makefiles, missing files and caller-given paths, options a launcher gives a user's script's own argparse.
Nothing is run: a script beside the launcher is read with ast, never imported."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from attn_doctor import configs
from attn_doctor.configs.launchers import makefile_script
from attn_doctor.model import UsageError

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
import configs_layouts as bench  # noqa: E402

LAYOUTS = bench.layouts()


def test_the_layouts_are_there_and_well_formed():
    assert len(LAYOUTS) >= 52
    missing = 0
    for d in LAYOUTS:
        e = bench.expect(d)
        assert (d / e["launcher"]).is_file(), d
        assert e["note"].startswith("written by cfg23 on 2026-11-28, modelled on fixtures/configs/"), d
        assert "heldout" not in e["note"], d
        for src in e["note"].split("modelled on ", 1)[1].split(", "):
            assert (ROOT / src).is_file(), (d, src)
        for name, src in (e.get("copies") or {}).items():
            assert (ROOT / src).is_file() and not (d / name).exists(), (d, name, src)
        assert e["why"].strip() and isinstance(e["required"], list) and isinstance(e["unread"], list), d
        missing += bool(e["unread"])
    assert missing >= 9


@pytest.mark.parametrize("layout", LAYOUTS, ids=lambda d: d.name)
def test_layout_is_read_as_labelled(layout, monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)  # never found because attn-doctor runs beside it
    r = bench.judge(layout)
    assert r["right"], r


# ---------------------------------------------------------------------------------------------------
# variants written here
# ---------------------------------------------------------------------------------------------------

AXOLOTL = (ROOT / "fixtures/configs/real/axolotl/qwen3__8b-lora-fused-attn-compile.yaml").read_text(encoding="utf-8")
SDXL = (ROOT / "fixtures/configs/real/sd-scripts/motimalu__prodigy-01-eps.toml").read_text(encoding="utf-8")
TORCHTUNE = (ROOT / "fixtures/configs/real/torchtune/chg0901__llama3_2_3b_lora_single_device_m_pack.yaml").read_text(
    encoding="utf-8")
SFT = (ROOT / "fixtures/configs/round9m/transformers/Alasdey__trl-sft-grpo__train_sft.py").read_text(encoding="utf-8")


def repo(tmp_path: Path, files: dict) -> Path:
    for name, text in files.items():
        p = tmp_path / "repo" / name
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text, encoding="utf-8", newline="")
    return tmp_path / "repo"


def load(path: Path, cwd: Path) -> dict:
    here = os.getcwd()
    os.chdir(cwd)
    try:
        return configs.load(str(path))
    finally:
        os.chdir(here)


def reading(cfg: dict) -> tuple:
    return cfg["detected"]["trainer"], sorted(cfg["required"]), cfg["dtype"] or "", cfg["compile_mode"] or "none"


AX_READ = ("axolotl", ["fa2"], "bfloat16", "max-autotune")


@pytest.mark.parametrize("spelling", [
    'cd "$(dirname "$0")/.."',
    'cd -- "$(dirname -- "${BASH_SOURCE[0]}")/.."',
    'ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"\ncd "$ROOT"',
    'ROOT=$(cd $(dirname $0)/..; pwd -P)\ncd $ROOT',
    'cd "$(realpath "$(dirname "$0")")"\ncd ..',
    'cd "$(dirname "$(readlink -f "$0")")"/..',
    'cd "${0%/*}/.."',
    'pushd "$(dirname "$0")/.." > /dev/null',
    'SCRIPT_DIR="$( cd -- "$( dirname -- "${BASH_SOURCE[0]}" )" &> /dev/null && pwd )"\ncd "$SCRIPT_DIR/.."',
    'HERE=$(dirname $(readlink -f $0))\nROOT=$HERE/..\ncd ${ROOT}',
])
def test_launcher_folder_spellings_then_a_root_relative_config(tmp_path, spelling):
    r = repo(tmp_path, {"scripts/train.sh": f"#!/bin/bash\n{spelling}\naxolotl train configs/qwen3.yaml\n",
                        "configs/qwen3.yaml": AXOLOTL})
    cfg = load(r / "scripts/train.sh", tmp_path)
    assert reading(cfg) == AX_READ and cfg["unread"] == []


def test_cd_wins_over_the_same_name_beside_the_launcher(tmp_path):
    """The script moves to the repository root: its configs/ is the one read, not a scripts/configs/ of that name."""
    other = AXOLOTL.replace("torch_compile: true", "torch_compile: false")
    assert other != AXOLOTL
    r = repo(tmp_path, {"scripts/train.sh": 'cd "$(dirname "$0")/.."\naxolotl train configs/qwen3.yaml\n',
                        "configs/qwen3.yaml": AXOLOTL, "scripts/configs/qwen3.yaml": other})
    assert reading(load(r / "scripts/train.sh", tmp_path)) == AX_READ
    r2 = repo(tmp_path / "b", {"scripts/train.sh": "axolotl train configs/qwen3.yaml\n",
                               "configs/qwen3.yaml": other, "scripts/configs/qwen3.yaml": AXOLOTL})
    assert reading(load(r2 / "scripts/train.sh", tmp_path)) == AX_READ  # no cd: beside the launcher first


def test_cd_into_a_checkout_that_is_not_here(tmp_path):
    for cd in ("cd sd-scripts", "cd ./kohya/sd-scripts && ", "cd sd-scripts; "):
        sep = "\n" if not cd.endswith((" ", "&& ")) else ""
        up = "../" * (cd.count("/") if "./" in cd else 1)
        r = repo(tmp_path / str(len(cd)), {
            "train.sh": f"{cd}{sep}accelerate launch sdxl_train_network.py --config_file {up}configs/lora.toml\n",
            "configs/lora.toml": SDXL})
        assert reading(load(r / "train.sh", tmp_path)) == ("sd-scripts", ["xformers"], "bfloat16", "none"), cd


def test_windows_spellings_of_the_launcher_folder(tmp_path):
    r = repo(tmp_path, {
        "a.bat": "@echo off\r\ncd /d %~dp0\r\nset CFG=configs\\lora.toml\r\n"
                 "accelerate launch sdxl_train_network.py --config_file=\"%CFG%\"\r\n",
        "b.bat": "accelerate launch sdxl_train_network.py --config_file \"%~dp0configs\\lora.toml\"\r\n",
        "c.ps1": "Set-Location $PSScriptRoot\r\naccelerate launch sdxl_train_network.py --config_file .\\configs\\lora.toml\r\n",
        "d.ps1": "$cfg = \"$PSScriptRoot\\configs\\lora.toml\"\r\naccelerate launch sdxl_train_network.py --config_file $cfg\r\n",
        "configs/lora.toml": SDXL})
    for name in ("a.bat", "b.bat", "c.ps1", "d.ps1"):
        assert reading(load(r / name, tmp_path)) == ("sd-scripts", ["xformers"], "bfloat16", "none"), name


def test_a_repository_path_from_the_root_is_found_above_a_launcher_in_scripts(tmp_path):
    r = repo(tmp_path, {"scripts/finetune.sh": "tune run lora_finetune_single_device --config configs/3b.yaml\n",
                        "configs/3b.yaml": TORCHTUNE})
    assert reading(load(r / "scripts/finetune.sh", tmp_path)) == ("torchtune", ["flex"], "bfloat16", "default")
    r2 = repo(tmp_path / "deep", {"tools/launch/finetune.sh": "tune run lora_finetune_single_device --config "
                                                                "configs/3b.yaml\n", "configs/3b.yaml": TORCHTUNE})
    assert reading(load(r2 / "tools/launch/finetune.sh", tmp_path))[1] == ["flex"]


def test_near_miss_a_bare_name_is_not_looked_for_above_the_launcher(tmp_path):
    """`--config 3b.yaml` is a file beside the launcher (or where it runs), not any 3b.yaml two folders up."""
    r = repo(tmp_path, {"scripts/finetune.sh": "tune run lora_finetune_single_device --config 3b.yaml\n",
                        "3b.yaml": TORCHTUNE})
    cfg = load(r / "scripts/finetune.sh", tmp_path)
    assert cfg["required"] == [] and cfg["dtype"] is None and cfg["unread"] == ["3b.yaml"]


def test_near_miss_a_cd_to_where_this_machine_has_nothing_is_not_followed(tmp_path):
    """`cd "$KOHYA_DIR"` (set by the caller) or an absolute folder of another machine: the command's directory is
    unknown; the relative path is still tried beside the launcher, never somewhere else."""
    r = repo(tmp_path, {"train.sh": 'cd "$KOHYA_DIR"\naxolotl train ../configs/qwen3.yaml\n',
                        "configs/qwen3.yaml": AXOLOTL})
    cfg = load(r / "train.sh", tmp_path)
    assert cfg["required"] == [] and cfg["unread"] == ["../configs/qwen3.yaml"]
    r2 = repo(tmp_path / "b", {"train.sh": "cd /workspace/nowhere-here\naxolotl train configs/qwen3.yaml\n",
                               "configs/qwen3.yaml": AXOLOTL})
    assert reading(load(r2 / "train.sh", tmp_path)) == AX_READ  # beside the launcher, as before


@pytest.mark.parametrize("line, unread", [
    ('axolotl train "$1"', "$1"),
    ("axolotl train ${CONFIG}", "${CONFIG}"),
    ("axolotl train configs/not-there.yaml", "configs/not-there.yaml"),
    ("CONFIG=${CONFIG:-configs/v2.yaml}\naxolotl train $CONFIG", "configs/v2.yaml"),
])
def test_a_missing_or_caller_given_config_is_named_never_guessed(tmp_path, line, unread):
    r = repo(tmp_path, {"train.sh": f"#!/bin/bash\n{line}\n", "configs/qwen3.yaml": AXOLOTL})
    cfg = load(r / "train.sh", tmp_path)
    assert cfg["trainer"] == "axolotl" and cfg["required"] == [] and cfg["dtype"] is None
    assert cfg["unread"] == [unread]
    from attn_doctor.render.text import config_lines

    assert any(unread in ln and "not read" in ln for ln in config_lines(cfg))


def test_missing_configs_of_other_trainers_are_named(tmp_path):
    r = repo(tmp_path, {
        "lf.sh": "llamafactory-cli train configs/sft.yaml\n",
        "tt.sh": "tune run lora_finetune_single_device --config ./my.yaml\n",
        "mus.sh": "accelerate launch --mixed_precision bf16 src/musubi_tuner/wan_train_network.py --config_file cfg/wan\n",
        "sds.sh": "accelerate launch train_network.py --config_file=\"$CFG\"\n"})
    want = {"lf.sh": "configs/sft.yaml", "tt.sh": "./my.yaml", "mus.sh": "cfg/wan", "sds.sh": "$CFG.toml"}  # (sd-scripts adds .toml to a name without it)
    for name, unread in want.items():
        cfg = load(r / name, tmp_path)
        assert cfg["unread"] == [unread], name
        assert cfg["required"] == [] and cfg["compile_mode"] is None, name  # compile unknown, not off


def test_near_miss_torchtunes_own_config_name_is_not_a_missing_file(tmp_path):
    r = repo(tmp_path, {"tt.sh": "tune run lora_finetune_single_device --config llama3_2/3B_lora_single_device\n"})
    assert load(r / "tt.sh", tmp_path)["unread"] == []


def test_near_miss_a_found_config_is_not_unread(tmp_path):
    r = repo(tmp_path, {"train.sh": "axolotl train qwen3.yaml\n", "qwen3.yaml": AXOLOTL})
    cfg = load(r / "train.sh", tmp_path)
    assert cfg["unread"] == [] and reading(cfg) == AX_READ


# ---------------------------------------------------------------------------------------------------
# Makefiles
# ---------------------------------------------------------------------------------------------------

def test_makefile_recipes_are_the_commands():
    text = ("MODEL := qwen3\nCONFIG ?= configs/$(MODEL).yaml\nCONFIG ?= ignored.yaml\nARGS = --num-processes 2\n"
            "ARGS += --debug\n\n.PHONY: train\ntrain: prep ## train it\n\t@echo \"$${HOME}\"\n"
            "\t-axolotl train ${CONFIG} $(ARGS)\n")
    assert makefile_script(text).splitlines() == ['echo "${HOME}"',
                                                  "axolotl train configs/qwen3.yaml --num-processes 2 --debug"]


@pytest.mark.parametrize("name", ["Makefile", "GNUmakefile", "train.mk", "makefile"])
def test_makefile_launchers(tmp_path, name):
    r = repo(tmp_path, {name: "CONFIG := configs/qwen3.yaml\n\ntrain:\n\taccelerate launch -m axolotl.cli.train "
                              "$(CONFIG)\n", "configs/qwen3.yaml": AXOLOTL})
    assert reading(load(r / name, tmp_path)) == AX_READ


def test_near_miss_a_makefile_that_trains_nothing_is_refused(tmp_path):
    r = repo(tmp_path, {"Makefile": "install:\n\tpip install -e .\n\nlint:\n\truff check .\n"})
    with pytest.raises(UsageError):
        load(r / "Makefile", tmp_path)


# ---------------------------------------------------------------------------------------------------
# a user's script beside the launcher, and the options the launcher gives its own argparse
# ---------------------------------------------------------------------------------------------------

SFT_READ = ("transformers", ["fa2"], "bfloat16", "none")


@pytest.mark.parametrize("line", [
    "python src/train_sft.py",
    'cd "$(dirname "$0")/src" && accelerate launch train_sft.py',
    "accelerate launch --num_processes 2 src/train_sft.py --output_dir out/run2 --num_train_epochs=3",
    "python src/train_sft.py --packing --learning_rate 2e-5 --report_to none",
])
def test_a_script_under_the_launcher_with_its_own_options(tmp_path, line):
    r = repo(tmp_path, {"run.sh": f"#!/bin/bash\n{line}\n", "src/train_sft.py": SFT})
    assert reading(load(r / "run.sh", tmp_path)) == SFT_READ


def test_the_scripts_own_option_values_are_applied():
    """`--bf16` is store_true default True in the script; `--fp16` changes nothing the reading depends on there (its
    dtype line tests use_bf16 first): options are applied through the script's argparse table."""
    from attn_doctor.configs.pyscript import argv_options, tree

    t = tree(SFT)
    got = argv_options(t, ["--output_dir", "x", "--num_train_epochs", "3", "--fp16", "--learning_rate=1e-4"])
    assert {k: v.value for k, v in got.items()} == {"output_dir": "x", "num_train_epochs": 3, "fp16": True,
                                                     "learning_rate": 1e-4}


@pytest.mark.parametrize("line, words", [
    ("python train_sft.py --attn_implementation sdpa", "options attn-doctor does not read"),   # not the script's own
    ("python train_sft.py data/train.jsonl", "options attn-doctor does not read"),          # a positional it does not take
])
def test_near_miss_options_the_script_does_not_declare_are_refused(tmp_path, line, words):
    r = repo(tmp_path, {"run.sh": f"#!/bin/bash\n{line}\n", "train_sft.py": SFT})
    with pytest.raises(UsageError) as err:
        load(r / "run.sh", tmp_path)
    assert words in str(err.value)


def test_a_value_left_to_the_caller_is_unknown_to_that_option_only(tmp_path):
    """(cfg38) `--output_dir $OUT`: the option is the script's own and only its value is left to the caller; whatever the
    script reads from it is unknown, the rest of the launch is read (it was refused here before session 9's cfg38)."""
    r = repo(tmp_path, {"run.sh": "#!/bin/bash\npython train_sft.py --output_dir $OUT\n", "train_sft.py": SFT})
    assert reading(load(r / "run.sh", tmp_path)) == SFT_READ


def test_a_script_beside_is_read_never_run(tmp_path):
    marker = tmp_path / "ran"
    script = f"import pathlib\npathlib.Path({str(marker)!r}).write_text('x')\n" + SFT
    r = repo(tmp_path, {"run.sh": "python train_sft.py --output_dir out\n", "train_sft.py": script})
    assert reading(load(r / "run.sh", tmp_path)) == SFT_READ
    assert not marker.exists()


# ---------------------------------------------------------------------------------------------------
# more spellings, written after the mechanism (11 variants; 9 of them read right at the first try, the nested
# dirname and PowerShell's Split-Path of $MyInvocation were added for them)
# ---------------------------------------------------------------------------------------------------

DIFFPIPE = (ROOT / "fixtures/configs/round4a/diffusion-pipe/ThaiLe1220__configs__lora_video_training.toml").read_text(
    encoding="utf-8")
LLAMAFACTORY = (ROOT / "fixtures/configs/round11/llama-factory/russwestbrick__lora_sft_demo__configs__lora_sft.yaml"
                ).read_text(encoding="utf-8")
LITGPT = (ROOT / "fixtures/configs/real/litgpt/calvintwr__config_hub__finetune__htx-sutd__full-htxsutd-tinyllama.yaml"
          ).read_text(encoding="utf-8")
SD_READ = ("sd-scripts", ["xformers"], "bfloat16", "none")


@pytest.mark.parametrize("launcher, text, files, want", [
    ("scripts/train.bat", 'cd /d "%~dp0\\.."\r\naccelerate launch sdxl_train_network.py --config_file config\\lora.toml\r\n',
     {"config/lora.toml": SDXL}, SD_READ),
    ("scripts/train.bat", "pushd %~dp0..\r\naccelerate launch sdxl_train_network.py --config_file=config/lora.toml\r\npopd\r\n",
     {"config/lora.toml": SDXL}, SD_READ),
    ("scripts/train.ps1", "$here = Split-Path -Parent $MyInvocation.MyCommand.Path\r\naccelerate launch "
                          "sdxl_train_network.py --config_file \"$here\\..\\config\\lora.toml\"\r\n",
     {"config/lora.toml": SDXL}, SD_READ),
    ("scripts/ft.sh", "CFG=${CFG:-configs/3b.yaml}\ntune run lora_finetune_single_device --config=$CFG\n",
     {"configs/3b.yaml": TORCHTUNE}, ("torchtune", ["flex"], "bfloat16", "default")),
    ("scripts/sft/train.sh", 'ROOT=$(dirname $(dirname $(realpath $0)))\nFORCE_TORCHRUN=1 llamafactory-cli train '
                             '"${ROOT}/../examples/x.yaml"\n',
     {"examples/x.yaml": LLAMAFACTORY}, ("llama-factory", ["fa2"], "bfloat16", "none")),
    ("train.sh", 'deepspeed --num_gpus=1 train.py --deepspeed --config "$(dirname "$0")/config.toml"\n',
     {"config.toml": DIFFPIPE}, ("diffusion-pipe", ["fa2"], "bfloat16", "none")),
    ("scripts/train.sh", 'python -m axolotl.cli.train "${1:-configs/q.yaml}"\n', {"configs/q.yaml": AXOLOTL}, AX_READ),
    ("run.sh", "accelerate launch --config_file accel.yaml scripts/train_sft.py\n", {"scripts/train_sft.py": SFT}, SFT_READ),
    ("Makefile", "train:\n\tcd training && accelerate launch train_sft.py --output_dir out\n",
     {"training/train_sft.py": SFT}, SFT_READ),
    ("run.sh", 'CONFIG_DIR=./config_hub\nlitgpt finetune_full --config "$CONFIG_DIR/full.yaml"\n',
     {"config_hub/full.yaml": LITGPT}, ("litgpt", [], "bfloat16", "none")),
    ("scripts/train.sh", 'cd "$(dirname "$0")"\ncd ../kohya\naccelerate launch sdxl_train_network.py --config_file '
                         "../config/lora.toml\n", {"config/lora.toml": SDXL}, SD_READ),
])
def test_later_variants(tmp_path, launcher, text, files, want):
    r = repo(tmp_path, {launcher: text, **files})
    cfg = load(r / launcher, tmp_path)
    assert reading(cfg) == want and cfg["unread"] == []


def test_near_miss_a_path_that_only_starts_like_the_launchers_own_is_not_moved(tmp_path):
    """`$0.log` or `${0%/*}x` are not the launcher's folder followed by a path."""
    from attn_doctor.configs.references import spelt

    doc = {"path": str(tmp_path / "scripts" / "run.sh"), "env": {"LOG": "$0.log"}}
    assert spelt(doc, "$0.log") == "$0.log" and spelt(doc, "$LOG") == "$LOG"
    assert spelt(doc, "$(dirname $0)/../c.yaml") == str(tmp_path / "c.yaml")
    assert spelt(doc, "$(date +%F)/c.yaml") == "$(date +%F)/c.yaml"


def test_a_variable_make_or_just_exports_is_in_the_recipes_environment(tmp_path):
    """make's `export NAME = value` / `export NAME` and just's `export name := value` put the variable in every recipe's
    environment, wherever the line stands (review rev27): the script a Makefile becomes exports it first, so a launch's
    DIFFUSERS_ATTN_BACKEND set that way is the launch's (cfg114 reads it from the launch's environment only)."""
    from attn_doctor.configs.launchers import justfile_script

    launch = ("accelerate launch --mixed_precision bf16 train_dreambooth_flux.py --pretrained_model_name_or_path=m "
              "--instance_data_dir=dog --output_dir=out --instance_prompt=p")
    text = f"BACKEND := flex\nexport DIFFUSERS_ATTN_BACKEND = $(BACKEND)\n\ntrain:\n\t{launch}\n"
    assert makefile_script(text).splitlines() == ["export DIFFUSERS_ATTN_BACKEND=flex", launch]
    assert makefile_script("A := 1\nexport A\nt:\n\techo $$A\n").splitlines() == ["export A=1", "echo $A"]
    assert justfile_script(f'export DIFFUSERS_ATTN_BACKEND := "flex"\ntrain:\n    {launch}\n').splitlines()[0] == \
        "export DIFFUSERS_ATTN_BACKEND=flex"
    (tmp_path / "Makefile").write_text(text)
    cfg = configs.load(str(tmp_path / "Makefile"))
    assert (cfg["trainer"], cfg["required"]) == ("diffusers", ["flex"])
