"""Trainer configs (--config): each trainer's fixtures give the right `required`, smoke parameters and
findings; unreadable configs are one line and exit 2. Facts are the saved CPU report's unless a test says
what it fakes."""

import json
import os

import pytest

from attn_doctor import configs
from attn_doctor.knowledge import entries
from attn_doctor.model import UsageError
from ci_support import CONFIGS, CPU_REPORT, cli, evaluate, saved_facts, with_gpu


def run(path, facts=None, **ctx):
    cfg = configs.load(str(path))
    report = evaluate(facts, config=cfg, required=list(cfg["required"]), compile_mode=cfg["compile_mode"], **ctx)
    return cfg, report


def config_ids(report):
    return sorted(f.id for f in report.findings if f.section == "config")


# (fixture, trainer, format, required, dtype, head_dims, compile_mode, batch, config findings)
CASES = [
    ("simpletuner-flex/config.json", "simpletuner", "json", ["flex"], "bfloat16", [128], "none", 1,
     ["config.flex-uncompiled"]),
    ("simpletuner-wan-fa3/config.toml", "simpletuner", "toml", ["fa3"], "bfloat16", [128], "max-autotune", 2,
     ["config.mask-refused"]),
    ("simpletuner-sage/config.env", "simpletuner", "env", ["sage"], "bfloat16", [128], "none", 4,
     ["config.mask-dropped", "config.simpletuner-sage-training"]),
    ("simpletuner-sdxl/config.json", "simpletuner", "json", ["sdpa"], "float16", [64], "none", 4,
     ["config.backend-no-effect"]),
    ("blissful-cute/qwen_image.toml", "musubi", "toml", ["cute"], "bfloat16", [128], "max-autotune-no-cudagraphs", 2,
     []),
    ("musubi-wan-cmd.txt", "musubi", "cmdline", ["sdpa"], "bfloat16", [128], "max-autotune", None, []),
    ("musubi-hv-typos-cmd.txt", "musubi", "cmdline", ["xformers"], "bfloat16", [128], "none", None,
     ["config.musubi-unknown-flag", "config.xformers-no-split"]),
    ("musubi-sage.toml", "musubi", "toml", ["sage"], "float16", [128], "none", None, ["config.musubi-sage-training"]),
    ("diffusers-flash4.env", "diffusers", "env", [], None, None, None, None, ["config.hub-kernels-missing"]),
    # issue 12: both were once read as SimpleTuner configs (mixed_precision is a SimpleTuner key too)
    ("musubi-sage-issue12.toml", "musubi", "toml", ["sage"], "bfloat16", [128], "none", None,
     ["config.musubi-sage-training"]),
    ("blissful-cute-issue12.toml", "musubi", "toml", ["cute"], "bfloat16", None, "max-autotune", None, []),
]


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_fixture(case):
    name, trainer, fmt, required, dtype, head_dims, mode, batch, found = case
    cfg, report = run(CONFIGS / name)
    assert (cfg["trainer"], cfg["format"]) == (trainer, fmt)
    assert cfg["required"] == required and report.required == required
    assert (cfg["dtype"], cfg["head_dims"], cfg["compile_mode"], cfg["batch_size"]) == (dtype, head_dims, mode, batch)
    assert config_ids(report) == found
    json.dumps(cfg)  # a saved report must be able to carry it


def test_issue12_files_are_read_as_their_trainers():
    musubi = configs.load(str(CONFIGS / "musubi-sage-issue12.toml"))
    assert musubi["detected"]["trainer"] == "musubi" and musubi["sage_training"]
    assert {"sage_attn", "network_module=networks.lora_wan"} <= set(musubi["detected"]["evidence"])
    assert "mixed_precision" not in musubi["detected"]["evidence"]  # a common key weighs too little to name
    bliss = configs.load(str(CONFIGS / "blissful-cute-issue12.toml"))
    assert (bliss["detected"]["trainer"], bliss["trainer_title"]) == ("blissful", "blissful-tuner")
    assert bliss["detected"]["evidence"][0] == "cute"


def test_issue12_blissful_cute_max_autotune_with_cuda_malloc_async_fails():
    facts = saved_facts()
    facts["env"] = {"PYTORCH_ALLOC_CONF": "backend:cudaMallocAsync"}  # FAKE: the user's allocator setting
    _, report = run(CONFIGS / "blissful-cute-issue12.toml", facts)
    hit = [f for f in report.findings if f.id == "alloc.async-cudagraphs"]
    assert hit and hit[0].severity == "error" and report.exit_code == 1
    facts["env"] = {}
    _, report = run(CONFIGS / "blissful-cute-issue12.toml", facts)
    assert "alloc.async-cudagraphs" not in [f.id for f in report.findings]


def test_required_backend_missing_fails_the_run():
    _, report = run(CONFIGS / "blissful-cute/qwen_image.toml")
    assert report.exit_code == 1
    assert [f.backend for f in report.findings if f.id == "require.not-ok"] == ["cute"]


def test_blissful_cute_toml_reads_its_dataset_batch_size():
    cfg = configs.load(str(CONFIGS / "blissful-cute/qwen_image.toml"))
    assert cfg["trainer_title"] == "blissful-tuner" and cfg["family"] == "qwen_image"
    assert cfg["compile"] == {"enabled": True, "mode": "max-autotune-no-cudagraphs", "setting": "compile"}


def test_compile_mode_reaches_the_allocator_check():
    facts = saved_facts()
    facts["env"] = {"PYTORCH_ALLOC_CONF": "backend:cudaMallocAsync"}
    _, graphs = run(CONFIGS / "musubi-wan-cmd.txt", facts)  # --compile --compile_mode max-autotune
    hit = [f for f in graphs.findings if f.id == "alloc.async-cudagraphs"]
    assert hit and hit[0].severity == "error"
    _, safe = run(CONFIGS / "blissful-cute/qwen_image.toml", facts)  # max-autotune-no-cudagraphs
    assert "alloc.async-cudagraphs" not in [f.id for f in safe.findings]


def test_simpletuner_xformers_refused_on_hopper():
    cfg = {"model_family": "flux", "attention_mechanism": "xformers"}
    from attn_doctor.configs.simpletuner import summarize

    c = configs.finish(summarize(cfg, "json"))
    report = evaluate(with_gpu(saved_facts()), config=c, required=c["required"])  # FAKE: an H100 added
    assert "config.simpletuner-xformers-sm90" in config_ids(report)
    report = evaluate(with_gpu(saved_facts(), "NVIDIA A100-SXM4-80GB", (8, 0)), config=c, required=c["required"])
    assert "config.simpletuner-xformers-sm90" not in config_ids(report)


def write(tmp_path, name, text):
    p = tmp_path / name
    p.write_text(text)
    return p


