"""Issue 24 round 4a: launch scripts that build the training command under bash conditions, and notebooks that write
their trainer config from a Python string. Every file here is written for the test (variants of the shapes found in
fixtures/configs/round4a and round3a2, with other names and values); each case says what the trainer would run."""

import json

import pytest

from attn_doctor import configs
from attn_doctor.configs import shell, shell_conditions


def load(tmp_path, name, text):
    p = tmp_path / name
    p.write_text(text)
    return configs.load(str(p))


def kinds(cfg):
    return sorted((a["backend"], a["kind"]) for a in cfg["attention"])


MUSUBI_HEAD = "args=(--task t2v-14B --dit /m/wan2.1_t2v_14B.safetensors --mixed_precision bf16)\n"
MUSUBI_RUN = 'accelerate launch --num_cpu_threads_per_process 1 src/musubi_tuner/wan_train_network.py "${args[@]}"\n'


@pytest.mark.parametrize("settings, required", [
    ("sdpa=true\nxformers=false\n", ["sdpa"]),
    ("sdpa=false\nxformers=true\n", ["xformers"]),
    ('sdpa="${SDPA:-true}"\n', ["sdpa"]),  # the script's own default when the caller sets nothing
])
def test_a_condition_the_script_settles_is_followed(tmp_path, settings, required):
    text = ("#!/bin/bash\n" + settings + MUSUBI_HEAD + '[[ "$sdpa" == true ]] && args+=("--sdpa")\n'
            '[[ "${xformers:-false}" == true ]] && args+=("--xformers")\n' + MUSUBI_RUN)
    cfg = load(tmp_path, "train.sh", text)
    assert cfg["trainer"] == "musubi" and cfg["required"] == required and cfg["dtype"] == "bfloat16"
    assert all(a["kind"] == "local" for a in cfg["attention"])


def test_if_else_on_a_callers_variable_leaves_both_backends_possible(tmp_path):
    text = (MUSUBI_HEAD + 'if [ "$GPU_KIND" = "hopper" ]; then\n    args+=(--flash3)\nelse\n    args+=(--sdpa)\nfi\n'
            + MUSUBI_RUN)
    cfg = load(tmp_path, "train.sh", text)
    assert cfg["required"] == [] and kinds(cfg) == [("fa3", "conditional"), ("sdpa", "conditional")]
    assert [a["setting"] for a in cfg["attention"]] == ['[ "$GPU_KIND" = "hopper" ]', 'not ([ "$GPU_KIND" = "hopper" ])']


def test_elif_chain_settled_by_the_script(tmp_path):
    text = ('ATTN=flash\n' + MUSUBI_HEAD + 'if [[ "$ATTN" == "sdpa" ]]; then\n  args+=(--sdpa)\n'
            'elif [[ "$ATTN" == "flash" ]]; then\n  args+=(--flash_attn --split_attn)\nelse\n  args+=(--xformers)\nfi\n'
            + MUSUBI_RUN)
    cfg = load(tmp_path, "run_wan.sh", text)
    assert cfg["required"] == ["fa2"] and cfg["split_attn"] is True


def test_a_variable_set_in_an_unsettled_branch_unsettles_later_tests(tmp_path):
    text = ('MODE=sdpa\nif [ -f /etc/use_xformers ]; then\n  MODE=xformers\nfi\n' + MUSUBI_HEAD +
            '[[ $MODE == xformers ]] && args+=(--xformers) || args+=(--sdpa)\n' + MUSUBI_RUN)
    cfg = load(tmp_path, "train.sh", text)
    assert cfg["required"] == [] and kinds(cfg) == [("sdpa", "conditional"), ("xformers", "conditional")]


