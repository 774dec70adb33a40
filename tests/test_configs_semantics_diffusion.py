"""Issue 24, semantics audit of the diffusion trainers (fixtures/configs/real/SEMANTICS-diffusion.md).

Part 1: every row of tests/semantics_diffusion_rows.py (one minimal config written by hand per setting, with what the
trainer's own source does with it) is read as that source says. Rows in CHANGED gave something else on main at c3ff081
(benchmarks/results/semantics-diffusion-before.json: 28/43 agreed) and fail there; the rest guard readings that were
already right.
Part 2: variants written for this test of each mechanism the audit changed (other spellings, files and scripts of the
same semantics); those marked NEW fail on main at c3ff081."""

from __future__ import annotations

import json

import pytest

from attn_doctor import configs

from ci_support import evaluate
from semantics_diffusion_rows import ROWS

READER = {"musubi-tuner": {"musubi", "blissful"}, "blissful-tuner": {"blissful"}}
# the rows main's readers got wrong (SEMANTICS-diffusion.md, **DIFF**)
CHANGED = {"sds-lumina-flash", "sds-lumina-sage", "sds-lumina-full-flash", "sds-hyimage-xformers", "sds-anima-xformers",
           "mus-sdpa-and-xformers", "mus-flash-and-xformers", "mus-flash3-and-sdpa-toml", "bliss-optimized-compile",
           "bliss-optimized-compile-args", "diff-env-flux-flash", "diff-export-flux-flex", "diff-env-unet-ignored",
           "st-dynamo-auto", "st-mp-no", "ot-hidream-fp16-falls-back", "ot-hunyuan-fallback-fp32",
           "sds-compile-launcher-mode", "mus-dynamo-launcher-mode", "gui-lumina-flash", "gui-anima-attn-mode"}
# (gui-hunyuan-image-xformers gives the right fields on main too, read there as SD 1.x's train_network.py --xformers)


def load(tmp_path, name, text):
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return configs.load(str(p))


def findings(cfg):
    report = evaluate(None, config=cfg, required=list(cfg["required"]), compile_mode=cfg["compile_mode"])
    return [f for f in report.findings if f.section == "config"]


def fields(cfg):
    return (sorted(cfg["required"]), cfg["dtype"] or "", cfg["compile_mode"] or "none")


@pytest.mark.parametrize("row", ROWS, ids=[r[0] for r in ROWS])
def test_row_reads_as_the_trainers_source_says(tmp_path, row):
    rid, name, text, want, source = row
    cfg = load(tmp_path, name, text)
    assert cfg["detected"]["trainer"] in READER.get(want["trainer"], {want["trainer"]}), source
    assert fields(cfg) == (sorted(want["required"]), want["dtype"], want["compile_mode"] or "none"), source


def test_changed_rows_are_rows():
    assert CHANGED <= {r[0] for r in ROWS}


# ---- sd-scripts: Lumina's own switches, --xformers on HunyuanImage / Anima (kohya-ss/sd-scripts@48d368f) ----
def test_lumina_flash_from_the_config_file_toml(tmp_path):
    """NEW: the same switch in a --config_file TOML (read_config_from_file flattens its tables into the namespace)."""
    cfg = load(tmp_path, "lumina.toml", '[model]\npretrained_model_name_or_path = "lumina.safetensors"\n'
                                        'gemma2 = "gemma.safetensors"\nae = "ae.safetensors"\n'
                                        '[network]\nnetwork_module = "networks.lora_lumina"\n'
                                        '[train]\nuse_flash_attn = true\nmixed_precision = "bf16"\n'
                                        'save_model_as = "safetensors"\n')
    assert cfg["detected"]["trainer"] == "sd-scripts" and cfg["family"] == "lumina2"
    assert fields(cfg) == (["fa2"], "bfloat16", "none")


def test_lumina_sage_is_training_through_sage(tmp_path):
    """NEW: sageattn has no backward ("Sage Attention only supports inference", lumina_models.py:868): the sage-training
    finding's fix is Lumina's own switch, not --attn_mode."""
    cfg = load(tmp_path, "run.sh", "accelerate launch lumina_train_network.py --pretrained_model_name_or_path m "
                                   "--network_module networks.lora_lumina --use_sage_attn --mixed_precision bf16\n")
    assert cfg["required"] == ["sage"] and cfg["sage_training"] is True
    found = [f for f in findings(cfg) if f.id == "config.sage-training"]
    assert found and "use_sage_attn" in found[0].fix and "attn_mode" not in found[0].fix


