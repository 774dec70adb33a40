"""Helper cfg45 (session 10, issue 24): configs saved the way other tools and users save the same launch.

benchmarks/configs_robustness.py's rewrites of session 10 (a notebook saved by another Jupyter, YAML merge keys and
aliases, TOML inline tables / dotted keys / tables, `set -euo pipefail` with the body in `main() { ... }` run as
`main "$@"`, exports in a sourced .env, the same launch as a .bat / .ps1 / Python launcher, subprocess with a list or a
string) are applied here to files written for these tests, and each must keep the reading. One reader changed:

1. shell.py: a bash function's body is the script's text from its first line to its closing brace, here-documents
   included (bash reads a function body as any other compound command: a here-document inside it is part of it). The
   body used to be rebuilt from the logical lines alone, which lose a here-document's text, so `python3 <<'EOF'` inside
   `main` swallowed every line after it (the launch too), and the files a function writes (`cat > cfg.yml <<EOF`) are
   the script's, as a top-level here-document's are.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

from configs_corpus import reading

from attn_doctor import configs
from attn_doctor.configs import shell

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
import configs_robustness as rob  # noqa: E402


def put(root: Path, files: dict) -> None:
    for name, text in files.items():
        p = root / name
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text, encoding="utf-8", newline="")


def load(path: Path) -> tuple:
    return reading(configs.load(str(path)))


def rewritten(tmp_path: Path, name: str, text: str, rewrite: str, neighbours: dict | None = None) -> tuple:
    """(reading of the file as written, reading of the rewrite's version in a folder of its own)."""
    put(tmp_path / "a", {name: text, **(neighbours or {})})
    new = rob.REWRITES[rewrite](tmp_path / "a" / name, text)
    assert new is not None and (new.text if isinstance(new, rob.Moved) else new) != text, rewrite
    moved = new if isinstance(new, rob.Moved) else rob.Moved(new)
    target = Path(name) if moved.suffix is None else Path(name).with_suffix(moved.suffix)
    put(tmp_path / "b", {str(target): moved.text, **(neighbours or {}), **moved.extra})
    return load(tmp_path / "a" / name), load(tmp_path / "b" / target)


# --- 1. a function body keeps its here-documents -------------------------------------------------------------------------

PATCH_THEN_LAUNCH = '''#!/bin/bash
# patch the trainer, then train
{open}
python3 <<'PATCH_EOF'
import re
src = open("sd-scripts/train_network.py").read()
if "x" in src:
    print("patched")
PATCH_EOF
accelerate launch --num_cpu_threads_per_process 1 sd-scripts/train_network.py \\
    --pretrained_model_name_or_path=model.safetensors --network_module=networks.lora \\
    --mixed_precision="bf16" --sdpa --output_dir=out
{close}
'''


@pytest.mark.parametrize("open_, close", [
    ("", ""),
    ("set -euo pipefail\n\nmain() {", '}\n\nmain "$@"'),
    ("function train {", "}\ntrain"),
    ("train()\n{", "}\n\ntrain --resume"),
])
def test_function_body_keeps_its_here_document(tmp_path, open_, close):
    put(tmp_path, {"run.sh": PATCH_THEN_LAUNCH.format(open=open_, close=close)})
    assert load(tmp_path / "run.sh") == ("sd-scripts", ["sdpa"], "bfloat16", "none")


def test_function_body_here_document_with_braces(tmp_path):
    # a JSON here-document's `}` lines are the document's, not the function's end: the launch after it is the body's
    text = '''#!/usr/bin/env bash
set -euo pipefail
main() {
  cat > ds_config.json <<EOF
{
  "train_micro_batch_size_per_gpu": 1
}
EOF
  accelerate launch sd-scripts/sdxl_train_network.py --mixed_precision fp16 --xformers --output_dir out
}
main "$@"
'''
    put(tmp_path, {"run.sh": text})
    assert load(tmp_path / "run.sh") == ("sd-scripts", ["xformers"], "float16", "none")


AITK_YAML = '''job: extension
config:
  name: "${NAME}_lora"
  process:
    - type: 'sd_trainer'
      training_folder: "out"
      device: cuda:0
      network:
        type: "lora"
        linear: 16
      train:
        batch_size: 1
        steps: 2000
        dtype: bf16
      model:
        name_or_path: "black-forest-labs/FLUX.1-dev"
        is_flux: true
'''


@pytest.mark.parametrize("layout", ["one", "two"])
def test_function_writes_the_config_its_launch_reads(tmp_path, layout):
    # `cat > $CONFIG <<EOF` inside a function: the file is the script's, whichever function then runs it
    if layout == "one":
        body = f'main() {{\n  cat > "$CONFIG" <<EOF\n{AITK_YAML}EOF\n  python run.py "$CONFIG"\n}}\nmain "$@"\n'
    else:
        body = (f'write_config() {{\n  cat > "$CONFIG" << EOF\n{AITK_YAML}EOF\n}}\n'
                f'train() {{\n  cd /workspace/ai-toolkit\n  python run.py $CONFIG\n}}\nwrite_config\ntrain\n')
    put(tmp_path, {"train.sh": f'#!/bin/bash\nNAME=${{1:-anna}}\nCONFIG="config/train_$NAME.yml"\n{body}'})
    assert load(tmp_path / "train.sh") == ("ai-toolkit", [], "bfloat16", "none")


def test_near_miss_launch_text_in_a_function_here_document(tmp_path):
    # a here-document written to a notes file is text, not a command: its --xformers is not the run's
    text = '''#!/bin/bash
main() {
  cat > NOTES.txt <<'EOF'
on the old card we ran: accelerate launch sd-scripts/train_network.py --xformers
EOF
  accelerate launch sd-scripts/train_network.py --sdpa --mixed_precision bf16 --output_dir out
}
main "$@"
'''
    put(tmp_path, {"run.sh": text})
    assert load(tmp_path / "run.sh") == ("sd-scripts", ["sdpa"], "bfloat16", "none")


def test_body_text_needs_its_closing_brace():
    # a body read to the script's end (no closing brace) is not cut from the text: the logical lines stay
    assert shell._body_text("f() {\necho a\n", [(2, 2)]) is None
    assert shell._body_text("f() {\necho a\n}\n", [(2, 2), (3, 2)]) == "echo a"


# --- 2. the benchmark's rewrites on files written here -----------------------------------------------------------------

SD_LAUNCH = '''#!/bin/bash
# LoRA on SDXL
export MODEL_NAME=stabilityai/stable-diffusion-xl-base-1.0
export OUTPUT_DIR=out/lora
PRECISION=bf16

accelerate launch --num_cpu_threads_per_process 1 sd-scripts/sdxl_train_network.py \\
  --pretrained_model_name_or_path=$MODEL_NAME \\
  --output_dir=$OUTPUT_DIR \\
  --network_module=networks.lora \\
  --mixed_precision=$PRECISION \\
  --xformers
'''

DIFFUSERS_LAUNCH = '''export MODEL_NAME=runwayml/stable-diffusion-v1-5
export INSTANCE_DIR=dog

accelerate launch train_dreambooth.py \\
  --pretrained_model_name_or_path=$MODEL_NAME \\
  --instance_data_dir=$INSTANCE_DIR \\
  --mixed_precision=fp16 \\
  --enable_xformers_memory_efficient_attention \\
  --output_dir=out
'''


@pytest.mark.parametrize("rewrite", ["strict", "function", "dotenv", "dotenvplain", "bat", "ps1", "pylist", "pystring"])
@pytest.mark.parametrize("text", [SD_LAUNCH, DIFFUSERS_LAUNCH], ids=["sd-scripts", "diffusers"])
def test_shell_launch_saved_another_way(tmp_path, rewrite, text):
    before, after = rewritten(tmp_path, "train.sh", text, rewrite)
    assert before[0] in ("sd-scripts", "diffusers") and before[1]
    assert after == before


def test_dotenv_not_sourced_is_not_read(tmp_path):
    # near miss: a .env beside the script that the script does not source sets nothing for it
    text = SD_LAUNCH.replace("PRECISION=bf16\n", "")
    put(tmp_path, {"train.sh": text, ".env": "PRECISION=bf16\n"})
    assert load(tmp_path / "train.sh")[2] == ""
    put(tmp_path, {"train.sh": text.replace("# LoRA on SDXL\n", "# LoRA on SDXL\nsource .env\n")})
    assert load(tmp_path / "train.sh")[2] == "bfloat16"


BAT = '''@echo off
REM LoRA on Windows
set MODEL=stabilityai/stable-diffusion-xl-base-1.0
accelerate launch --num_cpu_threads_per_process 1 sdxl_train_network.py ^
  --pretrained_model_name_or_path=%MODEL% ^
  --network_module=networks.lora ^
  --mixed_precision=fp16 ^
  --sdpa
'''

PS1 = '''$Model = "stabilityai/stable-diffusion-xl-base-1.0"
accelerate launch --num_cpu_threads_per_process 1 sdxl_train_network.py `
  --pretrained_model_name_or_path=$Model `
  --network_module=networks.lora `
  --mixed_precision=bf16 `
  --xformers
'''


@pytest.mark.parametrize("name, text", [("train.bat", BAT.replace("\n", "\r\n")), ("train.ps1", PS1)])
def test_windows_continuations_joined(tmp_path, name, text):
    before, after = rewritten(tmp_path, name, text, "winjoined")
    assert before[0] == "sd-scripts" and before[1] and after == before


def test_windows_join_near_miss():
    # a caret followed by a space escapes the space, not the line end: the next line is another command (not joined)
    text = "accelerate launch sdxl_train_network.py ^ \r\n  --sdpa\r\n"
    assert rob._win_joined(Path("x.bat"), text) == text
    assert rob._win_joined(Path("x.bat"), "REM a note ^\r\naccelerate launch x.py\r\n") == \
        "REM a note ^\r\naccelerate launch x.py\r\n"


AXOLOTL = '''base_model: NousResearch/Llama-3.2-1B
model_type: AutoModelForCausalLM
tokenizer_type: AutoTokenizer
datasets:
  - path: tatsu-lab/alpaca
    type: alpaca
output_dir: ./outputs/lora
lora_model_dir: ./outputs/lora
adapter: lora
sequence_len: 2048
sample_packing: true
flash_attention: true
bf16: auto
micro_batch_size: 2
'''

LLAMAFACTORY = '''### model
model_name_or_path: Qwen/Qwen2.5-7B-Instruct
### method
stage: sft
do_train: true
finetuning_type: lora
### dataset
dataset: alpaca_en_demo
template: qwen
cutoff_len: 2048
### train
output_dir: saves/qwen/lora/sft
logging_dir: saves/qwen/lora/sft
per_device_train_batch_size: 1
learning_rate: 1.0e-4
bf16: true
flash_attn: fa2
'''


@pytest.mark.parametrize("rewrite", ["merge", "aliases"])
@pytest.mark.parametrize("text", [AXOLOTL, LLAMAFACTORY], ids=["axolotl", "llama-factory"])
def test_yaml_merge_keys_and_aliases(tmp_path, rewrite, text):
    before, after = rewritten(tmp_path, "train.yaml", text, rewrite)
    assert before[0] in ("axolotl", "llama-factory") and before[1] == ["fa2"]
    assert after == before


def test_yaml_rewrites_near_miss(tmp_path):
    # not a mapping, or nothing repeated: no rewrite (the benchmark keeps only what loads to the same document)
    assert rob._yaml_anchored(Path("x.yaml"), "- a\n- b\n", merge=True) is None
    assert rob._yaml_anchored(Path("x.yaml"), "a: 1\nb: two\n", merge=False) is None
    assert rob._yaml_anchored(Path("x.toml"), AXOLOTL, merge=True) is None


MUSUBI = '''[general]
resolution = [960, 544]
caption_extension = ".txt"
batch_size = 1
enable_bucket = true

[[datasets]]
image_directory = "/data/images"
cache_directory = "/data/cache"
num_repeats = 1
'''

DIFFUSION_PIPE = '''output_dir = "/data/out"
dataset = "examples/dataset.toml"
epochs = 100
micro_batch_size_per_gpu = 1
compile = true

[model]
type = "wan"
ckpt_path = "/models/Wan2.1-T2V-1.3B"
dtype = "bfloat16"

[adapter]
type = "lora"
rank = 32
dtype = "bfloat16"

[optimizer]
type = "adamw_optimi"
lr = 2e-5
'''


@pytest.mark.parametrize("rewrite", ["inline", "dotted", "tables"])
def test_toml_layouts(tmp_path, rewrite):
    text = DIFFUSION_PIPE
    if rewrite == "tables":  # from the inline layout back to tables
        text = rob._toml(Path("x.toml"), DIFFUSION_PIPE, "inline")
    before, after = rewritten(tmp_path, "wan.toml", text, rewrite)
    assert before[0] == "diffusion-pipe" and before[2] == "bfloat16"
    assert after == before


@pytest.mark.parametrize("rewrite", ["inline", "dotted"])
def test_toml_dataset_config_stays_refused(tmp_path, rewrite):
    # near miss: a dataset config in another layout is still a dataset config (refused, the same one line)
    put(tmp_path / "a", {"dataset.toml": MUSUBI})
    new = rob._toml(tmp_path / "a" / "dataset.toml", MUSUBI, rewrite)
    put(tmp_path / "b", {"dataset.toml": new})
    for d in ("a", "b"):
        with pytest.raises(configs.UsageError if hasattr(configs, "UsageError") else Exception):
            configs.load(str(tmp_path / d / "dataset.toml"))


NOTEBOOK_CELLS = [
    "!pip install unsloth\n",
    "from unsloth import FastLanguageModel\nimport torch\nfrom trl import SFTTrainer, SFTConfig\n",
    "model, tokenizer = FastLanguageModel.from_pretrained(model_name=\"unsloth/Llama-3.2-1B-Instruct\",\n"
    "    max_seq_length=2048, dtype=torch.bfloat16, load_in_4bit=True)\n"
    "model = FastLanguageModel.get_peft_model(model, r=16)\n",
    "trainer = SFTTrainer(model=model, train_dataset=ds, args=SFTConfig(output_dir=\"out\", bf16=True))\n"
    "trainer.train()\n",
]


@pytest.mark.parametrize("minor", [4, 5])
@pytest.mark.parametrize("rewrite", ["notebook", "nbsource"])
def test_notebook_saved_by_another_jupyter(tmp_path, minor, rewrite):
    import json

    cells = []
    for i, src in enumerate(NOTEBOOK_CELLS):
        cell = {"cell_type": "code", "execution_count": i + 1, "metadata": {},
                "outputs": [{"name": "stdout", "output_type": "stream", "text": ["ok\n"]}],
                "source": src.splitlines(keepends=True)}
        if minor == 5:
            cell["id"] = f"cell-{i}"
        cells.append(cell)
    nb = {"cells": cells, "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3"}},
          "nbformat": 4, "nbformat_minor": minor}
    before, after = rewritten(tmp_path, "finetune.ipynb", json.dumps(nb, indent=2), rewrite)
    assert before[0] == "unsloth" and before[2] == "bfloat16"
    assert after == before


