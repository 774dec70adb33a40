"""Issue 24, round 14: users' trainer configs and launch scripts (a training round).

Two parts. The real files of fixtures/configs/round14/ (see its README: users' repositories on the train side of the
split, labelled from the trainers' own source before any reader ran) are each read as their expect file says. And
variants written for this test (what each fakes is in its text) of the mechanisms round 14 added:
- LLaMA Board (LLaMA-Factory's web UI) saved forms (`top.booster`, `train.compute_type`, `train.training_stage` ...)
  read as the training arguments the UI runs for them (llamafactory.board_settings; hiyouga/LLaMA-Factory@ff6d4d1
  src/llamafactory/webui/runner.py:133-183);
- `python -c CODE args` runs CODE with sys.argv = ["-c", *args] and no script; CODE calling a CLI's main() imported
  from its entry module runs that CLI on args (shell._code_cli_module);
- Python command lists: `sys.executable` is `python`, `[*known_list, ...]` spreads the list the script holds, and a
  name the script settles through a conditional expression or an f-string of settled names is its value
  (launchers.python_commands);
- a lora-scripts GUI TOML's `model_train_type` is the sd-scripts script the GUI runs it with (sd_scripts
  LORA_SCRIPTS_TYPES; Akegarasu/lora-scripts@fdefba9 mikazuki/app/api.py:43-53, 133-134);
- a script's device probes answer as on the CUDA host attn-doctor checks: `torch.cuda.is_available()` true,
  `torch.backends.mps.is_available()` false, `or` / `and` over them (pyscript.HOST_ANSWERS).
Run against the code before this change (b16011e), the variants marked NEW fail there; the rest pass there too and
guard that the old readings hold."""

from __future__ import annotations

import pytest
from each_case import each

from attn_doctor.configs import launchers

from configs_corpus import repo_of, repos_outside
from configs_corpus import CONFIGS as CORPUS, CLAIMED, check_read_as_expected, check_staged_expect, expect, files, \
    split_module
from configs_corpus import read as _read, refusal as _refusal, rel

FILES = files(CORPUS / "round14")


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
    assert len(FILES) >= 52 and claimed >= 38 and refused >= 14 and len(repos) >= 35, (len(FILES), claimed, refused)


def test_no_repository_is_shared_with_another_set():
    mine = {repo_of(expect(p)["source"]) for p in FILES}
    others = repos_outside("round14")
    assert not mine & others, sorted(mine & others)


def test_real_file():
    each(((rel(p), (p,)) for p in FILES), check_read_as_expected)  # (one test over the set: tests/each_case.py)


# ---------------------------------------------------------------------------------------------------------------------
# LLaMA Board saved forms
# ---------------------------------------------------------------------------------------------------------------------

_BOARD = """top.booster: {booster}
top.checkpoint_path: []
top.finetuning_type: lora
top.model_name: Llama-3-8B-Instruct
top.quantization_bit: none
top.template: llama3
train.batch_size: 2
train.compute_type: {compute}
train.cutoff_len: 1024
train.dataset:
- alpaca_en_demo
train.extra_args: '{extra}'
train.gradient_accumulation_steps: 8
train.learning_rate: 5e-5
train.neat_packing: false
train.packing: false
train.training_stage: {stage}
"""


@pytest.mark.parametrize("booster, compute, stage, extra, want", [
    ("flashattn2", "bf16", "Supervised Fine-Tuning", "{}", (["fa2"], "bfloat16", "none")),  # NEW
    ("flashattn", "pure_bf16", "DPO", "{}", (["fa2"], "bfloat16", "none")),  # NEW (LLaMA-Factory before 2024-04-24)
    ("unsloth", "fp16", "Supervised Fine-Tuning", "{}", ([], "float16", "none")),  # NEW (Unsloth loads the model)
    ("auto", "fp32", "Pre-Training", "{}", ([], "", "none")),  # NEW
    ("liger_kernel", "bf16", "KTO", '{"torch_compile": true, "optim": "adamw_torch"}', ([], "bfloat16", "default")),  # NEW
])
def test_llama_board_form(tmp_path, booster, compute, stage, extra, want):
    text = _BOARD.format(booster=booster, compute=compute, stage=stage, extra=extra)
    assert _read(tmp_path, "sft_llama3.yaml", text) == ("llama-factory", *want)


