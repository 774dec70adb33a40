"""Helper cfg106 (session 26, issue 24): round 103m's misses read after its measurement (fixtures/configs/round103m/
README.md, "Read after its measurement"), each mechanism with variants of our own, none of them a file of the set."""

from __future__ import annotations

import pytest

from attn_doctor import configs
from configs_corpus import read, refusal

# 1. A command echoed by cmd.exe (round 103m: SSD-1B#6's `G:\DEV>accelerate launch ...`, FluxGym's train.bat echoed
# as `(env) C:\ai_tools_fg>accelerate launch ...`): cmd's default prompt ($P$G) ends at `>` with no space.
# 2. A log's head before the line it echoes (FluxGym's LogsViewRunner: `[2025-02-18 18:14:48] [INFO] `).
# 3. A bash prompt of the working folder only (litgpt#477's `/home/jupyter/Satya/lit-gpt# python finetune/lora.py`).
# Variants of our own: other trainers' scripts, options, precisions, folders and log formats.
_DIFFUSERS = ("accelerate launch train_text_to_image_lora.py --pretrained_model_name_or_path=runwayml/sd-v1-5 "
              "--train_data_dir=pics --mixed_precision={mp} --enable_xformers_memory_efficient_attention\n")
_SD_SCRIPTS = ("accelerate launch --num_cpu_threads_per_process 1 sd-scripts/sdxl_train_network.py "
               "--pretrained_model_name_or_path \"E:\\models\\sdxl.safetensors\" --network_module networks.lora "
               "--mixed_precision {mp} --sdpa --output_dir \"E:\\out\"\n")
_LITGPT = "python finetune/full.py --checkpoint_dir checkpoints/tiiuae/falcon-7b --precision {mp}\n"


@pytest.mark.parametrize("head", ["C:\\Users\\kim\\diffusers\\examples\\text_to_image>", "D:\\>",
                                  "(venv) E:\\sd\\diffusers>", "C:\\work> "])
@pytest.mark.parametrize("mp, dtype", [("fp16", "float16"), ("bf16", "bfloat16")])
def test_a_windows_prompt_before_a_pasted_command_is_taken_off(tmp_path, head, mp, dtype):
    assert read(tmp_path, "cmd.txt", head + _DIFFUSERS.format(mp=mp)) == ("diffusers", ["xformers"], dtype, "none")


@pytest.mark.parametrize("log", ["[2026-03-01 09:12:44] [INFO] ", "[2026-03-01 09:12:44] [DEBUG] ",
                                 "2026-03-01 09:12:44,512 - INFO - ", "2026-03-01T09:12:44.512Z ",
                                 "2026-03-01 09:12:44 DEBUG "])
@pytest.mark.parametrize("prompt", ["", "(fluxgym) F:\\pinokio\\api\\fluxgym.git>", "$ "])
@pytest.mark.parametrize("mp, dtype", [("fp16", "float16"), ("bf16", "bfloat16")])
def test_a_logs_head_before_a_command_it_echoes_is_taken_off(tmp_path, log, prompt, mp, dtype):
    text = (f"{log}Running F:\\pinokio\\api\\fluxgym.git\\outputs\\me\\train.bat\n{log}\n"
            f"{log}{prompt}{_SD_SCRIPTS.format(mp=mp)}")
    assert read(tmp_path, "log.txt", text) == ("sd-scripts", ["sdpa"], dtype, "none")


@pytest.mark.parametrize("prompt", ["/root/lit-gpt# ", "~/src/lit-gpt$ ", "(lit) /workspace/lit-gpt$ "])
@pytest.mark.parametrize("mp, dtype", [("16-true", "float16"), ("32-true", "float32")])
def test_a_prompt_of_the_working_folder_only_is_taken_off(tmp_path, prompt, mp, dtype):
    assert read(tmp_path, "cmd.txt", prompt + _LITGPT.format(mp=mp)) == ("litgpt", [], dtype, "none")


@pytest.mark.parametrize("line", ["C:\\venv\\Scripts\\python.exe train.py --fp16 >log.txt",
                                  "D:\\tools\\accelerate.exe launch x.py>out.txt", "/usr/bin/python3 train.py",
                                  "~/bin/run.sh --x 1"])
def test_a_command_is_not_taken_for_a_prompt(line):
    """A cmd prompt is a folder with no blank before its `>` (with a blank, or after a program's name, the `>`
    redirects the command's output); a bash prompt ends in `$` or `#` and a blank: a path that runs is left whole."""
    assert configs.without_prompts(line + "\n") == line + "\n"


