"""Issue 24, round 55 (helper cfg55, session 12): the reader changes round 55's misses asked for, with variants
written for this test (other names, paths, spellings and trainers than the set's files) and near misses that keep their
reading.

Round 55 (fixtures/configs/round55/, users' launch lines of claimed trainers) on main 7536b8d: repository layout
26 of 29 claimed files right in all four fields, 11 of 12 unclaimed files refused. The mechanisms:
- bash: an argument-parsing loop (`while [[ $# -gt 0 ]]; do case $1 in --config) CONFIG_FILE="$2"; shift 2;; ...
  esac; done`, `while [ -n "$1" ]`, `while (( $# ))`, `while getopts ...`) does not run when the script runs without
  arguments (the project's reading of `${1:-default}`), so its assignments from "$2" / $OPTARG are not the run's; main
  took CONFIG_FILE as "$2" and lost the axolotl YAML beside the script (shell._argument_loop, _loop_end);
- PowerShell: a `param(...)` block's parameters take their default literal (`[string] $Python = "python"`) and one
  without a default stays the caller's, unknown; main left `& $Python $trainer --config_file $Config` with no program,
  so sd-scripts was read by the script's name alone with its default precision (float32) instead of the unnamed
  TOML's (unknown) (shell._ps_params);
- bash: `cat BASE | sed E | sed E2 > COPY` and `sed E BASE > COPY` write COPY as BASE with those substitutions, as
  `cp BASE COPY; sed -i E COPY` does (configs/copies.py already reads that pair); main left the copy unread
  (shell._piped_copy);
- axolotl: `axolotl merge-lora`, `merge-sharded-fsdp-weights`, `quantize`, `inference`, `vllm-serve` and `evaluate`
  (src/axolotl/cli/main.py) train nothing; a file whose only axolotl commands are those is refused as `llamafactory-cli
  export` and `swift export` are (axolotl.NOT_TRAINING); main read a user's merge_dpo.sh as axolotl;
- bash: `case WORD in` on a value the script settles runs its first matching arm only (shell._case_arm); main read
  every arm, so a Megatron-SWIFT launcher's `COMMAND=(...)` was the last arm's; and `python -m
  swift.cli._megatron.main sft` (what ms-swift's `megatron` script runs) is Megatron-SWIFT (others.command_lines);
- a notebook saved as .py (nbconvert's `get_ipython().system(...)`, jupytext's `# !cmd`, bare `!cmd` lines) is read by
  its shell escapes when one runs a program (launchers.exported_notebook); main refused those as Python scripts with
  no trainer calls (found with variants for the brief's "Colab `!` cells exported to .py"; none in the set);
- `cd SimpleTuner` then `[ENV=NAME] bash train.sh` is SimpleTuner's launch, read through config/NAME/config.json under
  the checkout (simpletuner._train_sh); main refused it as "only runs another script (train.sh)".
Run against main 7536b8d, the tests marked NEW fail there (and the helpers' shape tests, the helpers being new); the
rest pass there too and guard the old readings."""

from __future__ import annotations

from configs_corpus import read as _read
from configs_corpus import refusal, write

from attn_doctor.configs import shell

AXOLOTL_YAML = """\
base_model: Qwen/Qwen2.5-7B-Instruct
adapter: lora
lora_r: 16
sequence_len: 4096
sample_packing: true
datasets:
  - path: data/chat.jsonl
    type: chat_template
micro_batch_size: 2
num_epochs: 2
learning_rate: 2.0e-4
bf16: true
attn_implementation: flash_attention_2
"""

# ---------------------------------------------------------------------------------------------------------------------
# argument-parsing loops
# ---------------------------------------------------------------------------------------------------------------------

