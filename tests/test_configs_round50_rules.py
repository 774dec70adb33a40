"""Issue 24, round 50: the reader changes round 50's misses and the hidden corpus's reported miss classes (kohya_ss GUI
saved JSON, diffusers shell scripts with ${VAR:-default} and continuations, misspelt sd-scripts options, musubi dataset
TOMLs, musubi Wan runs told HunyuanVideo's --split_attn) asked for, with variants written for this test (what each fakes
is in its text) and near misses that must keep their reading:
- a here-document a script only shows (`cat <<EOF` to the terminal) runs nothing: the musubi / sd-scripts command an
  installer prints as "Example usage" is no training run (shell.Script.printed, configs._text_doc);
- Python's own set-up scripts (`python get-pip.py ...`, `python setup.py install`) are no training script, and a
  downloaded installer a setup runs (`bash ~/miniconda.sh -b`) is no launcher it hands over to
  (configs.SETUP_SCRIPTS, others.INSTALLER_SCRIPT);
- a YAML mapping under a name that does not say YAML (`accelerate.config`, `default_config`) is read as YAML
  (configs._yaml_mapping_text), so an accelerate config is refused as one;
- a musubi-tuner TOML that names no script takes its model from options only one family's script has (t5, clip,
  dit_high_noise ... for Wan) or a Wan DiT before networks.lora's HunyuanVideo default (musubi._family_by_options);
- an sd-scripts --config_file TOML laid out in `*_arguments` tables is sd-scripts' (sd_scripts._argument_sections), and
  misspelt attention keys (xformer, spda, use_xformers, --enable_xformers_memory_efficient_attention) are named as
  options sd-scripts does not have (sd_scripts.NEAR_MISSES);
- a kohya_ss GUI config's "additional_parameters" are the options the GUI appends to the command (sd_scripts.gui_settings);
- options given under a condition the caller settles to a variable that held none (FLAGS="--enable_xformers..." inside
  `if [[ $USE_XF == 1 ]]`) are a conditional append, not every run's value (shell.parse).
Run against the code before this change (main 64efc91), the variants marked NEW fail there; the rest pass there too and
guard that the old readings hold."""

from __future__ import annotations

import json

from ci_support import evaluate
from configs_corpus import read as _read, refusal as _refusal, write

from attn_doctor import configs


def config_ids(path: str) -> list[str]:
    cfg = configs.load(path)
    report = evaluate(None, config=cfg, required=list(cfg["required"]), compile_mode=cfg["compile_mode"])
    return sorted(f.id for f in report.findings if f.section == "config")


# ---------------------------------------------------------------------------------------------------------------------
# a here-document the script only shows
# ---------------------------------------------------------------------------------------------------------------------

INSTALLER_PRINTS_WAN = """\
#!/usr/bin/env bash
set -euo pipefail
MODEL_DIR="${MODEL_DIR:-$HOME/models/wan22}"
python3 -m pip install -e .
wget -c -O "$MODEL_DIR/low.safetensors" https://example.invalid/wan2.2_i2v_low_noise_14B_fp16.safetensors
cat <<EOF
Install complete. Example usage:
  python src/musubi_tuner/wan_generate_video.py --task i2v-A14B \\\\
    --dit "$MODEL_DIR/low.safetensors" --attn_mode sageattn
  accelerate launch src/musubi_tuner/wan_train_network.py --task i2v-A14B --sdpa --mixed_precision bf16
EOF
"""

USAGE_PRINTS_SDSCRIPTS = """\
#!/bin/sh
# setup for kohya's scripts on a rented GPU
git clone https://example.invalid/sd-scripts.git && cd sd-scripts && pip install -r requirements.txt
cat << 'USAGE'
now train with:
accelerate launch sdxl_train_network.py --xformers --mixed_precision bf16 --network_module networks.lora
USAGE
"""


def test_an_installer_that_prints_a_musubi_command_runs_nothing(tmp_path):  # NEW
    msg = _refusal(tmp_path, "install_wan.sh", INSTALLER_PRINTS_WAN)
    assert "not a trainer config" in msg and "musubi" not in msg.split(" is ")[0]


def test_a_usage_note_printed_by_cat_runs_no_sd_scripts_training(tmp_path):  # NEW
    assert "not a trainer config" in _refusal(tmp_path, "setup.sh", USAGE_PRINTS_SDSCRIPTS)