def test_simpletuner_unknown_name_and_suggestion(tmp_path):
    p = write(tmp_path, "config.json", json.dumps({"model_family": "flux", "attention_mechanism": "flash_attn_2"}))
    cfg, report = run(p)
    assert cfg["required"] == []
    f = [f for f in report.findings if f.id == "config.simpletuner-unknown-backend"][0]
    assert f.severity == "error" and "`flash_attn_2`" in f.title
    assert f.fix.startswith('"attention_mechanism": "flash-attn-2"')


def test_simpletuner_sage_for_validation_only(tmp_path):
    p = write(tmp_path, "config.json", json.dumps({"attention_mechanism": "sageattention", "model_family": "flux"}))
    cfg, report = run(p)
    assert cfg["required"] == ["sage"] and not cfg["sage_training"]  # SDPA for training is the default nobody chose
    assert config_ids(report) == ["config.simpletuner-sage-inference"]


def test_simpletuner_hub_kernel_with_kernels_installed(tmp_path):
    p = write(tmp_path, "config.toml", 'model_family = "flux"\nattention_mechanism = "flash-attn-4-hub"\n'
                                       'train_batch_size = 1\n')
    facts = saved_facts()
    facts["packages"]["versions"]["kernels"] = "0.12.3"  # FAKE: the kernels package installed
    cfg, report = run(p, facts)
    assert cfg["required"] == [] and config_ids(report) == ["config.hub-kernel"]
    f = report.findings[[x.id for x in report.findings].index("config.hub-kernel")]
    assert "kernels-community/flash-attn4" in f.title


def test_not_checked_backends(tmp_path):
    p = write(tmp_path, "config.json", json.dumps({"attention_mechanism": "sla"}))
    cfg, report = run(p)
    assert cfg["required"] == [] and config_ids(report) == ["config.backend-not-checked"]


def test_diffusers_env_names(tmp_path):
    p = write(tmp_path, "serve.env", "# comment\nexport DIFFUSERS_ATTN_BACKEND='flash_attn'  # typo\n")
    cfg, report = run(p)
    f = [f for f in report.findings if f.id == "config.diffusers-unknown-backend"][0]
    assert "'flash_attn' is not a valid AttentionBackendName" in f.title
    p = write(tmp_path, "flex.env", "DIFFUSERS_ATTN_BACKEND=flex\n")
    cfg, report = run(p)
    assert cfg["required"] == ["flex"]
    f = [f for f in report.findings if f.id == "config.flex-uncompiled"][0]
    assert f.severity == "info"  # an env file does not say whether the model is compiled
    p = write(tmp_path, "cudnn.env", "DIFFUSERS_ATTN_BACKEND=_native_cudnn\n")
    cfg = configs.load(str(p))
    assert cfg["required"] == ["sdpa"] and cfg["attention"][0]["sdpa_kernel"] == "cudnn"


def test_diffusers_backend_in_the_environment_without_config():
    facts = saved_facts()
    facts["env"]["DIFFUSERS_ATTN_BACKEND"] = "flash3"
    report = evaluate(facts)
    assert config_ids(report) == ["config.diffusers-unknown-backend"] and report.required == []


def test_musubi_toml_near_miss_key_and_no_backend(tmp_path):
    p = write(tmp_path, "train.toml", '[model]\ndit = "/m/dit.safetensors"\n[attn]\nflash-attn = true\n')
    cfg, report = run(p)
    assert cfg["required"] == []
    assert config_ids(report) == ["config.musubi-no-backend", "config.musubi-unknown-key"]
    no = [f for f in report.findings if f.id == "config.musubi-no-backend"][0]
    assert no.severity == "warning"  # a TOML: the command line may add the flag


def test_musubi_command_line_without_backend_is_an_error(tmp_path):
    p = write(tmp_path, "cmd.sh", "python wan_train_network.py --task t2v-1.3B --dit x.safetensors --mixed_precision fp16\n")
    cfg, report = run(p)
    no = [f for f in report.findings if f.id == "config.musubi-no-backend"][0]
    assert no.severity == "error" and cfg["dtype"] == "float16"


def test_musubi_flag_under_a_callers_condition_is_possible_not_required(tmp_path):
    # `[[ "$USE_XFORMERS" == true ]] && args+=(--xformers)` with USE_XFORMERS from the caller: bash runs one branch
    # and the file does not say which, so xformers is reported as possible (info), and the no-backend finding that
    # would be an error for a command line without flags is only a warning
    p = write(tmp_path, "run.sh", 'args=(--task t2v-1.3B --dit x.safetensors --mixed_precision bf16)\n'
                                  '[[ "$USE_XFORMERS" == true ]] && args+=(--xformers)\n'
                                  'accelerate launch wan_train_network.py "${args[@]}"\n')
    cfg, report = run(p)
    assert cfg["required"] == [] and cfg["dtype"] == "bfloat16"
    assert config_ids(report) == ["config.conditional-backend", "config.musubi-no-backend"]
    maybe = [f for f in report.findings if f.id == "config.conditional-backend"][0]
    assert maybe.severity == "info" and "USE_XFORMERS" in maybe.title and "xformers is possible" in maybe.title
    assert [f for f in report.findings if f.id == "config.musubi-no-backend"][0].severity == "warning"


def test_musubi_several_backends_and_cli_over_toml(tmp_path):
    write(tmp_path, "base.toml", "[training]\nflash_attn = true\nsplit_attn = true\nmixed_precision = 'fp16'\n")
    p = write(tmp_path, "run.sh", "accelerate launch --mixed_precision bf16 hv_train_network.py "
                                  "--config_file base --xformers --mixed_precision bf16\n")
    cfg, report = run(p)
    # only the first of --sdpa, --flash_attn, --sage_attn, --xformers, --flash3 runs (kohya-ss/musubi-tuner@30c658c
    # training/trainer_base.py:1501-1510): the TOML's flash_attn here, so xformers is not required
    assert cfg["required"] == ["fa2"] and cfg["dtype"] == "bfloat16" and cfg["split_attn"] is True
    assert config_ids(report) == ["config.musubi-several-backends"]


# ---- the trainers added for issue 12: each one's settings, and the traps its code sets ----

def test_ai_toolkit_job_file(tmp_path):
    job = """job: extension
config:
  name: wan_lora
  process:
    - type: sd_trainer
      train:
        batch_size: 2
        dtype: bf16
        attention_backend: flash
      model:
        name_or_path: Wan-AI/Wan2.1-T2V-1.3B-Diffusers
        arch: wan21
        compile: true
        compile_mode: max-autotune-no-cudagraphs
      save:
        dtype: float16
"""
    cfg, report = run(write(tmp_path, "wan.yaml", job))
    assert cfg["detected"]["trainer"] == "ai-toolkit" and cfg["required"] == ["fa2"]
    assert (cfg["dtype"], cfg["head_dims"], cfg["compile_mode"], cfg["batch_size"]) == \
        ("bfloat16", [128], "max-autotune-no-cudagraphs", 2)  # train.dtype, not save.dtype
    f = [f for f in report.findings if f.id == "config.mask-refused"][0]
    assert f.fix.startswith("attention_backend: flash_varlen")
    cfg, report = run(write(tmp_path, "bad.yaml", job.replace("attention_backend: flash", "attention_backend: flash_attn")))
    assert "config.diffusers-unknown-backend" in config_ids(report) and cfg["required"] == []