WHILE_CASE = """\
#!/usr/bin/env bash
set -e
CFG=configs/qwen_lora.yml
GPUS=2
while [[ $# -gt 0 ]]; do
  case "$1" in
    -c|--cfg) CFG="$2"; shift 2 ;;
    -g|--gpus)
      GPUS="$2"
      shift 2
      ;;
    *) echo "unknown option $1"; exit 1 ;;
  esac
done
accelerate launch --num_processes "$GPUS" -m axolotl.cli.train "$CFG" --num_epochs 1
"""


def test_new_while_case_loop_is_not_entered_without_arguments(tmp_path):
    """NEW: the defaults before the loop are the run's; the YAML they name is read (bf16, flash_attention_2)."""
    (tmp_path / "configs").mkdir()
    write(tmp_path / "configs", "qwen_lora.yml", AXOLOTL_YAML)
    assert _read(tmp_path, "launch.sh", WHILE_CASE) == ("axolotl", ["fa2"], "bfloat16", "none")


GETOPTS = """\
#!/bin/bash
CONFIG_PATH=train.yaml
while getopts "c:o:" opt; do
    case $opt in
        c) CONFIG_PATH=$OPTARG ;;
        o) OUT=$OPTARG ;;
    esac
done
axolotl train $CONFIG_PATH
"""


def test_new_getopts_loop_is_not_entered_without_arguments(tmp_path):
    """NEW: `while getopts` returns false at once without arguments: CONFIG_PATH keeps train.yaml."""
    write(tmp_path, "train.yaml", AXOLOTL_YAML.replace("flash_attention_2", "sdpa"))
    assert _read(tmp_path, "run.sh", GETOPTS) == ("axolotl", ["sdpa"], "bfloat16", "none")


N_LOOP = """\
MODEL_CFG=sft.yaml
while [ -n "$1" ]; do
    if [ "$1" = "--cfg" ]; then
        MODEL_CFG=$2
        shift
    fi
    shift
done
for stage in 1; do echo stage $stage; done
llamafactory-cli train $MODEL_CFG
"""


def test_new_n_test_loop_with_a_nested_if(tmp_path):
    """NEW: `while [ -n "$1" ]` with an `if` inside; the loop after it (`for ... done` on one line) is read as
    before."""
    write(tmp_path, "sft.yaml", "model_name_or_path: Qwen/Qwen3-4B\nstage: sft\ndo_train: true\nfinetuning_type: lora\n"
                                "dataset: alpaca_en\ntemplate: qwen3\nflash_attn: fa2\nbf16: true\noutput_dir: out\n")
    assert _read(tmp_path, "go.sh", N_LOOP) == ("llama-factory", ["fa2"], "bfloat16", "none")


SET_ARGS = """\
set -- --cfg other.yml
CFG=first.yml
while (( $# )); do
  case $1 in
    --cfg)
      CFG=$2
      shift 2
      ;;
    *) shift ;;
  esac
done
axolotl train $CFG
"""


def test_loop_over_arguments_the_script_sets_itself_runs(tmp_path):
    """`set -- ...` gives the script arguments: the loop runs, so the value it assigns is not taken for the default
    (the file the default names is not the one read)."""
    write(tmp_path, "first.yml", AXOLOTL_YAML)
    got = _read(tmp_path, "set.sh", SET_ARGS)
    assert got[0] == "axolotl" and got[1:3] != (["fa2"], "bfloat16")


def test_argument_loop_shapes():
    assert shell._argument_loop('while [[ $# -gt 0 ]]; do')
    assert shell._argument_loop('while [ "$#" -gt 0 ]')
    assert shell._argument_loop('while test $# -ne 0; do')
    assert shell._argument_loop('while (( "$#" )); do')
    assert shell._argument_loop('while (( $# > 0 ))')
    assert shell._argument_loop('while [ -n "${1}" ]; do')
    assert shell._argument_loop('while [ "$1" != "" ]; do')
    assert shell._argument_loop('while getopts "hc:e:" flag; do')
    # loops that are not over the script's own arguments run as written
    assert not shell._argument_loop('while true; do')
    assert not shell._argument_loop('while read -r line; do')
    assert not shell._argument_loop('while [ $i -lt 3 ]; do')
    assert not shell._argument_loop('while [[ $# -gt 0 ]] && false; do')