def test_a_darwin_branch_is_not_the_cuda_hosts(tmp_path):
    # `uname -s` is never Darwin where a CUDA GPU trains: the else branch runs (sd-scripts SDXL: xformers, also the VAE)
    text = ('OS=$(uname -s)\nIS_MAC=false\nif [[ "$(uname -m)" == "arm64" ]] && [[ "$OS" == "Darwin" ]]; then\n'
            '  IS_MAC=true\nfi\nARGS=(--pretrained_model_name_or_path=/m/sdxl.safetensors --mixed_precision=bf16)\n'
            'if [ "$IS_MAC" = true ]; then ARGS+=(--optimizer_type=AdamW); else ARGS+=(--xformers); fi\n'
            'python -m accelerate.commands.launch sdxl_train_network.py "${ARGS[@]}"\n')
    cfg = load(tmp_path, "train_sdxl.sh", text)
    assert cfg["trainer"] == "sd-scripts" and cfg["required"] == ["xformers"] and cfg["dtype"] == "bfloat16"


@pytest.mark.parametrize("use, required, possible", [("USE_XF=1\n", ["xformers"], []), ("", [], ["xformers"])])
def test_string_appends_under_a_condition(tmp_path, use, required, possible):
    text = (use + 'EXTRA="--mixed_precision=fp16"\n[ "$USE_XF" = 1 ] && EXTRA="$EXTRA '
            '--enable_xformers_memory_efficient_attention"\naccelerate launch train_dreambooth_lora.py '
            '--pretrained_model_name_or_path=runwayml/stable-diffusion-v1-5 --instance_data_dir=dog $EXTRA\n')
    cfg = load(tmp_path, "train.sh", text)
    assert cfg["trainer"] == "diffusers" and cfg["required"] == required and cfg["dtype"] == "float16"
    assert [a["backend"] for a in cfg["attention"] if a["kind"] == "conditional"] == possible


def test_unconditional_array_appends_and_shell_details(tmp_path):
    text = ('PLATFORM=$(uname -m)\nargs=(--task t2v-1.3B)\nargs+=(--dit /m/wan.safetensors\n  --sdpa)\n'
            'if [ ! -d out ]; then\n    mkdir out\n    exit 1\nfi\nargs+=(--mixed_precision fp16)\n' + MUSUBI_RUN)
    script = shell.parse(text, "train.sh")
    assert [c.words[0] for c in script.commands if c.words[0] != "exit"] == ["mkdir", "accelerate"]  # no `-m)` command, and the exit in a branch ends nothing
    cfg = load(tmp_path, "train.sh", text)
    assert cfg["required"] == ["sdpa"] and cfg["dtype"] == "float16"


def test_test_conditions():
    env = {"a": "true", "n": "3", "arr": ["x", "y"], "empty": ""}
    assert shell_conditions._test('[[ "$a" == true ]]', env) is True
    assert shell_conditions._test('[ "$a" != true ]', env) is False
    assert shell_conditions._test('[ -n "$empty" ]', env) is False and shell_conditions._test('[ -z "$empty" ]', env) is True
    assert shell_conditions._test("[ $n -ge 2 ]", env) is True and shell_conditions._test("[[ ${#arr[@]} -gt 0 ]]", env) is True
    assert shell_conditions._test('[ "$unset_var" = 1 ]', env) is None and shell_conditions._test("[ -f /etc/x ]", env) is None
    assert shell_conditions._test('[[ "$a" == true ]] && [ "$unset_var" = 1 ]', env) is None
    assert shell_conditions._test('[[ "$a" == false ]] && [ "$unset_var" = 1 ]', env) is False
    assert shell_conditions._test('! [ "$a" = true ]', env) is False


def _notebook(cells):
    return json.dumps({"cells": [{"cell_type": "code", "source": c.splitlines(keepends=True)} for c in cells],
                       "metadata": {}, "nbformat": 4, "nbformat_minor": 5})