def test_sd_scripts_command_lines_and_toml(tmp_path):
    cfg, report = run(write(tmp_path, "sd15.sh", "accelerate launch --num_cpu_threads_per_process 1 train_network.py "
                                                 "--pretrained_model_name_or_path=v1-5.safetensors --sdpa "
                                                 "--mixed_precision=fp16 --train_batch_size=4\n"))
    assert (cfg["detected"]["trainer"], cfg["required"], cfg["dtype"], cfg["family"]) == ("sd-scripts", ["sdpa"], "float16", "sd1x")
    cfg, report = run(write(tmp_path, "flux.sh", "accelerate launch flux_train_network.py --ae ae.sft --mem_eff_attn "
                                                 "--mixed_precision bf16\n"))
    assert cfg["required"] == ["sdpa"] and cfg["head_dims"] == [128]  # Flux calls SDPA whatever the UNet flags say
    cfg, report = run(write(tmp_path, "sdxl.sh", "accelerate launch sdxl_train_network.py --mem_eff_attn --torch_compile\n"))
    assert cfg["required"] == [] and cfg["compile_mode"] == "default" and config_ids(report) == []
    cfg, report = run(write(tmp_path, "plain.sh", "accelerate launch sdxl_train_network.py --mixed_precision bf16\n"))
    assert config_ids(report) == ["config.sdscripts-no-attention"]
    assert [f.fix for f in report.findings if f.id == "config.sdscripts-no-attention"] == ["--sdpa"]
    cfg, report = run(write(tmp_path, "t.toml", '[model]\npretrained_model_name_or_path = "x"\nsave_model_as = "safetensors"\n'
                                                'clip_skip = 2\n[attn]\nflash_attn = true\nxformers = true\n'))
    assert cfg["detected"]["trainer"] == "sd-scripts" and cfg["required"] == ["xformers"]
    f = [f for f in report.findings if f.id == "config.sdscripts-unknown-option"][0]
    assert f.fix.startswith("sdpa = true")
    cfg, report = run(write(tmp_path, "hy.sh", "accelerate launch hunyuan_image_train_network.py --attn_mode sageattn\n"))
    assert cfg["required"] == ["sage"] and "config.sage-training" in config_ids(report)


def test_diffusion_pipe_toml(tmp_path):
    toml = ("output_dir = '/o'\ndataset = 'd.toml'\nmicro_batch_size_per_gpu = 2\npipeline_stages = 1\ncompile = true\n"
            "[model]\ntype = '{}'\ndtype = 'bfloat16'\ntransformer_dtype = 'float8'\n")
    cfg, _ = run(write(tmp_path, "wan.toml", toml.format("wan")))
    assert (cfg["detected"]["trainer"], cfg["required"], cfg["dtype"], cfg["compile_mode"], cfg["batch_size"]) == \
        ("diffusion-pipe", ["fa2"], "bfloat16", "default", 2)  # models/wan/model.py calls flash_attention()
    cfg, _ = run(write(tmp_path, "flux.toml", toml.format("flux")))
    assert cfg["required"] == [] and cfg["head_dims"] == [128]  # PyTorch SDPA, chosen by nobody


def test_onetrainer_json(tmp_path):
    cfg, report = run(write(tmp_path, "c.json", json.dumps({"model_type": "QWEN", "attention_mechanism": "FLASH",
                                                            "train_dtype": "BFLOAT_16", "batch_size": 4})))
    assert (cfg["detected"]["trainer"], cfg["required"], cfg["dtype"]) == ("onetrainer", ["fa2"], "bfloat16")
    f = [f for f in report.findings if f.id == "config.mask-refused"][0]
    assert f.fix.startswith('"attention_mechanism": "SDP"')
    cfg, report = run(write(tmp_path, "sd.json", json.dumps({"model_type": "STABLE_DIFFUSION_XL_10_BASE",
                                                             "attention_mechanism": "FLEX", "train_dtype": "FLOAT_16"})))
    assert cfg["required"] == ["sdpa"] and "config.backend-no-effect" in config_ids(report)
    cfg, report = run(write(tmp_path, "x.json", json.dumps({"model_type": "FLUX_DEV_1", "attention_mechanism": "FLASH_ATTN",
                                                            "base_model_name": "x"})))
    f = [f for f in report.findings if f.id == "config.onetrainer-unknown-attn"][0]
    assert f.fix.startswith('"attention_mechanism": "FLASH"') and cfg["required"] == []
    # a config saved by OneTrainer before 2025-03-08 (482333fc "remove XFormers"): XFORMERS was the default. Today's
    # BaseConfig.from_dict cannot set it, prints so and keeps SDP: a warning, nothing required
    cfg, report = run(write(tmp_path, "old.json", json.dumps({"__version": 6, "model_type": "STABLE_DIFFUSION_XL_10_BASE",
                                                              "attention_mechanism": "XFORMERS", "train_dtype": "FLOAT_16",
                                                              "base_model_name": "x"})))
    f = [f for f in report.findings if f.id == "config.onetrainer-unknown-attn"][0]
    assert f.severity == "warning" and "trains with its default, SDP" in f.title and cfg["required"] == []


def test_axolotl_yaml(tmp_path):
    base = "base_model: Qwen/Qwen3-8B\nmicro_batch_size: 2\nsequence_len: 4096\n"
    cfg, report = run(write(tmp_path, "a.yml", base + "flash_attention: true\nsdp_attention: true\nbf16: auto\n"
                                                      "torch_compile: true\ntorch_compile_mode: max-autotune\n"))
    assert (cfg["detected"]["trainer"], cfg["required"], cfg["dtype"], cfg["compile_mode"]) == \
        ("axolotl", ["fa2"], "bfloat16", "max-autotune")  # the first legacy flag in axolotl's order wins
    cfg, report = run(write(tmp_path, "b.yml", base + "attn_implementation: xformers\nsample_packing: true\n"
                                                      "fp16: true\nbf16: false\n"))
    assert (cfg["required"], cfg["dtype"]) == (["xformers"], "float16") and config_ids(report) == []
    cfg, report = run(write(tmp_path, "c.yml", base + "attn_implementation: flex\n"))
    f = [f for f in report.findings if f.id == "config.axolotl-unknown-attn"][0]
    assert f.fix.startswith("attn_implementation: flex_attention")
    # (no bf16: axolotl's default "auto", the GPU's to decide: cfg113; this machine has no GPU to resolve it with)
    cfg, report = run(write(tmp_path, "d.yml", base + "sample_packing: true\n"))
    assert cfg["required"] == [] and \
        config_ids(report) == ["config.dtype-by-gpu-unresolved", "config.packing-contamination"]
    cfg, report = run(write(tmp_path, "e.yml", base + "attn_implementation: kernels-community/flash-attn3\n"))
    assert cfg["required"] == [] and config_ids(report) == ["config.dtype-by-gpu-unresolved", "config.hub-kernels-missing"]
    assert "transformers cannot load" in [f for f in report.findings if f.id == "config.hub-kernels-missing"][0].title
    cfg, report = run(write(tmp_path, "f.yml", base + "gemma4_hybrid_attn_impl: true\n"))
    assert cfg["required"] == ["fa2", "sdpa"]