# ---------------------------------------------------------------------------------------------------------------------
# PowerShell param() blocks
# ---------------------------------------------------------------------------------------------------------------------

PS_PARAM_UNKNOWN_TOML = """\
param(
    [Parameter(Mandatory=$true)][string]$TomlPath,
    [string]$Py = "C:\\\\kohya\\\\venv\\\\Scripts\\\\python.exe",
    [int]$Threads = 4
)
$script = Join-Path $env:KOHYA_DIR "flux_train_network.py"
& $Py $script --config_file $TomlPath --sdpa
"""


def test_new_param_default_is_the_program_and_the_mandatory_toml_is_unknown(tmp_path):
    """NEW: $Py is python.exe (its default); --config_file names the caller's TOML: its precision is unknown, not
    sd-scripts' default float32; the --sdpa on the line is read."""
    assert _read(tmp_path, "flux.ps1", PS_PARAM_UNKNOWN_TOML) == ("sd-scripts", ["sdpa"], "", "none")


PS_PARAM_ONE_LINE = """\
param([string]$Launcher = 'accelerate', [string]$Precision = "fp16")
& $Launcher launch --num_cpu_threads_per_process 1 sdxl_train_network.py `
    --pretrained_model_name_or_path D:/m/sdxl.safetensors --mixed_precision $Precision --xformers
"""


def test_new_one_line_param_defaults(tmp_path):
    """NEW: both defaults of a one-line param() reach the launch line: accelerate launch, fp16, --xformers."""
    assert _read(tmp_path, "xl.ps1", PS_PARAM_ONE_LINE) == ("sd-scripts", ["xformers"], "float16", "none")


def test_param_values():
    block = ' [Parameter(Mandatory = $true)] [string] $Config,\n [int] $N = 80,\n [string] $Py = "py"'
    assert shell._ps_params(block) == [("Config", None), ("N", "80"), ("Py", "py")]
    assert shell._ps_params("[switch]$DryRun = $false, $Root = (Get-Location), $Name = 'a,b'") == \
        [("DryRun", "$false"), ("Root", None), ("Name", "a,b")]


# ---------------------------------------------------------------------------------------------------------------------
# copies written through sed
# ---------------------------------------------------------------------------------------------------------------------

LF_BASE = ("model_name_or_path: meta-llama/Llama-3.1-8B\nstage: sft\ndo_train: true\nfinetuning_type: lora\n"
           "dataset: mine\ntemplate: llama3\noutput_dir: saves/x\nflash_attn: sdpa\nfp16: true\n")

PIPED = """\
#!/bin/bash
BASE=configs/base_sft.yaml
RUN_CFG=/tmp/run_$(date +%s).yaml
cat "$BASE" \\
  | sed "s|output_dir:.*|output_dir: $OUT|" \\
  | sed -e 's/^dataset: .*/dataset: mine_v2/' > "$RUN_CFG"
llamafactory-cli train "$RUN_CFG"
"""


def test_new_cat_through_seds_into_a_copy(tmp_path):
    """NEW: the copy is the base YAML with two path substitutions: sdpa, fp16."""
    (tmp_path / "configs").mkdir()
    write(tmp_path / "configs", "base_sft.yaml", LF_BASE)
    assert _read(tmp_path, "run.sh", PIPED) == ("llama-factory", ["sdpa"], "float16", "none")


SED_FILE = """\
sed -E "s/^(flash_attn): .*/\\\\1: fa2/" base.yaml > tuned.yaml
llamafactory-cli train tuned.yaml
"""


def test_new_sed_with_a_file_into_a_copy_applies_the_edit(tmp_path):
    """NEW: `sed -E EXPR BASE > COPY`: the substitution is applied (flash_attn sdpa -> fa2)."""
    write(tmp_path, "base.yaml", LF_BASE)
    assert _read(tmp_path, "t.sh", SED_FILE) == ("llama-factory", ["fa2"], "float16", "none")


