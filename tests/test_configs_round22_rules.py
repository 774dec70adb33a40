"""Issue 24, round 22: variants written for the mechanisms behind round 22's misses (fixtures/configs/round22/README.md).

- a launcher run as a Python module is the launcher: `python -m accelerate.commands.launch [opts] train_x.py ...`,
  `python -m accelerate launch ...`, `python -m torch.distributed.run|launch [opts] train_x.py ...` run the script as
  `accelerate launch` / `torchrun` do (accelerate commands/launch.py, torch/distributed/run.py): the module that trains
  is none, the script is the job (configs/shell.py _python). Before, the launcher's module stayed the command's module,
  and every reader that takes "a module runs" for "no script runs" refused the launch (diffusers' examples under the
  Windows `.\\venv\\Scripts\\python.exe -m accelerate.commands.launch` idiom, TRL's examples under torch.distributed);
- a `<` or `>` inside quotes is part of a word, not a redirection (bash, cmd.exe and PowerShell alike): textual
  inversion's `--placeholder_token="<cat-toy>"` lost its closing quote to the redirection pattern, the quotes of the
  rest of the line went wrong and every later value kept a stray `"` (configs/shell_words.py _without_redirections);
- diffusers' examples require --pretrained_model_name_or_path (argparse required=True in all but the LCM-distillation,
  Kandinsky 2.2, Cosmos, LLaDA2, unconditional and VQGAN scripts, huggingface/diffusers@58eb52c): a script under an
  example's own name run with options but without it is the repository's own script of that name (a trainer written
  from scratch, FibLDM's ../train_dreambooth.py --pretrained_model_path ...), while an adapted copy keeps the
  example's argparse and is read as the example, as round 7 settled (configs/diffusers.py lacks_model_option);
- a script under one of sd-scripts' own names given three or more options sd-scripts never defines and diffusers'
  examples do is diffusers' script saved under that name (its textual_inversion example as
  tools/train_textual_inversion.py); options no trainer defines still leave it sd-scripts' (round 6b)
  (configs/sd_scripts.py score, _diffusers_options, COPY_EXTRA).
- a command running one of TRL's example names (grpo.py, dpo.py) with TRL's options names that script in its evidence, so a
  launch whose only option is TrlParser's --config is not taken for a foreign script sharing one option, as sft.py was
  not (configs/hf_transformers.py score; configs/__init__.py _foreign_script).
- torchtune's recipes run by path (`torchrun recipes/lora_finetune_distributed.py --config my.yaml`) are what `tune run`
  runs (torchtune/_cli/run.py): the same recipe on the same --config and overrides (configs/torchtune.py RECIPES).
- the shell prompt a document shows before a command (`$ `, `(venv) user@host:~/repo$ `, `PS C:\\repo> `, `root@x:/w# `) is
  not part of the command (README.md, .rst, .txt: configs/__init__.py without_prompts).
- unsloth-cli.py, the training script at the root of Unsloth's repository, run with its argparse options: Unsloth's
  FastLanguageModel with dtype auto and SFTConfig(bf16=is_bfloat16_supported()) (configs/unsloth.py CLI_SCRIPT).
- train_controlnet.py is sd-scripts' older ControlNet name, a shim it still ships (kohya-ss/sd-scripts@48d368f
  train_controlnet.py imports train_control_net's parser and train), and diffusers' example name: two options only
  sd-scripts defines (--xformers, --conditioning_data_dir ...) make the launch sd-scripts' (configs/sd_scripts.py
  SCRIPT_ALIASES; configs/diffusers.py sd_scripts_options), and an sd-scripts name run with more options sd-scripts
  never defines than its own is another program's script (PixArt-alpha's train_controlnet.py).
- transformers' own Trainer-based example scripts (examples/pytorch/*/run_clm.py, run_translation.py ...) run with
  TrainingArguments fields name the script in their evidence (configs/hf_transformers.py EXAMPLES); a repository's own
  run_*.py is not among them.
- a wrapper's own options (and timeout's duration, taskset's mask) before the command it runs: `nice -n 10`, `stdbuf -oL`,
  `timeout -k 60 24h`, `sudo -E -u USER`, `taskset -c 0-15`, `ionice -c 2 -n 0`, `numactl --cpunodebind=0`; `pixi run`
  as `uv run` (configs/shell.py WRAPPER_VALUED, WRAPPER_POSITIONAL).
Run against the code before this change (9c26667), the variants marked NEW fail there; the others pass there too and
guard the readings around the change (near misses)."""

