"""Issue 24, session 6 (helper cfg22): the config readers on variants written by hand (tests/data/config_variants_s6/,
see its README): the same settings as the training rounds' files, handed over the way other users hand them over
(YAML/JSON/TOML written differently, shell variables, arrays, functions, continuations, argparse prefixes, launchers
and wrappers, .bat / .cmd / .ps1), and near-misses that must be refused or keep their reading. Each data file is read
as its expect file says (labels from the trainers' source: fixtures/configs/real/TRAINERS.md, SEMANTICS-*.md).

Below, the mechanisms session 6 added, each with variants written here (what each fakes is in its text) and a near
miss; those marked NEW fail on the code before the change (ea16305), the rest guard the old readings:
- a continuation character followed by spaces ends the command (bash `\\ `, cmd.exe `^ `, PowerShell's backtick):
  shell_words._logical_lines, and shell.parse no longer glues the next line of options back on;
- a quoted string that runs over several lines is one logical line (OPTS="--a\\n --b"; `bash -c '...'` keeps its
  newlines): shell_words._quote_span;
- `set -- WORDS` sets the positional parameters a later "$@" passes (shell.parse, shell_words.expand);
- PowerShell's escape character is the backtick, a backslash is a path separator (shell_words.words_of);
- a script named only in what the file prints (echo / printf) is no script it runs (configs._text_doc);
- musubi-tuner reads a --config_file the launch script writes itself (heredoc) (musubi._with_config_file);
- DIFFUSERS_ATTN_BACKEND=X as the prefix of a continued launch line (diffusers.value_in);
- SimpleTuner's WebUI layout ({"_metadata", "config": {"--key": ...}}) (simpletuner._unwrapped);
- an sd-scripts --config_file TOML naming both pretrained_model_name_or_path and network_module, every key of it an
  sd-scripts option (sd_scripts.score);
- `accelerate launch --config_file accel.yaml`: the file's mixed_precision / dynamo_config under the launcher's flags
  (configs.with_accelerate_config; diffusers and musubi-tuner, whose scripts leave them to accelerate);
- a Dockerfile under a per-variant name (Dockerfile-gpu, Dockerfile_cuda124) is read as one (configs.make_doc)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from each_case import each

from attn_doctor import configs
from configs_corpus import check_read_as_expected, expect, files, reading
from configs_corpus import read as _read, refusal as _refusal

DATA = Path(__file__).resolve().parent / "data" / "config_variants_s6"
FILES = files(DATA)
KINDS = {"yaml", "json", "toml", "python", "shell-var", "shell-array", "shell-prefix", "shell-continuation",
         "shell-flagform", "shell-abbrev", "shell-repeat", "shell-function", "shell-cond", "shell-heredoc", "beside-config", "notebook", "container", "text", "semantics",
         "wrapper-accelerate", "wrapper-torchrun", "wrapper-other", "windows-bat", "windows-ps1", "near-miss-keep",
         "near-miss-refuse"}


def test_the_variants_are_there_and_labelled():
    kinds, trainers, near = set(), set(), 0
    for p in FILES:
        e = expect(p)
        assert e["kind"] in KINDS, p
        assert e["note"].startswith("written by cfg22 on 2026-11-28, modelled on fixtures/configs/"), p
        assert "heldout" not in e["modelled_on"] and (DATA.parents[2] / e["modelled_on"]).is_file(), p
        assert e["why"] and e["captured"] == "2026-11-28", p
        assert (e["trainer"] == "none") == bool(e.get("refused")), p
        kinds.add(e["kind"])
        trainers.add(e["trainer"])
        near += e["kind"].startswith("near-miss")
    assert len(FILES) - near >= 120 and near >= 20, (len(FILES), near)
    assert len(trainers - {"none"}) == 15, sorted(trainers)  # every claimed trainer (blissful-tuner included)
    assert kinds == KINDS, sorted(KINDS - kinds)


def test_variant():
    each(((p.relative_to(DATA).as_posix(), (p,)) for p in FILES), _variant)  # (one test: tests/each_case.py)


def _variant(path):
    e = expect(path)
    if e["trainer"] == "blissful-tuner":
        # blissful-tuner's training keys are musubi-tuner's (the same parser): read as either, as
        # benchmarks/configs_heldout.py's SAME_READING and tests/test_configs_real.py accept
        got = reading(configs.load(str(path)))
        assert got[0] in ("blissful", "musubi") and got[1:] == (sorted(e["required"]), e["dtype"],
                                                                  e["compile_mode"] or "none"), got
        return
    check_read_as_expected(path)


SDS = ("accelerate launch --num_cpu_threads_per_process 1 train_network.py \\\n"
       "    --pretrained_model_name_or_path=/m/v15.safetensors --dataset_config=d.toml --output_dir=o \\\n"
       "    --network_module=networks.lora --network_dim=16{sep}\n"
       "    --xformers --mixed_precision=fp16\n")
MUS = "--task t2v-1.3B --dit /m/wan.safetensors --dataset_config d.toml --network_module networks.lora_wan"

# ---------------------------------------------------------------------------------------------------------------------
# A continuation character followed by spaces ends the command
# ---------------------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name, text, want", [
    ("run.sh", SDS.format(sep=" \\  "), ("sd-scripts", [], "float32", "none")),  # NEW: two spaces after it
    ("run.sh", SDS.format(sep=" \\\t"), ("sd-scripts", [], "float32", "none")),  # NEW: a tab after it
    ("train.bat", SDS.replace("\\\n", "^\n").format(sep=" ^ "), ("sd-scripts", [], "float32", "none")),  # NEW: cmd.exe
    ("train.ps1", SDS.replace("\\\n", "`\n").format(sep=" ` "), ("sd-scripts", [], "float32", "none")),  # NEW
    # near misses: the character right at the end continues, also with Windows line ends and after a run of spaces
    ("run.sh", SDS.format(sep="    \\"), ("sd-scripts", ["xformers"], "float16", "none")),
    ("run.sh", SDS.format(sep=" \\").replace("\n", "\r\n"), ("sd-scripts", ["xformers"], "float16", "none")),
    ("train.bat", SDS.replace("\\\n", "^\n").format(sep=" ^"), ("sd-scripts", ["xformers"], "float16", "none")),
])
def test_a_continuation_followed_by_spaces_ends_the_command(tmp_path, name, text, want):
    assert _read(tmp_path, name, text) == want


def test_a_docs_snippet_without_continuations_still_reads_as_one_command(tmp_path):
    # (the README form: one option a line and no backslashes at all: read as one command, as before)
    text = SDS.replace(" \\\n", "\n").format(sep="")
    assert _read(tmp_path, "run.sh", text) == ("sd-scripts", ["xformers"], "float16", "none")

# ---------------------------------------------------------------------------------------------------------------------
# Quoted strings over several lines
# ---------------------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("text, want", [
    # NEW: options in a single-quoted multi-line string, used unquoted
    ("OPTS='--pretrained_model_name_or_path=/m/xl.safetensors\n  --dataset_config=d.toml --output_dir=o\n"
     "  --network_module=networks.lora --sdpa\n  --mixed_precision=bf16'\n"
     "accelerate launch sdxl_train_network.py $OPTS\n", ("sd-scripts", ["sdpa"], "bfloat16", "none")),
    # NEW: double-quoted with backslash-newlines inside (bash drops them), diffusers' example
    ("ARGS=\"--pretrained_model_name_or_path=CompVis/stable-diffusion-v1-4 \\\n  --instance_data_dir=dog "
     "--instance_prompt=sks \\\n  --output_dir=o\n  --mixed_precision=fp16 --enable_xformers_memory_efficient_attention\"\n"
     "accelerate launch train_dreambooth.py $ARGS\n", ("diffusers", ["xformers"], "float16", "none")),
    # near miss: an apostrophe inside a word of an echo (no quote for this reading) before the command
    ("echo Don't forget the dataset\naccelerate launch train_network.py --pretrained_model_name_or_path=/m/a.ckpt "
     "--dataset_config=d.toml --network_module=networks.lora --sdpa --mixed_precision=fp16\n",
     ("sd-scripts", ["sdpa"], "float16", "none")),
    # near miss: `bash -c '...'` over several lines still runs its lines as a script (newlines kept)
    ("bash -c '\n  cd /w/musubi-tuner\n  accelerate launch --mixed_precision bf16 src/musubi_tuner/wan_train_network.py \\\n"
     f"    {MUS} --flash_attn --mixed_precision bf16\n'\n", ("musubi", ["fa2"], "bfloat16", "none")),
])
def test_a_quoted_string_over_several_lines_is_one_line(tmp_path, text, want):
    assert _read(tmp_path, "run.sh", text) == want

# ---------------------------------------------------------------------------------------------------------------------
# set -- and "$@"
# ---------------------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("text, want", [
    # NEW: positional parameters set, then passed on with "$@"
    (f"set -- --sdpa --mixed_precision bf16\naccelerate launch src/musubi_tuner/wan_train_network.py {MUS} \"$@\"\n",
     ("musubi", ["sdpa"], "bfloat16", "none")),
    # NEW: appended to in two steps, then $@ unquoted
    ("set -- --xformers\nset -- \"$@\" --mixed_precision=fp16\naccelerate launch train_network.py "
     "--pretrained_model_name_or_path=/m/a.ckpt --dataset_config=d.toml --network_module=networks.lora $@\n",
     ("sd-scripts", ["xformers"], "float16", "none")),
    # near miss: `set -e` / `set -x` are options of the shell, not parameters
    ("set -e\nset -x\naccelerate launch train_network.py --pretrained_model_name_or_path=/m/a.ckpt --dataset_config=d.toml "
     "--network_module=networks.lora --sdpa --mixed_precision=fp16 \"$@\"\n", ("sd-scripts", ["sdpa"], "float16", "none")),
])
def test_set_positional_parameters(tmp_path, text, want):
    assert _read(tmp_path, "run.sh", text) == want

# ---------------------------------------------------------------------------------------------------------------------
# PowerShell: a backslash is a path separator
# ---------------------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("text, want", [
    # the venv's python by its Windows path, unquoted (read right before too, from the script it names)
    (f"& .\\venv\\Scripts\\python.exe -m accelerate.commands.launch --mixed_precision bf16 "
     f"src\\musubi_tuner\\wan_train_network.py {MUS} --xformers --mixed_precision bf16\n",
     ("musubi", ["xformers"], "bfloat16", "none")),
    # NEW: the interpreter in a variable ($py = "...\\python.exe"), its precision in another
    ("$py = \".\\venv\\Scripts\\python.exe\"\n$prec = 'fp16'\n& $py train_network.py "
     "--pretrained_model_name_or_path=D:\\m\\a.ckpt --dataset_config=d.toml --network_module=networks.lora --sdpa "
     "--mixed_precision=$prec\n", ("sd-scripts", ["sdpa"], "float16", "none")),
    # near miss: quoted Windows paths read as before
    ("accelerate launch \"D:\\sd-scripts\\train_network.py\" --pretrained_model_name_or_path=\"D:\\m\\a.ckpt\" "
     "--dataset_config=d.toml --network_module=networks.lora --xformers --mixed_precision=fp16\n",
     ("sd-scripts", ["xformers"], "float16", "none")),
])
def test_powershell_backslashes_are_path_separators(tmp_path, text, want):
    assert _read(tmp_path, "train.ps1", text) == want

# ---------------------------------------------------------------------------------------------------------------------
# A script named only in what the file prints
# ---------------------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name, text", [
    # NEW: printf usage text
    ("usage.sh", "#!/bin/bash\nprintf 'usage: accelerate launch sdxl_train_network.py --sdpa --mixed_precision bf16\\n'\n"),
    # NEW: a setup script's closing hint
    ("setup.sh", "git clone https://example.invalid/musubi-tuner.git\ncd musubi-tuner\npip install -e .\n"
                 "echo \"next: python src/musubi_tuner/hv_train_network.py --flash_attn --mixed_precision bf16\"\n"),
])
def test_a_script_named_only_in_an_echo_is_not_run(tmp_path, name, text):
    assert "not a trainer config" in _refusal(tmp_path, name, text)


def test_a_script_echoed_and_then_run_is_read(tmp_path):  # near miss: printed first, then run
    text = ("echo \"running accelerate launch train_network.py\"\naccelerate launch train_network.py "
            "--pretrained_model_name_or_path=/m/a.ckpt --dataset_config=d.toml --network_module=networks.lora "
            "--xformers --mixed_precision=fp16\n")
    assert _read(tmp_path, "run.sh", text) == ("sd-scripts", ["xformers"], "float16", "none")

# ---------------------------------------------------------------------------------------------------------------------
# musubi-tuner: the --config_file the launch script writes
# ---------------------------------------------------------------------------------------------------------------------

TOML = 'dit = "/m/wan.safetensors"\ndataset_config = "d.toml"\ntask = "t2v-1.3B"\n{attn} = true\nmixed_precision = "{mp}"\n'


@pytest.mark.parametrize("text, want", [
    # NEW: written under a variable's folder, launched with the same path
    ("OUT=/tmp/run1\nmkdir -p $OUT\ncat > \"$OUT/train.toml\" <<'EOF'\n" + TOML.format(attn="flash_attn", mp="fp16") +
     "EOF\naccelerate launch src/musubi_tuner/wan_train_network.py --config_file \"$OUT/train.toml\"\n",
     ("musubi", ["fa2"], "float16", "none")),
    # NEW: named without .toml (musubi adds it), the command line's flag over the file's
    ("cat > cfg.toml <<EOF\n" + TOML.format(attn="xformers", mp="fp16") + "EOF\n"
     "accelerate launch src/musubi_tuner/wan_train_network.py --config_file cfg --mixed_precision bf16\n",
     ("musubi", ["xformers"], "bfloat16", "none")),
    # near miss: the script writes one file and trains with another (not here): nothing known of it
    ("cat > other.toml <<EOF\n" + TOML.format(attn="sdpa", mp="bf16") + "EOF\n"
     "accelerate launch src/musubi_tuner/wan_train_network.py --config_file /nowhere/train.toml\n",
     ("musubi", [], "", "none")),
])
def test_musubi_reads_the_config_file_the_script_writes(tmp_path, text, want):
    assert _read(tmp_path, "run.sh", text) == want

# ---------------------------------------------------------------------------------------------------------------------
# DIFFUSERS_ATTN_BACKEND on a continued launch line
# ---------------------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("text, want", [
    ("DIFFUSERS_ATTN_BACKEND=_flash_3 accelerate launch train_dreambooth_lora_qwen_image.py \\\n"  # NEW
     "  --pretrained_model_name_or_path=Qwen/Qwen-Image --instance_data_dir=dog --instance_prompt=sks \\\n"
     "  --output_dir=o --mixed_precision=bf16\n", ("diffusers", ["fa3"], "bfloat16", "none")),
    ("CUDA_VISIBLE_DEVICES=0 DIFFUSERS_ATTN_BACKEND=\"flex\" accelerate launch train_dreambooth_lora_flux.py \\\n"  # NEW
     "  --pretrained_model_name_or_path=black-forest-labs/FLUX.1-dev --instance_data_dir=dog --instance_prompt=sks \\\n"
     "  --output_dir=o --mixed_precision=bf16\n", ("diffusers", ["flex"], "bfloat16", "none")),
    # near miss: before a UNet script the variable changes nothing
    ("DIFFUSERS_ATTN_BACKEND=flash accelerate launch train_dreambooth_lora_sdxl.py \\\n"
     "  --pretrained_model_name_or_path=stabilityai/stable-diffusion-xl-base-1.0 --instance_data_dir=dog \\\n"
     "  --instance_prompt=sks --output_dir=o --mixed_precision=fp16\n", ("diffusers", [], "float16", "none")),
])
def test_diffusers_backend_prefix_on_a_continued_line(tmp_path, text, want):
    assert _read(tmp_path, "run.sh", text) == want

# ---------------------------------------------------------------------------------------------------------------------
# SimpleTuner's WebUI layout
# ---------------------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("data, want", [
    ({"_metadata": {"name": "x"}, "config": {"--model_family": "flux", "--attention_mechanism": "flex",  # NEW
                                             "--mixed_precision": "bf16", "--model_type": "lora"}},
     ("simpletuner", ["flex"], "bfloat16", "none")),
    ({"_metadata": {"name": "x", "model_family": "wan"}, "config": {  # NEW: keys without --, dynamo inside too
        "model_family": "wan", "attention_mechanism": "flash-attn", "dynamo_backend": "inductor",
        "dynamo_mode": "max-autotune", "mixed_precision": "bf16", "data_backend_config": "c.json"}},
     ("simpletuner", ["fa2"], "bfloat16", "max-autotune")),
    # near miss: a plain config.json (settings at the top) reads as before
    ({"model_family": "flux", "attention_mechanism": "flex", "mixed_precision": "bf16", "data_backend_config": "c.json"},
     ("simpletuner", ["flex"], "bfloat16", "none")),
])
def test_simpletuner_webui_layout(tmp_path, data, want):
    assert _read(tmp_path, "config.json", json.dumps(data, indent=2)) == want

# ---------------------------------------------------------------------------------------------------------------------
# sd-scripts: a --config_file TOML with the model and the network module
# ---------------------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("text, want", [
    ('pretrained_model_name_or_path = "/m/a.safetensors"\nnetwork_module = "networks.lora"\nnetwork_dim = 8\n'  # NEW
     'sdpa = true\nmixed_precision = "bf16"\noutput_dir = "o"\n', ("sd-scripts", ["sdpa"], "bfloat16", "none")),
    ('[model]\npretrained_model_name_or_path = "/m/xl.safetensors"\n[net]\nnetwork_module = "networks.lora"\n'  # NEW
     '[train]\nxformers = true\nmixed_precision = "fp16"\nmax_train_epochs = 4\n',
     ("sd-scripts", ["xformers"], "float16", "none")),
    # near miss: musubi-tuner's TOML (dit, no pretrained_model_name_or_path) stays musubi-tuner's
    ('dit = "/m/wan.safetensors"\nnetwork_module = "networks.lora_wan"\nsdpa = true\nmixed_precision = "bf16"\n'
     'timestep_sampling = "shift"\n', ("musubi", ["sdpa"], "bfloat16", "none")),
])
def test_sd_scripts_toml_with_model_and_network_module(tmp_path, text, want):
    assert _read(tmp_path, "config.toml", text) == want

# ---------------------------------------------------------------------------------------------------------------------
# `accelerate launch --config_file accel.yaml`: the file's mixed precision and dynamo settings
# ---------------------------------------------------------------------------------------------------------------------

ACCEL = "compute_environment: LOCAL_MACHINE\ndistributed_type: 'NO'\nmixed_precision: {mp}\nnum_processes: 1\n{dyn}"
DB = ("train_dreambooth.py --pretrained_model_name_or_path=CompVis/stable-diffusion-v1-4 --instance_data_dir=dog "
      "--instance_prompt=sks --output_dir=o --enable_xformers_memory_efficient_attention")


@pytest.mark.parametrize("accel, launch, want", [
    # NEW: musubi-tuner's --mixed_precision left to accelerate (trainer_base.py:1462-1472): the config file's bf16
    (ACCEL.format(mp="bf16", dyn=""), f"accelerate launch --config_file accel.yaml src/musubi_tuner/wan_train_network.py "
     f"{MUS} --sdpa\n", ("musubi", ["sdpa"], "bfloat16", "none")),
    # NEW: diffusers' example: fp16 and the dynamo backend / mode from the file (TorchDynamoPlugin from the launcher's)
    (ACCEL.format(mp="fp16", dyn="dynamo_config:\n  dynamo_backend: INDUCTOR\n  dynamo_mode: max-autotune\n"),
     f"accelerate launch --config_file ./accel.yaml {DB}\n", ("diffusers", ["xformers"], "float16", "max-autotune")),
    # near miss: the script's own --mixed_precision wins over the file's
    (ACCEL.format(mp="fp16", dyn=""), f"accelerate launch --config_file accel.yaml {DB} --mixed_precision bf16\n",
     ("diffusers", ["xformers"], "bfloat16", "none")),
    # near miss: a config file that is not here says nothing (as before)
    (None, f"accelerate launch --config_file /etc/accel/none.yaml {DB}\n", ("diffusers", ["xformers"], "", "none")),
])
def test_the_accelerate_config_file_the_launch_names(tmp_path, accel, launch, want):
    if accel is not None:
        (tmp_path / "accel.yaml").write_text(accel, encoding="utf-8")
    assert _read(tmp_path, "run.sh", launch) == want

# ---------------------------------------------------------------------------------------------------------------------
# Dockerfiles under per-variant names
# ---------------------------------------------------------------------------------------------------------------------

DOCKER = ("FROM nvidia/cuda:12.4.1-runtime-ubuntu22.04\nENV PREC=bf16\nWORKDIR /app\n"
          "CMD accelerate launch train_network.py --pretrained_model_name_or_path=/m/a.ckpt --dataset_config=d.toml "
          "--network_module=networks.lora --sdpa --mixed_precision=$PREC\n")


@pytest.mark.parametrize("name", [
    "Dockerfile-gpu",  # NEW
    "Dockerfile_cuda124",  # NEW
    "Dockerfile.train",  # near miss: read as one before too
])
def test_a_dockerfile_by_its_variant_name(tmp_path, name):
    assert _read(tmp_path, name, DOCKER) == ("sd-scripts", ["sdpa"], "bfloat16", "none")