def test_axolotl_fa2_becomes_fa4_on_hopper_with_flash_attn_4(tmp_path):
    # (sequence_len: axolotl's own key; base_model alone is Ludwig's and alpaca-lora's name too)
    p = write(tmp_path, "a.yml", "base_model: Qwen/Qwen3-8B\nsequence_len: 2048\nattn_implementation: flash_attention_2\n")
    facts = with_gpu(saved_facts())  # FAKE: an H100 added
    facts["packages"]["versions"]["flash-attn-4"] = "4.0.0b36"  # FAKE: flash-attn-4 installed
    _, report = run(p, facts)
    f = [f for f in report.findings if f.id == "config.axolotl-fa4-swap"][0]
    assert f.severity == "info" and "`flash_attention_2`" in f.title and "4.0.0b36" in f.title
    _, report = run(p, with_gpu(saved_facts(), "NVIDIA A100-SXM4-80GB", (8, 0)))  # FAKE: an A100, no FA4
    assert "config.axolotl-fa4-swap" not in config_ids(report)
    p = write(tmp_path, "b.yml", "base_model: Qwen/Qwen3-8B\nsequence_len: 2048\nattn_implementation: sdpa\n")
    _, report = run(p, facts)
    assert "config.axolotl-fa4-swap" not in config_ids(report)


def test_torchtune_packed_runs_sdpa_below_its_flex_gate(tmp_path):
    # helper cfg76: torchtune's _SUPPORTS_FLEX_ATTENTION (sm75+, torch 2.5+) decides, not the config alone
    p = write(tmp_path, "lora.yaml", "model:\n  _component_: torchtune.models.llama3_2.lora_llama3_2_1b\n"
                                     "dataset:\n  _component_: torchtune.datasets.alpaca_dataset\n  packed: True\n"
                                     "dtype: bf16\n")
    cfg, report = run(p, with_gpu(saved_facts(), "Tesla V100-SXM2-32GB", (7, 0)))  # FAKE: a V100
    assert cfg["required"] == ["flex"] and report.required == [] and report.config["required"] == []
    f = [f for f in report.findings if f.id == "config.backend-off-on-gpu"][0]
    assert f.severity == "info" and "Tesla V100-SXM2-32GB (sm70)" in f.title
    _, report = run(p, with_gpu(saved_facts(), "NVIDIA T4", (7, 5)))  # FAKE: a T4, the gate's own capability
    assert report.required == ["flex"] and "config.backend-off-on-gpu" not in config_ids(report)


def test_llamafactory_misspelt_key_is_its_parser_s_error(tmp_path):
    # helper cfg76: parse_dict refuses a key no argument class has ("Some keys are not used by the HfArgumentParser")
    p = write(tmp_path, "sft.yaml", "model_name_or_path: Qwen/Qwen2.5-7B\nstage: sft\ndo_train: true\n"
                                    "finetuning_type: lora\ndataset: alpaca_en_demo\ntemplate: qwen\nenabel_liger_kernel: true\n")
    _, report = run(p)
    f = [f for f in report.findings if f.id == "config.unknown-key"][0]
    assert "`enabel_liger_kernel`" in f.title and f.fix.startswith("enable_liger_kernel: true")
    p = write(tmp_path, "fork.yaml", "model_name_or_path: Qwen/Qwen2.5-7B\nstage: sft\ndo_train: true\n"
                                     "finetuning_type: lora\ndataset: alpaca_en_demo\ntemplate: qwen\nmfsgd_rank: 8\n")
    assert "config.unknown-key" not in config_ids(run(p)[1])  # a fork's own key: no namesake upstream


def test_llm_configs_take_head_dims_from_a_local_model_directory(tmp_path):
    model = tmp_path / "models" / "my-llama"
    model.mkdir(parents=True)
    (model / "config.json").write_text(json.dumps({"architectures": ["LlamaForCausalLM"], "hidden_size": 3072,
                                                   "num_attention_heads": 24}))
    ax = configs.load(str(write(tmp_path, "a.yml", "base_model: models/my-llama\nsample_packing: false\n"
                                                   "micro_batch_size: 1\n")))
    lf = configs.load(str(write(tmp_path, "l.yaml", f"model_name_or_path: {model}\nstage: sft\nflash_attn: sdpa\n")))
    trl = configs.load(str(write(tmp_path, "t.yaml", "model_name_or_path: models/my-llama\ndataset_name: x\n"
                                                                  "per_device_train_batch_size: 1\n")))
    assert ax["head_dims"] == lf["head_dims"] == trl["head_dims"] == [128]
    hub = configs.load(str(write(tmp_path, "h.yml", "base_model: meta-llama/Llama-3.2-1B\nsequence_len: 512\n"
                                                                "micro_batch_size: 1\n")))
    assert hub["head_dims"] is None  # a Hub id: nothing is fetched


def test_llamafactory_yaml(tmp_path):
    base = "model_name_or_path: Qwen/Qwen3-4B\nstage: sft\nfinetuning_type: lora\ntemplate: qwen3\nbf16: true\n"
    cfg, report = run(write(tmp_path, "a.yaml", base + "flash_attn: fa2\nper_device_train_batch_size: 2\n"))
    assert (cfg["detected"]["trainer"], cfg["required"], cfg["dtype"], cfg["batch_size"]) == \
        ("llama-factory", ["fa2"], "bfloat16", 2)
    cfg, report = run(write(tmp_path, "b.yaml", base + "flash_attn: disabled\npacking: true\n"))
    assert cfg["required"] == [] and config_ids(report) == ["config.packing-contamination"]
    cfg, report = run(write(tmp_path, "c.yaml", base + "flash_attn: sdpa\npacking: true\nneat_packing: true\n"))
    assert cfg["required"] == ["sdpa"] and config_ids(report) == []
    cfg, report = run(write(tmp_path, "d.yaml", base + "flash_attn: flash_attention_2\n"))
    f = [f for f in report.findings if f.id == "config.llamafactory-unknown-attn"][0]
    assert f.fix.startswith("flash_attn: ")
    cfg, _ = run(write(tmp_path, "v1.yaml", "model: Qwen/Qwen3-0.6B\nmodel_class: llm\nflash_attn: flash_attention_2\n"
                                            "train_dataset: d.yaml\nmicro_batch_size: 1\ncutoff_len: 2048\n"))
    assert (cfg["required"], cfg["dtype"]) == (["fa2"], "bfloat16")  # v1: HF names, bf16 on by default