from __future__ import annotations

from configs_corpus import read as _read, refusal as _refusal

FLUX = ('--pretrained_model_name_or_path=black-forest-labs/FLUX.1-dev --instance_data_dir=dog --output_dir=out '
        '--mixed_precision=bf16 --instance_prompt="a photo of sks dog" --resolution=512 --train_batch_size=1')


# ---------------------------------------------------------------------------------------------------------------------
# launchers run as modules
# ---------------------------------------------------------------------------------------------------------------------

def test_accelerate_launch_module_runs_a_diffusers_example(tmp_path):  # NEW
    got = _read(tmp_path, "train.sh", "python -m accelerate.commands.launch --num_processes 1 "
                "examples/dreambooth/train_dreambooth_lora_flux.py " + FLUX + "\n")
    assert got == ("diffusers", [], "bfloat16", "none")


def test_accelerate_launch_module_from_a_windows_venv_bat(tmp_path):  # NEW
    got = _read(tmp_path, "train.bat", "@echo off\r\n.\\venv\\Scripts\\python.exe -m accelerate.commands.launch "
                "--num_cpu_threads_per_process=8 train_dreambooth_lora_flux.py "
                + FLUX.replace("bf16", "fp16") + "\r\n")
    assert got == ("diffusers", [], "float16", "none")


def test_accelerate_launch_module_from_a_powershell_venv(tmp_path):  # NEW
    got = _read(tmp_path, "train.ps1", ".\\venv\\Scripts\\activate\n& .\\venv\\Scripts\\python.exe -m "
                "accelerate.commands.launch --mixed_precision bf16 \"./train_dreambooth_lora_flux.py\" " + FLUX + "\n")
    assert got == ("diffusers", [], "bfloat16", "none")


def test_torch_distributed_run_module_runs_a_diffusers_example(tmp_path):  # NEW
    got = _read(tmp_path, "multi.sh", "python -m torch.distributed.run --nproc_per_node=2 --master_port 29501 "
                "examples/text_to_image/train_text_to_image_lora.py --pretrained_model_name_or_path=x "
                "--dataset_name=y --mixed_precision=fp16 --resolution=512 --train_batch_size=1 --output_dir=o\n")
    assert got == ("diffusers", [], "float16", "none")


def test_torch_distributed_launch_module_runs_trls_sft_example(tmp_path):  # NEW
    got = _read(tmp_path, "sft.sh", "python -m torch.distributed.launch --nproc_per_node=4 examples/scripts/sft.py "
                "--model_name_or_path facebook/opt-350m --dataset_name timdettmers/openassistant-guanaco --bf16 "
                "--output_dir out\n")
    assert got == ("transformers", [], "bfloat16", "none")


def test_accelerate_launch_module_running_a_module_is_still_that_module(tmp_path):
    got = _read(tmp_path, "wan.bat", "@echo off\r\npython -m accelerate.commands.launch --num_cpu_threads_per_process 1 "
                "-m musubi_tuner.wan_train_network --task t2v-14B --dit wan.safetensors --dataset_config d.toml "
                "--sdpa --mixed_precision bf16 --network_module networks.lora_wan --output_dir out\r\n")
    assert got[0] == "musubi" and got[1] == ["sdpa"]


def test_accelerate_launch_module_running_the_users_own_script_is_refused(tmp_path):  # near miss
    msg = _refusal(tmp_path, "go.sh", "python -m accelerate.commands.launch --num_processes 2 my_trainer.py "
                   "--config configs/run.yaml --epochs 3\n")
    assert "my_trainer.py" in msg


