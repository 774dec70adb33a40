"""Helper cfg141 (session 39, issue 24): what reading round 141m found, each mechanism with variants of our own, none of
them a file of a set.

1. A launcher whose training command goes through a shell function it does not define (a sourced helper file not in
   the repository: `run_training_script "$SD_REPO/$SD_SCRIPT" "${args[@]}"`, round 141m's zsh launcher of sd-scripts)
   ran nothing attn-doctor read. A wrapper named to run (run / launch / exec / start / train in its name) given a .py
   script first starts that script with those words (shell.RUNNER_FUNCTION). A function the script defines is still
   read through its body; a name that says nothing of running, or an evaluation script, is no training run.
2. A diffusion-pipe fork's [model] keys upstream never reads (RicemanT/diffusion-pipe-mageflow-ft@40bf63a:
   utils/mageflow_execution.py compile_block_forward, utils/mageflow_attention.py resolve_flash_attention):
   `compile_blocks = true` compiles each block in [model] compile_mode (default 'default'); `attention_backend`
   'flash_attn_2' / 'flash_attn_3' runs that package's varlen kernel (diffusion_pipe.read), for a model type upstream
   does not have. An upstream model type (whose code reads neither key), the top-level `compile_blocks`, which the fork
   does not read, and a string "true", which it refuses, change nothing.
3. A Python module that runs nothing and holds a trainer's config as a triple-quoted text, plain or an f-string it
   fills in and returns (round 141m: a Krea 2 kit's build_training_config() returning ai-toolkit's job YAML), was a
   script with no trainer calls: the config its text makes is read, a field alone on its line left out and one inside a
   line an unknown value (launchers.python_templates, configs._templated_config). Texts of two trainers, a
   docstring's example and settings several trainers share stay refused."""

from __future__ import annotations

from configs_corpus import read, refusal
from each_case import each

# 1. a runner function from a file that is not here ---------------------------------------------------------------------

_SD_ARGS = """args=(
    --pretrained_model_name_or_path=/m/noobaiXL.safetensors
    --network_module=networks.lora   # LoRA
    --mixed_precision={mp}
    {attn}
    {extra}
)
"""


def test_a_runner_function_from_an_unread_helper_runs_its_script(tmp_path):
    def check(name, text, want):
        assert read(tmp_path, name, text) == want

    cases = [
        ("zsh, no extension, script in variables", ("tn-run", "#!/usr/bin/env zsh\nset -e\n"
                                                    'SD_SCRIPT="${SD_SCRIPT:-sdxl_train_network.py}"\n'
                                                    'SD_REPO="${SD_REPO:-$HOME/sd-scripts}"\n'
                                                    + _SD_ARGS.format(mp="bf16", attn="--xformers",
                                                                      extra="--torch_compile") +
                                                    'source "$HOME/toolkit/zsh/train_functions.zsh"\n'
                                                    'run_training_script "$SD_REPO/$SD_SCRIPT" "${args[@]}"\n',
                                                    ("sd-scripts", ["xformers"], "bfloat16", "default"))),
        ("bash, launch_job, words after the array", ("go.sh", "#!/usr/bin/env bash\n"
                                                     'source "$HOME/lib/train_lib.sh"\nSCRIPT=train_network.py\n'
                                                     + _SD_ARGS.format(mp="fp16", attn="--sdpa", extra="") +
                                                     'launch_job "$HOME/sd-scripts/$SCRIPT" "${args[@]}" '
                                                     '--output_dir=/out\n',
                                                     ("sd-scripts", ["sdpa"], "float16", "none"))),
        ("hyphenated start-training, musubi", ("run.sh", "#!/bin/bash\n. ./common.sh\nstart-training "
                                              "src/musubi_tuner/wan_train_network.py --task t2v-14B --dit /m/d.st "
                                              "--dataset_config ds.toml --flash_attn --mixed_precision bf16\n",
                                              ("musubi", ["fa2"], "bfloat16", "none"))),
    ]
    each(cases, check)