def test_a_here_document_bash_runs_is_still_the_training(tmp_path):
    text = ("bash <<'EOF'\ncd musubi-tuner\naccelerate launch --mixed_precision bf16 wan_train_network.py --task t2v-14B "
            "--dit /m/wan.safetensors --dataset_config d.toml --sdpa --mixed_precision bf16\nEOF\n")
    assert _read(tmp_path, "job.sh", text)[:3] == ("musubi", ["sdpa"], "bfloat16")


def test_a_here_document_written_to_a_script_that_runs_is_still_read(tmp_path):
    text = ("cat > run.sh <<'EOF'\naccelerate launch sdxl_train_network.py --pretrained_model_name_or_path=/m/x.safetensors"
            " --network_module=networks.lora --xformers --mixed_precision=fp16\nEOF\nbash run.sh\n")
    assert _read(tmp_path, "launch.sh", text)[:3] == ("sd-scripts", ["xformers"], "float16")


# ---------------------------------------------------------------------------------------------------------------------
# set-up scripts
# ---------------------------------------------------------------------------------------------------------------------

def test_an_installer_bat_running_get_pip_is_no_training_script(tmp_path):  # NEW
    text = ("@echo off\r\ncd /d %~dp0\r\ncurl.exe -L -o get-pip.py https://bootstrap.pypa.io/get-pip.py\r\n"
            "\"%CD%\\python.exe\" -I get-pip.py --no-cache-dir --no-warn-script-location\r\n"
            "git clone https://example.invalid/ai-toolkit.git AI-Toolkit\r\n")
    msg = _refusal(tmp_path, "Easy-Install.bat", text)
    assert "not a trainer config" in msg and "get-pip.py" not in msg


def test_python_setup_py_install_is_no_training_script(tmp_path):  # NEW
    text = "cd flash-attention\npython setup.py install --user\ncd ..\n"
    assert "not a trainer config" in _refusal(tmp_path, "build_fa.sh", text)


def test_a_users_own_training_script_is_still_named(tmp_path):
    text = "python get-pip.py --user\npython my_train.py --lr 1e-4 --epochs 3\n"
    assert "my_train.py" in _refusal(tmp_path, "go.sh", text)


# ---------------------------------------------------------------------------------------------------------------------
# YAML under a name that does not say YAML
# ---------------------------------------------------------------------------------------------------------------------

ACCELERATE = """\
compute_environment: LOCAL_MACHINE
deepspeed_config: {}
distributed_type: 'NO'
downcast_bf16: 'no'
machine_rank: 0
main_training_function: main
mixed_precision: fp16
num_machines: 1
num_processes: 1
use_cpu: false
"""


def test_an_accelerate_config_without_a_yaml_extension_is_refused_as_one(tmp_path):  # NEW
    for name in ("accelerate.config", "default_config", "accel.conf"):
        assert "accelerate config" in _refusal(tmp_path, name, ACCELERATE), name


def test_a_command_file_without_an_extension_is_still_a_command_line(tmp_path):
    text = ("accelerate launch --num_cpu_threads_per_process 1 train_network.py "
            "--pretrained_model_name_or_path=/m/v15.safetensors --network_module=networks.lora --sdpa "
            "--mixed_precision=bf16\n")
    assert _read(tmp_path, "run.command", text)[:3] == ("sd-scripts", ["sdpa"], "bfloat16")


def test_a_makefile_or_an_env_file_is_not_read_as_yaml():  # NEW (the function is new)
    assert not configs._yaml_mapping_text("makefile", "train:\n\tpython train.py\nsend:\n\tcp a b\n")
    assert not configs._yaml_mapping_text("train.env", "MODEL: x\nMIXED: bf16\n")  # an .env name is never YAML
    assert not configs._yaml_mapping_text("settings", "MODEL=x\nMIXED_PRECISION=bf16\n")
    assert not configs._yaml_mapping_text("notes", "Todo: train\nthen: run it: now\n")  # not valid YAML
    assert configs._yaml_mapping_text("accelerate.config", ACCELERATE)


# ---------------------------------------------------------------------------------------------------------------------
# musubi-tuner: the model of a TOML that names no script
# ---------------------------------------------------------------------------------------------------------------------

DATASET_BATCH2 = """\
[general]
resolution = [832, 480]
batch_size = 2
enable_bucket = true

[[datasets]]
video_directory = "/data/clips"
target_frames = [1, 25, 45]
"""


