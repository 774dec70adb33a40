"""Issue 24, semantics audit of the diffusion trainers (fixtures/configs/real/SEMANTICS-diffusion.md): one minimal config
per setting, written by hand, with what the trainer's own source does with it (required backends, the dtype attention
runs in, torch.compile's mode). tests/test_configs_semantics_diffusion.py asserts each row; `python
tests/semantics_diffusion_rows.py OUT.json` records what the readers give (benchmarks/results/semantics-diffusion-*.json).

Row: (id, file name, text, expected {trainer, required, dtype, compile_mode}, source). dtype "" = the file does not say;
compile_mode "none" = no torch.compile. Sources are the snapshots SEMANTICS-diffusion.md names (commit per trainer)."""

from __future__ import annotations

import json

SDS = "kohya-ss/sd-scripts@48d368f"
MUSUBI = "kohya-ss/musubi-tuner@30c658c"
BLISS = "Sarania/blissful-tuner@e4ed1f0"
DIFF = "huggingface/diffusers@58eb52c"
ST = "bghira/SimpleTuner@bc8e6ab"
AIT = "ostris/ai-toolkit@27a03a9"
OT = "Nerogar/OneTrainer@23df383"
DP = "tdrussell/diffusion-pipe@8f83dbf"
GUI = "bmaltais/kohya_ss@45088f0"


def sds(script: str, extra: str, net: str = "networks.lora") -> str:
    return (f"accelerate launch --num_cpu_threads_per_process 1 {script}.py --pretrained_model_name_or_path model.safetensors "
            f"--dataset_config dataset.toml --output_dir out --network_module {net} {extra}\n")


def mus(script: str, extra: str) -> str:
    return (f"accelerate launch --num_cpu_threads_per_process 1 src/musubi_tuner/{script}.py --dit dit.safetensors "
            f"--dataset_config dataset.toml --output_dir out --network_module networks.lora_wan {extra}\n")


def st(**kw) -> str:
    d = {"model_family": "flux", "model_type": "lora", "data_backend_config": "config/multidatabackend.json",
         "pretrained_model_name_or_path": "black-forest-labs/FLUX.1-dev", "output_dir": "output"}
    d.update(kw)
    return json.dumps(d, indent=2) + "\n"


def ait(arch: str, train: str = "", model: str = "") -> str:
    return ("job: extension\nconfig:\n  name: x\n  process:\n    - type: sd_trainer\n      training_folder: output\n"
            f"      model:\n        name_or_path: m\n        arch: {arch}\n{model}      train:\n        batch_size: 1\n{train}"
            "      save:\n        dtype: float16\n")


def gui(**kw) -> str:
    d = {"LoRA_type": "Standard", "pretrained_model_name_or_path": "m", "train_data_dir": "d", "output_dir": "o",
         "xformers": "xformers", "mem_eff_attn": False, "mixed_precision": "fp16", "save_precision": "fp16",
         "sdxl": False, "flux1_checkbox": False, "dynamo_backend": "no"}
    d.update(kw)
    return json.dumps(d, indent=2) + "\n"


def E(trainer, required, dtype, compile_mode="none"):
    return {"trainer": trainer, "required": required, "dtype": dtype, "compile_mode": compile_mode}