def test_llama_board_form_of_2023_with_a_flash_attn_checkbox(tmp_path):  # NEW
    # before 0fdd6074c (2023-12-23) the form had a boolean top.flash_attn and no booster
    text = ("top.flash_attn: true\ntop.finetuning_type: lora\ntop.model_name: LLaMA2-7B-Chat\ntop.template: llama2\n"
            "train.compute_type: fp16\ntrain.training_stage: Supervised Fine-Tuning\ntrain.batch_size: 4\n")
    assert _read(tmp_path, "board.yaml", text) == ("llama-factory", ["fa2"], "float16", "none")


def test_a_yaml_with_a_few_dotted_keys_is_not_a_board_form(tmp_path):
    text = "train.lr: 0.001\ntrain.epochs: 3\nmodel.name: resnet50\ntop.k: 5\n"
    assert "not a trainer config" in _refusal(tmp_path, "config.yaml", text)


# ---------------------------------------------------------------------------------------------------------------------
# python -c
# ---------------------------------------------------------------------------------------------------------------------

_LF_YAML = ("model_name_or_path: Qwen/Qwen2.5-7B-Instruct\nstage: sft\ndo_train: true\nfinetuning_type: lora\n"
            "dataset: alpaca_en_demo\ntemplate: qwen\nflash_attn: fa2\nbf16: true\noutput_dir: out\n")


@pytest.mark.parametrize("code", [
    "from llamafactory.cli import main; main()",  # NEW
    "import llamafactory.cli as lf; lf.main()",  # NEW
    "from llamafactory.cli import main as run; run()",  # NEW
])
def test_python_c_running_llamafactory_cli_main(tmp_path, code):
    (tmp_path / "lora_sft.yaml").write_text(_LF_YAML, encoding="utf-8")
    text = f"export CUDA_VISIBLE_DEVICES=0,1\npython -c '{code}' train ./lora_sft.yaml\n"
    assert _read(tmp_path, "train.sh", text) == ("llama-factory", ["fa2"], "bfloat16", "none")


def test_python_c_running_swift_cli_main(tmp_path):  # NEW
    text = ('python3 -c "from swift.cli.main import main; main()" sft --model Qwen/Qwen2.5-7B-Instruct '
            "--train_type lora --dataset d.jsonl --attn_impl flash_attn --torch_dtype bfloat16\n")
    assert _read(tmp_path, "run.sh", text) == ("ms-swift", ["fa2"], "bfloat16", "none")


@pytest.mark.parametrize("line, script, program", [
    # the words after the code are its sys.argv: no script runs
    ("python -c 'import sys; print(sys.argv)' train_network.py --xformers", None, "python"),  # NEW
    ("python -u -c 'from llamafactory.cli import main; main()' train x.yaml", None, "llamafactory-cli"),  # NEW
    ("python -u train_network.py --xformers", "train_network.py", "python"),
])
def test_python_c_runs_no_script(line, script, program):
    from attn_doctor.configs import shell

    cmd = shell.parse(line + "\n", "run.sh").commands[0]
    assert (cmd.script, cmd.program) == (script, program)


# ---------------------------------------------------------------------------------------------------------------------
# Python command lists: sys.executable, spread lists, settled conditionals and f-strings
# ---------------------------------------------------------------------------------------------------------------------

_RUNNER = '''import subprocess
import sys

sdxl = {sdxl}
script_name = "sdxl_train_network.py" if sdxl else "train_network.py"
script_path = f"./sd-scripts/{{script_name}}"
launch_args = ["--num_cpu_threads_per_process=2"]
if len(sys.argv) > 1:
    launch_args.extend(["--multi_gpu", "--num_processes=2"])
cmd = [sys.executable, "-m", "accelerate.commands.launch", *launch_args, script_path,
       "--pretrained_model_name_or_path=model.safetensors", "--network_module=networks.lora", "--xformers",
       "--mixed_precision=fp16", "--train_data_dir=img"]
subprocess.run(cmd, check=True)
'''


@pytest.mark.parametrize("sdxl", [0, 1])  # NEW
def test_python_runner_with_settled_names(tmp_path, sdxl):
    line = launchers.python_commands(_RUNNER.format(sdxl=sdxl))
    assert line.startswith("python -m accelerate.commands.launch --num_cpu_threads_per_process=2 ./sd-scripts/")
    assert ("sdxl_train_network.py" if sdxl else "/train_network.py") in line and "--multi_gpu" not in line
    assert _read(tmp_path, "run_train.py", _RUNNER.format(sdxl=sdxl)) == ("sd-scripts", ["xformers"], "float16",
                                                                          "none")