def test_transformers_trl_and_model_config(tmp_path):
    cfg, report = run(write(tmp_path, "sft.yaml", "model_name_or_path: Qwen/Qwen3-0.6B\ndataset_name: x\n"
                                                  "attn_implementation: sdpa\npadding_free: true\nbf16: true\n"))
    assert (cfg["detected"]["trainer"], cfg["required"], cfg["dtype"]) == ("transformers", ["sdpa"], "bfloat16")
    assert config_ids(report) == ["config.packing-contamination"]
    cfg, report = run(write(tmp_path, "sft2.yaml", "model_name_or_path: Qwen/Qwen3-0.6B\ndataset_name: x\n"
                                                   "model_init_kwargs:\n  attn_implementation: flash_attention_2\n"
                                                   "packing: true\n"))
    assert cfg["required"] == ["fa2"] and config_ids(report) == []
    cfg, report = run(write(tmp_path, "sft3.json", json.dumps({"model_name_or_path": "m", "dataset_name": "x",
                                                               "attn_implementation": "flash_attn_2"})))
    f = [f for f in report.findings if f.id == "config.transformers-unknown-attn"][0]
    assert f.fix.startswith("attn_implementation: flash_attention_2") and cfg["required"] == []
    cfg, report = run(write(tmp_path, "cmd.sh", "trl sft --model_name_or_path Qwen/Qwen3-0.6B --dataset_name x "
                                                "--attn_implementation flex_attention --torch_compile true\n"))
    assert (cfg["required"], cfg["compile_mode"], cfg["format"]) == (["flex"], "default", "cmdline")
    model = {"architectures": ["Qwen3ForCausalLM"], "model_type": "qwen3", "hidden_size": 4096,
             "num_attention_heads": 32, "head_dim": 128, "torch_dtype": "bfloat16", "transformers_version": "4.57.0"}
    cfg, report = run(write(tmp_path, "config.json", json.dumps(model)))
    assert (cfg["detected"]["trainer"], cfg["head_dims"], cfg["dtype"], cfg["required"]) == \
        ("transformers", [128], "bfloat16", [])
    del model["head_dim"]
    model["attn_implementation"] = "flash_attention_3"
    cfg, _ = run(write(tmp_path, "config.json", json.dumps(model)))
    assert cfg["head_dims"] == [128] and cfg["required"] == ["fa3"]


# ---- detection: near misses ----

def test_a_key_two_trainers_share_is_settled_by_its_value(tmp_path):
    st = configs.load(str(write(tmp_path, "a.json", json.dumps({"attention_mechanism": "flex", "train_batch_size": 2}))))
    ot = configs.load(str(write(tmp_path, "b.json", json.dumps({"attention_mechanism": "FLEX", "batch_size": 2}))))
    assert (st["detected"]["trainer"], ot["detected"]["trainer"]) == ("simpletuner", "onetrainer")
    mu = configs.load(str(write(tmp_path, "c.toml", 'network_module = "networks.lora_wan"\nsdpa = true\n')))
    sd = configs.load(str(write(tmp_path, "d.toml", 'network_module = "networks.lora_sd3"\nsdpa = true\n')))
    assert (mu["detected"]["trainer"], sd["detected"]["trainer"]) == ("musubi", "sd-scripts")


def test_one_trainers_file_with_a_few_keys_of_another(tmp_path):
    # (task alone is a word many configs use since round 4b: dit_dtype is musubi-tuner's own as well)
    mu = write(tmp_path, "m.toml", '[model]\ndit = "d.safetensors"\ndit_dtype = "bfloat16"\ntask = "t2v-14B"\nsdpa = true\n'
                                   'mixed_precision = "bf16"\n[extra]\nsave_model_as = "safetensors"\n')
    cfg = configs.load(str(mu))
    assert cfg["detected"]["trainer"] == "musubi" and cfg["detected"]["runner_up"] == "sd-scripts"
    ax = write(tmp_path, "a.yml", "base_model: m\nsample_packing: true\nmicro_batch_size: 1\n"
                                  "attn_implementation: flash_attention_2\nmodel_name_or_path: m\n")
    assert configs.load(str(ax))["detected"]["trainer"] == "axolotl"


def test_a_tie_is_one_line_and_trainer_settles_it(tmp_path):
    """A file with one key only musubi-tuner has and one only sd-scripts has: the refusal says which evidence
    conflicts and offers --trainer NAME, without suggesting either reader by name (issue 24)."""
    p = write(tmp_path, "mixed.toml", 'dit = "d.safetensors"\nsave_model_as = "safetensors"\nsdpa = true\n')
    with pytest.raises(UsageError) as err:
        configs.load(str(p))
    msg = str(err.value)
    assert "\n" not in msg and "only musubi-tuner has (dit)" in msg and "only sd-scripts has (save_model_as)" in msg
    assert "--trainer NAME" in msg and "--trainer musubi" not in msg and "--trainer sd-scripts" not in msg
    assert "about equally" not in msg
    assert configs.load(str(p), "musubi")["detected"] == {**configs.load(str(p), "musubi")["detected"], "by": "--trainer"}
    assert configs.load(str(p), "sd-scripts")["trainer"] == "sd-scripts"
    assert configs.load(str(p), "kohya")["trainer"] == "sd-scripts"  # an alias
    r = cli("check", "--from", str(CPU_REPORT), "--config", str(p))
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "--trainer" in r.stderr
    r = cli("check", "--from", str(CPU_REPORT), "--config", str(p), "--trainer", "musubi", "--json", "-")
    doc = json.loads(r.stdout)
    assert doc["config"]["detected"]["trainer"] == "musubi" and doc["required"] == ["sdpa"]


def test_unknown_trainer_name_and_file(tmp_path):
    p = write(tmp_path, "package.json", json.dumps({"name": "app", "version": "1.0.0", "private": True,
                                                    "scripts": {"dev": "vite"}, "dependencies": {"vue": "^3"}}))
    r = cli("check", "--from", str(CPU_REPORT), "--config", str(p))
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "Traceback" not in r.stderr
    for title in ("SimpleTuner", "musubi-tuner", "axolotl", "LLaMA-Factory", "OneTrainer", "sd-scripts"):
        assert title in r.stderr
    r = cli("check", "--from", str(CPU_REPORT), "--config", str(p), "--trainer", "nemo")
    assert r.returncode == 2 and "unknown trainer 'nemo'" in r.stderr and "llama-factory" in r.stderr
    r = cli("check", "--from", str(CPU_REPORT), "--trainer", "axolotl")
    assert r.returncode == 2 and "--trainer goes with --config" in r.stderr