ROWS = [
    # --- sd-scripts: U-Net scripts (train_util.replace_unet_modules :3362-3380: mem_eff_attn > xformers > sdpa, none ->
    # original_unet's baddbmm + softmax); prepare_accelerator :5466-5500 (mixed_precision default "no", dynamo only
    # with --torch_compile)
    ("sds-unet-none", "run.sh", sds("sdxl_train_network", ""), E("sd-scripts", [], "float32"),
     f"{SDS} library/train_util.py:3362-3380, 3981-3984"),
    ("sds-unet-sdpa", "run.sh", sds("train_network", "--sdpa --mixed_precision fp16"), E("sd-scripts", ["sdpa"], "float16"),
     f"{SDS} library/train_util.py:3362-3380"),
    ("sds-unet-xformers-compile", "run.sh", sds("sdxl_train_network", "--xformers --mixed_precision bf16 --torch_compile"),
     E("sd-scripts", ["xformers"], "bfloat16", "default"), f"{SDS} library/train_util.py:3362-3380, 5466-5500"),
    ("sds-compile-launcher-mode", "run.sh",
     "accelerate launch --dynamo_backend inductor --dynamo_mode max-autotune --mixed_precision bf16 sdxl_train_network.py "
     "--pretrained_model_name_or_path m --dataset_config d.toml --network_module networks.lora --sdpa --torch_compile "
     "--mixed_precision bf16\n",
     E("sd-scripts", ["sdpa"], "bfloat16", "max-autotune"),
     f"{SDS} library/train_util.py:5466-5500 + huggingface/accelerate@16cb6eb accelerator.py:326-327, "
     "utils/dataclasses.py:1098-1099"),
    ("sds-launcher-mode-no-compile", "run.sh",
     "accelerate launch --dynamo_backend inductor --dynamo_mode max-autotune sdxl_train_network.py "
     "--pretrained_model_name_or_path m --dataset_config d.toml --network_module networks.lora --sdpa --mixed_precision bf16\n",
     E("sd-scripts", ["sdpa"], "bfloat16"), f"{SDS} library/train_util.py:5466-5469 (dynamo_backend NO)"),
    ("sds-unet-mem-eff", "run.sh", sds("train_db", "--mem_eff_attn --mixed_precision bf16"), E("sd-scripts", [], "bfloat16"),
     f"{SDS} library/train_util.py:3363-3365 (FlashAttentionFunction in pure PyTorch)"),
    ("sds-flux-xformers-ignored", "run.sh", sds("flux_train_network", "--xformers --mixed_precision bf16",
                                               "networks.lora_flux"),
     E("sd-scripts", ["sdpa"], "bfloat16"), f"{SDS} library/flux_models.py:452 (F.scaled_dot_product_attention always)"),
    ("sds-sd3-default", "run.sh", sds("sd3_train_network", "--mixed_precision bf16", "networks.lora_sd3"),
     E("sd-scripts", ["sdpa"], "bfloat16"), f"{SDS} library/sd3_utils.py:79 attn_mode='torch'"),
    # lumina: --use_flash_attn / --use_sage_attn reach NextDiT's JointAttention (lumina_models.py:370-380)
    ("sds-lumina-default", "run.sh", sds("lumina_train_network", "--mixed_precision bf16", "networks.lora_lumina"),
     E("sd-scripts", ["sdpa"], "bfloat16"), f"{SDS} library/lumina_models.py:326 (F.scaled_dot_product_attention)"),
    ("sds-lumina-flash", "run.sh", sds("lumina_train_network", "--use_flash_attn --mixed_precision bf16",
                                       "networks.lora_lumina"),
     E("sd-scripts", ["fa2"], "bfloat16"),
     f"{SDS} lumina_train_network.py:60, library/lumina_models.py:378-379, 531 (flash_attn_varlen_func)"),
    ("sds-lumina-sage", "run.sh", sds("lumina_train_network", "--use_sage_attn --use_flash_attn --mixed_precision bf16",
                                      "networks.lora_lumina"),
     E("sd-scripts", ["sage"], "bfloat16"), f"{SDS} lumina_train_network.py:61, library/lumina_models.py:370 (sage first)"),
    ("sds-lumina-full-flash", "run.sh", sds("lumina_train", "--use_flash_attn --use_sage_attn --mixed_precision bf16",
                                            "networks.lora_lumina"),
     E("sd-scripts", ["fa2"], "bfloat16"), f"{SDS} lumina_train.py:301 (passes use_flash_attn only)"),
    # hunyuan_image / anima: attn_mode = torch; --xformers -> xformers; --attn_mode overrides
    ("sds-hyimage-xformers", "run.sh", sds("hunyuan_image_train_network", "--xformers --split_attn --mixed_precision bf16",
                                           "networks.lora_hunyuan_image"),
     E("sd-scripts", ["xformers"], "bfloat16"), f"{SDS} hunyuan_image_train_network.py:389-393"),
    ("sds-anima-xformers", "run.sh", sds("anima_train_network", "--xformers --split_attn --mixed_precision bf16",
                                         "networks.lora_anima"),
     E("sd-scripts", ["xformers"], "bfloat16"), f"{SDS} anima_train_network.py:105-109"),
    ("sds-anima-attn-mode-wins", "run.sh", sds("anima_train_network", "--xformers --attn_mode torch --mixed_precision bf16",
                                               "networks.lora_anima"),
     E("sd-scripts", ["sdpa"], "bfloat16"), f"{SDS} anima_train_network.py:108-109"),
    ("sds-hyimage-default", "run.sh", sds("hunyuan_image_train_network", "--mixed_precision bf16",
                                          "networks.lora_hunyuan_image"),
     E("sd-scripts", ["sdpa"], "bfloat16"), f"{SDS} hunyuan_image_train_network.py:389"),
    # --- kohya_ss GUI JSON (kohya_gui/class_advanced_training.py:327 dropdown; lora_gui.py:2335, 2357)
    ("gui-xformers", "config.json", gui(), E("sd-scripts", ["xformers"], "float16"), f"{GUI} kohya_gui/lora_gui.py:2357"),
    ("gui-sdpa-sdxl", "config.json", gui(sdxl=True, xformers="sdpa", mixed_precision="bf16"),
     E("sd-scripts", ["sdpa"], "bfloat16"), f"{GUI} kohya_gui/lora_gui.py:2335"),
    ("gui-dynamo-overridden", "config.json", gui(dynamo_backend="inductor"), E("sd-scripts", ["xformers"], "float16"),
     f"{GUI} kohya_gui/class_accelerate_launch.py:152-154 + {SDS} library/train_util.py:5466-5500"),
    ("gui-lumina-flash", "config.json", gui(lumina_checkbox=True, lumina_use_flash_attn=True, lumina_use_sage_attn=False,
                                            xformers="sdpa", mixed_precision="bf16"),
     E("sd-scripts", ["fa2"], "bfloat16"),
     f"{GUI} kohya_gui/lora_gui.py:1789-1790, 2507-2508 + {SDS} library/lumina_models.py:378-379"),
    ("gui-anima-attn-mode", "config.json", gui(anima_checkbox=True, anima_attn_mode="flash", anima_split_attn=False,
                                               anima_torch_compile=True, mixed_precision="bf16"),
     E("sd-scripts", ["fa2"], "bfloat16", "default"),
     f"{GUI} kohya_gui/lora_gui.py:1787-1788, 2473-2477, 2536 + {SDS} anima_train_network.py:105-109"),
    ("gui-hunyuan-image-xformers", "config.json", gui(hunyuan_image_checkbox=True, hunyuan_attn_mode=None,
                                                      hunyuan_split_attn=True, mixed_precision="bf16"),
     E("sd-scripts", ["xformers"], "bfloat16"),
     f"{GUI} kohya_gui/lora_gui.py:1785-1786, 2357 + {SDS} hunyuan_image_train_network.py:389-393"),
    # --- musubi-tuner (training/trainer_base.py:1501-1514: the FIRST of sdpa, flash_attn, sage_attn, xformers, flash3)
    ("mus-sdpa", "run.sh", mus("wan_train_network", "--sdpa --mixed_precision bf16"), E("musubi-tuner", ["sdpa"], "bfloat16"),
     f"{MUSUBI} src/musubi_tuner/training/trainer_base.py:1501-1502"),
    ("mus-sdpa-and-xformers", "run.sh", mus("wan_train_network", "--xformers --sdpa --mixed_precision bf16"),
     E("musubi-tuner", ["sdpa"], "bfloat16"), f"{MUSUBI} src/musubi_tuner/training/trainer_base.py:1501-1510 (elif chain)"),
    ("mus-flash-and-xformers", "run.sh", mus("qwen_image_train_network", "--xformers --flash_attn --mixed_precision bf16"),
     E("musubi-tuner", ["fa2"], "bfloat16"), f"{MUSUBI} src/musubi_tuner/training/trainer_base.py:1503-1508"),
    ("mus-flash3-and-sdpa-toml", "config.toml",
     'dit = "dit.safetensors"\ndataset_config = "dataset.toml"\nnetwork_module = "networks.lora_wan"\n'
     'flash3 = true\nsdpa = true\nmixed_precision = "bf16"\n',
     E("musubi-tuner", ["sdpa"], "bfloat16"), f"{MUSUBI} src/musubi_tuner/training/trainer_base.py:1501-1510"),
    ("mus-compile", "run.sh", mus("hv_train_network", "--sdpa --mixed_precision bf16 --compile --compile_mode max-autotune"),
     E("musubi-tuner", ["sdpa"], "bfloat16", "max-autotune"), f"{MUSUBI} src/musubi_tuner/training/parser_common.py"),
    ("mus-dynamo-launcher-mode", "run.sh",
     "accelerate launch --dynamo_mode max-autotune --mixed_precision bf16 src/musubi_tuner/wan_train_network.py --dit d "
     "--dataset_config d.toml --sdpa --dynamo_backend inductor\n",
     E("musubi-tuner", ["sdpa"], "bfloat16", "max-autotune"),
     f"{MUSUBI} src/musubi_tuner/training/accelerator_setup.py:104-111 + huggingface/accelerate@16cb6eb "
     "utils/dataclasses.py:1098-1099"),
    ("mus-hidream-full-flash", "run.sh", mus("hidream_o1_train", "--flash_attn --mixed_precision bf16"),
     E("musubi-tuner", ["fa2"], "bfloat16"), f"{MUSUBI} src/musubi_tuner/hidream_o1_train.py:184"),
    # --- blissful-tuner: --optimized_compile compiles the Wan blocks with --compile_args (default mode "default")
    ("bliss-optimized-compile", "run.sh",
     mus("wan_train_network", "--sdpa --mixed_precision bf16 --optimized_compile --rope_func comfy"),
     E("blissful-tuner", ["sdpa"], "bfloat16", "default"),
     f"{BLISS} src/musubi_tuner/wan_train_network.py:784-795, 485; wan/modules/model.py:1033-1045"),
    ("bliss-optimized-compile-args", "run.sh",
     mus("wan_train_network", "--sdpa --mixed_precision bf16 --optimized_compile --compile_args inductor max-autotune-no-cudagraphs None False"),
     E("blissful-tuner", ["sdpa"], "bfloat16", "max-autotune-no-cudagraphs"),
     f"{BLISS} src/musubi_tuner/wan_train_network.py:790-795; wan/modules/model.py:1033-1045"),
    # --- diffusers examples: --enable_xformers_memory_efficient_attention; DIFFUSERS_ATTN_BACKEND reaches the models whose
    # processors call dispatch_attention_fn (transformer_flux.py ...), not the UNet's AttnProcessor2_0 (F.sdpa directly)
    ("diff-xformers", "run.sh",
     "accelerate launch train_text_to_image_lora.py --pretrained_model_name_or_path runwayml/stable-diffusion-v1-5 "
     "--dataset_name lambdalabs/naruto-blip-captions --mixed_precision bf16 --enable_xformers_memory_efficient_attention\n",
     E("diffusers", ["xformers"], "bfloat16"), f"{DIFF} examples/text_to_image/train_text_to_image_lora.py"),
    ("diff-env-flux-flash", "run.sh",
     "DIFFUSERS_ATTN_BACKEND=flash_varlen accelerate launch train_dreambooth_lora_flux.py --pretrained_model_name_or_path "
     "black-forest-labs/FLUX.1-dev --instance_data_dir dog --instance_prompt 'a photo of sks dog' --mixed_precision bf16\n",
     E("diffusers", ["fa2"], "bfloat16"),
     f"{DIFF} src/diffusers/utils/constants.py:45, models/attention_dispatch.py:262, 407-409"),
    ("diff-export-flux-flex", "run.sh",
     "export DIFFUSERS_ATTN_BACKEND=_flash_3\naccelerate launch train_dreambooth_lora_flux.py --pretrained_model_name_or_path "
     "black-forest-labs/FLUX.1-dev --instance_data_dir dog --instance_prompt 'a photo of sks dog' --mixed_precision bf16\n",
     E("diffusers", ["fa3"], "bfloat16"), f"{DIFF} src/diffusers/models/attention_dispatch.py:262"),
    ("diff-env-unet-ignored", "run.sh",
     "DIFFUSERS_ATTN_BACKEND=flash accelerate launch train_dreambooth_lora_sdxl.py --pretrained_model_name_or_path "
     "stabilityai/stable-diffusion-xl-base-1.0 --instance_data_dir dog --instance_prompt 'a photo of sks dog' "
     "--mixed_precision fp16\n",
     E("diffusers", [], "float16"), f"{DIFF} src/diffusers/models/attention_processor.py:1406 (AttnProcessor2_0: F.sdpa)"),
    ("diff-env-file", "attn.env", "DIFFUSERS_ATTN_BACKEND=_flash_3\n", E("diffusers", ["fa3"], "", ""),
     f"{DIFF} src/diffusers/utils/constants.py:45"),
    # --- SimpleTuner (helpers/training/trainer.py:1071-1078: dynamo_mode auto/default -> TorchDynamoPlugin's default;
    # helpers/configuration/cmd_args.py:1109-1113: weight_dtype)
    ("st-default", "config.json", st(), E("simpletuner", [], "bfloat16"), f"{ST} field_registry mixed_precision default bf16"),
    ("st-dynamo-auto", "config.json", st(dynamo_backend="inductor", dynamo_mode="auto"),
     E("simpletuner", [], "bfloat16", "default"), f"{ST} simpletuner/helpers/training/trainer.py:1071-1078"),
    ("st-dynamo-mode", "config.json", st(dynamo_backend="inductor", dynamo_mode="max-autotune"),
     E("simpletuner", [], "bfloat16", "max-autotune"), f"{ST} simpletuner/helpers/training/trainer.py:1071-1076"),
    ("st-mp-no", "config.json", st(mixed_precision="no"), E("simpletuner", [], "float32"),
     f"{ST} simpletuner/helpers/configuration/cmd_args.py:1109-1113"),
    ("st-flash", "config.json", st(attention_mechanism="flash-attn"), E("simpletuner", ["fa2"], "bfloat16"),
     f"{ST} simpletuner/helpers/training/attention_backend.py"),
    ("st-sdxl-flex", "config.json", st(model_family="sdxl", attention_mechanism="flex"), E("simpletuner", ["sdpa"], "bfloat16"),
     f"{ST} UNet: AttnProcessor2_0 ({DIFF} attention_processor.py:1406)"),
    # --- ai-toolkit (jobs/process/BaseSDTrainProcess.py:1819-1843; toolkit/config_modules.py:396-399, 746-751)
    ("ait-default", "job.yaml", ait("flux"), E("ai-toolkit", [], "float32"), f"{AIT} toolkit/config_modules.py (dtype fp32)"),
    ("ait-backend", "job.yaml", ait("wan21", "        attention_backend: flash\n        dtype: bf16\n"),
     E("ai-toolkit", ["fa2"], "bfloat16"), f"{AIT} jobs/process/BaseSDTrainProcess.py:1828-1832"),
    ("ait-compile", "job.yaml", ait("flux", "        dtype: bf16\n", "        compile: true\n        compile_mode: max-autotune\n"),
     E("ai-toolkit", [], "bfloat16", "max-autotune"), f"{AIT} jobs/process/BaseSDTrainProcess.py:2272-2360"),
    # --- OneTrainer (modules/modelSetup/BaseModelSetup.py:274-287)
    ("ot-flash", "config.json", json.dumps({"model_type": "FLUX_DEV_1", "training_method": "LORA", "base_model_name": "m",
                                            "attention_mechanism": "FLASH", "train_dtype": "BFLOAT_16"}) + "\n",
     E("onetrainer", ["fa2"], "bfloat16"), f"{OT} modules/modelSetup/BaseModelSetup.py:278-281"),
    ("ot-default-fp16", "config.json", json.dumps({"model_type": "STABLE_DIFFUSION_15", "training_method": "LORA",
                                                   "base_model_name": "m", "compile": True}) + "\n",
     E("onetrainer", [], "float16", "default"), f"{OT} modules/util/config/TrainConfig.py (train_dtype FLOAT_16)"),
    ("ot-hidream-fp16-falls-back", "config.json",
     json.dumps({"model_type": "HI_DREAM_FULL", "training_method": "LORA", "base_model_name": "m",
                 "train_dtype": "FLOAT_16"}) + "\n",
     E("onetrainer", [], "bfloat16"),
     f"{OT} modules/modelSetup/BaseHiDreamSetup.py:49 (disable_fp16_autocast), modules/util/dtype_util.py:55-72"),
    ("ot-hunyuan-fallback-fp32", "config.json",
     json.dumps({"model_type": "HUNYUAN_VIDEO", "training_method": "LORA", "base_model_name": "m",
                 "fallback_train_dtype": "FLOAT_32"}) + "\n",
     E("onetrainer", [], "float32"), f"{OT} modules/modelSetup/BaseHunyuanVideoSetup.py:49, TrainConfig.py:1074-1075"),
    # --- diffusion-pipe (no attention key: [model] type decides)
    ("dp-wan", "train.toml", "output_dir = 'out'\nmicro_batch_size_per_gpu = 1\ncompile = true\n[model]\ntype = 'wan'\n"
                              "ckpt_path = 'w'\ndtype = 'bfloat16'\n",
     E("diffusion-pipe", ["fa2"], "bfloat16", "default"), f"{DP} models/wan/model.py:146,176; models/wan/attention.py:89-107"),
    ("dp-flux", "train.toml", "output_dir = 'out'\nmicro_batch_size_per_gpu = 1\n[model]\ntype = 'flux'\n"
                               "diffusers_path = 'f'\ndtype = 'bfloat16'\n",
     E("diffusion-pipe", [], "bfloat16"), f"{DP} models/flux.py (diffusers FluxTransformer2DModel, native SDPA)"),
]


