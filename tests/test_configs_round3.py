"""Issue 24, round 3: what each claimed trainer's own code does with the settings new real files carry.

Every case is a variant written for this test (its name says what it fakes); the real files the mechanisms were found
in are under fixtures/configs/round3a/ (its README) and are read by test_configs_real.py. The trainers' code each
expectation follows is cited beside it (and in fixtures/configs/real/TRAINERS.md, "Round 3")."""

from __future__ import annotations

import json

import pytest

from attn_doctor import configs
from attn_doctor.model import UsageError


def _load(tmp_path, name: str, text: str) -> dict:
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return configs.load(str(p))


def _fields(cfg: dict) -> tuple:
    return cfg["detected"]["trainer"], cfg["required"], cfg["dtype"], cfg["compile_mode"]


# --- sd-scripts: prepare_accelerator hands Accelerator its own mixed_precision and dynamo_backend ------------------
# (kohya-ss/sd-scripts 48d368f library/train_util.py:5466-5500; --mixed_precision defaults to "no", :3981-3984), and an
# explicit value wins over the ACCELERATE_* variables `accelerate launch` sets (huggingface/accelerate state.py:924-928,
# accelerator.py:326-327).
SD = [
    ("launcher dynamo is overridden", "a.sh",
     "accelerate launch --dynamo_backend inductor --mixed_precision fp16 train_network.py --xformers "
     "--mixed_precision fp16 --network_module networks.lora --pretrained_model_name_or_path m.safetensors\n",
     ("sd-scripts", ["xformers"], "float16", "none")),
    ("the script's --torch_compile compiles", "b.sh",
     "accelerate launch train_network.py --sdpa --torch_compile --dynamo_backend inductor --mixed_precision bf16 "
     "--network_module networks.lora\n",
     ("sd-scripts", ["sdpa"], "bfloat16", "default")),
    ("launcher mixed precision without the script's: fp32", "c.sh",
     "accelerate launch --mixed_precision bf16 sdxl_train_network.py --sdpa --network_module networks.lora "
     "--cache_latents\n",
     ("sd-scripts", ["sdpa"], "float32", "none")),
    ("the script's mixed precision beats the launcher's", "d.sh",
     "accelerate launch --mixed_precision fp16 flux_train_network.py --sdpa --mixed_precision bf16 "
     "--network_module networks.lora_flux --ae ae.safetensors\n",
     ("sd-scripts", ["sdpa"], "bfloat16", "none")),
]


@pytest.mark.parametrize("case", SD, ids=[c[0] for c in SD])
def test_sd_scripts_launcher_settings_are_overridden(tmp_path, case):
    _name, fname, text, want = case
    assert _fields(_load(tmp_path, fname, text)) == want


def test_sd_scripts_config_file_not_here_keeps_the_launcher_precision_as_a_guess(tmp_path):
    """The TOML --config_file names decides the dtype; when it is not on this machine the launcher's value is the only
    hint of the user's intent (reported, with the file marked unread)."""
    cfg = _load(tmp_path, "e.sh", "accelerate launch --mixed_precision bf16 sdxl_train_network.py "
                                  "--config_file=./missing.toml\n")
    assert cfg["config_file_unread"] and cfg["dtype"] == "bfloat16" and cfg["required"] == []
    cfg = _load(tmp_path, "f.sh", "accelerate launch sdxl_train_network.py --config_file=./missing.toml\n")
    assert cfg["config_file_unread"] and cfg["dtype"] is None


def test_sd_scripts_config_file_here_without_precision_is_fp32(tmp_path):
    (tmp_path / "job.toml").write_text('xformers = true\nnetwork_module = "networks.lora"\ncache_latents = true\n')
    cfg = _load(tmp_path, "g.sh", "accelerate launch --mixed_precision bf16 train_network.py --config_file job.toml\n")
    assert _fields(cfg) == ("sd-scripts", ["xformers"], "float32", "none")


GUI = {"LoRA_type": "Standard", "sdxl": True, "xformers": "sdpa", "mem_eff_attn": False, "mixed_precision": "bf16",
       "pretrained_model_name_or_path": "sdxl.safetensors", "train_data_dir": "img", "cache_latents": True}


