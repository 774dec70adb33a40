"""Issue 24, round 9: users' trainer configs and launch scripts whose choices are indirect (a training round).

Two parts. The real files of fixtures/configs/round9/ (see its README: users' repositories on the train side of the
split, labelled from the trainers' own source before any reader ran; eight launchers relabelled in phase 2 because the
script they run is not in the corpus) are each read as their expect file says. And variants written for this test
(what each fakes is in its text) of the mechanisms round 9 added:
- a step around training is not a training config: `llamafactory-cli webui` / `export` / `chat` (src/llamafactory/
  cli.py), a LLaMA-Factory export config (export_dir and no stage / dataset), an ai-toolkit `job: generate` / `extract`
  / `mod` (toolkit/job.py get_job); each refused naming what it is;
- transformers / TRL: a TRL trainer's own `model_init_kwargs=` (TRL before 0.13: `SFTTrainer(model="org/name",
  model_init_kwargs=kw)` loads the model with kw), the dict written in a variable;
- a config a Python wrapper or notebook builds as a dict and writes with yaml / json / toml before it launches the
  trainer (launchers.python_dumped_configs): read through the launch line that names its path, its variable
  (`--config_file={config_file}`), or, for a path computed at run time, what every such dict agrees on;
- notebooks: a `!cmd ... \\` line's indented continuation lines are shell, so the cell's Python still parses;
- PowerShell: a string grown with `+=` and splatted into a child `powershell accelerate launch ... $run_parameters`;
  `-like` / `-ilike` wildcard conditions; `}` on its line followed by `else {` / `elseif (...) {` continuing that
  `if`; several blocks closed on one line (`} } }`) or at the end of a statement; `"flux_" + $name` concatenation;
  an assignment under a condition the script does not settle leaves tests on that variable unsettled.
- shell: torchrun's `--tee` takes a value.
Run against the code before this change (4c7cf11), the variants marked NEW fail there; the rest pass there too and
guard that the old readings hold."""

from __future__ import annotations

import pytest
from each_case import each

from attn_doctor.configs import launchers, pyscript

from configs_corpus import repo_of, repos_outside
from configs_corpus import CONFIGS as CORPUS, CLAIMED, check_read_as_expected, check_staged_expect, expect, files, \
    split_module
from configs_corpus import read as _read, refusal as _refusal, rel

FILES = files(CORPUS / "round9")


def test_the_corpus_is_there_and_on_the_readers_side_of_the_split():
    split = split_module()
    claimed = refused = 0
    repos = set()
    for p in FILES:
        e = expect(p)
        t = check_staged_expect(p, e, split)
        assert e["captured"] == "2026-11-28" and len(e["commit"]) == 40, p
        repos.add(e["source"].split(":", 1)[0])
        claimed += t in CLAIMED
        refused += t not in CLAIMED
    assert len(FILES) >= 62 and claimed >= 30 and refused >= 32 and len(repos) >= 53, (len(FILES), claimed, refused)


def test_no_repository_is_shared_with_another_set():
    mine = {repo_of(expect(p)["source"]) for p in FILES}
    others = repos_outside("round9")
    assert not mine & others, sorted(mine & others)


def test_real_file():
    each(((rel(p), (p,)) for p in FILES), check_read_as_expected)  # (one test over the set: tests/each_case.py)


# ---------------------------------------------------------------------------------------------------------------------
# Steps around training
# ---------------------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("line, words", [
    ("llamafactory-cli webui\n", "llamafactory-cli webui"),  # NEW
    ("GRADIO_SHARE=1 llamafactory-cli webchat --model_name_or_path m --template qwen\n", "llamafactory-cli webchat"),  # NEW
    ("llamafactory-cli export merge_lora.yaml\n", "llamafactory-cli export"),  # NEW
    ("API_PORT=8000 llamafactory-cli api --model_name_or_path m --template llama3 --infer_backend vllm\n",
     "llamafactory-cli api"),  # NEW
])
def test_llamafactory_cli_steps_are_not_training(tmp_path, line, words):
    assert words in _refusal(tmp_path, "go.sh", line)


def test_a_notebook_that_only_opens_the_llamafactory_web_ui(tmp_path):  # NEW
    nb = ('{"cells": [{"cell_type": "code", "source": ["!git clone https://example.invalid/LLaMA-Factory.git\\n", '
          '"%cd LLaMA-Factory\\n", "!pip install -e .\\n"]}, {"cell_type": "code", "source": '
          '["!GRADIO_SHARE=1 llamafactory-cli webui\\n"]}], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}')
    assert "llamafactory-cli webui" in _refusal(tmp_path, "colab.ipynb", nb)