def test_torch_distributed_run_of_a_script_no_trainer_ships_is_refused_as_torchrun_is(tmp_path):  # near miss
    msg = _refusal(tmp_path, "run.sh", "python -m torch.distributed.run --nproc_per_node 2 src/train.py "
                   "--model_path x --data_path y --bf16\n")
    assert "train.py" in msg


# ---------------------------------------------------------------------------------------------------------------------
# quoted < and > are words, not redirections
# ---------------------------------------------------------------------------------------------------------------------

TI = ("--pretrained_model_name_or_path=./model --train_data_dir=./data --learnable_property=\"object\" "
      "--placeholder_token=\"<cat-toy>\" --initializer_token=\"toy\" --resolution=512 --train_batch_size=1 "
      "--mixed_precision=\"fp16\" --output_dir=\"out\"")


def test_placeholder_token_in_double_quotes_keeps_the_rest_of_the_line(tmp_path):  # NEW
    got = _read(tmp_path, "ti.sh", "accelerate launch textual_inversion.py " + TI + " > train.log 2>&1\n")
    assert got == ("diffusers", [], "float16", "none")


def test_placeholder_token_in_single_quotes_in_a_multiline_launch(tmp_path):  # NEW
    got = _read(tmp_path, "ti.sh", "accelerate launch examples/textual_inversion/textual_inversion.py \\\n"
                "  --pretrained_model_name_or_path=./model \\\n  --train_data_dir=./data \\\n"
                "  --placeholder_token='<sks-toy>' --initializer_token='toy' \\\n"
                "  --mixed_precision='bf16' \\\n  --enable_xformers_memory_efficient_attention \\\n"
                "  --output_dir='out' >> \"run log.txt\" 2>&1 &\n")
    assert got == ("diffusers", ["xformers"], "bfloat16", "none")


def test_placeholder_token_in_a_windows_bat(tmp_path):  # NEW
    got = _read(tmp_path, "ti.bat", "@echo off\r\naccelerate launch textual_inversion.py ^\r\n"
                "  --pretrained_model_name_or_path=model ^\r\n  --train_data_dir=data ^\r\n"
                "  --placeholder_token=\"<cat-toy>\" --initializer_token=\"toy\" ^\r\n"
                "  --mixed_precision=\"bf16\" --output_dir=\"out\"\r\n")
    assert got == ("diffusers", [], "bfloat16", "none")


def test_a_quoted_angle_bracket_in_the_users_own_script_is_still_refused(tmp_path):  # near miss
    msg = _refusal(tmp_path, "run.sh", "python my_ti.py --token=\"<cat-toy>\" --epochs 3 --lr 1e-4 > log.txt\n")
    assert "my_ti.py" in msg


# ---------------------------------------------------------------------------------------------------------------------
# diffusers: a script under an example's name without the model option every such example requires
# ---------------------------------------------------------------------------------------------------------------------

def test_own_dreambooth_script_without_the_required_model_option_is_refused(tmp_path):  # NEW
    msg = _refusal(tmp_path, "db.sh", "accelerate launch ../train_dreambooth.py --pretrained_model_path=unet_lora "
                   "--pretrained_vae_path=vae --instance_data_dir=imgs --instance_prompt=\"a ct scan\" "
                   "--resolution=256 --train_batch_size=1 --learning_rate=2e-6 --max_train_steps=800\n")
    assert "train_dreambooth.py" in msg


def test_own_text_to_image_script_without_the_required_model_option_is_refused(tmp_path):  # NEW
    msg = _refusal(tmp_path, "t2i.sh", "python train_text_to_image.py --model_path runwayml/stable-diffusion-v1-5 "
                   "--dataset_name x --train_batch_size 4 --mixed_precision fp16 --output_dir out\n")
    assert "train_text_to_image.py" in msg