def test_lumina_full_finetune_ignores_the_sage_switch(tmp_path):
    """lumina_train.py:301 passes use_flash_attn only; --use_sage_attn alone leaves SDPA (guard: main read SDPA too)."""
    cfg = load(tmp_path, "run.sh", "accelerate launch lumina_train.py --pretrained_model_name_or_path m "
                                   "--use_sage_attn --mixed_precision bf16 --save_model_as safetensors\n")
    assert fields(cfg) == (["sdpa"], "bfloat16", "none")


def test_hunyuan_image_xformers_from_toml(tmp_path):
    """NEW: `xformers = true` in a HunyuanImage LoRA TOML (network_module lora_hunyuan_image, run by that script)."""
    (tmp_path / "hy.toml").write_text('network_module = "networks.lora_hunyuan_image"\nxformers = true\n'
                                      'split_attn = true\nmixed_precision = "bf16"\n', encoding="utf-8")
    cfg = load(tmp_path, "run.sh", "accelerate launch hunyuan_image_train_network.py --config_file hy.toml "
                                   "--pretrained_model_name_or_path m\n")
    assert fields(cfg) == (["xformers"], "bfloat16", "none")


def test_anima_full_finetune_does_not_read_xformers(tmp_path):
    """anima_train.py:243 hands args.attn_mode to the model and never reads --xformers (guard)."""
    cfg = load(tmp_path, "run.sh", "accelerate launch anima_train.py --pretrained_model_name_or_path m --xformers "
                                   "--mixed_precision bf16\n")
    assert "xformers" not in cfg["required"]


# ---- musubi-tuner: only the first attention flag runs (training/trainer_base.py:1501-1510) ----
def test_musubi_several_flags_warn_and_require_the_first(tmp_path):
    """NEW: --xformers --sdpa: the warning names both, only sdpa is required, xformers is 'unused'."""
    cfg = load(tmp_path, "run.sh", "accelerate launch src/musubi_tuner/hv_train_network.py --dit d --dataset_config "
                                   "d.toml --xformers --sdpa --mixed_precision bf16\n")
    assert cfg["required"] == ["sdpa"]
    assert {a["name"]: a["kind"] for a in cfg["attention"]} == {"--sdpa": "local", "--xformers": "unused"}
    ids = [f.id for f in findings(cfg)]
    # HunyuanVideo asserts split_attn for xformers only (hunyuan_model/attention.py:173): sdpa runs, so no split finding
    assert "config.musubi-several-backends" in ids and "config.xformers-no-split" not in ids


def test_musubi_flash3_loses_to_xformers(tmp_path):
    """NEW: flash3 is last in the chain: with xformers in a TOML section, xformers runs."""
    cfg = load(tmp_path, "c.toml", '[model]\ndit = "d.safetensors"\ntask = "t2v-14B"\n[attn]\nflash3 = true\n'
                                   'xformers = true\n[train]\nmixed_precision = "fp16"\ndataset_config = "d.toml"\n')
    assert fields(cfg) == (["xformers"], "float16", "none")


def test_musubi_hidream_full_finetune_takes_flash_over_sdpa(tmp_path):
    """NEW: hidream_o1_train.py:184 `"flash" if args.flash_attn else "torch"`: --sdpa --flash_attn runs flash."""
    cfg = load(tmp_path, "run.sh", "accelerate launch src/musubi_tuner/hidream_o1_train.py --dit d --dataset_config "
                                   "d.toml --sdpa --flash_attn --mixed_precision bf16\n")
    assert cfg["required"] == ["fa2"]


def test_musubi_flags_of_a_loop_each_run(tmp_path):
    """Each run of a for loop over flags has its own flag: both are required (guard of round 5b's reading)."""
    cfg = load(tmp_path, "run.sh", "for A in --flash_attn --sdpa; do accelerate launch src/musubi_tuner/"
                                   "wan_train_network.py --dit d --dataset_config d.toml $A --mixed_precision bf16; done\n")
    assert sorted(cfg["required"]) == ["fa2", "sdpa"]