def test_a_wan_toml_with_the_generic_lora_module_is_not_told_hunyuans_split_attn(tmp_path):  # NEW
    write(tmp_path, "dataset.toml", DATASET_BATCH2)
    for extra in ('t5 = "/m/models_t5_umt5-xxl-enc-bf16.pth"\n', 'dit_high_noise = "/m/high_noise.safetensors"\n',
                  'timestep_boundary = 0.875\n', ''):
        p = write(tmp_path, "wan_lora.toml", 'dit = "/m/wan2.1_t2v_14B_bf16.safetensors"\n' + extra +
                  'dataset_config = "dataset.toml"\nxformers = true\nmixed_precision = "bf16"\n'
                  'network_module = "networks.lora"\nnetwork_dim = 32\n')
        cfg = configs.load(p)
        assert (cfg["family"], cfg["required"], cfg["batch_size"]) == ("wan", ["xformers"], 2), extra
        assert "config.xformers-no-split" not in config_ids(p), extra


def test_a_hunyuan_video_toml_still_needs_split_attn_with_xformers(tmp_path):
    write(tmp_path, "dataset.toml", DATASET_BATCH2)
    p = write(tmp_path, "hv_lora.toml", 'dit = "/m/mp_rank_00_model_states.pt"\ntext_encoder1 = "/m/llava"\n'
              'text_encoder2 = "/m/clip"\ndataset_config = "dataset.toml"\nxformers = true\nmixed_precision = "bf16"\n'
              'network_module = "networks.lora"\n')
    assert configs.load(p)["family"] == "hunyuan_video" and "config.xformers-no-split" in config_ids(p)


def test_a_framepack_toml_keeps_its_batch_rule(tmp_path):  # NEW (main read it as HunyuanVideo's)
    write(tmp_path, "dataset.toml", DATASET_BATCH2)
    p = write(tmp_path, "fp.toml", 'dit = "/m/fp.safetensors"\nlatent_window_size = 9\ndataset_config = "dataset.toml"'
              '\nsdpa = true\nmixed_precision = "bf16"\nnetwork_module = "networks.lora"\n')
    assert configs.load(p)["family"] == "framepack" and "config.xformers-no-split" in config_ids(p)


def test_musubi_dataset_tomls_are_refused_as_dataset_configs(tmp_path):
    for text in (DATASET_BATCH2, '[[datasets]]\nimage_directory = "/t"\ncontrol_directory = "/c"\ncache_directory = "/k"\n'
                 'resolution = [1024, 1024]\nbatch_size = 2\n',
                 '[[datasets]]\nvideo_jsonl_file = "/v.jsonl"\ncache_directory = "/k"\ntarget_frames = [1, 33]\n'
                 'frame_extraction = "chunk"\nresolution = [960, 544]\n'):
        assert "dataset config" in _refusal(tmp_path, "video_config.toml", text)


# ---------------------------------------------------------------------------------------------------------------------
# sd-scripts: *_arguments tables and misspelt options
# ---------------------------------------------------------------------------------------------------------------------

SECTIONED = """\
[model_arguments]
pretrained_model_name_or_path = "/models/sd_xl_base_1.0.safetensors"

[training_arguments]
mixed_precision = "bf16"
sdpa = true
"""


def test_an_sd_scripts_toml_in_arguments_tables_is_sd_scripts(tmp_path):  # NEW
    assert _read(tmp_path, "config_file.toml", SECTIONED)[:3] == ("sd-scripts", ["sdpa"], "bfloat16")
    text = SECTIONED.replace("[training_arguments]", "[optimizer_arguments]\noptimizer_type = \"AdamW8bit\"\n\n"
                             "[saving_arguments]\nsave_model_as = \"safetensors\"\n\n[training_arguments]")
    assert _read(tmp_path, "lora.toml", text)[:3] == ("sd-scripts", ["sdpa"], "bfloat16")


def test_arguments_tables_of_another_programs_keys_are_no_sd_scripts_evidence(tmp_path):
    text = ("[model_arguments]\nbase_model_path = \"/m/x\"\ngemma3_prompt = \"hi\"\n\n[training_arguments]\n"
            "num_epochs = 3\nlearning_rate_schedule = \"cos\"\nsdpa = true\n")
    msg = _refusal(tmp_path, "newbie.toml", text)
    assert "sd-scripts" not in msg.split("(it reads")[0] or "not" in msg