LAUNCHER_PY = '''import subprocess

subprocess.run(["accelerate", "launch", "sd-scripts/sdxl_train_network.py", "--mixed_precision", "bf16",
                "--network_module", "networks.lora", "--sdpa", "--output_dir", "out"], check=True)
'''


@pytest.mark.parametrize("text", [LAUNCHER_PY, None], ids=["list", "string"])
def test_python_launcher_list_or_string(tmp_path, text):
    if text is None:  # the string form, flipped back to a list
        text = rob._subprocess_flip(Path("launch.py"), LAUNCHER_PY)
        assert "shell=True" in text
    before, after = rewritten(tmp_path, "launch.py", text, "subprocess")
    assert before == ("sd-scripts", ["sdpa"], "bfloat16", "none")
    assert after == before


@pytest.mark.parametrize("text", [
    "if [ -n \"$X\" ]; then\n  accelerate launch train_network.py --sdpa\nfi\n",   # a branch: not a plain launch
    "OUT=$(date +%s)\naccelerate launch train_network.py --sdpa --output_dir=$OUT\n",  # a command's output
    "accelerate launch train_network.py ^\n  --sdpa\n",  # cmd.exe's caret in a .sh: bash runs two commands
    "cd sd-scripts\naccelerate launch train_network.py --sdpa\n",  # the folder would be lost
])
def test_translations_refuse_what_they_cannot_keep(text):
    p = Path("train.sh")
    for rewrite in ("bat", "ps1", "pylist", "pystring"):
        assert rob.REWRITES[rewrite](p, text) is None, (rewrite, text)