def test_a_notebook_writes_its_toml_from_a_python_string(tmp_path):
    cells = ['cfg = """\nnetwork_module = "networks.lora"\nxformers = true\nmixed_precision = "fp16"\n"""\n'
             'config_file = "/content/cfg/sdxl.toml"\nwith open(config_file, "w") as f:\n    f.write(cfg)\n',
             "!accelerate launch --num_cpu_threads_per_process 2 sdxl_train_network.py \\\n"
             "  --config_file=/content/cfg/sdxl.toml --dataset_config=/content/cfg/data.toml\n"]
    cfg = load(tmp_path, "train.ipynb", _notebook(cells))
    assert cfg["trainer"] == "sd-scripts" and cfg["required"] == ["xformers"] and cfg["dtype"] == "float16"
    assert not cfg["config_file_unread"]


def test_a_notebook_whose_toml_is_elsewhere_says_so(tmp_path):
    cells = ["!python anima_train_network.py --config_file /content/train_config.toml --attn_mode torch\n"]
    cfg = load(tmp_path, "anima.ipynb", _notebook(cells))
    assert cfg["trainer"] == "sd-scripts" and cfg["required"] == ["sdpa"] and cfg["config_file_unread"]
    assert cfg["dtype"] is None  # the TOML that would say is not here


PS1_SD = '''# LoRA train script (PowerShell), the layout of lora-scripts' train.ps1
$pretrained_model = "./sd-models/model.safetensors"
$network_module = "networks.lora"
$mixed_precision = "fp16"
$use_sdpa = 0
$use_xformers = 1
$train_unet_only = 0

.\\venv\\Scripts\\activate

$ext_args = [System.Collections.ArrayList]::new()
$launch_args = [System.Collections.ArrayList]::new()

if ($train_unet_only) {
  [void]$ext_args.Add("--network_train_unet_only")
}
if ($use_sdpa -eq 1) {
  [void]$ext_args.Add("--sdpa")
} elseif ($use_xformers -eq 1) {
  [void]$ext_args.Add("--xformers")
}
if ($env:TORCH_COMPILE) { [void]$ext_args.Add("--torch_compile") }

python -m accelerate.commands.launch $launch_args --num_cpu_threads_per_process=8 "./sd-scripts/train_network.py" `
  --pretrained_model_name_or_path=$pretrained_model `
  --network_module=$network_module `
  --mixed_precision=$mixed_precision `
  $ext_args
'''


def test_powershell_arraylist_appends_under_settled_conditions(tmp_path):
    cfg = load(tmp_path, "train.ps1", PS1_SD)
    assert cfg["trainer"] == "sd-scripts" and cfg["required"] == ["xformers"] and cfg["dtype"] == "float16"
    # --torch_compile is added only when the caller sets TORCH_COMPILE: not known to be on
    assert cfg["compile_mode"] == "none"


def test_powershell_backend_from_the_callers_environment_is_possible(tmp_path):
    text = ('$dit = "C:/m/wan.safetensors"\n$ext_args = @()\n'
            'if ($env:MUSUBI_ATTN -eq "xformers") { $ext_args += "--xformers" } else { $ext_args += "--sdpa" }\n'
            'accelerate launch --num_cpu_threads_per_process 1 wan_train_network.py --task t2v-14B --dit $dit '
            '--mixed_precision bf16 $ext_args\n')
    cfg = load(tmp_path, "train_wan.ps1", text)
    assert cfg["trainer"] == "musubi" and cfg["required"] == [] and cfg["dtype"] == "bfloat16"
    assert kinds(cfg) == [("sdpa", "conditional"), ("xformers", "conditional")]


def test_powershell_conditions():
    env = {"a": "1", "z": "0", "s": "bf16", "t": "$true"}
    assert shell_conditions._ps_test("$a", env) is True and shell_conditions._ps_test("$z", env) is False
    assert shell_conditions._ps_test("$a -eq 1", env) is True and shell_conditions._ps_test('$s -eq "BF16"', env) is True
    assert shell_conditions._ps_test("-not $t", env) is False and shell_conditions._ps_test("$t -and $z", env) is False
    assert shell_conditions._ps_test("$env:UNSET", env) is None and shell_conditions._ps_test("$nothing -eq 1", env) is None
    assert shell_conditions._ps_test("(Test-Path $a)", env) is None