def test_a_function_that_is_no_runner_runs_nothing(tmp_path):
    def read_or_refused(name, text):
        try:
            return read(tmp_path, name, text)
        except Exception:  # noqa: BLE001 (refused: no run read)
            return None

    def check(name, text):
        got = read_or_refused(name, text)
        # the --xformers the call is given is no run's: nothing reads it as one
        assert got is None or got[1] != ["xformers"], got

    cmd = ('"$HOME/sd-scripts/sdxl_train_network.py" --network_module=networks.lora --mixed_precision=bf16 '
           '--xformers\n')
    each([
        ("a name that says nothing of running", ("a.sh", "#!/bin/bash\nsource ./common.sh\ncheck_file " + cmd)),
        ("the script's own function, read through its body", ("b.sh", "#!/bin/bash\nrun_training_script() {\n"
                                                              '  echo "would run: $@"\n}\nrun_training_script ' + cmd)),
        ("an option first, no script", ("c.sh", "#!/bin/bash\nsource ./common.sh\nrun_training_script --dry-run "
                                        + cmd)),
    ], check)


def test_a_runner_function_of_an_evaluation_script_is_no_training(tmp_path):
    msg = refusal(tmp_path, "eval.sh", "#!/bin/bash\nsource ./common.sh\nrun_eval evaluate.py --ckpt out/last.st\n")
    assert "evaluate.py" in msg, msg


# 2. a diffusion-pipe fork's [model] compile_blocks and attention_backend ------------------------------------------------

_DP = """output_dir = '/out/run'
dataset = 'dataset.toml'
epochs = 10
micro_batch_size_per_gpu = 2
pipeline_stages = 1
gradient_accumulation_steps = 1
activation_checkpointing = true
{top}
[model]
type = '{mtype}'
diffusers_path = '/m/model'
dtype = 'bfloat16'
{model}

[optimizer]
type = 'adamw_optimi'
lr = 2e-5
"""


def test_a_forks_block_compile_and_attention_backend(tmp_path):
    def check(top, mtype, model, want):
        assert read(tmp_path, "train.toml", _DP.format(top=top, mtype=mtype, model=model)) == want

    each([
        ("compile_blocks, mode unset", ("", "mage_flow", "compile_blocks = true\ncompile_dynamic = true",
                                        ("diffusion-pipe", [], "bfloat16", "default"))),
        ("compile_blocks, its mode", ("", "mage_flow", "compile_blocks = true\ncompile_mode = "
                                      "'max-autotune-no-cudagraphs'",
                                      ("diffusion-pipe", [], "bfloat16", "max-autotune-no-cudagraphs"))),
        ("flash_attn_2", ("", "mage_flow", "attention_backend = 'flash_attn_2'",
                          ("diffusion-pipe", ["fa2"], "bfloat16", "none"))),
        ("flash_attn_3 and compile", ("", "mage_flow", "attention_backend = 'flash_attn_3'\ncompile_blocks = true",
                                      ("diffusion-pipe", ["fa3"], "bfloat16", "default"))),
        ("sdpa, the default", ("", "mage_flow", "attention_backend = 'sdpa'", ("diffusion-pipe", [], "bfloat16",
                                                                              "none"))),
        ("another fork's own model type", ("", "my_dit", "compile_blocks = true\nattention_backend = 'flash_attn_2'",
                                           ("diffusion-pipe", ["fa2"], "bfloat16", "default"))),
        # near misses: an upstream model type (its code reads neither key), the key where the fork does not read it, a
        # string the fork refuses, false
        ("an upstream model type", ("", "flux", "compile_blocks = true\nattention_backend = 'flash_attn_2'",
                                    ("diffusion-pipe", [], "bfloat16", "none"))),
        ("compile_blocks at the top level", ("compile_blocks = true", "mage_flow", "",
                                             ("diffusion-pipe", [], "bfloat16", "none"))),
        ("compile_blocks as a string", ("", "mage_flow", "compile_blocks = 'true'",
                                        ("diffusion-pipe", [], "bfloat16", "none"))),
        ("compile_blocks false", ("", "mage_flow", "compile_blocks = false\n# compile = true",
                                  ("diffusion-pipe", [], "bfloat16", "none"))),
    ], check)


# 3. a trainer's config a Python module holds as text --------------------------------------------------------------------