def test_adapted_example_with_its_model_option_and_options_of_its_own_is_still_diffusers(tmp_path):
    got = _read(tmp_path, "train_lora.bat", "@echo off\r\naccelerate launch facechain/train_text_to_image_lora.py ^\r\n"
                "  --pretrained_model_name_or_path=%1 ^\r\n  --sub_path=%2 --output_dataset_name=%3 ^\r\n"
                "  --dataset_name=%4 --caption_column=\"text\" --resolution=512 --train_batch_size=1 ^\r\n"
                "  --lora_r=4 --lora_alpha=32 --lora_text_encoder_r=32 --mixed_precision=\"fp16\"\r\n")
    assert got == ("diffusers", [], "float16", "none")


def test_example_with_forwarded_arguments_is_still_diffusers(tmp_path):
    got = _read(tmp_path, "run.sh", "accelerate launch train_dreambooth_lora_sdxl.py --mixed_precision=fp16 "
                "--resolution=1024 \"$@\"\n")
    assert got[0] == "diffusers"


def test_unconditional_example_needs_no_model_option(tmp_path):
    got = _read(tmp_path, "uncond.sh", "accelerate launch train_unconditional.py --dataset_name=huggan/flowers-102 "
                "--resolution=64 --output_dir=ddpm --train_batch_size=16 --mixed_precision=fp16\n")
    assert got == ("diffusers", [], "float16", "none")


# ---------------------------------------------------------------------------------------------------------------------
# sd-scripts: a script under its own name given options it never defines
# ---------------------------------------------------------------------------------------------------------------------

def test_diffusers_textual_inversion_saved_under_sd_scripts_name_is_diffusers(tmp_path):  # NEW
    got = _read(tmp_path, "ti.sh", "accelerate launch ./tools/train_textual_inversion.py " + TI + "\n")
    assert got == ("diffusers", [], "float16", "none")


def test_diffusers_sdxl_textual_inversion_saved_under_sd_scripts_sdxl_name_is_diffusers(tmp_path):  # NEW
    got = _read(tmp_path, "ti_xl.sh", "accelerate launch sdxl_train_textual_inversion.py "
                "--pretrained_model_name_or_path=stabilityai/stable-diffusion-xl-base-1.0 --train_data_dir=./cat "
                "--learnable_property=object --placeholder_token=\"<cat-toy>\" --initializer_token=toy "
                "--resolution=768 --train_batch_size=1 --scale_lr --mixed_precision=bf16 --output_dir=out\n")
    assert got == ("diffusers", [], "bfloat16", "none")


def test_sd_scripts_name_with_options_no_trainer_defines_is_still_sd_scripts(tmp_path):  # near miss (round 6b)
    got = _read(tmp_path, "train.sh", "accelerate launch sdxl_train.py --pretrained_model_name_or_path=sdxl.safetensors "
                "--train_data_dir=imgs --epochs_total 10 --lr_decay 0.9 --my_flag --xformers --mixed_precision bf16\n")
    assert got == ("sd-scripts", ["xformers"], "bfloat16", "none")


def test_sd_scripts_own_textual_inversion_is_still_sd_scripts(tmp_path):
    got = _read(tmp_path, "ti.sh", "accelerate launch --num_cpu_threads_per_process 1 train_textual_inversion.py "
                "--pretrained_model_name_or_path=model.safetensors --train_data_dir=data --token_string=mychar "
                "--init_word=girl --num_vectors_per_token=4 --xformers --mixed_precision=fp16 --output_dir=out\n")
    assert got == ("sd-scripts", ["xformers"], "float16", "none")


def test_sd_scripts_launch_with_two_options_of_a_newer_version_is_still_sd_scripts(tmp_path):
    got = _read(tmp_path, "lora.sh", "accelerate launch train_network.py --pretrained_model_name_or_path=m.safetensors "
                "--train_data_dir=data --network_module=networks.lora --sdpa --mixed_precision=bf16 "
                "--some_new_option=1 --another_new_flag --output_dir=out\n")
    assert got == ("sd-scripts", ["sdpa"], "bfloat16", "none")


# ---------------------------------------------------------------------------------------------------------------------
# TRL's example names (grpo.py, dpo.py) run with only TrlParser's --config: the script is the evidence
# ---------------------------------------------------------------------------------------------------------------------