def test_piped_copy_shapes():
    assert shell._piped_copy('cat a.yaml | sed "s/x/y/" > b.yaml', "posix") == \
        [["cp", "a.yaml", "b.yaml"], ["sed", "-i", "-e", "s/x/y/", "b.yaml"]]
    assert shell._piped_copy("cat a.yaml > b.yaml", "posix") == [["cp", "a.yaml", "b.yaml"]]
    # not a copy of a file: appended, a printing sed, another filter, no file, output thrown away
    assert shell._piped_copy("cat a.yaml | sed s/x/y/ >> b.yaml", "posix") == []
    assert shell._piped_copy("sed -n 1p a.yaml > b.yaml", "posix") == []
    assert shell._piped_copy("cat a.yaml | grep -v x > b.yaml", "posix") == []
    assert shell._piped_copy("echo hi | sed s/h/j/ > b.txt", "posix") == []
    assert shell._piped_copy("cat a.yaml > /dev/null", "posix") == []


# ---------------------------------------------------------------------------------------------------------------------
# axolotl steps after training
# ---------------------------------------------------------------------------------------------------------------------


def test_new_merge_lora_alone_is_refused(tmp_path):
    """NEW: a script whose only axolotl command merges an adapter trains nothing."""
    msg = refusal(tmp_path, "merge.sh", "source venv/bin/activate\naxolotl merge-lora cfg.yml --lora-model-dir out/\n")
    assert "axolotl merge-lora" in msg and "not a training command" in msg


def test_new_module_forms_of_steps_after_training_are_refused(tmp_path):
    """NEW: `python -m axolotl.cli.merge_lora`, `-m axolotl.cli.main quantize` and `axolotl inference` alone."""
    assert "not a trainer config" in refusal(tmp_path, "m1.sh", "python3 -m axolotl.cli.merge_lora x.yml\n")
    assert "not a trainer config" in refusal(tmp_path, "m2.sh", "python -m axolotl.cli.main quantize x.yml\n")
    assert "not a trainer config" in refusal(tmp_path, "m3.sh", "axolotl inference x.yml --gradio\n")


def test_training_beside_a_merge_is_still_axolotl(tmp_path):
    """The training command is the run whatever steps follow it; `axolotl preprocess` alone keeps its reading."""
    write(tmp_path, "x.yml", AXOLOTL_YAML)
    assert _read(tmp_path, "all.sh", "axolotl train x.yml\naxolotl merge-lora x.yml\n") == \
        ("axolotl", ["fa2"], "bfloat16", "none")
    assert _read(tmp_path, "pre.sh", "CUDA_VISIBLE_DEVICES= python -m axolotl.cli.preprocess x.yml\n")[0] == "axolotl"


def test_a_variable_only_the_loop_sets_stays_the_callers(tmp_path):
    """`DATASET=""` before the loop and set only from "$2" in it: the config it names is unknown (`${DATASET}`),
    not the empty name's file."""
    write(tmp_path, "_lora.yaml", LF_BASE)
    text = ('DATASET=""\nwhile [[ $# -gt 0 ]]; do\n  case $1 in\n    --dataset)\n      DATASET=$2\n      shift 2\n'
            '      ;;\n  esac\ndone\nllamafactory-cli train ${DATASET}_lora.yaml\n')
    assert _read(tmp_path, "w.sh", text) == ("llama-factory", [], "", "none")


# ---------------------------------------------------------------------------------------------------------------------
# case on a value the script settles; Megatron-SWIFT's module
# ---------------------------------------------------------------------------------------------------------------------

CASE_RUNTIME = """\
#!/usr/bin/env bash
MODE="${MODE:-local}"
case "${MODE}" in
    local)
        CFG=configs/local.yml
        LAUNCH=(accelerate launch -m axolotl.cli.train)
        ;;
    cluster|slurm)
        CFG=configs/cluster.yml
        LAUNCH=(srun llamafactory-cli train)
        ;;
    *)
        echo "bad mode"; exit 1 ;;
esac
"${LAUNCH[@]}" "$CFG"
"""