# 4. The kohya_ss GUI's own settings file (round 103m: kohya_ss#1248's config.toml, a copy of `config example.toml`):
# the values its fields start from, in sd-scripts' names, but no run starts from it: refused, as it is in both of its
# forms (sections since 5878bd61, top-level keys in the first, 6386a720).
_GUI_SECTIONS = """# my settings
[settings]
use_shell = true

[server]
allowed_paths = ["/mnt/data"]

[model]
models_dir = "/mnt/models"
output_name = "my lora"
train_data_dir = "/mnt/data/img"
save_model_as = "safetensors"
save_precision = "fp16"

[folders]
output_dir = "/mnt/out"
logging_dir = "/mnt/logs"

[configuration]
config_dir = "/mnt/presets"

[accelerate_launch]
mixed_precision = "bf16"
num_cpu_threads_per_process = 4

[advanced]
xformers = "sdpa"
"""
_GUI_FLAT = """models_dir = "D:/models"
train_data_dir = "D:/data"
output_dir = "D:/outputs"
reg_data_dir = "D:/data/reg"
logging_dir = "D:/logs"
config_dir = "D:/presets"
"""


@pytest.mark.parametrize("text", [_GUI_SECTIONS, _GUI_FLAT, _GUI_SECTIONS.replace("[server]\nallowed_paths = "
                                                                                  "[\"/mnt/data\"]\n", "")])
def test_the_kohya_ss_guis_own_settings_are_refused(tmp_path, text):
    msg = refusal(tmp_path, "config.toml", text)
    assert "settings file of the kohya_ss GUI" in msg and "not a trainer config" in msg


def test_an_sd_scripts_toml_with_one_such_key_is_still_read(tmp_path):
    """One GUI key beside sd-scripts' own settings (a user's --config_file that also names a models_dir) is read as
    sd-scripts reads it: two of them are needed."""
    text = ('models_dir = "/m"\npretrained_model_name_or_path = "/m/sd15.safetensors"\nnetwork_module = "networks.lora"'
            '\nmixed_precision = "fp16"\nxformers = true\nsave_model_as = "safetensors"\n')
    assert read(tmp_path, "train.toml", text)[:3] == ("sd-scripts", ["xformers"], "float16")


# 5. A launcher's or an engine's settings (round 103m: two accelerate configs and two DeepSpeed configs pasted in
# LLaMA-Factory's, sd-scripts' and DeepSpeed's trackers, labelled "not a trainer config"): refused saying what they are
# and that they are no trainer's config (not "which attn-doctor does not read yet": no trainer reader is missing).
@pytest.mark.parametrize("name, text, kind", [
    ("default_config.yaml", "compute_environment: LOCAL_MACHINE\ndistributed_type: FSDP\nmixed_precision: fp16\n"
                            "num_processes: 4\nfsdp_config:\n  fsdp_sharding_strategy: FULL_SHARD\n", "an accelerate config"),
    ("ds_z2.json", '{"train_micro_batch_size_per_gpu": "auto", "zero_optimization": {"stage": 2}, '
                   '"bf16": {"enabled": "auto"}}', "a DeepSpeed config"),
    ("zero3.json", '{"train_batch_size": 64, "gradient_accumulation_steps": 8, "optimizer": {"type": "AdamW"}, '
                   '"zero_optimization": {"stage": 3, "offload_param": {"device": "cpu"}}}', "a DeepSpeed config")])
def test_a_launchers_or_engines_settings_are_no_trainer_config(tmp_path, name, text, kind):
    msg = refusal(tmp_path, name, text)
    assert f"looks like {kind}" in msg and "not a trainer config" in msg and "does not read yet" not in msg


# 6. A script named where no line runs it (round 103m: llama#642's "Unable to run torchrun ... llama_finetuning.py ...",
# the command inside a sentence): still refused, naming the script.
@pytest.mark.parametrize("text, script", [
    ("I cannot run deepspeed --num_gpus 2 finetune_llama.py --bf16 --output_dir out on my machine\n", "finetune_llama.py"),
    ("When I start python my_sft.py --fp16 it fails with OOM\n", "my_sft.py")])
def test_a_script_named_in_a_sentence_is_named_in_the_refusal(tmp_path, text, script):
    msg = refusal(tmp_path, "issue.txt", text)
    assert "not a trainer config" in msg and f"names {script} on no line that runs it" in msg