def test_open_r1_grpo_with_a_recipe_elsewhere_is_transformers(tmp_path):  # NEW
    got = _read(tmp_path, "grpo.sh", "ACCELERATE_LOG_LEVEL=info accelerate launch --config_file "
                "recipes/accelerate_configs/zero2.yaml --num_processes=7 src/open_r1/grpo.py "
                "--config recipes/DeepSeek-R1-Distill-Qwen-1.5B/grpo/config_demo.yaml\n")
    assert got == ("transformers", [], "", "none")


def test_handbook_style_dpo_under_torchrun_with_a_recipe_elsewhere_is_transformers(tmp_path):  # NEW
    got = _read(tmp_path, "dpo.sh", "torchrun --nproc_per_node 4 scripts/dpo.py --config recipes/zephyr/dpo/full.yaml\n")
    assert got == ("transformers", [], "", "none")


def test_a_users_own_grpo_py_with_options_of_its_own_is_still_refused(tmp_path):  # near miss
    msg = _refusal(tmp_path, "grpo.sh", "accelerate launch grpo.py --model_name Qwen/Qwen2.5-1.5B --reward_fn math "
                   "--group_size 8 --lr 1e-6\n")
    assert "grpo.py" in msg


# ---------------------------------------------------------------------------------------------------------------------
# torchtune's recipes run by path, as `tune run` runs them
# ---------------------------------------------------------------------------------------------------------------------

TT_YAML = ("model:\n  _component_: torchtune.models.llama3_2.lora_llama3_2_1b\ntokenizer:\n"
           "  _component_: torchtune.models.llama3.llama3_tokenizer\n  path: /tmp/tok.model\ndataset:\n"
           "  - _component_: torchtune.datasets.alpaca_cleaned_dataset\n    packed: true\ncompile: true\ndtype: bf16\n")


def test_recipe_file_under_torchrun_reads_the_config_beside_it(tmp_path):  # NEW
    (tmp_path / "my.yaml").write_text(TT_YAML, encoding="utf-8")
    got = _read(tmp_path, "run.sh", "torchrun --nproc_per_node 2 recipes/lora_finetune_distributed.py --config my.yaml\n")
    assert got == ("torchtune", ["flex"], "bfloat16", "default")


def test_recipe_file_under_python_with_overrides_in_a_bat(tmp_path):  # NEW
    (tmp_path / "my.yaml").write_text(TT_YAML, encoding="utf-8")
    got = _read(tmp_path, "run.bat", "@echo off\r\npython recipes\\full_finetune_single_device.py --config my.yaml "
                "dtype=fp32 compile=False dataset.0.packed=False\r\n")
    assert got[0] == "torchtune" and got[2:] == ("float32", "none")


def test_recipe_file_with_a_config_elsewhere_tells_the_trainer_only(tmp_path):  # NEW
    got = _read(tmp_path, "multi.sh", "torchrun --nnodes=1 --nproc_per_node=8 recipes/full_finetune_distributed.py "
                "--config recipes/configs/custom/qwen_full.yaml\n")
    assert got == ("torchtune", [], "", "none")


def test_a_forks_own_recipe_under_another_name_is_still_refused(tmp_path):  # near miss
    msg = _refusal(tmp_path, "run.sh", "torchrun --nproc_per_node=8 recipes/dev/full_finetune_distributed_ufx_dataset.py "
                   "--config recipes/configs/docev/x.yaml\n")
    assert "full_finetune_distributed_ufx_dataset.py" in msg


def test_a_script_named_like_a_recipe_without_a_config_is_still_refused(tmp_path):  # near miss
    msg = _refusal(tmp_path, "run.sh", "python lora_finetune_single_device.py --lr 1e-4 --epochs 3\n")
    assert "lora_finetune_single_device.py" in msg


# ---------------------------------------------------------------------------------------------------------------------
# a document's shell prompts before the commands it shows
# ---------------------------------------------------------------------------------------------------------------------