def test_llamafactory_cli_train_beside_its_web_ui_still_trains(tmp_path):
    (tmp_path / "sft.yaml").write_text("model_name_or_path: m\nstage: sft\ndo_train: true\ndataset: d\ntemplate: qwen\n"
                                       "finetuning_type: lora\nflash_attn: fa2\nbf16: true\n")
    got = _read(tmp_path, "go.sh", "llamafactory-cli train sft.yaml\nllamafactory-cli webui\n")
    assert got[:3] == ("llama-factory", ["fa2"], "bfloat16"), got


EXPORT = ("model_name_or_path: Qwen/Qwen2.5-7B-Instruct\nadapter_name_or_path: saves/qwen/lora/sft\ntemplate: qwen\n"
          "finetuning_type: lora\nexport_dir: models/merged\nexport_size: 2\nexport_device: cpu\n")


def test_a_llamafactory_export_config_is_refused_as_one(tmp_path):  # NEW
    msg = _refusal(tmp_path, "qwen_lora_sft.yaml", EXPORT)
    assert "export" in msg and "LLaMA-Factory" in msg


def test_a_llamafactory_quantisation_export_is_refused_too(tmp_path):  # NEW
    msg = _refusal(tmp_path, "q.yaml", "model_name_or_path: m\ntemplate: llama3\nexport_dir: out\n"
                                       "export_quantization_bit: 4\nexport_quantization_dataset: data/c4.json\n")
    assert "export" in msg


def test_export_keys_beside_a_training_stage_are_still_training(tmp_path):
    got = _read(tmp_path, "x.yaml", EXPORT + "stage: sft\ndo_train: true\ndataset: alpaca_en_demo\nflash_attn: sdpa\n")
    assert got[:2] == ("llama-factory", ["sdpa"]), got


AIT = ("job: {job}\nconfig:\n  name: x\n  process:\n    - type: {ptype}\n      device: cuda:0\n"
       "      model:\n        name_or_path: black-forest-labs/FLUX.1-dev\n        is_flux: true\n"
       "      train:\n        dtype: bf16\n")


@pytest.mark.parametrize("job, ptype, words", [
    ("generate", "to_folder", "job: generate"), ("extract", "locon", "job: extract"), ("mod", "rescale_lora", "job: mod"),
])
def test_ai_toolkit_jobs_that_do_not_train_are_refused(tmp_path, job, ptype, words):  # NEW
    msg = _refusal(tmp_path, "gen.yaml", AIT.format(job=job, ptype=ptype))
    assert words in msg and "ai-toolkit" in msg


@pytest.mark.parametrize("job", ["extension", "train"])
def test_ai_toolkit_training_jobs_are_still_read(tmp_path, job):
    assert _read(tmp_path, "t.yaml", AIT.format(job=job, ptype="sd_trainer"))[:3] == ("ai-toolkit", [], "bfloat16")


# ---------------------------------------------------------------------------------------------------------------------
# transformers / TRL: a trainer's own model_init_kwargs
# ---------------------------------------------------------------------------------------------------------------------

TRL_SCRIPT = '''import torch
from transformers import HfArgumentParser
from trl import {trainer}, {config}

args = HfArgumentParser({config}).parse_yaml_file("cfg.yaml")[0]
{kwargs}
trainer = {trainer}(model="Qwen/Qwen2.5-1.5B", model_init_kwargs=model_kwargs, args=args, train_dataset=ds)
trainer.train()
'''


@pytest.mark.parametrize("kwargs, want", [
    ('model_kwargs = dict(attn_implementation="flash_attention_2", torch_dtype=torch.bfloat16, use_cache=False)',
     (["fa2"], "bfloat16")),  # NEW
    ('model_kwargs = {"attn_implementation": "sdpa", "torch_dtype": "float16"}', (["sdpa"], "float16")),  # NEW
    ('base = dict(trust_remote_code=True)\nmodel_kwargs = dict(**base, attn_implementation="flex_attention")',
     (["flex"], "")),  # NEW
])
def test_a_trl_trainers_model_init_kwargs_in_a_variable(tmp_path, kwargs, want):
    got = _read(tmp_path, "sft.py", TRL_SCRIPT.format(trainer="SFTTrainer", config="SFTConfig", kwargs=kwargs))
    assert got[0] == "transformers" and (got[1], got[2]) == want, got