def test_function_rewrite_near_miss():
    # a top-level `return` (a sourced script's) or `local` means something else inside a function: no rewrite
    assert rob._function(Path("x.sh"), "#!/bin/bash\n[ -f x ] || return 0\naccelerate launch t.py\n") is None
    assert rob._function(Path("x.sh"), "local a=1\naccelerate launch t.py\n") is None
    assert rob._function(Path("x.sh"), "if [ -z $A ]; then return 1; fi\naccelerate launch t.py\n") is None
    assert rob._function(Path("x.sh"), "echo returning\naccelerate launch t.py\n") is not None
    assert rob._function(Path("x.yaml"), "a: 1\n") is None


def test_rewritten_neighbours_unchanged(tmp_path):
    # the rewrite's copy folder holds the neighbours the launch names (a launch that reads its YAML still finds it)
    put(tmp_path / "a", {"cfg.yml": AITK_YAML.replace("${NAME}", "anna")})
    shutil.copy(tmp_path / "a" / "cfg.yml", tmp_path / "a" / "cfg2.yml")
    before, after = rewritten(tmp_path, "train.sh", "#!/bin/bash\npython run.py cfg.yml\n", "function",
                              neighbours={"cfg.yml": AITK_YAML.replace("${NAME}", "anna")})
    assert before == after == ("ai-toolkit", [], "bfloat16", "none")