@pytest.mark.parametrize("trainer", sorted(configs.READERS))
def test_trainer_forced_onto_any_kind_of_file_reads_it_or_says_one_line(trainer):
    """--trainer NAME on a file of another kind (JSON, TOML, YAML, command line): a config or a UsageError."""
    for name in ("musubi-wan-cmd.txt", "simpletuner-flex/config.json", "musubi-sage.toml", "diffusers-flash4.env",
                 "real/axolotl/phi__lora-3.5.yaml"):
        try:
            cfg = configs.load(str(CONFIGS / name), trainer)
        except UsageError as e:
            assert "\n" not in str(e)
            continue
        assert cfg["detected"]["by"] == "--trainer"
        json.dumps(cfg)


def test_the_report_says_which_trainer_and_from_which_keys():
    r = cli("check", "--from", str(CPU_REPORT), "--config", str(CONFIGS / "musubi-sage-issue12.toml"))
    assert "read as musubi-tuner, from: sage_attn, network_dim, network_module, network_module=networks.lora_wan" \
        in r.stdout.replace("\n  ", " ")


def test_unknown_keys_are_ignored(tmp_path):
    p = write(tmp_path, "config.json", json.dumps({"attention_mechanism": "flex", "dynamo_backend": "inductor",
                                                   "some_future_key": {"nested": [1, 2]}, "model_family": "wan"}))
    cfg, report = run(p)
    assert cfg["required"] == ["flex"] and cfg["compile_mode"] == "default" and config_ids(report) == []


BAD = {
    "missing": (lambda d: d / "nope.json", "cannot read"),
    "directory": (lambda d: d, "is a directory"),
    "binary": (lambda d: _bytes(d / "x.json", b"\x7fELF\x02\x01\x01\x00\x00\x00"), "is binary"),
    "latin1": (lambda d: _bytes(d / "x.env", "MODEL_FAMILY=caf\xe9\n".encode("latin-1")), "not UTF-8"),
    # new-user report 2026-11-24 rows 21 and 20: PowerShell 5's default encoding; 100k nested brackets
    "utf16": (lambda d: _bytes(d / "c.yaml", "base_model: m\n".encode("utf-16")), "is UTF-16 .*: save it as UTF-8"),
    "utf16 without bom": (lambda d: _bytes(d / "c.yaml", "base_model: m\nsequence_len: 2048\n".encode("utf-16-le")),
                          "is UTF-16 \\(without a byte-order mark\\): save it as UTF-8"),
    "deep json": (lambda d: _bytes(d / "deep.json", b"[" * 100000), "too deeply nested to be a trainer config"),
    "deep toml": (lambda d: _bytes(d / "deep.toml", b"a = " + b"[" * 100000 + b"]" * 100000), "too deeply nested"),
    "bad json": (lambda d: _bytes(d / "config.json", b'{"attention_mechanism": "flex",}'), "not valid JSON"),
    "json list": (lambda d: _bytes(d / "config.json", b'["flex"]'), "not an object"),
    "bad toml": (lambda d: _bytes(d / "c.toml", b"sdpa = = true\n"), "not valid TOML"),
    "foreign toml": (lambda d: _bytes(d / "c.toml", b'[tool.black]\nline-length = 100\n'), "not a trainer config"),
    "unknown text": (lambda d: _bytes(d / "notes.txt", b"hello\n"), "not a trainer config"),
    "package.json": (lambda d: _bytes(d / "package.json", b'{"name": "web", "version": "1.0.0", "scripts": {"build": '
                                                            b'"tsc"}, "dependencies": {"react": "^18"}}'), "not a trainer config"),
    "bad yaml": (lambda d: _bytes(d / "c.yaml", b"base_model: [x\n"), "not valid YAML"),
    "yaml list": (lambda d: _bytes(d / "c.yml", b"- flash_attention\n"), "not an object"),
    "too large": (lambda d: _big(d / "huge.json"), "too large"),
    "symlink loop": (lambda d: _loop(d), "cannot read"),
    "device": (lambda d: "/dev/null", "not a regular file"),
}


def _bytes(p, data):
    p.write_bytes(data)
    return p


def _big(p):
    with open(p, "wb") as fh:
        fh.truncate(configs.MAX_CONFIG + 1)  # sparse: no real disk use
    return p


def _loop(d):
    a, b = d / "a.json", d / "b.json"
    os.symlink(b, a)
    os.symlink(a, b)
    return a


@pytest.mark.parametrize("kind", sorted(BAD))
def test_unreadable_config_is_one_usage_error(tmp_path, kind):
    make, text = BAD[kind]
    path = str(make(tmp_path))
    with pytest.raises(UsageError, match=text) as err:
        configs.load(path)
    assert "\n" not in str(err.value)


def test_cli_bad_config_exits_2_with_one_line(tmp_path):
    p = _bytes(tmp_path / "config.json", b"{not json")
    r = cli("check", "--from", str(CPU_REPORT), "--config", str(p))
    assert r.returncode == 2 and r.stderr.count("\n") == 1
    assert r.stderr.startswith("attn-doctor: error: --config:") and "Traceback" not in r.stderr


def test_cli_config_sets_required_like_require():
    r = cli("check", "--from", str(CPU_REPORT), "--config", "fixtures/configs/simpletuner-sage/config.env",
            "--json", "-")
    doc = json.loads(r.stdout)
    assert doc["required"] == ["sage"] and doc["config"]["trainer"] == "simpletuner"
    assert r.returncode == 1 and "require.not-ok" in [f["id"] for f in doc["findings"]]
    r = cli("check", "--from", str(CPU_REPORT), "--config", "fixtures/configs/simpletuner-sdxl/config.json", "--require", "flex",
            "--json", "-")
    assert json.loads(r.stdout)["required"] == ["flex", "sdpa"]  # --require and the config's, together


@pytest.mark.parametrize("mp, fires", [("no", True), ("bf16", False)])
def test_zimage_without_mixed_precision_hands_flash_attention_float32(tmp_path, mp, fires):
    """musubi-tuner's Z-Image loads its DiT in float32 unless mixed precision is fp16 / bf16 (configs/musubi.py
    _float32_attention): FlashAttention 2 takes float16 / bfloat16 only."""
    path = tmp_path / "zimage.toml"
    path.write_text(f'dit = "/m/z_image.safetensors"\nnetwork_module = "networks.lora_zimage"\n'
                    f'mixed_precision = "{mp}"\nflash_attn = true\n')
    _, report = run(path)
    hit = [f for f in report.findings if f.id == "config.attention-dtype-unsupported"]
    assert bool(hit) == fires
    assert not hit or (hit[0].severity, hit[0].backend) == ("error", "fa2")