def test_trace_does_not_expect_an_overridden_flag():
    """NEW: trace's config comparison skips a flag the trainer overrides (kind 'unused')."""
    from attn_doctor.trace.report import config_findings

    cfg = {"trainer": "musubi", "attention": [
        {"name": "--sdpa", "setting": "--sdpa", "backend": "sdpa", "kind": "local"},
        {"name": "--xformers", "setting": "--xformers", "backend": "xformers", "kind": "unused"}]}
    calls = [{"backend": "sdpa", "kernel": "flash", "count": 10, "site": "model.py:1"}]
    assert [f for f in config_findings(cfg, calls) if "xformers" in f.title] == []


# ---- blissful-tuner: --optimized_compile (Sarania/blissful-tuner@e4ed1f0 wan_train_network.py:784-795) ----
def test_blissful_optimized_compile_in_toml(tmp_path):
    """NEW: `optimized_compile = true` with compile_args as a TOML list."""
    cfg = load(tmp_path, "c.toml", 'dit = "d.safetensors"\ntask = "t2v-14B"\nsdpa = true\nmixed_precision = "bf16"\n'
                                   'optimized_compile = true\nrope_func = "comfy"\n'
                                   'compile_args = ["inductor", "max-autotune", "False", "False"]\n')
    assert cfg["detected"]["trainer"] == "blissful"
    assert fields(cfg) == (["sdpa"], "bfloat16", "max-autotune")


# ---- diffusers examples: DIFFUSERS_ATTN_BACKEND beside the launch line (huggingface/diffusers@58eb52c) ----
def test_diffusers_env_quoted_export_python_qwen(tmp_path):
    """NEW: a quoted export, then `python` (no accelerate: mixed precision "no" unless set) on a Qwen-Image script."""
    cfg = load(tmp_path, "train.sh", 'export DIFFUSERS_ATTN_BACKEND="flex"\n'
                                     "python train_dreambooth_lora_qwen_image.py --pretrained_model_name_or_path "
                                     "Qwen/Qwen-Image --instance_data_dir d --instance_prompt p --mixed_precision bf16\n")
    assert cfg["detected"]["trainer"] == "diffusers"
    assert fields(cfg) == (["flex"], "bfloat16", "none")


def test_diffusers_env_on_sd3_changes_nothing(tmp_path):
    """NEW: SD3's JointAttnProcessor2_0 calls SDPA itself: the variable reaches nothing."""
    cfg = load(tmp_path, "train.sh", "DIFFUSERS_ATTN_BACKEND=_flash_3 accelerate launch train_dreambooth_lora_sd3.py "
                                     "--pretrained_model_name_or_path stabilityai/stable-diffusion-3-medium-diffusers "
                                     "--instance_data_dir d --instance_prompt p --mixed_precision fp16\n")
    assert cfg["detected"]["trainer"] == "diffusers" and fields(cfg) == ([], "float16", "none")


def test_diffusers_env_on_a_unet_says_it_has_no_effect(tmp_path):
    """NEW: the UNet case keeps the setting so config.backend-no-effect can say it never reaches the model."""
    cfg = load(tmp_path, "train.sh", "DIFFUSERS_ATTN_BACKEND=flash accelerate launch train_text_to_image.py "
                                     "--pretrained_model_name_or_path runwayml/stable-diffusion-v1-5 "
                                     "--dataset_name x --mixed_precision fp16\n")
    found = [f for f in findings(cfg) if f.id == "config.backend-no-effect"]
    assert cfg["required"] == [] and found and found[0].fix.startswith("unset DIFFUSERS_ATTN_BACKEND")


def test_diffusers_env_file_alone_unchanged(tmp_path):
    """An env file with only the variable is read as before (guard)."""
    cfg = load(tmp_path, "attn.env", "export DIFFUSERS_ATTN_BACKEND=sage\n")
    assert cfg["format"] == "env" and cfg["required"] == ["sage"]


# ---- SimpleTuner (bghira/SimpleTuner@bc8e6ab) ----
def test_simpletuner_toml_dynamo_auto_and_fp32(tmp_path):
    """NEW: the same keys in config.toml: dynamo_mode "auto" is the plugin's default mode, mixed_precision "no" fp32."""
    cfg = load(tmp_path, "config.toml", 'model_family = "flux"\nmodel_type = "lora"\ndata_backend_config = "x.json"\n'
                                        'dynamo_backend = "inductor"\ndynamo_mode = "auto"\nmixed_precision = "no"\n')
    assert cfg["detected"]["trainer"] == "simpletuner"
    assert fields(cfg) == ([], "float32", "default")