# --- 3. a Dockerfile saved on Windows ------------------------------------------------------------------------------------

DOCKERFILE = '''FROM nvidia/cuda:12.4.1-cudnn-runtime-ubuntu22.04
WORKDIR /app
RUN git clone https://github.com/kohya-ss/sd-scripts.git && \\{blank}
    pip install -r sd-scripts/requirements.txt
ENV PRECISION=bf16
# CMD accelerate launch sd-scripts/train_network.py --xformers (the old card)
CMD accelerate launch sd-scripts/sdxl_train_network.py \\{blank}
    --mixed_precision=$PRECISION \\{blank}
    --sdpa \\{blank}
    --output_dir=/out
'''


@pytest.mark.parametrize("eol", ["\n", "\r\n"], ids=["lf", "crlf"])
@pytest.mark.parametrize("blank", ["", " ", "\t "])
def test_dockerfile_continuations_crlf_and_blanks(tmp_path, eol, blank):
    # Docker trims "\r\n" from each line and continues a line ending in `\` followed by blanks only (moby's parser)
    put(tmp_path, {"Dockerfile": DOCKERFILE.format(blank=blank).replace("\n", eol)})
    assert load(tmp_path / "Dockerfile") == ("sd-scripts", ["sdpa"], "bfloat16", "none")


