"""Launch lines read through the config file they name, where the two round-3 branches met (cfg3a: the trainers'
semantics; cfg3b: the shell's). One implementation per reader (configs/__init__.py named_config / launch_config and
each reader's launch()); these cases each need both halves. Every case is a variant written for this test: the file
names and contents are made up, the command shapes are the trainers' documented launch lines (cited per reader)."""

from __future__ import annotations

import json

from attn_doctor import configs

WAN = ("output_dir = 'out'\nmicro_batch_size_per_gpu = 1\npipeline_stages = 1\n[model]\ntype = 'wan'\n"
       "dtype = 'bfloat16'\n")
AIT = ("job: extension\nconfig:\n  name: person\n  process:\n    - type: sd_trainer\n"
       "      train: {batch_size: 1, dtype: bf16, xformers: true}\n"
       "      model: {name_or_path: runwayml/stable-diffusion-v1-5}\n")


def _load(tmp_path, name: str, text: str) -> dict:
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return configs.load(str(p))


def _fields(cfg: dict) -> tuple:
    return cfg["detected"]["trainer"], cfg["required"], cfg["dtype"], cfg["compile_mode"]


def test_diffusion_pipe_toml_the_script_writes_itself(tmp_path):
    """`cat > wan.toml <<EOF` then `deepspeed train.py --deepspeed --conf wan.toml` (argparse's unique prefix of
    --config, tdrussell/diffusion-pipe train.py:42-57)."""
    cfg = _load(tmp_path, "run.sh", f"cat > /tmp/wan.toml <<'EOF'\n{WAN}EOF\n"
                                    "deepspeed --num_gpus=1 train.py --deepspeed --conf /tmp/wan.toml\n")
    assert _fields(cfg) == ("diffusion-pipe", ["fa2"], "bfloat16", "none") and not cfg.get("config_file_unread")


def test_diffusion_pipe_notebook_line_without_its_toml_is_marked_unread(tmp_path):
    nb = {"cells": [{"cell_type": "code", "source": ["!deepspeed --num_gpus=1 train.py \\\n",
                                                      "    --deepspeed --config examples/hunyuan_video.toml\n"]}],
          "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    cfg = _load(tmp_path, "train.ipynb", json.dumps(nb))
    assert _fields(cfg) == ("diffusion-pipe", [], None, None) and cfg["config_file_unread"]


def test_ai_toolkit_bare_job_name_written_by_the_script(tmp_path):
    """`python run.py -n NAME JOB` runs config/JOB.yaml (ostris/ai-toolkit run.py argparse: -n takes a value;
    toolkit/config.py get_config: a bare name is looked up under config/)."""
    cfg = _load(tmp_path, "run.sh", f"mkdir -p config\ncat > config/person.yaml <<EOF\n{AIT}EOF\n"
                                    "python run.py -n mine person\n")
    assert _fields(cfg) == ("ai-toolkit", ["xformers"], "bfloat16", "none")


def test_axolotl_main_module_with_overrides_over_the_yaml(tmp_path):
    """`python -m axolotl.cli.main train CFG --bf16 false --fp16 true`: load_cfg sets the options over the YAML."""
    (tmp_path / "lora.yml").write_text("base_model: m\nsequence_len: 2048\nflash_attention: true\nbf16: true\n")
    cfg = _load(tmp_path, "run.sh", "python -m axolotl.cli.main train lora.yml --bf16 false --fp16 true\n")
    assert _fields(cfg) == ("axolotl", ["fa2"], "float16", "none")


def test_axolotl_options_without_their_yaml_say_only_what_they_set(tmp_path):
    cfg = _load(tmp_path, "run.sh", "axolotl train elsewhere/lora.yml --torch-compile true\n")
    assert _fields(cfg) == ("axolotl", [], None, "default") and cfg["config_file_unread"]


def test_litgpt_config_file_absent_or_written_by_the_script(tmp_path):
    cfg = _load(tmp_path, "a.sh", "litgpt finetune_lora checkpoints/m --config elsewhere/lora.yaml\n")
    assert cfg["dtype"] is None and cfg["config_file_unread"]
    cfg = _load(tmp_path, "b.sh", "cat > lora.yaml <<EOF\nprecision: bf16-true\nEOF\n"
                                  "litgpt finetune_lora checkpoints/m --config lora.yaml\n")
    assert cfg["dtype"] == "bfloat16" and not cfg["config_file_unread"]


def test_onetrainer_json_that_is_not_onetrainers_is_not_read(tmp_path):
    (tmp_path / "other.json").write_text(json.dumps({"model": "resnet50", "lr": 0.1, "epochs": 90}))
    cfg = _load(tmp_path, "run.sh", "python scripts/train.py --config-path other.json\n")
    assert _fields(cfg) == ("onetrainer", [], None, None) and cfg["config_file_unread"]