def test_the_same_for_dpo(tmp_path):  # NEW
    got = _read(tmp_path, "dpo.py", TRL_SCRIPT.format(trainer="DPOTrainer", config="DPOConfig", kwargs=(
        'model_kwargs = dict(attn_implementation="eager", torch_dtype=torch.float32)')))
    assert got[:3] == ("transformers", [], "float32"), got


def test_model_init_kwargs_the_script_computes_say_nothing(tmp_path):
    src = TRL_SCRIPT.format(trainer="SFTTrainer", config="SFTConfig", kwargs="model_kwargs = load_kwargs(args)")
    got = _read(tmp_path, "sft.py", src.replace("import torch\n", "import torch\nfrom transformers import "
                                                 "AutoModelForCausalLM\nm = AutoModelForCausalLM.from_pretrained('x')\n"))
    assert got[0] == "transformers" and got[1] == [], got


# ---------------------------------------------------------------------------------------------------------------------
# A config written from a dict, then launched
# ---------------------------------------------------------------------------------------------------------------------

AXOLOTL_WRAPPER = '''import os, subprocess, tempfile
import yaml


def base_config(args):
    cfg = {{
        "base_model": args.model,
        "adapter": "lora",
        "load_in_4bit": True,
        "bf16": "auto",
        "fp16": False,
        "flash_attention": {flash},
        "sdp_attention": {sdp},
        "output_dir": str(args.output),
    }}
    return cfg


def run(args):
    cfg = base_config(args)
    cfg["learning_rate"] = args.lr
    with tempfile.NamedTemporaryFile("w", suffix=".yaml", delete=False) as f:
        yaml.dump(cfg, f)
        path = f.name
    subprocess.run(["axolotl", "train", path], check=True)
'''


@pytest.mark.parametrize("flash, sdp, want", [
    ("False", "True", ["sdpa"]), ("True", "False", ["fa2"]),  # NEW
])
def test_an_axolotl_config_dumped_from_a_dict_to_a_temporary_file(tmp_path, flash, sdp, want):
    got = _read(tmp_path, "train.py", AXOLOTL_WRAPPER.format(flash=flash, sdp=sdp))
    assert got[:3] == ("axolotl", want, "bfloat16"), got


def test_a_dumped_dict_value_computed_at_run_time_is_unknown(tmp_path):
    src = AXOLOTL_WRAPPER.format(flash="args.flash", sdp="args.sdp")
    got = _read(tmp_path, "train.py", src)
    assert got[:2] == ("axolotl", []), got


def test_several_dumped_configs_give_what_they_agree_on(tmp_path):  # NEW
    src = ('import subprocess, yaml\n'
           'a = {"base_model": "m", "adapter": "lora", "flash_attention": True, "bf16": True}\n'
           'b = {"base_model": "m", "adapter": "qlora", "flash_attention": True, "bf16": False, "fp16": True}\n'
           'for cfg in (a, b):\n    pass\n'
           'with open(make_path(), "w") as f:\n    yaml.safe_dump(a, f)\n'
           'with open(make_path(), "w") as f:\n    yaml.safe_dump(b, f)\n'
           'subprocess.run(["axolotl", "train", make_path()])\n')
    got = _read(tmp_path, "w.py", src)
    assert got[0] == "axolotl" and got[1] == ["fa2"], got


def test_json_results_dumped_to_a_computed_path_are_not_taken_for_the_config(tmp_path):
    src = ('import json, subprocess, tempfile\n'
           'metrics = {"bf16": False, "fp16": True, "flash_attention": True, "loss": 0.1}\n'
           'with open(results_path(), "w") as f:\n    json.dump(metrics, f)\n'
           'subprocess.run(["axolotl", "train", make_config()])\n')
    got = _read(tmp_path, "w.py", src)
    assert got[:3] == ("axolotl", [], ""), got  # the YAML it trains with is not here: unknown


def test_a_dumped_config_named_by_its_literal_path(tmp_path):  # NEW
    src = ('import json, subprocess\n'
           'cfg = dict(base_model="m", adapter="lora", sdp_attention=True, bf16=False, fp16=True)\n'
           'with open("run.json", "w") as f:\n    json.dump(cfg, f)\n'
           'subprocess.run(["accelerate", "launch", "-m", "axolotl.cli.train", "run.json"])\n')
    got = _read(tmp_path, "w.py", src)
    assert got[:3] == ("axolotl", ["sdpa"], "float16"), got