def test_dockerfile_near_miss_not_continued(tmp_path):
    # a line that does not end in the escape character ends the instruction: the next line's --xformers is no option
    # of the launch (Docker reads it as an instruction of its own), whatever the line ends
    text = ('FROM python:3.11\nCMD accelerate launch sd-scripts/sdxl_train_network.py --sdpa --mixed_precision=fp16\r\n'
            '    --xformers\r\n')
    put(tmp_path, {"Dockerfile": text})
    assert load(tmp_path / "Dockerfile")[1] == ["sdpa"]


@pytest.mark.parametrize("eol", ["\n", "\r\n"], ids=["lf", "crlf"])
@pytest.mark.parametrize("name", ["Dockerfile", "owner__repo__Dockerfile", "trainer_image"])
def test_dockerfile_by_its_text_with_blank_lines_crlf(tmp_path, eol, name):
    # a Dockerfile told by its text (no name to go by): comments, blank lines and ARGs before FROM, whatever the line end
    text = "# syntax=docker/dockerfile:1\n\nARG BASE=nvidia/cuda:12.4.1-runtime-ubuntu22.04\n\n" + \
        DOCKERFILE.format(blank="").split("\n", 1)[1].replace("WORKDIR", "FROM ${BASE}\nWORKDIR", 1)
    put(tmp_path, {name: text.replace("\n", eol)})
    assert load(tmp_path / name) == ("sd-scripts", ["sdpa"], "bfloat16", "none")