def test_a_notebooks_bash_cell_is_a_launch_script(tmp_path):
    cells = ["import os\nos.environ['HF_HOME'] = '/content/hf'\n",
             "%%bash\nexport MODEL=stabilityai/stable-diffusion-xl-base-1.0\n"
             "accelerate launch train_dreambooth_lora_sdxl.py \\\n  --pretrained_model_name_or_path=$MODEL \\\n"
             "  --instance_data_dir=photos --mixed_precision=bf16 \\\n  --enable_xformers_memory_efficient_attention\n"]
    cfg = load(tmp_path, "sdxl_dreambooth.ipynb", _notebook(cells))
    assert cfg["trainer"] == "diffusers" and cfg["required"] == ["xformers"] and cfg["dtype"] == "bfloat16"


def test_a_notebook_that_starts_the_trainer_with_subprocess(tmp_path):
    cells = ["import subprocess\nuse_flash = False\ncmd = ['accelerate', 'launch', '--num_cpu_threads_per_process', '1',\n"
             "       'src/musubi_tuner/hv_train_network.py', '--dit', f'{ckpt}/mp_rank_00_model_states.pt']\n"
             "cmd += ['--sdpa', '--mixed_precision', 'bf16']\ncmd.extend(['--split_attn'])\n"
             "if use_flash:\n    cmd.append('--flash_attn')\nsubprocess.run(cmd, check=True)\n"]
    cfg = load(tmp_path, "hunyuan_lora.ipynb", _notebook(cells))
    # the append under `if use_flash:` is left out: only what always runs is read
    assert cfg["trainer"] == "musubi" and cfg["required"] == ["sdpa"] and cfg["dtype"] == "bfloat16"
    assert cfg["split_attn"] is True


@pytest.mark.parametrize("call", [
    "subprocess.Popen(['accelerate', 'launch', 'flux_train_network.py', '--sdpa', '--mixed_precision', 'bf16',\n"
    "                  '--network_module', 'networks.lora_flux'])\n",
    "os.system('accelerate launch flux_train_network.py --sdpa --mixed_precision bf16 --network_module networks.lora_flux')\n",
])
def test_a_python_wrapper_that_starts_sd_scripts(tmp_path, call):
    cfg = load(tmp_path, "run_training.py", "import os\nimport subprocess\n\n" + call)
    assert cfg["trainer"] == "sd-scripts" and cfg["required"] == ["sdpa"] and cfg["dtype"] == "bfloat16"


def test_python_commands_reads_only_literal_lists():
    code = ("import subprocess\nargs = ['python', 'train.py']\nfor k in opts:\n    args.append(k)\n"
            "subprocess.run(args)\nsubprocess.run(['nvidia-smi'])\nsubprocess.run(make_cmd())\n")
    assert configs.python_commands(code).splitlines() == ["python train.py", "nvidia-smi"]


@pytest.mark.parametrize("name, text, setting", [
    ("config.json", json.dumps({"model_family": "sdxl", "model_type": "lora", "mixed_precision": "bf16",
                                "enable_xformers_memory_efficient_attention": True,
                                "data_backend_config": "config/multidatabackend.json"}),
     '"enable_xformers_memory_efficient_attention": true'),
    ("config.json", json.dumps({"--model_family": "sdxl", "--enable_xformers_memory_efficient_attention": True,
                                "--data_backend_config": "config/multidatabackend.json", "--lora_rank": 16}),
     '"enable_xformers_memory_efficient_attention": true'),
])
def test_simpletuner_config_with_the_removed_xformers_flag(tmp_path, name, text, setting):
    # SimpleTuner turns config.json keys into flags; --enable_xformers_memory_efficient_attention left its parser in
    # c0843e77d (2025-04-05): today's SimpleTuner stops on it, an older one ran xformers on the SDXL UNet
    from ci_support import evaluate

    cfg = load(tmp_path, name, text)
    assert cfg["trainer"] == "simpletuner" and cfg["required"] == ["xformers"] and cfg["removed_flag"] == setting
    report = evaluate(None, config=cfg, required=cfg["required"], compile_mode=cfg["compile_mode"])
    f = [f for f in report.findings if f.id == "config.simpletuner-use-xformers-removed"][0]
    assert f.fix.startswith('"attention_mechanism": "xformers"') and "2025-04-05" in f.title