KOHYA_NB = r'''{{"cells": [{{"cell_type": "code", "source": [
"import os, toml\n",
"XFORMERS = {xf}\n",
"config_file = os.path.join(root, \"training_config.toml\")\n",
"def create_config():\n",
"  config_dict = {{\n",
"    \"training_arguments\": {{\"xformers\": XFORMERS, \"mixed_precision\": \"{mp}\", \"seed\": 42}},\n",
"    \"model_arguments\": {{\"pretrained_model_name_or_path\": model_file}},\n",
"  }}\n",
"  with open(config_file, \"w\") as f:\n",
"    f.write(toml.dumps(config_dict))\n",
"create_config()\n",
"if XFORMERS:\n",
"  !pip install xformers==0.0.28 \\\n",
"      triton==3.0.0\n",
"!accelerate launch --num_cpu_threads_per_process=1 train_network.py --config_file={{config_file}}\n"
]}}], "metadata": {{}}, "nbformat": 4, "nbformat_minor": 5}}'''


@pytest.mark.parametrize("xf, mp, want", [
    ("True", "fp16", (["xformers"], "float16")), ("False", "bf16", ([], "bfloat16")),  # NEW
])
def test_a_notebook_config_dict_written_with_toml_to_the_file_its_launch_names(tmp_path, xf, mp, want):
    got = _read(tmp_path, "lora_trainer.ipynb", KOHYA_NB.format(xf=xf, mp=mp))
    assert got[0] == "sd-scripts" and (got[1], got[2]) == want, got


def test_python_dumped_configs_reports_its_targets():  # NEW
    src = ('import json, yaml\nfrom pathlib import Path\n'
           'a = {"k": 1}\nPath("a.json").write_text(json.dumps(a))\n'
           'with open(out_path, "w") as f:\n    yaml.dump({"k": 2, "v": f(x)}, f)\n')
    got = launchers.python_dumped_configs(src)
    assert ("a.json", {"k": 1}) in got and (("var", "out_path"), {"k": 2}) in got, got


def test_a_bang_line_continued_on_indented_lines_leaves_the_cell_parseable():  # NEW
    src = "x = 1\nif x:\n  !pip install a \\\n      b \\\n      c\n  y = 2\n"
    t = pyscript.tree(src)
    assert t is not None and "y" in pyscript.constants(t)


# ---------------------------------------------------------------------------------------------------------------------
# PowerShell
# ---------------------------------------------------------------------------------------------------------------------

PS_STRING = '''$mixed_precision = "{mp}"
$network_module = "networks.lora"
$run_parameters = "--network_module=$network_module --train_data_dir=train "
if ($mixed_precision -eq "fp16" -or $mixed_precision -eq "bf16") {{ $run_parameters += " --mixed_precision=$mixed_precision" }}
$run_parameters += " --caption_extension=.txt --enable_bucket {attn} --save_model_as=safetensors"
Set-Location -Path $sd_scripts_dir
{launch} train_network.py $run_parameters
'''


@pytest.mark.parametrize("mp, attn, launch, want", [
    ("fp16", "--xformers", "powershell accelerate launch --num_cpu_threads_per_process 2", (["xformers"], "float16")),  # NEW
    ("bf16", "--sdpa", "pwsh -NoProfile -ExecutionPolicy Bypass -Command accelerate launch", (["sdpa"], "bfloat16")),  # NEW
    ("no", "", "powershell accelerate launch", ([], "float32")),
])
def test_powershell_string_grown_with_plus_equals_and_a_child_powershell(tmp_path, mp, attn, launch, want):
    got = _read(tmp_path, "train_network.ps1", PS_STRING.format(mp=mp, attn=attn, launch=launch))
    assert got[0] == "sd-scripts" and (got[1], got[2]) == want, got


def test_powershell_file_runs_a_script_not_a_command(tmp_path):
    # (after review: the refusal alone could not tell; the parse can) -File's argument is a script to run, while
    # -Command's words are a command line of their own
    from attn_doctor.configs import shell

    by_file = shell.parse("powershell -ExecutionPolicy Bypass -File .\\train.ps1 --sdpa\n").commands
    by_command = shell.parse("powershell -ExecutionPolicy Bypass -Command accelerate launch train_network.py --sdpa\n").commands
    assert [c.program for c in by_file] == ["powershell"]
    assert [(c.program, c.script) for c in by_command] == [("accelerate", "train_network.py")]
    assert "not a trainer config" in _refusal(tmp_path, "go.ps1", "powershell -ExecutionPolicy Bypass -File .\\train.ps1\n")