def test_readme_dollar_prompt_before_a_diffusers_launch(tmp_path):  # NEW
    got = _read(tmp_path, "README.md", "# LoRA\n\n## Train\n\n```\n$ accelerate launch train_dreambooth_lora.py \\\n"
                "    --pretrained_model_name_or_path=runwayml/stable-diffusion-v1-5 \\\n"
                "    --instance_data_dir=dog --output_dir=out \\\n"
                "    --instance_prompt=\"a photo of sks dog\" --mixed_precision=fp16 \\\n"
                "    --resolution=512 --train_batch_size=1\n```\n\n## Inference\n\n```python\n"
                "from diffusers import StableDiffusionPipeline\npipe = StableDiffusionPipeline.from_pretrained(\"out\")\n```\n")
    assert got == ("diffusers", [], "float16", "none")


def test_readme_venv_user_host_prompt(tmp_path):  # NEW
    got = _read(tmp_path, "TRAINING.md", "```bash\n(venv) user@host:~/flux$ accelerate launch train_dreambooth_lora_flux.py "
                + FLUX + "\n```\n")
    assert got == ("diffusers", [], "bfloat16", "none")


def test_powershell_prompt_in_a_notes_txt_for_sd_scripts(tmp_path):  # NEW
    got = _read(tmp_path, "how_to_train.txt", "PS C:\\kohya> accelerate launch --num_cpu_threads_per_process=2 "
                "\"./sdxl_train_network.py\" --pretrained_model_name_or_path=\"sdxl.safetensors\" "
                "--network_module=networks.lora --xformers --mixed_precision=\"fp16\" --train_data_dir=img --output_dir=out\n")
    assert got == ("sd-scripts", ["xformers"], "float16", "none")


def test_root_prompt_before_tune_run_in_a_readme(tmp_path):  # NEW
    got = _read(tmp_path, "README.md", "Run:\n\n    root@7f3c:/workspace# tune run lora_finetune_single_device "
                "--config llama3_2/1B_lora_single_device dataset.packed=True compile=True\n")
    assert got == ("torchtune", ["flex"], "bfloat16", "default")


def test_a_readme_showing_the_users_own_script_after_a_prompt_is_still_refused(tmp_path):  # near miss (refused
    # before too, as "not a trainer config"; the refusal now names the script it runs)
    msg = _refusal(tmp_path, "README.md", "## Train\n\n```\n$ pip install -r requirements.txt\n"
                   "$ python my_train.py --epochs 3 --lr 1e-4 --model_path ./base\n```\n")
    assert "my_train.py" in msg


# ---------------------------------------------------------------------------------------------------------------------
# Unsloth's own unsloth-cli.py
# ---------------------------------------------------------------------------------------------------------------------

def test_unsloth_cli_launch(tmp_path):  # NEW
    got = _read(tmp_path, "train.sh", "python unsloth-cli.py --model_name \"unsloth/llama-3-8b\" --max_seq_length 8192 "
                "--dtype None --load_in_4bit --r 64 --lora_alpha 32 --per_device_train_batch_size 4 "
                "--gradient_accumulation_steps 8 --max_steps 400 --learning_rate 2e-6 --output_dir outputs\n")
    assert got == ("unsloth", [], "", "none")