def test_a_bash_function_runs_where_it_is_called(tmp_path):
    text = ('#!/usr/bin/env bash\nset -e\nrun_train() {\n  local extra="$1"\n'
            '  accelerate launch --mixed_precision bf16 src/musubi_tuner/wan_train_network.py \\\n'
            '    --task t2v-1.3B --dit /m/wan.safetensors --mixed_precision bf16 "$@"\n}\n\n'
            'run_train --xformers\n')
    cfg = load(tmp_path, "train.sh", text)
    assert cfg["trainer"] == "musubi" and cfg["required"] == ["xformers"] and cfg["dtype"] == "bfloat16"


def test_a_bash_function_never_called_plainly_is_read_as_written(tmp_path):
    text = ('main() {\n  accelerate launch train_network.py --pretrained_model_name_or_path=x --sdpa '
            '--mixed_precision=fp16\n}\n"$@"\n')
    cfg = load(tmp_path, "train.sh", text)
    assert cfg["trainer"] == "sd-scripts" and cfg["required"] == ["sdpa"] and cfg["dtype"] == "float16"


@pytest.mark.parametrize("line, required", [
    ("python src/musubi_tuner/wan_generate_video.py --task t2v-14B --dit /m/wan.safetensors --vae /m/vae.pth "
     "--t5 /m/t5.pth --prompt 'a cat' --attn_mode sageattn --fp8 --video_size 832 480\n", ["sage"]),
    ("python hv_generate_video.py --fp8 --video_size 544 960 --prompt x --save_path out --dit /m/mp_rank_00.pt "
     "--attn_mode flash --split_attn --vae /m/vae.pt\n", ["fa2"]),
    ("python fpack_generate_video.py --dit /m/fp.safetensors --prompt x --image_path i.png --video_seconds 5\n", []),
])
def test_musubi_generation_scripts_take_attn_mode(tmp_path, line, required):
    # generation has no --sdpa/--xformers flags: --attn_mode (default torch) decides, and sageattn is fine there
    from ci_support import evaluate

    cfg = load(tmp_path, "gen.sh", line)
    assert cfg["trainer"] == "musubi" and cfg["generation"] and cfg["required"] == required
    report = evaluate(None, config=cfg, required=cfg["required"], compile_mode=cfg["compile_mode"])
    ids = {f.id for f in report.findings}
    assert "config.musubi-no-backend" not in ids and "config.musubi-sage-training" not in ids


def test_a_dockerfile_runs_its_cmd(tmp_path):
    text = ('FROM nvidia/cuda:12.4.1-devel-ubuntu22.04\nENV MODEL_NAME=stabilityai/stable-diffusion-xl-base-1.0\n'
            'WORKDIR /app\nRUN pip install -r requirements.txt \\\n    && pip install xformers\n'
            'CMD ["accelerate", "launch", "train_dreambooth_lora_sdxl.py", "--pretrained_model_name_or_path=$MODEL_NAME",'
            ' "--mixed_precision=fp16", "--enable_xformers_memory_efficient_attention"]\n')
    cfg = load(tmp_path, "Dockerfile", text)
    assert cfg["trainer"] == "diffusers" and cfg["required"] == ["xformers"] and cfg["dtype"] == "float16"