def measure() -> list[dict]:
    """What attn-doctor's readers give for each row (run with PYTHONPATH set to the tree to measure)."""
    import os
    import tempfile

    from attn_doctor import configs
    from attn_doctor.model import UsageError

    out = []
    for rid, name, text, want, source in ROWS:
        d = tempfile.mkdtemp()
        p = os.path.join(d, name)
        with open(p, "w", encoding="utf-8") as fh:
            fh.write(text)
        try:
            c = configs.load(p)
            got = {"trainer": c["detected"]["trainer"], "required": sorted(c.get("required") or []),
                   "dtype": c.get("dtype") or "", "compile_mode": c.get("compile_mode") or ""}
        except UsageError as e:
            got = {"refused": str(e).replace(d + os.sep, "")}
        out.append({"id": rid, "source": source, "expected": want, "got": got})
    return out


if __name__ == "__main__":
    import sys

    TRAINER = {"musubi-tuner": "musubi", "blissful-tuner": "musubi"}
    rows = measure()
    agree = 0
    for r in rows:
        g, w = r["got"], r["expected"]
        ok = "refused" not in g and g["trainer"] in (TRAINER.get(w["trainer"], w["trainer"]), w["trainer"], "blissful") and \
            g["required"] == sorted(w["required"]) and g["dtype"] == w["dtype"] and \
            (g["compile_mode"] or "none") == (w["compile_mode"] or "none")
        r["agrees"] = ok
        agree += ok
        print(("ok  " if ok else "DIFF"), r["id"], "" if ok else f"got {g}  want {w}")
    print(f"{agree}/{len(rows)} rows agree with the trainers' source")
    if len(sys.argv) > 1:
        with open(sys.argv[1], "w", encoding="utf-8") as fh:
            json.dump({"rows": len(rows), "agree": agree, "records": rows}, fh, indent=1)