def test_kohya_gui_dynamo_setting_compiles_nothing(tmp_path):
    """The GUI's dynamo_backend becomes `accelerate launch --dynamo_backend` (bmaltais/kohya_ss class_accelerate_launch.py:
    152-154), which sd-scripts overrides; only a torch_compile the GUI passes (its Anima tab) compiles."""
    cfg = _load(tmp_path, "gui.json", json.dumps({**GUI, "dynamo_backend": "inductor"}))
    assert _fields(cfg) == ("sd-scripts", ["sdpa"], "bfloat16", "none")
    cfg = _load(tmp_path, "gui2.json", json.dumps({**GUI, "dynamo_backend": "inductor", "torch_compile": True}))
    assert cfg["compile_mode"] == "default"


def test_sd_scripts_options_written_as_plain_json(tmp_path):
    """A parameter file holding sd-scripts' own option names (a notebook's or wrapper's, no GUI fields) reads as the
    command line those values make; sd-scripts itself reads TOML."""
    d = {"pretrained_model_name_or_path": "v1-5.safetensors", "train_data_dir": "img", "network_module": "networks.lora",
         "cache_latents": True, "enable_bucket": True, "keep_tokens": 1, "no_half_vae": True, "xformers": True,
         "mixed_precision": "fp16", "trigger": "abc"}
    cfg = _load(tmp_path, "params.json", json.dumps(d))
    assert _fields(cfg) == ("sd-scripts", ["xformers"], "float16", "none") and cfg["format"] == "json"
    d.pop("xformers")
    assert _fields(_load(tmp_path, "params2.json", json.dumps(d)))[1] == []  # a UNet with no switch: plain attention


def test_old_kohya_gui_json_without_mem_eff_attn(tmp_path):
    """kohya_ss GUI saves from before 2023-01-08 (a4262c0a added mem_eff_attn) carry a boolean xformers alone."""
    d = {"pretrained_model_name_or_path": "v1-5.safetensors", "train_data_dir": "img", "reg_data_dir": "", "epoch": 1,
         "mixed_precision": "fp16", "save_precision": "fp16", "cache_latents": True, "enable_bucket": True,
         "xformers": True, "shuffle_caption": True, "num_cpu_threads_per_process": 2}
    assert _fields(_load(tmp_path, "old_gui.json", json.dumps(d))) == ("sd-scripts", ["xformers"], "float16", "none")


def test_a_json_with_few_sd_scripts_options_is_not_claimed(tmp_path):
    with pytest.raises(UsageError):
        _load(tmp_path, "misc.json", json.dumps({"learning_rate": 1e-4, "network_dim": 8, "resolution": 512,
                                                  "prompt": "a cat", "steps": 100}))


# --- diffusion-pipe's launch line: `deepspeed --num_gpus=1 train.py --deepspeed --config X.toml` ----------------------
# (tdrussell/diffusion-pipe 8f83dbf train.py:42-57); read through the TOML when it is here.
WAN_TOML = ("output_dir = 'out'\ndataset = 'dataset.toml'\nmicro_batch_size_per_gpu = 1\npipeline_stages = 1\n"
            "[model]\ntype = 'wan'\nckpt_path = '/m/Wan2.1-T2V-14B'\ndtype = 'bfloat16'\n")


def test_diffusion_pipe_launch_line_reads_the_toml_beside_it(tmp_path):
    (tmp_path / "wan.toml").write_text(WAN_TOML)
    cfg = _load(tmp_path, "run.sh", "cd /app/diffusion-pipe\nNCCL_P2P_DISABLE=1 deepspeed --num_gpus=1 train.py "
                                    "--deepspeed --config /workspace/configs/wan.toml\n")
    assert _fields(cfg) == ("diffusion-pipe", ["fa2"], "bfloat16", "none") and cfg["format"] == "cmdline"


def test_diffusion_pipe_launch_line_without_its_toml(tmp_path):
    cfg = _load(tmp_path, "run.sh", "deepspeed --num_gpus=1 train.py --deepspeed --config examples/hunyuan_video.toml "
                                    "--regenerate_cache\n")
    assert _fields(cfg) == ("diffusion-pipe", [], None, None) and cfg["config_file_unread"]


def test_a_train_py_with_a_yaml_config_is_not_diffusion_pipe(tmp_path):
    with pytest.raises(UsageError, match="train.py"):
        _load(tmp_path, "run.sh", "torchrun --nproc_per_node 2 train.py --config configs/exp.yaml --deepspeed ds.json\n")