def test_unsloth_cli_by_path_in_a_notebook(tmp_path):  # NEW
    import json

    nb = {"cells": [{"cell_type": "code", "metadata": {}, "execution_count": None, "outputs": [],
                     "source": ["!git clone https://github.com/unslothai/unsloth\n"]},
                    {"cell_type": "code", "metadata": {}, "execution_count": None, "outputs": [],
                     "source": ["!python unsloth/unsloth-cli.py --model_name unsloth/Qwen2.5-7B --load_in_4bit "
                                "--max_steps 60 --per_device_train_batch_size 2\n"]}],
          "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    got = _read(tmp_path, "finetune.ipynb", json.dumps(nb))
    assert got == ("unsloth", [], "", "none")


def test_unsloth_cli_in_a_windows_bat(tmp_path):  # NEW
    got = _read(tmp_path, "train.bat", "@echo off\r\ncall .venv\\Scripts\\activate.bat\r\n"
                "python C:\\src\\unsloth\\unsloth-cli.py --model_name unsloth/gemma-2-9b --load_in_4bit ^\r\n"
                "  --dataset yahma/alpaca-cleaned --max_steps 100 --save_model --save_path model\r\n")
    assert got == ("unsloth", [], "", "none")


def test_a_script_named_unsloth_cli_with_options_of_its_own_is_still_refused(tmp_path):  # near miss
    msg = _refusal(tmp_path, "train.sh", "python unsloth-cli.py --model_name x --my_option 1 --epochs 3\n")
    assert "unsloth-cli.py" in msg


# ---------------------------------------------------------------------------------------------------------------------
# train_controlnet.py: sd-scripts' older ControlNet name (a shim it still ships) and diffusers' example name
# ---------------------------------------------------------------------------------------------------------------------

def test_sd_scripts_train_controlnet_shim_with_its_options(tmp_path):  # NEW
    got = _read(tmp_path, "cn.sh", "accelerate launch --num_cpu_threads_per_process 1 sd-scripts/train_controlnet.py "
                "--pretrained_model_name_or_path=v1-5.safetensors --train_data_dir=img --conditioning_data_dir=cond "
                "--controlnet_model_name_or_path=cn.safetensors --xformers --mixed_precision=fp16 --output_dir=out\n")
    assert got == ("sd-scripts", ["xformers"], "float16", "none")


def test_sd_scripts_train_controlnet_shim_in_a_bat(tmp_path):  # NEW
    got = _read(tmp_path, "cn.bat", "@echo off\r\naccelerate launch --num_cpu_threads_per_process=2 train_controlnet.py ^\r\n"
                "  --pretrained_model_name_or_path=\"model.safetensors\" --train_data_dir=\"img\" ^\r\n"
                "  --conditioning_data_dir=\"cond\" --save_model_as=safetensors --sdpa ^\r\n"
                "  --mixed_precision=\"bf16\" --output_dir=\"out\"\r\n")
    assert got == ("sd-scripts", ["sdpa"], "bfloat16", "none")


def test_diffusers_controlnet_example_is_still_diffusers(tmp_path):
    got = _read(tmp_path, "cn.sh", "accelerate launch train_controlnet.py --pretrained_model_name_or_path="
                "runwayml/stable-diffusion-v1-5 --controlnet_model_name_or_path=lllyasviel/sd-controlnet-canny "
                "--dataset_name=fusing/fill50k --validation_image ./c1.png --mixed_precision=fp16 --resolution=512 "
                "--train_batch_size=1 --output_dir=o --enable_xformers_memory_efficient_attention\n")
    assert got == ("diffusers", ["xformers"], "float16", "none")


def test_sd_scripts_train_controlnet_shim_with_one_option_of_its_own(tmp_path):  # NEW
    got = _read(tmp_path, "cn.sh", "accelerate launch train_controlnet.py --pretrained_model_name_or_path=m.safetensors "
                "--train_data_dir=img --output_dir=out --mixed_precision=bf16 --sdpa\n")
    assert got == ("sd-scripts", ["sdpa"], "bfloat16", "none")


def test_train_controlnet_with_options_both_projects_define_stays_diffusers(tmp_path):
    got = _read(tmp_path, "cn.sh", "accelerate launch train_controlnet.py --pretrained_model_name_or_path=some/model "
                "--output_dir=out --mixed_precision=bf16 --train_batch_size=1 --learning_rate=1e-4 --max_train_steps=100\n")
    assert got == ("diffusers", [], "bfloat16", "none")


def test_pixart_train_controlnet_with_a_python_config_is_still_refused(tmp_path):  # near miss
    msg = _refusal(tmp_path, "cn.sh", "python -m torch.distributed.launch --nproc_per_node=1 --master_port=12345 "
                   "train_scripts/train_controlnet.py configs/pixart_app_config/PixArt_xl2_img512_controlHed.py "
                   "--work-dir output/pixartcontrolnet-xl2-img512 --resume_from ckpt.pth --resume_optimizer\n")
    assert "train_controlnet.py" in msg and "does not read yet" in msg


# ---------------------------------------------------------------------------------------------------------------------
# transformers' own example scripts (examples/pytorch/*/run_*.py)
# ---------------------------------------------------------------------------------------------------------------------

def test_run_clm_under_torchrun_with_trainingarguments_fields(tmp_path):  # NEW
    got = _read(tmp_path, "clm.sh", "torchrun --nproc_per_node 8 examples/pytorch/language-modeling/run_clm.py "
                "--model_name_or_path gpt2 --dataset_name wikitext --dataset_config_name wikitext-2-raw-v1 --do_train "
                "--per_device_train_batch_size 8 --bf16 --torch_compile True --output_dir /tmp/test-clm\n")
    assert got == ("transformers", [], "bfloat16", "default")


def test_run_translation_under_python_with_fp16(tmp_path):  # NEW
    got = _read(tmp_path, "mt.sh", "CUDA_VISIBLE_DEVICES=0 python run_translation.py --model_name_or_path t5-small "
                "--do_train --source_lang en --target_lang ro --dataset_name wmt16 --dataset_config_name ro-en "
                "--output_dir /tmp/tst-translation --per_device_train_batch_size=4 --fp16 --predict_with_generate\n")
    assert got == ("transformers", [], "float16", "none")


def test_a_users_own_run_script_with_hf_fields_is_still_refused(tmp_path):  # near miss
    msg = _refusal(tmp_path, "run.sh", "torchrun --nproc_per_node 2 run_train.py --model_name_or_path x --bf16 "
                   "--per_device_train_batch_size 4 --output_dir o --learning_rate 1e-5\n")
    assert "run_train.py" in msg


def test_a_repositorys_own_run_sft_with_only_a_config_is_still_refused(tmp_path):  # near miss (round 6a)
    msg = _refusal(tmp_path, "sft_lora.sh", "cd $(dirname \"$0\")\naccelerate launch --config_file "
                   "../accelerate_configs/deepspeed_zero3.yaml ../../scripts/run_sft.py --config sft_lora.yaml\n")
    assert "run_sft.py" in msg


# ---------------------------------------------------------------------------------------------------------------------
# wrappers' own options before the launch they run
# ---------------------------------------------------------------------------------------------------------------------

def test_nice_with_its_adjustment_before_a_launch(tmp_path):  # NEW
    got = _read(tmp_path, "run.sh", "nice -n 10 accelerate launch train_dreambooth_lora_flux.py " + FLUX + "\n")
    assert got == ("diffusers", [], "bfloat16", "none")


def test_timeout_and_stdbuf_before_a_launch(tmp_path):  # NEW
    got = _read(tmp_path, "run.sh", "timeout -k 60 24h stdbuf -oL accelerate launch --mixed_precision fp16 "
                "train_text_to_image_lora.py --pretrained_model_name_or_path=x --dataset_name=y --resolution=512 "
                "--train_batch_size=1 --output_dir=o > train.log 2>&1\n")
    assert got == ("diffusers", [], "float16", "none")


def test_sudo_with_options_and_taskset_before_tune_run(tmp_path):  # NEW
    got = _read(tmp_path, "run.sh", "sudo -E -u trainer taskset -c 0-15 tune run lora_finetune_single_device "
                "--config llama3_2/1B_lora_single_device dataset.packed=True compile=True\n")
    assert got == ("torchtune", ["flex"], "bfloat16", "default")


def test_pixi_run_before_an_sd_scripts_launch(tmp_path):  # NEW
    got = _read(tmp_path, "run.sh", "pixi run accelerate launch --num_cpu_threads_per_process 1 train_network.py "
                "--pretrained_model_name_or_path=m.safetensors --train_data_dir=img --network_module=networks.lora "
                "--xformers --mixed_precision=fp16 --output_dir=out\n")
    assert got == ("sd-scripts", ["xformers"], "float16", "none")


def test_a_wrapped_users_own_script_is_still_refused(tmp_path):  # near miss
    msg = _refusal(tmp_path, "run.sh", "nice -n 5 timeout 2h python my_train.py --epochs 3 --lr 1e-4\n")
    assert "my_train.py" in msg