def test_simpletuner_quantised_lora_no_precision_keeps_bf16(tmp_path):
    """A quantised LoRA base with mixed_precision "no" trains in bf16: weight_dtype is bf16 when base_model_default_dtype
    is bf16 (cmd_args.py:1108-1113), its default (field_registry/sections/model.py:1234-1250), and the base model is moved
    to it (trainer.py:3034-3047). (Session 5 left it unknown; session 6, cfg25, read the default: SEMANTICS-diffusion-s6.md.)"""
    cfg = load(tmp_path, "config.json", json.dumps({"model_family": "flux", "model_type": "lora",
                                                    "data_backend_config": "x.json", "mixed_precision": "no",
                                                    "base_model_precision": "int8-quanto"}))
    assert cfg["dtype"] == "bfloat16"


def test_gui_tab_checkboxes_pick_the_script(tmp_path):
    """NEW: the kohya_ss GUI's newer source-model checkboxes run those scripts (lora_gui.py:1779-1792, finetune_gui.py:
    1061-1072): family and script follow them."""
    from semantics_diffusion_rows import gui

    cfg = load(tmp_path, "hy.json", gui(hunyuan_image_checkbox=True, hunyuan_attn_mode="torch", mixed_precision="bf16"))
    assert (cfg["script"], cfg["family"], cfg["required"]) == ("hunyuan_image_train_network", "hunyuan_image", ["sdpa"])
    ft = json.loads(gui(anima_checkbox=True, anima_attn_mode="torch", mixed_precision="bf16"))
    del ft["LoRA_type"]
    ft["train_dir"] = "d"
    cfg = load(tmp_path, "ft.json", json.dumps(ft))
    assert cfg["script"] == "anima_train"


def test_anima_toml_without_a_script_is_the_anima_dit(tmp_path):
    """NEW: a --config_file TOML naming networks.lora_anima is Anima's DiT (SDPA by default, xformers with
    `xformers = true`), not a U-Net whose default is the plain matmul."""
    base = 'pretrained_model_name_or_path = "anima.safetensors"\nnetwork_module = "networks.lora_anima"\n' \
           'mixed_precision = "bf16"\nsave_model_as = "safetensors"\ncache_latents = true\n'
    cfg = load(tmp_path, "a.toml", base)
    assert (cfg["family"], cfg["required"], cfg["unet"]) == ("anima", ["sdpa"], False)
    cfg = load(tmp_path, "b.toml", base + "xformers = true\nsplit_attn = true\n")
    assert cfg["required"] == ["xformers"]


def test_simpletuner_env_no_precision(tmp_path):
    """NEW: config.env's MIXED_PRECISION=no trains in float32; with BASE_MODEL_PRECISION (env_file.py:92) quantising the
    LoRA base it stays bf16 (base_model_default_dtype's default; session 6 read it: cmd_args.py:1108-1113)."""
    cfg = load(tmp_path, "config.env", "MODEL_FAMILY=flux\nMODEL_TYPE=lora\nMIXED_PRECISION=no\n"
                                       "TRAINER_EXTRA_ARGS='--data_backend_config=x.json'\n")
    assert cfg["detected"]["trainer"] == "simpletuner" and cfg["dtype"] == "float32"
    cfg = load(tmp_path, "config.env", "MODEL_FAMILY=flux\nMODEL_TYPE=lora\nMIXED_PRECISION=no\n"
                                       "BASE_MODEL_PRECISION=int8-quanto\n")
    assert cfg["dtype"] == "bfloat16"


def test_ai_toolkit_boogu_model_kwargs_flash(tmp_path):
    """NEW: ai-toolkit's boogu_image extension takes FlashAttention 2 from model.model_kwargs.attention_backend."""
    from semantics_diffusion_rows import ait

    cfg = load(tmp_path, "job.yaml", ait("boogu_image", "        dtype: bf16\n",
                                         "        model_kwargs:\n          attention_backend: flash\n"))
    assert cfg["detected"]["trainer"] == "ai-toolkit" and fields(cfg) == (["fa2"], "bfloat16", "none")
    cfg = load(tmp_path, "job2.yaml", ait("flux", "        dtype: bf16\n",
                                          "        model_kwargs:\n          attention_backend: flash\n"))
    assert cfg["required"] == []  # only that extension reads the key (guard)