def test_dockerfile_text_near_miss(tmp_path):
    # prose that mentions FROM and RUN is no Dockerfile: not read as one, with either line end
    text = "From the docs:\r\n\r\nRun it with accelerate launch sd-scripts/sdxl_train_network.py --sdpa\r\n"
    put(tmp_path, {"NOTES": text})
    assert not configs.DOCKERFILE_TEXT.match(text)


# --- 4. option and launcher spellings, YAML styles ------------------------------------------------------------------------

TORCHRUN_LF = '''#!/bin/bash
torchrun --nproc_per_node=8 --master_port=29500 src/train.py \\
  --stage=sft --do_train --model_name_or_path=Qwen/Qwen2.5-7B-Instruct --dataset=alpaca_en_demo \\
  --template=qwen --finetuning_type=lora --output_dir=saves/q --bf16 --flash_attn=fa2
'''


@pytest.mark.parametrize("rewrite", ["equals", "module"])
@pytest.mark.parametrize("text", [SD_LAUNCH.replace("--mixed_precision=$PRECISION", "--mixed_precision=bf16"),
                                  TORCHRUN_LF], ids=["accelerate", "torchrun"])
def test_option_and_launcher_spellings(tmp_path, rewrite, text):
    before, after = rewritten(tmp_path, "train.sh", text, rewrite)
    assert before[1] and before[2] == "bfloat16"
    assert after == before


@pytest.mark.parametrize("rewrite", ["yamlflow", "docstart"])
@pytest.mark.parametrize("text", [AXOLOTL, LLAMAFACTORY], ids=["axolotl", "llama-factory"])
def test_yaml_flow_style_and_document_markers(tmp_path, rewrite, text):
    before, after = rewritten(tmp_path, "train.yaml", text, rewrite)
    assert before[1] == ["fa2"] and after == before


def test_yaml_style_near_misses():
    # a file that already has a `---` marker gets no second one (a second, empty document: safe_load refuses it)
    assert rob._yaml_flow(Path("x.yaml"), "---\n" + AXOLOTL, start=True) is None
    # `--x==y`: a value that starts with "=" stays glued (argparse reads "--x" with the value "=y")
    assert rob._equals(Path("x.sh"), "python t.py --x==y --lr=1e-4\n") == "python t.py --x==y --lr 1e-4\n"


PY_LAUNCH = '''#!/bin/bash
export CUDA_VISIBLE_DEVICES=0
mkdir -p out
python3 sd-scripts/sdxl_train_network.py --pretrained_model_name_or_path=sdxl.safetensors \\
  --network_module=networks.lora --mixed_precision=fp16 --xformers --output_dir=out
'''


@pytest.mark.parametrize("rewrite", ["pyexec", "ossystem", "pylist", "pystring"])
def test_python_launcher_interpreter_and_os_system(tmp_path, rewrite):
    before, after = rewritten(tmp_path, "train.sh", PY_LAUNCH, rewrite)
    assert before == ("sd-scripts", ["xformers"], "float16", "none")
    assert after == before


