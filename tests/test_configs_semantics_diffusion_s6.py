"""Issue 24, session 6 semantics audit of the diffusion trainers (fixtures/configs/real/SEMANTICS-diffusion-s6.md).

Part 1: every variant under tests/data/config_semantics_diffusion_s6/ (one setting each, written by cfg25 from the
trainers' source) is read as its expect file says. main 4353b75 read 103 of the first 110 (seven in CHANGED failed there:
benchmarks/results/configs-semantics-diffusion-s6-main.json); the two st-16/st-17 files were written after phase 1 and
fail on main too.
Part 2: variants of each mechanism phase 2 added, written for this test (other scripts, tasks, spellings, file shapes),
and near-misses that name the same words without the setting."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from attn_doctor import configs

from ci_support import evaluate

if __import__("sys").version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

ROOT = Path(__file__).resolve().parent / "data" / "config_semantics_diffusion_s6"
FILES = sorted(p for p in ROOT.rglob("*") if p.is_file() and not p.name.endswith(".expect.toml") and p.name != "README.md")
TRAINER = {"musubi-tuner": {"musubi", "blissful"}, "blissful-tuner": {"blissful", "musubi"}}
# read wrong on main 4353b75 (SEMANTICS-diffusion-s6.md, **MISS**)
CHANGED = {"mus-10-kandinsky-force-nabla.sh", "mus-11-kandinsky-nabla-task.sh", "bliss-03-kandinsky-nabla.sh",
           "mus-18-gui-project-qwen.toml", "mus-19-gui-project-zimage-compile.toml",
           "st-12-mp-no-quantised-bf16-default.json", "diff-09-zimage-env-flex.sh",
           "st-16-sana-sage.json", "st-17-fp8.json"}


def test_the_variant_set_is_whole():
    assert len(FILES) == 112 and {p.name for p in FILES} >= CHANGED


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_variant(path):
    want = tomllib.loads(path.with_name(path.name + ".expect.toml").read_text(encoding="utf-8"))
    cfg = configs.load(str(path))
    assert cfg["detected"]["trainer"] in TRAINER.get(want["trainer"], {want["trainer"]})
    assert sorted(cfg["required"]) == sorted(want["required"])
    assert (cfg["dtype"] or "") == want["dtype"]
    assert (cfg["compile_mode"] or "none") == (want["compile_mode"] or "none")


def load(tmp_path, name, text):
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return configs.load(str(p))


def config_ids(cfg):
    report = evaluate(None, config=cfg, required=list(cfg["required"]), compile_mode=cfg["compile_mode"])
    return sorted(f.id for f in report.findings if f.section == "config")


def k5(extra, script="kandinsky5_train_network"):
    return (f"accelerate launch --mixed_precision bf16 src/musubi_tuner/{script}.py --dit /m/k5.safetensors "
            f"--dataset_config ds.toml --network_module networks.lora_kandinsky --network_dim 32 --mixed_precision bf16 {extra}\n")


# --- Kandinsky 5's nabla attention = torch flex_attention (kohya-ss/musubi-tuner@30c658c kandinsky5_train_network.py:81-96,
# 127-131, 865; kandinsky5/configs.py nabla tasks; blissful-tuner@e4ed1f0 kandinsky5_train_network.py:646-650)
NABLA = [
    ("pro-i2v-hd-task", k5("--task k5-pro-i2v-5s-hd --flash_attn"), ["fa2", "flex"]),
    ("distil-task-xformers", k5("--task k5-lite-t2v-10s-distil-sd --xformers --split_attn"), ["xformers", "flex"]),
    ("forced-on-sd-task", k5("--task k5-pro-t2v-5s-sd --flash3 --force_nabla_attention --nabla_P 0.8"), ["fa3", "flex"]),
    ("generation-nabla-task", "python src/musubi_tuner/kandinsky5_generate_video.py --task k5-pro-t2v-10s-hd "
     "--dit /m/k5.safetensors --prompt 'a cat' --save_path out\n", ["flex"]),
    # near-misses: a task without nabla, and nabla's own tuning options without the switch that turns it on
    ("sd-task-no-nabla", k5("--task k5-pro-i2v-5s-sd --xformers"), ["xformers"]),
    ("nabla-options-only", k5("--task k5-lite-t2v-5s-sd --sdpa --no_nabla_add_sta --nabla_wT 7"), ["sdpa"]),
    ("wan-same-task-word", "accelerate launch src/musubi_tuner/wan_train_network.py --task t2v-14B --dit d "
     "--dataset_config ds.toml --sdpa --mixed_precision bf16\n", ["sdpa"]),
]


@pytest.mark.parametrize("name,text,want", NABLA, ids=[n for n, _, _ in NABLA])
def test_kandinsky_nabla_is_flex(tmp_path, name, text, want):
    cfg = load(tmp_path, "train.sh", text)
    assert cfg["detected"]["trainer"] in ("musubi", "blissful") and sorted(cfg["required"]) == sorted(want)


def test_kandinsky_nabla_from_the_config_file(tmp_path):
    (tmp_path / "k5.toml").write_text('task = "k5-lite-t2v-5s-sd"\nsdpa = true\nforce_nabla_attention = true\n'
                                      'mixed_precision = "bf16"\n', encoding="utf-8")
    cfg = load(tmp_path, "train.sh", k5("--config_file k5.toml").replace(" --mixed_precision bf16 {", " {"))
    assert sorted(cfg["required"]) == ["flex", "sdpa"]


def test_nabla_is_not_a_second_chain_backend(tmp_path):
    # flex runs beside --sdpa: not "several backends"; without a chain flag the run still stops (trainer_base.py:1511-1514)
    ids = config_ids(load(tmp_path, "a.sh", k5("--task k5-pro-t2v-5s-hd --sdpa")))
    assert "config.musubi-several-backends" not in ids and "config.musubi-no-backend" not in ids
    ids = config_ids(load(tmp_path, "b.sh", k5("--task k5-pro-t2v-5s-sd --force_nabla_attention")))
    assert "config.musubi-no-backend" in ids


# --- the musubi-tuner GUI's musubi_project.toml (src/musubi_tuner/gui/gui.py:86-95, 776-801, 885-907, 915-921)
def project(**kw):
    d = {"model_arch": "Qwen-Image", "vram_size": "24", "comfy_models_dir": "/c/models", "resolution_w": 1328,
         "resolution_h": 1328, "batch_size": 1}
    d.update(kw)
    return "".join(f"{k} = {json.dumps(v)}\n" for k, v in d.items())


PROJECTS = [
    ("fp16-extra-flash", project(mixed_precision="fp16", fp8_scaled=True, block_swap=8, additional_args="--flash_attn"),
     "musubi_project.toml", ["sdpa"], "float16", "none"),  # --sdpa comes first in the elif chain
    ("before-training", project(), "musubi_project.toml", ["sdpa"], "", "none"),
    ("extra-dynamo", project(model_arch="Z-Image-Turbo", mixed_precision="bf16", num_epochs=8,
                             additional_args="--dynamo_backend inductor --dynamo_mode reduce-overhead"),
     "project.toml", ["sdpa"], "bfloat16", "reduce-overhead"),
]


@pytest.mark.parametrize("name,text,fname,req,dtype,comp", PROJECTS, ids=[p[0] for p in PROJECTS])
def test_musubi_gui_project(tmp_path, name, text, fname, req, dtype, comp):
    cfg = load(tmp_path, fname, text)
    assert (cfg["detected"]["trainer"], cfg["required"], cfg["dtype"] or "", cfg["compile_mode"]) == \
        ("musubi", req, dtype, comp)


def test_gui_project_extra_flag_is_named_unused(tmp_path):
    cfg = load(tmp_path, "musubi_project.toml", project(mixed_precision="bf16", additional_args="--xformers"))
    assert "config.musubi-several-backends" in config_ids(cfg)


def test_training_toml_naming_model_arch_is_not_a_gui_project(tmp_path):
    # near-miss: a --config_file TOML with one GUI-looking key: read as the TOML it is (xformers, not the GUI's sdpa)
    text = ('model_arch = "Qwen-Image"\ndit = "/m/qwen.safetensors"\ndataset_config = "ds.toml"\n'
            'network_module = "networks.lora_qwen_image"\nxformers = true\nmixed_precision = "bf16"\nfp8_scaled = true\n')
    cfg = load(tmp_path, "train.toml", text)
    assert (cfg["detected"]["trainer"], cfg["required"]) == ("musubi", ["xformers"])


# --- SimpleTuner weight_dtype with mixed_precision "no" (bghira/SimpleTuner@bc8e6ab cmd_args.py:950-952, 1108-1113)
def st(**kw):
    d = {"model_family": "flux", "pretrained_model_name_or_path": "black-forest-labs/FLUX.1-dev",
         "data_backend_config": "config/multidatabackend.json", "output_dir": "out", "mixed_precision": "no"}
    d.update(kw)
    return json.dumps(d, indent=2) + "\n"


SIMPLETUNER = [
    ("lora-fp32-default-dtype", st(model_type="lora", base_model_precision="fp8-torchao", base_model_default_dtype="fp32"),
     "config.json", "float32"),
    ("full-quantised", st(model_type="full", base_model_precision="int8-quanto"), "config.json", "float32"),
    ("lora-quantised-default", st(model_type="lora", base_model_precision="int4-quanto"), "config.json", "bfloat16"),
    ("env-lora-quantised", "MODEL_TYPE='lora'\nMODEL_FAMILY='flux'\nMODEL_NAME='black-forest-labs/FLUX.1-dev'\n"
     "OUTPUT_DIR='out'\nMIXED_PRECISION='no'\nBASE_MODEL_PRECISION='int8-quanto'\n", "config.env", "bfloat16"),
    # near-miss: no_change is no quantisation
    ("lora-not-quantised", st(model_type="lora", base_model_precision="no_change"), "config.json", "float32"),
]


@pytest.mark.parametrize("name,text,fname,dtype", SIMPLETUNER, ids=[s[0] for s in SIMPLETUNER])
def test_simpletuner_no_precision_dtype(tmp_path, name, text, fname, dtype):
    cfg = load(tmp_path, fname, text)
    assert (cfg["detected"]["trainer"], cfg["dtype"]) == ("simpletuner", dtype)


# --- DIFFUSERS_ATTN_BACKEND set on a launch line continued with `\` (diffusers@58eb52c attention_dispatch.py:262)
def launch(prefix, script):
    return (f"#!/bin/bash\n{prefix} {script}.py \\\n  --pretrained_model_name_or_path=m --instance_data_dir=d \\\n"
            "  --instance_prompt='a photo of sks dog' --output_dir=o --mixed_precision=bf16\n")


ENV_LINES = [
    ("qwen-fa3", launch("DIFFUSERS_ATTN_BACKEND=_flash_3 accelerate launch", "train_dreambooth_lora_qwen_image"), ["fa3"]),
    ("flux2-quoted-sage-python", launch('DIFFUSERS_ATTN_BACKEND="sage" python', "train_dreambooth_lora_flux2"), ["sage"]),
    # near-misses: the same continued line before a UNet script (its processors ignore the variable), and a comment
    ("sdxl-ignored", launch("DIFFUSERS_ATTN_BACKEND=flash accelerate launch", "train_dreambooth_lora_sdxl"), []),
    ("comment-only", "# DIFFUSERS_ATTN_BACKEND=flash would be faster here \\\n"
     + launch("accelerate launch", "train_dreambooth_lora_flux").split("\n", 1)[1], []),
]


@pytest.mark.parametrize("name,text,want", ENV_LINES, ids=[e[0] for e in ENV_LINES])
def test_diffusers_env_on_a_continued_line(tmp_path, name, text, want):
    cfg = load(tmp_path, "train.sh", text)
    assert (cfg["detected"]["trainer"], cfg["required"]) == ("diffusers", want)


# --- SimpleTuner: Sana turns SageAttention off (models/sana/model.py:273-278); mixed_precision fp8 autocasts to bf16
# (trainer.py:1010-1016 + accelerate accelerator.py:598-603, utils/modeling.py:2085-2091)
SANA_FP8 = [
    ("sana-sage-int8-training", st(model_family="sana", model_type="lora", mixed_precision="bf16",
                                   attention_mechanism="sageattention-int8-fp16-cuda", sageattention_usage="training"),
     "config.json", [], "bfloat16"),
    ("sana-sage-toml", 'model_family = "sana"\nmodel_type = "full"\ndata_backend_config = "config/multidatabackend.json"\n'
     'attention_mechanism = "sageattention"\nmixed_precision = "fp8"\n', "config.toml", [], "bfloat16"),
    ("fp8-env", "MODEL_TYPE='lora'\nMODEL_FAMILY='flux'\nMODEL_NAME='black-forest-labs/FLUX.1-dev'\nOUTPUT_DIR='out'\n"
     "DATALOADER_CONFIG='config/multidatabackend.json'\nMIXED_PRECISION='fp8'\n", "config.env", [], "bfloat16"),
    # near-misses: Sana's video sibling keeps SageAttention (sanavideo/model.py has no such switch), and SD3 too
    ("sanavideo-keeps-sage", st(model_family="sanavideo", mixed_precision="bf16", attention_mechanism="sageattention"),
     "config.json", ["sage"], "bfloat16"),
    ("sd3-keeps-sage", st(model_family="sd3", mixed_precision="fp16", attention_mechanism="sageattention"),
     "config.json", ["sage"], "float16"),
]


@pytest.mark.parametrize("name,text,fname,req,dtype", SANA_FP8, ids=[v[0] for v in SANA_FP8])
def test_simpletuner_sana_sage_and_fp8(tmp_path, name, text, fname, req, dtype):
    cfg = load(tmp_path, fname, text)
    assert (cfg["detected"]["trainer"], cfg["required"], cfg["dtype"]) == ("simpletuner", req, dtype)
    if name.startswith("sana-"):
        assert not [i for i in config_ids(cfg) if "sage" in i]  # no note that validation runs SageAttention