def test_python_runner_with_a_name_decided_at_run_time():
    # the test comes from the command line: which script runs is not known here
    code = _RUNNER.format(sdxl=0).replace("sdxl = 0", "sdxl = len(sys.argv) > 2")
    assert "$PY_VALUE" in launchers.python_commands(code)


# ---------------------------------------------------------------------------------------------------------------------
# lora-scripts GUI TOMLs: model_train_type
# ---------------------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("kind, extra, want", [
    ("sdxl-lora", 'ae = "./models/sdxl_vae.safetensors"\nxformers = true\n', ["xformers"]),  # NEW (was read as FLUX)
    ("flux-lora", 'network_module = "lycoris.kohya"\n', ["sdpa"]),  # NEW (a FLUX DiT without lora_flux)
    ("sd3-lora", "", ["sdpa"]),  # NEW
    ("sd-lora", "sdpa = true\n", ["sdpa"]),
])
def test_lora_scripts_model_train_type(tmp_path, kind, extra, want):
    text = (f'model_train_type = "{kind}"\npretrained_model_name_or_path = "./sd-models/model.safetensors"\n'
            'train_data_dir = "./train/aki"\nresolution = "1024,1024"\noutput_name = "aki"\nsave_model_as = '
            '"safetensors"\nnetwork_dim = 32\nmixed_precision = "bf16"\ncache_latents = true\n' + extra)
    assert _read(tmp_path, "aki.toml", text) == ("sd-scripts", want, "bfloat16", "none")


# ---------------------------------------------------------------------------------------------------------------------
# device probes on the CUDA host
# ---------------------------------------------------------------------------------------------------------------------

_TRL = '''import torch
from datasets import load_dataset
from transformers import AutoModelForCausalLM
from trl import SFTConfig, SFTTrainer

model = AutoModelForCausalLM.from_pretrained("Qwen/Qwen2.5-0.5B")
args = SFTConfig(output_dir="out", {flags})
trainer = SFTTrainer(model=model, args=args, train_dataset=load_dataset("json", data_files="d.jsonl")["train"])
trainer.train()
'''


@pytest.mark.parametrize("flags, dtype", [
    ("bf16=torch.cuda.is_available()", "bfloat16"),  # NEW
    ("fp16=torch.cuda.is_available(), bf16=False", "float16"),  # NEW
    ("bf16=torch.cuda.is_available() or torch.backends.mps.is_available()", "bfloat16"),  # NEW
    ("bf16=torch.cuda.is_available() and torch.cuda.is_bf16_supported()", ""),  # the GPU decides
    ("bf16=torch.cuda.is_bf16_supported()", ""),
])
def test_trl_precision_from_device_probes(tmp_path, flags, dtype):
    assert _read(tmp_path, "sft.py", _TRL.format(flags=flags)) == ("transformers", [], dtype, "none")


def test_unsloth_dtype_from_a_device_probe(tmp_path):  # NEW
    text = ("from unsloth import FastLanguageModel\nimport torch\n"
            "dtype = torch.float16 if torch.cuda.is_available() else None\n"
            "model, tok = FastLanguageModel.from_pretrained('unsloth/llama-3-8b-bnb-4bit', dtype=dtype, "
            "load_in_4bit=True)\n")
    assert _read(tmp_path, "train.py", text) == ("unsloth", [], "float16", "none")


@pytest.mark.parametrize("probe, required", [
    ("torch.cuda.is_available()", ["fa2"]),  # NEW
    ("torch.backends.mps.is_available()", []),  # eager: matmul + softmax, nothing required
])
def test_attention_chosen_by_a_device_probe(tmp_path, probe, required):
    text = ("import torch\nfrom transformers import AutoModelForCausalLM, TrainingArguments, Trainer\n"
            f"model = AutoModelForCausalLM.from_pretrained('Qwen/Qwen2.5-0.5B', attn_implementation="
            f"'flash_attention_2' if {probe} else 'eager', torch_dtype=torch.bfloat16)\n"
            "args = TrainingArguments(output_dir='o', bf16=True)\nTrainer(model=model, args=args).train()\n")
    assert _read(tmp_path, "train.py", text) == ("transformers", required, "bfloat16", "none")