def test_launches_in_a_loop_that_differ_are_said_to(tmp_path):
    """cfg114: a launch line inside a `for` loop whose runs ask for different dtypes is N launches that differ
    (configs._loop_launches): config.launches-differ names the count, the loop and the values; each run's attention
    flag stays required, the dtype unknown."""
    p = write(tmp_path, "sweep.sh", "#!/bin/bash\nfor mp in fp16 bf16; do\n  accelerate launch --mixed_precision $mp "
              "train_dreambooth_flux.py --pretrained_model_name_or_path=m --instance_data_dir=dog --output_dir=out "
              "--instance_prompt=p --enable_xformers_memory_efficient_attention\ndone | tee train.log\n")
    cfg, report = run(p)
    assert (cfg["required"], cfg["dtype"], cfg["launches"]["count"]) == (["xformers"], None, 2)
    hit = [f for f in report.findings if f.id == "config.launches-differ"]
    assert len(hit) == 1 and hit[0].severity == "info"
    assert "2 times (`for mp in fp16 bf16`)" in hit[0].title and "differ in dtype (float16 / bfloat16)" in hit[0].title
    assert "mp=fp16" in hit[0].fix


@pytest.mark.parametrize("option, fires", [("required=True", True), ("default='train.yaml'", False)])
def test_settings_named_only_at_launch_are_said_to_be(tmp_path, option, fires):
    """cfg118: a script whose settings YAML comes from `--config` with no default (settings_files._named_at_launch):
    config.settings-at-launch says so (info); with a default the file is the script's own, nothing said."""
    write(tmp_path, "train.yaml", "model: m\nbf16: true\n")
    p = write(tmp_path, "train.py", "import argparse\nimport yaml\nfrom transformers import AutoModelForCausalLM, "
              "TrainingArguments, Trainer\np = argparse.ArgumentParser()\n"
              f"p.add_argument('--config', {option})\nopts = p.parse_args()\n"
              "with open(opts.config) as f:\n    cfg = yaml.safe_load(f)\n"
              "model = AutoModelForCausalLM.from_pretrained(cfg['model'])\n"
              "Trainer(model=model, args=TrainingArguments(output_dir='out', bf16=cfg['bf16'])).train()\n")
    cfg, report = run(p)
    hit = [f for f in report.findings if f.id == "config.settings-at-launch"]
    assert (len(hit), cfg["dtype"]) == ((1, None) if fires else (0, "bfloat16"))
    assert not hit or (hit[0].severity == "info" and "`--config`" in hit[0].title)


def test_every_config_entry_fires_in_these_tests():
    """Each config.* knowledge entry is made to fire by a test in this file."""
    text = open(__file__).read()
    for eid in entries():
        if eid.startswith("config."):
            assert f'"{eid}"' in text, eid


VARIANTS = {  # error texts written here with other names and values than the entries' own examples
    "config.axolotl-unknown-attn": ["ValueError: attn_implementation='sdp' is not accepted. Use the canonical name 'sdpa' instead.",
                                    'attn_implementation="flash_attn_3" is not a recognized backend. Expected one of: [...]'],
    "config.transformers-unknown-attn": ['ValueError: Specified `attn_implementation="sage"` is not supported. The only '
                                         'possible arguments are `attn_implementation="eager"`'],
    "config.llamafactory-unknown-attn": ["NotImplementedError: Unknown attention type: flash-attn",
                                         "raise NotImplementedError(f'Unknown attention type: {x}') -> Unknown attention type: FA2"],
    "config.onetrainer-unknown-attn": ["ValueError: 'flex' is not a valid AttentionMechanism"],
    "config.compile-mode-unknown": ["RuntimeError: Unrecognized mode=max_autotune, should be one of: default, "
                                    "reduce-overhead, max-autotune, max-autotune-no-cudagraphs"],
    "config.packing-contamination": ["`sample_packing` with `attn_implementation='fp8'` does not handle cross-sample "
                                     "decontamination. Use a packing-capable backend",
                                     "[WARNING|sft_trainer.py:1154] Padding-free training is enabled, but the attention "
                                     "implementation is not set to a supported Flash Attention variant."],
}


@pytest.mark.parametrize("eid", sorted(VARIANTS))
def test_new_entries_patterns_match_other_names_and_values(eid):
    e = entries()[eid]
    for text in VARIANTS[eid]:
        assert any(p.search(text) for p in e.compiled), (eid, text)
    assert not any(p.search("attn_implementation: sdpa is fine") for p in e.compiled)


def test_ai_toolkit_compile_mode_torch_does_not_have(tmp_path):
    job = ("job: extension\nconfig:\n  process:\n    - type: sd_trainer\n      train:\n        dtype: bf16\n"
           "      model:\n        arch: flux\n        compile: true\n        compile_mode: {}\n")
    cfg, report = run(write(tmp_path, "j.yaml", job.format("fastest")))  # what ai-toolkit's UI offers
    f = [f for f in report.findings if f.id == "config.compile-mode-unknown"][0]
    assert f.severity == "error" and "mode=fastest" in f.title and f.fix.startswith("compile_mode: default")
    for mode in ("max-autotune", "default", "lite"):
        _, report = run(write(tmp_path, "k.yaml", job.format(mode)))
        assert "config.compile-mode-unknown" not in config_ids(report), mode
    _, report = run(write(tmp_path, "n.yaml", job.format("fastest").replace("compile: true", "compile: false")))
    assert "config.compile-mode-unknown" not in config_ids(report)  # never compiled: the mode is never read


def test_ai_toolkit_sage_backend_is_asked_to_train(tmp_path):
    job = ("job: extension\nconfig:\n  process:\n    - type: sd_trainer\n      train:\n        attention_backend: sage\n"
           "        dtype: bf16\n      model:\n        arch: flux\n")
    cfg, report = run(write(tmp_path, "j.yaml", job))
    assert cfg["required"] == ["sage"] and "config.sage-training" in config_ids(report)
    f = [f for f in report.findings if f.id == "config.sage-training"][0]
    assert "ai-toolkit" in f.title and f.fix.startswith("attention_backend: native")


def test_trainer_entries_examples_match_their_patterns():
    for e in entries().values():
        if e.id.startswith("config."):
            for ex in e.examples:
                assert any(p.search(ex) for p in e.compiled), (e.id, ex)


# ---- issue 24: command lines as the trainer's parser reads them, and the findings they give ----