def test_pyexec_near_miss():
    # no command run by python: nothing for sys.executable to stand for (no rewrite)
    assert rob.REWRITES["pyexec"](Path("x.sh"), "accelerate launch sd-scripts/train_network.py --sdpa\n") is None


# --- 5. a notebook's `!` lines as a %%bash cell: the script it downloads is the same script -------------------------------

def _nb(cells: list[str]) -> str:
    import json

    return json.dumps({"cells": [{"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [],
                                  "source": c.splitlines(keepends=True)} for c in cells],
                       "metadata": {}, "nbformat": 4, "nbformat_minor": 5}, indent=1)


DREAMBOOTH_RUN = ('!accelerate launch train_dreambooth.py --pretrained_model_name_or_path=runwayml/stable-diffusion-v1-5 \\\n'
                  '  --instance_data_dir=data --output_dir=out --mixed_precision=fp16 --train_batch_size=1 \\\n'
                  '  --enable_xformers_memory_efficient_attention\n')


@pytest.mark.parametrize("fetch", [
    "wget -q https://gist.githubusercontent.com/someone/0123abcd/raw/train_dreambooth.py",
    "curl -L -o train_dreambooth.py https://example.org/forks/dreambooth/train_dreambooth.py",
])
@pytest.mark.parametrize("magic", ["%%bash", "%%sh"])
def test_download_in_a_bash_cell_is_the_notebooks(tmp_path, fetch, magic):
    # a script of the example's name fetched from elsewhere is that source's script, in a `!` line or a %%bash cell
    # (ShivamShrirao's fork's options, which diffusers' example never had: round 28's notebook)
    run = DREAMBOOTH_RUN.replace("--train_batch_size=1", "--train_batch_size=1 --concepts_list=concepts.json "
                                 "--save_interval=10000")
    put(tmp_path, {"bang.ipynb": _nb(["!" + fetch + "\n", run]), "cell.ipynb": _nb([f"{magic}\n{fetch}\n", run])})
    with pytest.raises(Exception) as bang:
        configs.load(str(tmp_path / "bang.ipynb"))
    with pytest.raises(Exception) as cell:
        configs.load(str(tmp_path / "cell.ipynb"))
    assert str(cell.value).replace("cell.ipynb", "X") == str(bang.value).replace("bang.ipynb", "X")


def test_download_from_diffusers_in_a_bash_cell_near_miss(tmp_path):
    # near miss: diffusers' own example fetched in a %%bash cell is the example (read as diffusers)
    fetch = "wget -q https://raw.githubusercontent.com/huggingface/diffusers/main/examples/dreambooth/train_dreambooth.py"
    put(tmp_path, {"cell.ipynb": _nb([f"%%bash\n{fetch}\n", DREAMBOOTH_RUN])})
    assert load(tmp_path / "cell.ipynb") == ("diffusers", ["xformers"], "float16", "none")


@pytest.mark.parametrize("rewrite", ["bashcell", "envmagic"])
def test_notebook_magics(tmp_path, rewrite):
    text = _nb(["%env WANDB_DISABLED=true\n", "!pip install -q diffusers\n",
                "!wget -q https://raw.githubusercontent.com/huggingface/diffusers/main/examples/dreambooth/"
                "train_dreambooth.py\n", DREAMBOOTH_RUN])
    before, after = rewritten(tmp_path, "db.ipynb", text, rewrite)
    assert before == ("diffusers", ["xformers"], "float16", "none") and after == before


def test_bash_cell_near_miss():
    # `!` lines that interpolate Python values ($VAR, {var}) or cd: IPython's `!` and %%bash differ there (no rewrite)
    assert rob._bash_cell("!mkdir -p $OUTPUT_DIR\n") is None
    assert rob._bash_cell("!cd sd-scripts\n!python train.py\n") is None
    assert rob._bash_cell("x = 1\n!ls\n") is None
