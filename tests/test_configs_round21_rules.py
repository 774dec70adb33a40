"""Issue 24, round 21: variants written for the mechanisms behind round 21's misses (fixtures/configs/round21/README.md).

- LLaMA-Factory's package entry files run by path (hiyouga/LLaMA-Factory@ff6d4d1): src/llamafactory/cli.py is the console
  script's module (cli.py:27 `if __name__ == "__main__": main()`), so `python .../llamafactory/cli.py train X.yaml` is
  `llamafactory-cli train X.yaml`; src/llamafactory/launcher.py run as a script is run_exp() on its arguments
  (launcher.py:182-185), the file the CLI hands torchrun itself (launcher.py:95-127) (configs/llamafactory.py
  _package_cli, _package_launcher);
- a `--network_module networks.<x>` that musubi-tuner ships and sd-scripts does not stops sd-scripts at
  importlib.import_module (ModuleNotFoundError), so the file is musubi-tuner's whatever sd-scripts option names it
  carries (configs/sd_scripts.py musubi_network, NETWORKS; configs/musubi.py MUSUBI_NETWORKS);
- --full_bf16 / --full_fp16 are options of musubi-tuner's full fine-tune scripts too (qwen_image_train.py, hv_train.py,
  zimage_train.py, hidream_o1_train.py; configs/options.py), so they are no longer sd-scripts' own evidence
  (configs/sd_scripts.py own_keys), and the mirror: --vae_chunk_size, an option of sd-scripts'
  hunyuan_image_train_network.py too, is no longer musubi-tuner's own evidence (configs/musubi.py own_keys).
Run against the code before this change (1c16e1b; 5fc5492 for the vae_chunk_size one), the variants marked NEW fail
there; the others pass there too and
guard the readings around the change (near misses)."""

from __future__ import annotations

from configs_corpus import read as _read, refusal as _refusal

LF_YAML = ("model_name_or_path: Qwen/Qwen2.5-7B-Instruct\nstage: sft\ndo_train: true\nfinetuning_type: lora\n"
           "lora_target: all\ndataset: alpaca_en_demo\ntemplate: qwen\ncutoff_len: 2048\nflash_attn: fa2\nbf16: true\n"
           "output_dir: saves/x\n")


def _beside(tmp_path, name="sft.yaml", text=LF_YAML):
    (tmp_path / name).write_text(text, encoding="utf-8")


# ---------------------------------------------------------------------------------------------------------------------
# LLaMA-Factory's cli.py and launcher.py run by path
# ---------------------------------------------------------------------------------------------------------------------

def test_package_cli_by_path_reads_the_config_beside_it(tmp_path):  # NEW
    _beside(tmp_path)
    got = _read(tmp_path, "run.sh", "cd /opt/LLaMA-Factory\npython3 src/llamafactory/cli.py train sft.yaml\n")
    assert got == ("llama-factory", ["fa2"], "bfloat16", "none")


def test_old_package_cli_by_path_with_overrides(tmp_path):  # NEW (llmtuner, the package's name before 2024-05)
    got = _read(tmp_path, "train.sh", "CUDA_VISIBLE_DEVICES=0 python $HOME/LLaMA-Factory/src/llmtuner/cli.py train "
                "missing.yaml flash_attn=sdpa bf16=true\n")
    assert got == ("llama-factory", ["sdpa"], "bfloat16", "none")


def test_package_cli_by_path_in_a_windows_bat(tmp_path):  # NEW
    _beside(tmp_path, text=LF_YAML.replace("flash_attn: fa2", "flash_attn: sdpa").replace("bf16", "fp16"))
    got = _read(tmp_path, "train.bat", "@echo off\r\nset CUDA_VISIBLE_DEVICES=0\r\n"
                "python D:\\LLaMA-Factory\\src\\llamafactory\\cli.py train sft.yaml\r\n")
    assert got == ("llama-factory", ["sdpa"], "float16", "none")


def test_package_launcher_under_torchrun(tmp_path):  # NEW
    _beside(tmp_path)
    got = _read(tmp_path, "multi.sh", "torchrun --nproc_per_node 8 --master_port 29501 "
                "/workspace/LLaMA-Factory/src/llamafactory/launcher.py sft.yaml\n")
    assert got == ("llama-factory", ["fa2"], "bfloat16", "none")


def test_package_launcher_with_a_config_variable(tmp_path):  # NEW
    got = _read(tmp_path, "slurm.sh", 'CFG="${CFG:-/shared/cfg/run.yaml}"\n'
                'srun python -m torch.distributed.run --nproc_per_node=4 "$LF_HOME/src/llamafactory/launcher.py" '
                '"$CFG"\n')
    assert got == ("llama-factory", [], "", "none")


def test_a_cli_py_of_another_program_is_not_llamafactory(tmp_path):
    # near miss: a project's own tools/cli.py with a train subcommand
    msg = _refusal(tmp_path, "run.sh", "python tools/cli.py train configs/model.yaml --epochs 3\n")
    assert "cli.py" in msg


def test_a_launcher_py_of_another_program_is_not_llamafactory(tmp_path):
    # near miss: torchrun on the repository's own launcher.py with a config
    msg = _refusal(tmp_path, "run.sh", "torchrun --nproc_per_node 2 my_project/launcher.py configs/exp.yaml\n")
    assert "launcher.py" in msg


def test_package_cli_webui_is_no_training_run(tmp_path):
    # near miss: the same file by path, but the web UI (launcher.py: `webui` starts LlamaBoard, trains nothing)
    msg = _refusal(tmp_path, "ui.sh", "python /opt/LLaMA-Factory/src/llamafactory/cli.py webui\n")
    assert msg