def test_a_misspelt_flag_is_the_error_argparse_will_raise(tmp_path):
    p = write(tmp_path, "train.sh", "accelerate launch train_network.py --pretrained_model_name_or_path=m.safetensors \\\n"
                                    "  --network_module=networks.lora --sage_atn --mixed_precision=bf16\n")
    cfg, report = run(p)
    f = next(f for f in report.findings if f.id == "config.unknown-option")
    assert "train_network.py has no `--sage_atn` option" in f.title and "unrecognized arguments: --sage_atn" in f.title
    assert config_ids(report) == ["config.unknown-option"] and cfg["dtype"] == "bfloat16"  # not "no attention option"


def test_an_abbreviation_is_read_as_argparse_reads_it_and_an_ambiguous_one_is_an_error(tmp_path):
    cfg = configs.load(str(write(tmp_path, "a.sh", "accelerate launch sdxl_train_network.py --xform --mixed bf16\n")))
    assert cfg["required"] == ["xformers"] and cfg["dtype"] == "bfloat16" and cfg["cmdline_errors"] == []
    p = write(tmp_path, "b.sh", "accelerate launch wan_train_network.py --task t2v-14B --flash --mixed_precision bf16\n")
    cfg, report = run(p)
    f = next(f for f in report.findings if f.id == "config.ambiguous-option")
    assert "`--flash`" in f.title and "--flash3" in f.title and "--flash_attn" in f.title
    assert "config.ambiguous-option" in config_ids(report)


def test_split_attn_is_asked_only_where_musubi_needs_it(tmp_path):
    wan = write(tmp_path, "wan.sh", "accelerate launch wan_train_network.py --task t2v-14B --dit d --xformers "
                                    "--mixed_precision bf16\n")
    cfg, report = run(wan)
    assert cfg["required"] == ["xformers"] and "config.xformers-no-split" not in config_ids(report)
    hv = write(tmp_path, "hv.sh", "accelerate launch hv_train_network.py --dit d --xformers --mixed_precision bf16\n")
    cfg, report = run(hv)
    f = next(f for f in report.findings if f.id == "config.xformers-no-split")
    assert "HunyuanVideo" in f.title and f.fix.startswith("--split_attn")


def test_sd_scripts_xformers_also_switches_the_vae(tmp_path):
    cfg = configs.load(str(write(tmp_path, "t.sh", "accelerate launch sdxl_train_network.py --mem_eff_attn --xformers\n")))
    assert cfg["required"] == ["xformers"]  # mem_eff_attn takes the UNet, the VAE still gets xformers
    cfg = configs.load(str(write(tmp_path, "d.sh", "accelerate launch train_db.py --mem_eff_attn --xformers\n")))
    assert cfg["required"] == []  # train_db.py leaves the VAE alone


def test_simpletuner_use_xformers_of_the_env_file_era(tmp_path):
    p = write(tmp_path, "config.env", 'MODEL_FAMILY="sdxl"\nMODEL_TYPE="lora"\nUSE_XFORMERS=true\n')
    cfg, report = run(p)
    assert cfg["required"] == ["xformers"]
    f = next(f for f in report.findings if f.id == "config.simpletuner-use-xformers-removed")
    assert "2025-04-05" in f.title and "USE_XFORMERS=false" in f.fix
    assert "config.simpletuner-use-xformers-removed" in config_ids(report)


def test_ms_swift_packing_without_flash_attention_is_refused_by_swift(tmp_path):
    p = write(tmp_path, "sft.sh", "NPROC_PER_NODE=2 swift sft --model Qwen/Qwen2.5-7B --train_type lora --packing true "
                                  "--torch_dtype bfloat16\n")
    cfg, report = run(p)
    f = next(f for f in report.findings if f.id == "config.msswift-packing-needs-flash")
    assert "packing" in f.title and "--attn_impl flash_attn" in f.fix
    assert "config.msswift-packing-needs-flash" in config_ids(report)
    ok = configs.load(str(write(tmp_path, "ok.sh", "swift sft --model m --packing true --attn_impl flash_attn\n")))
    assert ok["required"] == ["fa2"] and ok["swift_packing"] == []



_GPU_DTYPE_SCRIPT = """import torch
from transformers import AutoModelForCausalLM
from trl import SFTConfig, SFTTrainer
model = AutoModelForCausalLM.from_pretrained("org/m", attn_implementation="sdpa")
args = SFTConfig(output_dir="o", bf16=torch.cuda.is_bf16_supported(including_emulation=False),
                 fp16=not torch.cuda.is_bf16_supported(including_emulation=False))
SFTTrainer(model=model, args=args).train()
"""


@pytest.mark.parametrize("caps, probe, eid", [
    ([], "including_emulation=False", "config.dtype-by-gpu-unresolved"),
    ([(9, 0)], "including_emulation=False", "config.dtype-by-gpu"),
    ([(7, 5), (8, 0)], "including_emulation=False", "config.dtype-by-gpu-differs"),
    ([(7, 5)], "", "config.dtype-by-gpu-emulated"),  # torch's default counts emulated bfloat16 (saved facts: torch 2.13)
])
def test_gpu_decided_dtype_fires(tmp_path, caps, probe, eid):
    """A TRL script that leaves bf16 / fp16 to the GPU's bf16 probe, on FAKE GPUs (none; an H100; a T4 beside an A100;
    a T4); tests/test_configs_cfg110.py has more."""
    p = tmp_path / "sft.py"
    p.write_text(_GPU_DTYPE_SCRIPT.replace("including_emulation=False", probe))
    facts = with_gpu(saved_facts(), "FAKE", caps[0]) if caps else saved_facts()
    for i, cap in enumerate(caps[1:], 1):
        facts["driver"]["gpus"].append({"index": i, "name": "FAKE", "capability": list(cap), "memory_mib": 81559})
    _, report = run(p, facts)
    assert eid in config_ids(report)


_RELEASE_DTYPE_SCRIPT = """from transformers import AutoModelForCausalLM, Trainer, TrainingArguments
model = AutoModelForCausalLM.from_pretrained("org/m", attn_implementation="sdpa")
Trainer(model=model, args=TrainingArguments(output_dir="o")).train()
"""


@pytest.mark.parametrize("version, eid", [(None, "config.dtype-by-release-unresolved"),
                                          ("4.57.1", "config.dtype-by-release"), ("5.0.0", "config.dtype-by-release")])
def test_release_decided_dtype_fires(tmp_path, version, eid):
    """A script that loads its model with no dtype and no autocast, the transformers release not shown, checked where
    transformers is not installed / is 4.57.1 / 5.0.0 (FAKE); tests/test_configs_cfg126.py has more."""
    p = tmp_path / "train.py"
    p.write_text(_RELEASE_DTYPE_SCRIPT)
    facts = saved_facts()
    facts["packages"]["stack"].pop("transformers", None)
    facts["packages"].get("versions", {}).pop("transformers", None)
    if version:
        facts["packages"]["stack"]["transformers"] = {"version": version}
    _, report = run(p, facts)
    assert eid in config_ids(report)