def test_new_case_on_a_settled_value_runs_its_arm_only(tmp_path):
    """NEW: MODE is local: the local arm's command (axolotl) and config (sdpa, fp16) are the run's, not the last arm's
    (LLaMA-Factory's CLI)."""
    (tmp_path / "configs").mkdir()
    write(tmp_path / "configs", "local.yml", AXOLOTL_YAML.replace("flash_attention_2", "sdpa").replace(
        "bf16: true", "fp16: true"))
    write(tmp_path / "configs", "cluster.yml", AXOLOTL_YAML)
    assert _read(tmp_path, "m.sh", CASE_RUNTIME) == ("axolotl", ["sdpa"], "float16", "none")


def test_case_arm_patterns():
    lines = [(1, "  a|b) X=1 ;;", 1), (2, "  c*)", 2), (3, "    X=2", 3), (4, "    ;;", 4), (5, "  *) X=3 ;;", 5),
             (6, "esac", 6), (7, "echo $X", 7)]
    assert shell._case_arm(lines, 0, '"b"') == (6, [(1, "X=1 ", 1)])
    assert shell._case_arm(lines, 0, "cx") == (6, [(3, "    X=2", 3)])
    assert shell._case_arm(lines, 0, "zz") == (6, [(5, "X=3 ", 5)])
    # a value the script does not settle, or a block without its esac: every arm is read as before
    assert shell._case_arm(lines, 0, "$1") is None
    assert shell._case_arm(lines[:5], 0, "a") is None


def test_new_megatron_swift_module_is_refused_as_megatron_swift(tmp_path):
    """NEW: `python -m swift.cli._megatron.main sft` is what ms-swift's `megatron` script runs."""
    msg = refusal(tmp_path, "mg.sh", "NPROC_PER_NODE=8 python3 -m swift.cli._megatron.main sft --model Qwen/Qwen3-8B "
                                     "--dataset d.jsonl --tensor_model_parallel_size 2 --attention_backend flash\n")
    assert "Megatron-SWIFT" in msg


# ---------------------------------------------------------------------------------------------------------------------
# notebooks saved as .py scripts
# ---------------------------------------------------------------------------------------------------------------------

AITK_JOB = """\
job: extension
config:
  name: my_lora
  process:
    - type: sd_trainer
      network: {type: lora, linear: 16}
      train: {batch_size: 1, steps: 500, dtype: bf16, attention_backend: flash}
      model: {name_or_path: black-forest-labs/FLUX.1-dev, is_flux: true}
"""

NBCONVERT = """\
#!/usr/bin/env python
# coding: utf-8

# In[1]:


get_ipython().system('pip install -q -r requirements.txt')


# In[2]:


get_ipython().run_line_magic('cd', '/content/ai-toolkit')
get_ipython().system('python run.py /content/config/job.yaml')
"""


def test_new_nbconvert_script_runs_its_system_lines(tmp_path):
    """NEW: nbconvert's `get_ipython().system('...')` lines are the notebook's `!` lines: ai-toolkit's run.py on the job
    YAML (the Colab path's last parts found beside the file): flash → fa2, bf16."""
    (tmp_path / "config").mkdir()
    write(tmp_path / "config", "job.yaml", AITK_JOB)
    assert _read(tmp_path, "train_colab.py", NBCONVERT) == ("ai-toolkit", ["fa2"], "bfloat16", "none")


JUPYTEXT = """\
# ---
# jupyter:
#   jupytext:
#     text_representation:
#       format_name: percent
# ---

# %%
# !pip install -q musubi-tuner

# %%
# !accelerate launch --mixed_precision bf16 src/musubi_tuner/wan_train_network.py --task t2v-1.3B \\
#   --dit /content/wan.safetensors --dataset_config ds.toml --xformers --mixed_precision bf16
"""