# ---------------------------------------------------------------------------------------------------------------------
# musubi-tuner's network modules and full fine-tune options against sd-scripts' option names
# ---------------------------------------------------------------------------------------------------------------------

SD_LOOKING = ('save_model_as = "safetensors"\ncache_latents = true\ncache_text_encoder_outputs = true\n'
              'network_train_unet_only = true\nunet_lr = 1e-4\nmodel_prediction_type = "raw"\n')


def test_musubi_network_module_with_sd_scripts_keys(tmp_path):  # NEW (FLUX.2 profiling TOML's shape)
    got = _read(tmp_path, "config.toml", 'sdpa = true\nfp8_base = true\nnetwork_module = "networks.lora_wan"\n'
                'network_dim = 16\nmixed_precision = "bf16"\n' + SD_LOOKING)
    assert got == ("musubi", ["sdpa"], "bfloat16", "none")


def test_musubi_network_module_in_a_zimage_toml(tmp_path):  # NEW
    got = _read(tmp_path, "zimage.toml", 'network_module = "networks.lora_zimage"\nblocks_to_swap = 8\n'
                'mixed_precision = "bf16"\nxformers = true\nclip_skip = 2\n' + SD_LOOKING)
    assert got == ("musubi", ["xformers"], "bfloat16", "none")


def test_musubi_network_module_on_a_command_line(tmp_path):
    # read before too (the script name decides): guards that the network rule keeps it
    got = _read(tmp_path, "train.sh", "accelerate launch qwen_image_train_network.py --sdpa --mixed_precision fp16 "
                "--network_module networks.lora_qwen_image --save_model_as safetensors --cache_latents --unet_lr 1e-4 "
                "--network_train_unet_only\n")
    assert got == ("musubi", ["sdpa"], "float16", "none")


def test_shared_network_module_keeps_sd_scripts(tmp_path):
    # near miss: networks.lora_flux is a module of both trainers (sd-scripts networks/lora_flux.py too)
    got = _read(tmp_path, "config.toml", 'sdpa = true\nnetwork_module = "networks.lora_flux"\n'
                'pretrained_model_name_or_path = "flux1-dev.safetensors"\nmixed_precision = "bf16"\nclip_l = "c.sft"\n'
                + SD_LOOKING)
    assert got[0] == "sd-scripts"


def test_sd_scripts_own_network_module_keeps_sd_scripts(tmp_path):
    # near miss: networks.lora_sd3 exists only in sd-scripts
    got = _read(tmp_path, "sd3.toml", 'sdpa = true\nnetwork_module = "networks.lora_sd3"\n'
                'pretrained_model_name_or_path = "sd3.5_large.safetensors"\nmixed_precision = "bf16"\n' + SD_LOOKING)
    assert got[0] == "sd-scripts"


def test_full_bf16_in_a_musubi_full_fine_tune_toml(tmp_path):  # NEW (qwen_image_train.py's --full_bf16)
    got = _read(tmp_path, "config.toml", 'dit = "/m/qwen_image_bf16.safetensors"\nvae = "/m/vae.safetensors"\n'
                'sdpa = true\nmixed_precision = "bf16"\nfull_bf16 = true\nfused_backward_pass = true\n'
                'optimizer_type = "adafactor"\ntimestep_sampling = "shift"\n')
    assert got == ("musubi", ["sdpa"], "bfloat16", "none")


def test_full_fp16_beside_musubi_keys(tmp_path):  # NEW (hv_train.py's --full_fp16)
    got = _read(tmp_path, "hv.toml", 'dit = "/m/mp_rank_00_model_states.pt"\nsdpa = true\n'
                'mixed_precision = "fp16"\nfull_fp16 = true\nblocks_to_swap = 20\n')
    assert got == ("musubi", ["sdpa"], "float16", "none")


def test_full_bf16_in_an_sd_scripts_toml_stays_sd_scripts(tmp_path):
    # near miss: sd-scripts' own full fine-tune TOML with full_bf16 and its other option names
    got = _read(tmp_path, "sdxl_ft.toml", 'pretrained_model_name_or_path = "sd_xl_base_1.0.safetensors"\n'
                'full_bf16 = true\nmixed_precision = "bf16"\nxformers = true\nsave_model_as = "safetensors"\n'
                'clip_skip = 2\nenable_bucket = true\ntrain_data_dir = "img"\n')
    assert got == ("sd-scripts", ["xformers"], "bfloat16", "none")


def test_vae_chunk_size_is_no_longer_musubi_evidence_against_sd_scripts(tmp_path):  # NEW
    # the mirror rule (configs/musubi.py own_keys): sd-scripts' hunyuan_image_train_network.py takes --vae_chunk_size too
    got = _read(tmp_path, "hunyuan_image.toml", 'pretrained_model_name_or_path = "hunyuanimage2.1.safetensors"\n'
                'vae_chunk_size = 16\nattn_mode = "torch"\nmixed_precision = "bf16"\n')
    assert got[0] == "sd-scripts" and got[2] == "bfloat16"


def test_vae_chunk_size_beside_musubi_keys_stays_musubi(tmp_path):
    got = _read(tmp_path, "hv.toml", 'dit = "/m/hv.safetensors"\nvae_chunk_size = 32\nsdpa = true\n'
                'mixed_precision = "bf16"\n')
    assert got == ("musubi", ["sdpa"], "bfloat16", "none")