def test_a_misspelt_attention_key_in_a_toml_is_named(tmp_path):  # NEW
    p = write(tmp_path, "lora.toml", SECTIONED.replace("sdpa = true", "xformer = true"))
    assert _read(tmp_path, "lora.toml", SECTIONED.replace("sdpa = true", "xformer = true"))[:2] == ("sd-scripts", [])
    assert "config.sdscripts-unknown-option" in config_ids(p)
    q = write(tmp_path, "flat.toml", 'pretrained_model_name_or_path = "/m/v15.safetensors"\n'
              'network_module = "networks.lora"\nmixed_precision = "fp16"\nspda = true\n')
    assert "config.sdscripts-unknown-option" in config_ids(q)


def test_an_unambiguous_prefix_on_the_command_line_is_the_option(tmp_path):
    text = ("accelerate launch sdxl_train_network.py --pretrained_model_name_or_path=/m/sdxl.safetensors "
            "--network_module=networks.lora --mixed_precision=bf16 --xformer\n")
    p = write(tmp_path, "train.sh", text)
    assert _read(tmp_path, "train.sh", text)[:3] == ("sd-scripts", ["xformers"], "bfloat16")
    assert "config.sdscripts-unknown-option" not in config_ids(p)


def test_diffusers_xformers_option_on_sd_scripts_is_answered_with_xformers(tmp_path):  # NEW
    p = write(tmp_path, "train.sh", "accelerate launch train_network.py --pretrained_model_name_or_path=/m/v15.safetensors"
              " --network_module=networks.lora --mixed_precision=fp16 --enable_xformers_memory_efficient_attention\n")
    cfg = configs.load(p)
    assert cfg["required"] == []
    found = evaluate(None, config=cfg, required=[], compile_mode=cfg["compile_mode"]).findings
    miss = [f for f in found if f.id == "config.sdscripts-unknown-option"]
    assert miss and "--xformers" in miss[0].fix


# ---------------------------------------------------------------------------------------------------------------------
# kohya_ss GUI: additional_parameters
# ---------------------------------------------------------------------------------------------------------------------

def gui(**over) -> str:
    d = {"LoRA_type": "Standard", "pretrained_model_name_or_path": "runwayml/stable-diffusion-v1-5", "sdxl": False,
         "train_data_dir": "/img", "output_dir": "/out", "network_dim": 32, "network_alpha": 16,
         "optimizer": "AdamW8bit", "mixed_precision": "fp16", "full_fp16": False, "xformers": "none",
         "additional_parameters": "", "dynamo_backend": "no", "cache_latents": True}
    d.update(over)
    return json.dumps(d, indent=2)


def test_gui_additional_parameters_turn_sdpa_on(tmp_path):  # NEW
    assert _read(tmp_path, "lora.json", gui(additional_parameters="--sdpa --debiased_estimation_loss"))[:3] == \
        ("sd-scripts", ["sdpa"], "float16")
    assert _read(tmp_path, "lora.json", gui(additional_parameters='"--sdpa"'))[1] == ["sdpa"]  # quotes dropped


def test_gui_additional_parameters_compile(tmp_path):  # NEW
    got = _read(tmp_path, "lora.json", gui(sdxl=True, mixed_precision="bf16", xformers="xformers",
                                           additional_parameters="--torch_compile --dynamo_backend inductor"))
    assert got == ("sd-scripts", ["xformers"], "bfloat16", "default")


def test_gui_dropdown_xformers_beats_an_additional_sdpa(tmp_path):
    # mem_eff_attn > xformers > sdpa (sd-scripts library/train_util.py replace_unet_modules)
    assert _read(tmp_path, "lora.json", gui(xformers="xformers", additional_parameters="--sdpa"))[1] == ["xformers"]


def test_gui_without_additional_parameters_reads_as_before(tmp_path):
    assert _read(tmp_path, "lora.json", gui(xformers="sdpa"))[:3] == ("sd-scripts", ["sdpa"], "float16")
    assert _read(tmp_path, "lora.json", gui(xformers=True))[1] == ["xformers"]  # an older GUI's boolean


# ---------------------------------------------------------------------------------------------------------------------
# diffusers launch scripts: defaults, continuations, conditional variables
# ---------------------------------------------------------------------------------------------------------------------