_AITK = '''"""Builds the Wan 2.2 LoRA job for the worker."""
from __future__ import annotations


def _dataset_lines(folders):
    return "\\n".join(f"        - folder_path: {f}\\n          caption_ext: txt" for f in folders)


def job_yaml(name: str, folders: list[str], steps: int = 2000) -> str:
    return f"""job: extension
config:
  name: "{name}"
  process:
    - type: sd_trainer
      training_folder: /workspace/output
      device: cuda:0
      network:
        type: lora
        linear: 16
        linear_alpha: 16
      datasets:
{_dataset_lines(folders)}
      train:
        batch_size: 1
        steps: {steps}
        dtype: {DTYPE}
        optimizer: adamw8bit
      model:
        name_or_path: "ai-toolkit/Wan2.2-T2V-A14B-Diffusers-bf16"
        arch: wan22_14b
        quantize: true
{COMPILE}
meta:
  name: "{{name}}"
"""
'''

_MUSUBI = '''import os

MUSUBI_TOML = f"""
dit = "{os.environ.get('DIT', '/m/dit.safetensors')}"
vae = "/m/vae.safetensors"
t5 = "/m/t5.pth"
task = "t2v-14B"
dataset_config = "dataset.toml"
mixed_precision = "bf16"
fp8_base = true
{ATTN}
timestep_sampling = "shift"
discrete_flow_shift = {os.environ.get('SHIFT', '3.0')}
network_module = "networks.lora_wan"
network_dim = 32
"""
'''

_LMF = '''TEMPLATE = """### model
model_name_or_path: {model}

### method
stage: sft
do_train: true
finetuning_type: lora
lora_target: all
flash_attn: fa2

### dataset
dataset: {dataset}
template: qwen
cutoff_len: 4096

### train
per_device_train_batch_size: 1
learning_rate: 1.0e-4
bf16: true
"""


def render(model, dataset):
    return TEMPLATE.format(model=model, dataset=dataset)
'''


def test_a_config_a_module_holds_as_text_is_read(tmp_path):
    def check(name, text, want):
        assert read(tmp_path, name, text) == want

    each([
        ("ai-toolkit f-string, block fields left out, compile", (
            "configs.py", _AITK.replace("{DTYPE}", "bf16").replace("{COMPILE}", "        compile: true"),
            ("ai-toolkit", [], "bfloat16", "default"))),
        ("ai-toolkit f-string, dtype a field", (
            "configs.py", _AITK.replace("{DTYPE}", "{dtype}").replace("{COMPILE}", ""),
            ("ai-toolkit", [], "", "none"))),
        ("musubi-tuner TOML f-string constant", ("make_cfg.py", _MUSUBI.replace("{ATTN}", "sdpa = true"),
                                                 ("musubi", ["sdpa"], "bfloat16", "none"))),
        ("LLaMA-Factory YAML for str.format", ("render.py", _LMF, ("llama-factory", ["fa2"], "bfloat16", "none"))),
    ], check)


_TWO = '''AITK = """job: extension
config:
  name: demo
  process:
    - type: sd_trainer
      training_folder: /out
      network:
        type: lora
        linear: 16
        linear_alpha: 16
      train:
        dtype: bf16
      model:
        name_or_path: black-forest-labs/FLUX.1-dev
        arch: flux
"""

LMF = """model_name_or_path: Qwen/Qwen2.5-7B
stage: sft
do_train: true
finetuning_type: lora
lora_target: all
template: qwen
flash_attn: fa2
bf16: true
"""
'''

_DOCSTRING = '''def build():
    """Returns the job, shaped like:

    job: extension
    config:
      process:
        - type: sd_trainer
          training_folder: /out
          train:
            dtype: bf16
          model:
            arch: flux
            name_or_path: black-forest-labs/FLUX.1-dev
    """
    return {}
'''

_SHARED = '''HELP = """Usage:
  python make_cfg.py NAME

Writes the run's settings:
  learning_rate, num_train_epochs, bf16
"""

SETTINGS = """learning_rate: 1.0e-4
num_train_epochs: 3
per_device_train_batch_size: 4
gradient_accumulation_steps: 8
bf16: true
"""
'''


def test_texts_no_one_trainer_claims_stay_refused(tmp_path):
    def check(text):
        msg = refusal(tmp_path, "configs.py", text)
        assert "no trainer calls" in msg, msg

    each([("two trainers' texts", (_TWO,)), ("a docstring's example", (_DOCSTRING,)),
          ("settings several trainers share, and prose", (_SHARED,))], check)