PS_BRANCHES = '''$train_mode = "{mode}"
$torch_compile = {tc}
$laungh_script = "train_network"
$ext_args = [System.Collections.ArrayList]::new()
if ($train_mode -ilike "*controlnet") {{
  $laungh_script = "train_controlnet"
}}
if ($train_mode -ilike "sdxl*") {{
  $laungh_script = "sdxl_" + $laungh_script
}}
if ($train_mode -ilike "sd3*" -or $train_mode -ilike "flux*") {{
  if ($train_mode -ilike "flux*") {{
    $laungh_script = "flux_" + $laungh_script
  }}
  [void]$ext_args.Add("--sdpa")
}}
elseif ($torch_compile) {{
  [void]$ext_args.Add("--sdpa")
  [void]$ext_args.Add("--torch_compile")
}}
else {{
  [void]$ext_args.Add("--xformers")
}}
python -m accelerate.commands.launch --num_cpu_threads_per_process=8 "./sd-scripts/$laungh_script.py" `
  --mixed_precision=bf16 $ext_args
'''


@pytest.mark.parametrize("mode, tc, want", [
    ("flux_lora", 0, ("sd-scripts", ["sdpa"], "bfloat16", "none")),  # NEW (FLUX: SDPA whatever the flag)
    ("sdxl_lora", 0, ("sd-scripts", ["xformers"], "bfloat16", "none")),  # NEW
    ("sdxl_lora", 1, ("sd-scripts", ["sdpa"], "bfloat16", "default")),  # NEW
])
def test_powershell_like_conditions_allman_else_and_concatenated_script_names(tmp_path, mode, tc, want):
    assert _read(tmp_path, "train.ps1", PS_BRANCHES.format(mode=mode, tc=tc)) == want


def test_powershell_blocks_closed_together_and_at_a_statements_end(tmp_path):  # NEW
    """`} }` closing two blocks, and a statement ending in `}`: the `if` / `else` after them is read at the top level
    again (before: the frames stayed open and the settled `else` branch won)."""
    src = ('$use_x = 1\n$paths = @( $a, $b )\nforeach ($path in $paths) {\n  if ($path -ne "" -and !(Test-Path $path)) {\n'
           '    Write-Output "Path $path does not exist" } }\n'
           'if ($flags -le 0) {\n$s = 0\nwhile ($s -lt 3) { $s += 1 }; Write-Output "x" }\n'
           'if ($use_x -eq 1) {\n  $attn = "--xformers"\n}\nelse {\n  $attn = "--sdpa"\n}\n'
           'accelerate launch train_network.py $attn --mixed_precision=fp16\n')
    assert _read(tmp_path, "t.ps1", src)[:3] == ("sd-scripts", ["xformers"], "float16")


def test_powershell_assignment_under_an_unsettled_condition_leaves_the_test_open(tmp_path):  # NEW
    src = ('param([int]$TestRun = 0)\n$test_run = 0\nif ($TestRun -ge 1) { $test_run = 1 }\n'
           'if ($test_run -le 0) {\n  accelerate launch train_network.py --sdpa --mixed_precision=bf16\n}\n')
    assert _read(tmp_path, "t.ps1", src)[:3] == ("sd-scripts", ["sdpa"], "bfloat16")


def test_powershell_settled_false_branch_still_skipped(tmp_path):
    src = ('$use_xformers = 0\nif ($use_xformers -eq 1) {\n  $attn = "--xformers"\n}\nelse {\n  $attn = "--sdpa"\n}\n'
           'accelerate launch train_network.py $attn --mixed_precision=fp16\n')
    assert _read(tmp_path, "t.ps1", src)[:3] == ("sd-scripts", ["sdpa"], "float16")


def test_torchrun_tee_takes_a_value(tmp_path):  # NEW
    """torchrun's `--tee {0,1,2,3}` takes a value (torch/distributed/run.py): the script is the word after it (round 9:
    a Megatron-DeepSpeed launcher's `--tee 3` was read as a script named "3")."""
    got = _read(tmp_path, "go.sh", "torchrun --nproc_per_node 2 --tee 3 train_network.py --xformers "
                                   "--mixed_precision fp16 --network_module networks.lora\n")
    assert got[:3] == ("sd-scripts", ["xformers"], "float16"), got
    msg = _refusal(tmp_path, "m.sh", "python -u -m torch.distributed.run --nproc_per_node 8 --tee 3 pretrain_gpt.py "
                                     "--tensor-model-parallel-size 2 --pipeline-model-parallel-size 4 --bf16\n")
    assert "Megatron" in msg and "pretrain_gpt.py" in msg, msg