def test_a_flag_variable_set_only_when_the_caller_asks_is_conditional(tmp_path):  # NEW
    for cond in ('if [[ "$USE_XFORMERS" == "1" ]]; then\n  ATTN_FLAGS="--enable_xformers_memory_efficient_attention"\nfi\n',
                 '[[ "$USE_XFORMERS" == "1" ]] && ATTN_FLAGS="--enable_xformers_memory_efficient_attention"\n'):
        text = ('ATTN_FLAGS=""\n' + cond + "accelerate launch train_dreambooth_lora_flux.py \\\n"
                "  --pretrained_model_name_or_path=black-forest-labs/FLUX.1-dev \\\n"
                "  --mixed_precision=bf16 $ATTN_FLAGS \\\n  --instance_data_dir=data --output_dir=out\n")
        p = write(tmp_path, "train.sh", text)
        cfg = configs.load(p)
        assert cfg["required"] == [] and cfg["dtype"] == "bfloat16"
        assert [a["kind"] for a in cfg["attention"]] == ["conditional"]


def test_a_flag_variable_the_script_settles_is_still_required(tmp_path):
    text = ('ATTN=${ATTN:-xformers}\nEXTRA=""\nif [ "$ATTN" = "xformers" ]; then\n'
            '  EXTRA="--enable_xformers_memory_efficient_attention"\nfi\n'
            'accelerate launch --mixed_precision="${MIXED_PRECISION:-bf16}" train_dreambooth_lora.py \\\n'
            '  --pretrained_model_name_or_path="runwayml/stable-diffusion-v1-5" \\\n'
            '  --instance_data_dir="./dog" --output_dir="out" --instance_prompt="a photo of sks dog" \\\n  $EXTRA\n')
    assert _read(tmp_path, "train.sh", text)[:3] == ("diffusers", ["xformers"], "bfloat16")


def test_defaults_and_continuations_in_a_diffusers_launch(tmp_path):
    text = ("#!/usr/bin/env bash\nMODEL_NAME=${MODEL_NAME:-\"stabilityai/stable-diffusion-xl-base-1.0\"}\n"
            "PRECISION=\"${PRECISION:-fp16}\"\n: \"${OUT:=lora-xl}\"\n"
            "accelerate launch train_dreambooth_lora_sdxl.py \\\n  --pretrained_model_name_or_path=\"$MODEL_NAME\" \\\n"
            "  --mixed_precision=\"${PRECISION}\" \\\n  --output_dir=$OUT \\\n"
            "  --enable_xformers_memory_efficient_attention \\\n  --max_train_steps=${STEPS:-500}\n")
    assert _read(tmp_path, "train.sh", text)[:3] == ("diffusers", ["xformers"], "float16")
    crlf = text.replace("\n", "\r\n")
    assert _read(tmp_path, "train_win.sh", crlf)[:3] == ("diffusers", ["xformers"], "float16")


def test_a_commented_line_inside_a_continuation_ends_the_command(tmp_path):
    # bash joins `--mixed_precision=fp16 \` with the next line, a comment: the command ends there, and the
    # commented xformers option never reaches the run
    text = ("accelerate launch train_text_to_image_lora_sdxl.py \\\n  --pretrained_model_name_or_path=x \\\n"
            "  --mixed_precision=fp16 \\\n  # --enable_xformers_memory_efficient_attention \\\n  --seed=42\n")
    assert _read(tmp_path, "train.sh", text)[:3] == ("diffusers", [], "float16")


def test_an_installer_that_runs_miniconda_hands_over_to_no_training(tmp_path):  # NEW
    text = ("wget -q https://repo.anaconda.com/miniconda/Miniconda3-latest-Linux-x86_64.sh -O ~/miniconda.sh\n"
            "bash ~/miniconda.sh -b -p ~/miniconda3\nrm ~/miniconda.sh\nconda create -n dp python=3.12\n"
            "pip install -r requirements.txt\n")
    msg = _refusal(tmp_path, "install.sh", text)
    assert "not a trainer config" in msg and "miniconda" not in msg.lower()


def test_a_launcher_that_hands_over_to_a_training_script_still_names_it(tmp_path):
    text = "cd repo\nbash scripts/train_sft.sh\n"
    assert "train_sft.sh" in _refusal(tmp_path, "go.sh", text)


def test_an_if_else_pair_of_flag_values_keeps_the_else_value_as_before(tmp_path):
    # cfg22's shell-cond variant: GPU never set, bash takes the else branch; the reader keeps the last value
    text = ('if [ "$GPU" = "4090" ]; then\n    ATTN="--sdpa"\nelse\n    ATTN="--xformers"\nfi\n'
            "accelerate launch train_network.py --pretrained_model_name_or_path=/m/v15.safetensors "
            "--network_module=networks.lora $ATTN --mixed_precision=fp16\n")
    assert _read(tmp_path, "train.sh", text)[:3] == ("sd-scripts", ["xformers"], "float16")