def test_new_jupytext_commented_magics_are_the_launch_lines(tmp_path):
    """NEW: a jupytext percent script keeps `!` lines as `# !...` comments; the continued one is one command."""
    assert _read(tmp_path, "wan.py", JUPYTEXT)[:3] == ("musubi", ["xformers"], "bfloat16")


BARE_BANG = """\
# Colab: Runtime > Download > .py
!git clone https://github.com/hiyouga/LLaMA-Factory.git
%cd LLaMA-Factory
!llamafactory-cli train examples/train_lora/my_sft.yaml
"""


def test_new_bare_bang_lines_in_a_py_that_is_not_python(tmp_path):
    """NEW: `!` lines left as they are (the file is no Python) are read as a notebook's."""
    assert _read(tmp_path, "lf.py", BARE_BANG)[0] == "llama-factory"


def test_bang_text_in_a_valid_script_or_only_installs_keeps_the_python_reading(tmp_path):
    """A `!` line inside a string of a valid script is no shell escape; escapes that only install keep the Python
    reading (its own trainer calls)."""
    assert "no trainer calls" in refusal(tmp_path, "doc.py", '"""Usage:\n!accelerate launch train.py --xformers\n"""\n'
                                                             "import os\nprint(os.getcwd())\n")
    script = ("!pip install -q trl\nfrom trl import SFTTrainer, SFTConfig\n"
              "from transformers import AutoModelForCausalLM\n"
              "model = AutoModelForCausalLM.from_pretrained('Qwen/Qwen2.5-0.5B', attn_implementation='sdpa')\n"
              "trainer = SFTTrainer(model=model, args=SFTConfig(output_dir='o', bf16=True), train_dataset=None)\n"
              "trainer.train()\n")
    assert _read(tmp_path, "sft_colab.py", script)[0] == "transformers"


# ---------------------------------------------------------------------------------------------------------------------
# SimpleTuner's train.sh run from its checkout
# ---------------------------------------------------------------------------------------------------------------------

ST_CONFIG = ('{"model_type": "lora", "model_family": "flux", "pretrained_model_name_or_path": "black-forest-labs/FLUX.1-dev",'
             ' "mixed_precision": "bf16", "attention_mechanism": "flash-attn-3", "output_dir": "out",'
             ' "data_backend_config": "config/wan/multidatabackend.json", "train_batch_size": 1}')


def test_new_env_train_sh_in_a_simpletuner_checkout_reads_that_environment(tmp_path):
    """NEW: `cd SimpleTuner` then `ENV=wan bash train.sh`: train.py loads config/wan/config.json under the checkout
    (loader.py / json_file.py): flash-attn-3 → fa3, bf16. Main refused it as "only runs another script"."""
    (tmp_path / "SimpleTuner" / "config" / "wan").mkdir(parents=True)
    write(tmp_path / "SimpleTuner" / "config" / "wan", "config.json", ST_CONFIG)
    assert _read(tmp_path, "go.sh", "#!/bin/bash\ncd SimpleTuner\nENV=wan bash train.sh\n") == \
        ("simpletuner", ["fa3"], "bfloat16", "none")


def test_new_train_sh_without_env_and_its_config_not_here(tmp_path):
    """NEW: `cd /workspace/SimpleTuner && ./train.sh` with no config here: SimpleTuner, nothing else known."""
    got = _read(tmp_path, "run.sh", "cd /workspace/SimpleTuner && ./train.sh\n")
    assert got[0] == "simpletuner" and got[1:3] == ([], "")


def test_a_train_sh_outside_a_simpletuner_checkout_is_still_handed_over(tmp_path):
    """`bash train.sh` from any other folder is another script the file hands over to, as before."""
    assert "only runs another script (train.sh)" in refusal(tmp_path, "a.sh", "cd my_project\nENV=x bash train.sh\n")