def test_notebook_shell_escape_goes_on_over_backslash_lines(tmp_path):
    """IPython assembles a `!` line ending in a backslash with the next lines (inputtransformer2.EscapedCommand)."""
    nb = {"cells": [{"cell_type": "code", "source": ['!NCCL_P2P_DISABLE="1" NCCL_IB_DISABLE="1" \\\n',
                                                      "    deepspeed --num_gpus=1 train.py \\\n",
                                                      "    --deepspeed --config examples/wan.toml\n"]}],
          "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    assert configs.bang_lines("".join(nb["cells"][0]["source"])).count("\n") == 2
    cfg = _load(tmp_path, "train.ipynb", json.dumps(nb))
    assert cfg["detected"]["trainer"] == "diffusion-pipe"


# --- the launcher's dynamo settings where the trainer leaves them to accelerate -----------------------------------
def test_musubi_takes_the_launchers_dynamo_backend(tmp_path):
    """musubi-tuner's --dynamo_backend defaults to NO, which leaves dynamo_plugin None (kohya-ss/musubi-tuner 30c658c
    training/accelerator_setup.py:104-120): Accelerator reads ACCELERATE_DYNAMO_BACKEND / _MODE from the launcher."""
    cmd = ("accelerate launch --mixed_precision bf16 --dynamo_backend inductor {mode}src/musubi_tuner/wan_train_network.py"
           " --task t2v-14B --dit wan.safetensors --sdpa --network_module networks.lora_wan\n")
    assert _fields(_load(tmp_path, "m1.sh", cmd.format(mode="--dynamo_mode max-autotune "))) == \
        ("musubi", ["sdpa"], "bfloat16", "max-autotune")
    assert _load(tmp_path, "m2.sh", cmd.format(mode=""))["compile_mode"] == "default"
    assert _load(tmp_path, "m3.sh", cmd.replace("--dynamo_backend inductor ", "").format(mode=""))["compile_mode"] == "none"


def test_diffusers_examples_take_the_launchers_dynamo_backend(tmp_path):
    """The examples build Accelerator() without dynamo arguments (huggingface/diffusers 58eb52c
    examples/text_to_image/train_text_to_image.py:550-555), so the launcher's backend compiles the model."""
    cmd = ("accelerate launch {dyn}train_text_to_image.py --pretrained_model_name_or_path=sd15 "
           "--dataset_name=naruto --resolution=512 --mixed_precision=fp16 --output_dir=out\n")
    cfg = _load(tmp_path, "d1.sh", cmd.format(dyn="--dynamo_backend inductor --dynamo_mode reduce-overhead "))
    assert _fields(cfg) == ("diffusers", [], "float16", "reduce-overhead")
    assert _load(tmp_path, "d2.sh", cmd.format(dyn="--dynamo_backend no "))["compile_mode"] == "none"
    assert _load(tmp_path, "d3.sh", cmd.format(dyn=""))["compile_mode"] == "none"


def test_diffusers_example_run_from_a_notebook(tmp_path):
    """`!accelerate launch train_dreambooth_lora_sdxl.py \\` over several lines of a notebook cell (round3a2's files)."""
    src = ["!accelerate launch train_dreambooth_lora_sdxl.py \\\n", '  --pretrained_model_name_or_path="sdxl" \\\n',
           '  --instance_prompt="a photo of sks dog" \\\n', '  --mixed_precision="fp16" \\\n',
           "  --enable_xformers_memory_efficient_attention \\\n", "  --resolution=1024\n"]
    nb = {"cells": [{"cell_type": "code", "source": ["!pip install -q diffusers\n"]},
                    {"cell_type": "code", "source": src}], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    cfg = _load(tmp_path, "train.ipynb", json.dumps(nb))
    assert _fields(cfg) == ("diffusers", ["xformers"], "float16", "none")


def test_musubi_flux_kontext_script_is_musubis(tmp_path):
    """flux_kontext_train_network.py ships with musubi-tuner (src/musubi_tuner/, kohya-ss/musubi-tuner 30c658c)."""
    cfg = _load(tmp_path, "k.sh", "accelerate launch --mixed_precision bf16 musubi-tuner/flux_kontext_train_network.py "
                                  "--dit kontext.safetensors --sdpa --network_module networks.lora_flux\n")
    assert _fields(cfg) == ("musubi", ["sdpa"], "bfloat16", "none")


# --- launch lines of LLM trainers that name their config ------------------------------------------------------------
AXO = ("base_model: NousResearch/Llama-3.2-1B\ndatasets:\n  - path: teknium/GPT4-LLM-Cleaned\n    type: alpaca\n"
       "sequence_len: 2048\nsample_packing: true\nmicro_batch_size: 2\nflash_attention: true\nbf16: auto\n")


def test_axolotl_launch_lines_read_their_yaml(tmp_path):
    """`axolotl train CONFIG --key value` and `[accelerate launch|python] -m axolotl.cli.train CONFIG` (axolotl-ai-cloud/
    axolotl 067b021 src/axolotl/cli/main.py); the command line's options go over the YAML as load_cfg applies them
    (src/axolotl/cli/config.py:233-290)."""
    (tmp_path / "lora.yml").write_text(AXO)
    cfg = _load(tmp_path, "run.sh", "python -m axolotl.cli.preprocess lora.yml\n"
                                    "accelerate launch -m axolotl.cli.train lora.yml --torch_compile=true\n")
    assert _fields(cfg) == ("axolotl", ["fa2"], "bfloat16", "default") and cfg["format"] == "cmdline"
    cfg = _load(tmp_path, "run2.sh", "axolotl train configs/lora.yml --bf16 false --fp16 true\n")
    assert _fields(cfg) == ("axolotl", ["fa2"], "float16", "none")


def test_axolotl_launch_line_without_its_yaml(tmp_path):
    cfg = _load(tmp_path, "run.sh", "CUDA_VISIBLE_DEVICES=0 axolotl train examples/llama-3/lora-1b.yml\n")
    assert _fields(cfg) == ("axolotl", [], None, None) and cfg["config_file_unread"]


TRL = ("model_name_or_path: Qwen/Qwen2.5-1.5B-Instruct\ndataset_name: trl-lib/Capybara\n"
       "attn_implementation: flash_attention_2\nbf16: true\n")


def test_trl_command_line_reads_its_config_and_overrides_it(tmp_path):
    """TrlParser.parse_args_and_config (huggingface/trl f2cd577 trl/scripts/utils.py:303-338): the --config YAML gives
    the defaults, the command line's flags win."""
    (tmp_path / "recipe.yaml").write_text(TRL)
    cfg = _load(tmp_path, "run.sh", "accelerate launch --config_file zero3.yaml sft.py --config recipe.yaml\n")
    assert _fields(cfg) == ("transformers", ["fa2"], "bfloat16", "none")
    cfg = _load(tmp_path, "run2.sh", "trl sft --config recipe.yaml --attn_implementation sdpa --torch_compile true\n")
    assert _fields(cfg) == ("transformers", ["sdpa"], "bfloat16", "default")


def test_a_cli_command_is_never_sd_scripts(tmp_path):
    """sd-scripts has no CLI: --torch_compile on `trl sft` is TRL's option, not sd-scripts' evidence."""
    cfg = _load(tmp_path, "run.sh", "trl sft --model_name_or_path Qwen/Qwen2.5-0.5B --dataset_name x --torch_compile true\n")
    assert cfg["detected"]["trainer"] == "transformers" and cfg["detected"]["runner_up"] != "sd-scripts"


def test_litgpt_config_option_reads_the_yaml(tmp_path):
    """jsonargparse (Lightning-AI/litgpt 2685705 litgpt/__main__.py:80) reads --config, then the options after it."""
    (tmp_path / "config.yaml").write_text("checkpoint_dir: checkpoints/Llama-3.2-1B\nprecision: 16-true\n"
                                          "train:\n  micro_batch_size: 2\n")
    cfg = _load(tmp_path, "run.sh", "litgpt finetune_lora --config config.yaml --train.micro_batch_size 4\n")
    assert _fields(cfg) == ("litgpt", [], "float16", "none") and cfg["batch_size"] == 4


AIT = ("job: extension\nconfig:\n  name: my_lora\n  process:\n    - type: sd_trainer\n"
       "      train: {batch_size: 1, steps: 100, dtype: bf16, attention_backend: flash}\n"
       "      model: {name_or_path: black-forest-labs/FLUX.1-dev, is_flux: true}\n")


def test_ai_toolkit_run_py_with_its_job_beside(tmp_path):
    """`python run.py CONFIG` (ostris/ai-toolkit 27a03a9 run.py:70-100; a bare name is config/NAME.yaml)."""
    (tmp_path / "my_lora.yaml").write_text(AIT)
    assert _fields(_load(tmp_path, "run.sh", "cd ai-toolkit\npython run.py ../my_lora.yaml\n")) == \
        ("ai-toolkit", ["fa2"], "bfloat16", "none")
    (tmp_path / "config").mkdir()
    (tmp_path / "config" / "person.yaml").write_text(AIT)
    assert _load(tmp_path, "run2.sh", "python run.py person -r\n")["detected"]["trainer"] == "ai-toolkit"


def test_a_run_py_with_some_other_yaml_is_not_ai_toolkit(tmp_path):
    (tmp_path / "exp.yaml").write_text("model: resnet50\nlr: 0.1\n")
    with pytest.raises(UsageError):
        _load(tmp_path, "run.sh", "python run.py exp.yaml\n")


def test_onetrainer_launch_line(tmp_path):
    """`python scripts/train.py --config-path X.json --config-value KEY=VALUE` (Nerogar/OneTrainer 23df383
    scripts/train.py:16-37, modules/util/args/TrainArgs.py:22-25)."""
    (tmp_path / "cfg.json").write_text(json.dumps({"__version": 6, "training_method": "LORA",
                                                   "model_type": "FLUX_DEV_1", "base_model_name": "flux",
                                                   "attention_mechanism": "FLASH", "train_dtype": "BFLOAT_16"}))
    cfg = _load(tmp_path, "run.sh", "python scripts/train.py --config-path cfg.json --config-value compile=true\n")
    assert _fields(cfg) == ("onetrainer", ["fa2"], "bfloat16", "default")
    cfg = _load(tmp_path, "run2.sh", "python scripts/train.py --config-path /elsewhere/missing.json\n")
    assert _fields(cfg) == ("onetrainer", [], None, None)


def test_a_hydra_config_path_is_not_onetrainer(tmp_path):
    with pytest.raises(UsageError):
        _load(tmp_path, "run.sh", "python scripts/train.py --config-path ../configs --config-name exp trainer.max_epochs=3\n")


def test_a_users_own_script_config_is_not_read_as_trl(tmp_path):
    """Only TRL's entry points (trl CLI, sft.py / dpo.py / grpo.py) are known to parse --config with TrlParser."""
    (tmp_path / "cfg.yaml").write_text(TRL)
    with pytest.raises(UsageError):
        _load(tmp_path, "run.sh", "python train.py --config cfg.yaml\n")


def test_a_deepspeed_train_py_with_another_projects_toml(tmp_path):
    (tmp_path / "exp.toml").write_text("[trainer]\nmax_steps = 10\n[data]\npath = 'x'\n")
    with pytest.raises(UsageError):
        _load(tmp_path, "run.sh", "deepspeed --num_gpus=2 train.py --deepspeed --config exp.toml\n")


def test_diffusers_example_run_without_accelerate_launch_is_fp32(tmp_path):
    """Accelerator(mixed_precision=None) reads ACCELERATE_MIXED_PRECISION, which only `accelerate launch` sets
    (huggingface/accelerate state.py:924-928): run with python, an example with no --mixed_precision trains in fp32."""
    cmd = "{pre}train_dreambooth_lora.py --pretrained_model_name_or_path=sd15 --instance_data_dir=d --output_dir=o " \
          "--instance_prompt='a sks toy'\n"
    assert _load(tmp_path, "p.sh", cmd.format(pre="python "))["dtype"] == "float32"
    assert _load(tmp_path, "a.sh", cmd.format(pre="accelerate launch "))["dtype"] is None  # its config file decides
    assert _load(tmp_path, "e.sh", cmd.format(pre="ACCELERATE_MIXED_PRECISION=bf16 python "))["dtype"] == "bfloat16"


def test_simpletuner_train_env_reads_its_config(tmp_path):
    """`simpletuner train --env NAME` trains with config/NAME/config.json (bghira/SimpleTuner bc8e6ab
    simpletuner/cli/__init__.py:115-140, cli/train.py:45-75)."""
    (tmp_path / "config" / "flux").mkdir(parents=True)
    (tmp_path / "config" / "flux" / "config.json").write_text(json.dumps(
        {"--model_family": "flux", "--model_type": "lora", "--pretrained_model_name_or_path": "black-forest-labs/FLUX.1-dev",
         "--attention_mechanism": "flash-attn-3", "--mixed_precision": "bf16"}))
    assert _fields(_load(tmp_path, "run.sh", "simpletuner train --env flux\n")) == \
        ("simpletuner", ["fa3"], "bfloat16", "none")
    assert _load(tmp_path, "run2.sh", "simpletuner train --env other\n")["required"] == []  # not here: the defaults
