"""Issue 24's list tried as a new user would (helper cfg76, session 18): files written fresh for each point of "What to
build" and "Done when" (tests/data/configs_cfg76/, each says what it fakes), read as `check --config` reads them.

What failed and was fixed, at the trainer's own mechanism:
- torchtune `dataset.packed: True` on a GPU where FlexAttention does not run: torchtune's own gate
  (torchtune/utils/_import_guard.py _SUPPORTS_FLEX_ATTENTION: torch >= 2.5 and compute capability >= 7.5) keeps SDPA
  with a dense block-causal mask there, but flex was required on any GPU. The entry now carries its gate
  (configs/torchtune.py), and on GPUs that all fall below it the backend is not required (checks/trainer.py
  gate_required, called by report.evaluate; `--require flex` still requires it) and a note says why
  (config.backend-off-on-gpu);
- LLaMA-Factory stage pt (packing on by default) was told `neat_packing: true`, which LLaMA-Factory refuses outside
  sft (hparams/parser.py get_train_args: "`neat_packing` cannot be set as True except SFT"): the printed fix broke the
  run. Stages other than sft now get `packing: false`;
- a misspelt LLaMA-Factory YAML key (flash_atn) was dropped; parse_dict refuses it ("Some keys are not used by the
  HfArgumentParser"): a key that is a near namesake of one its argument classes have is now named as that error
  (config.unknown-key), a fork's own keys (no namesake) are left alone (configs/llamafactory.py _misspelt_keys);
- an ambiguous prefix's fix pasted the first candidate (diffusers' `--enable`: Ascend's --enable_npu_flash_attention):
  it now names every candidate in a comment;
- a misspelt flag that is a real option with words added (musubi's `--sdpa_attn`) was told `--sage_attn` (more letters in
  common, and musubi refuses Sage for training): an option the name starts with is now the suggestion (shell.nearest);
- `$((...))` in a bash launch script and `set /a` in a .bat left the batch size unknown: integer arithmetic over
  literals and the script's own variables is now computed (configs/shell_words.py arithmetic); an operand the caller
  gives stays unknown.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from attn_doctor import configs
from attn_doctor.configs.shell_words import arithmetic
from attn_doctor.model import UsageError

import fakefacts as ff

ROOT = Path(__file__).resolve().parents[1]
DATA = Path(__file__).parent / "data" / "configs_cfg76"
GOOD_H100 = ROOT / "fixtures" / "gpu" / "h100" / "reports" / "good.json"


def reading(name: str) -> tuple:
    c = configs.load(str(DATA / name))
    return c["detected"]["trainer"], sorted(c["required"]), c["dtype"] or "", c["compile_mode"] or "none"


def refusal(name: str) -> str:
    with pytest.raises(UsageError) as e:
        configs.load(str(DATA / name))
    return str(e.value)


# ---- Evidence or refusal: files of unclaimed frameworks are refused by name, never read as another trainer -------

UNCLAIMED = {
    "un_torchtitan.toml": "torchtitan", "un_nemo.yaml": "NeMo", "un_lightning.yaml": "Lightning",
    "un_megatron.sh": "Megatron-LM", "un_mlx_lm.yaml": "mlx-lm", "un_mlx_cmd.sh": "mlx-lm",
    "un_nanotron.yaml": "nanotron", "un_ludwig.yaml": "Ludwig", "un_oumi.yaml": "Oumi", "un_openrlhf.sh": "OpenRLHF",
    "un_xtuner.py": "XTuner",
}


@pytest.mark.parametrize("name", sorted(UNCLAIMED))
def test_an_unclaimed_framework_is_refused_by_name(name):
    msg = refusal(name)
    assert f"looks like {UNCLAIMED[name]}" in msg or UNCLAIMED[name] in msg.split("which attn-doctor")[0], msg
    assert "does not read yet" in msg and "--trainer NAME" in msg
    assert "about equally" not in msg  # never an invitation to pick one of two wrong readers


def test_the_refusal_is_one_line_and_exit_2_on_the_command_line():
    p = subprocess.run([sys.executable, "-m", "attn_doctor", "check", "--from", str(GOOD_H100), "--config",
                        str(DATA / "un_torchtitan.toml")], capture_output=True, text=True, cwd=ROOT)
    assert p.returncode == 2
    assert "Traceback" not in p.stderr and len(p.stderr.strip().splitlines()) == 1
    assert "torchtitan" in p.stderr


def test_a_musubi_dataset_toml_is_not_a_training_config():
    assert "dataset config" in refusal("musubi_wan/dataset.toml")


# ---- New readers: each claimed trainer's files, as its own source reads them ----------------------------------------

READ = {
    # torchtune: packed -> FlexAttention (compiled on its own); Gemma2 has no BlockMask path; dtype None is fp32
    "tt_packed.yaml": ("torchtune", ["flex"], "bfloat16", "default"),
    "tt_nopack.yaml": ("torchtune", [], "float32", "none"),
    "tt_gemma2.yaml": ("torchtune", [], "bfloat16", "none"),
    "tt_run.sh": ("torchtune", ["flex"], "bfloat16", "default"),  # a built-in config with key=value overrides
    "tt_run_v.sh": ("torchtune", ["flex"], "bfloat16", "default"),  # the YAML beside it, overridden
    "my_llama.yaml": ("torchtune", [], "float32", "default"),
    # LitGPT: SDPA inside its own CausalSelfAttention; precision names the dtype; pretrain compiles
    "litgpt_lora.yaml": ("litgpt", [], "bfloat16", "none"),
    "litgpt_pretrain.yaml": ("litgpt", [], "bfloat16", "default"),
    "litgpt_cli.sh": ("litgpt", [], "float16", "none"),
    "litgpt_cli2.sh": ("litgpt", [], "bfloat16", "none"),
    # ms-swift 3.x (--attn_impl) and 2.x (--use_flash_attn), YAML and JSON
    "swift_sft.sh": ("ms-swift", ["fa2"], "bfloat16", "none"),
    "swift_v2.sh": ("ms-swift", ["fa2"], "bfloat16", "none"),
    "swift_cfg.yaml": ("ms-swift", ["sdpa"], "bfloat16", "none"),
    "swift_cfg.json": ("ms-swift", [], "float16", "none"),
    "swift_packing_sdpa.sh": ("ms-swift", [], "bfloat16", "none"),
    # Unsloth: FastLanguageModel drops attn_implementation (the installed packages choose); FastModel honours it;
    # dtype=None leaves the dtype to the GPU
    "unsloth_train.py": ("unsloth", [], "", "none"),
    "unsloth_fastmodel.py": ("unsloth", ["sdpa"], "bfloat16", "none"),
    "unsloth_fa2.py": ("unsloth", [], "float16", "none"),
    # kohya_ss GUI saved JSON with sd-scripts semantics: --xformers with --mem_eff_attn still needs xformers (the VAE)
    "kohya_gui_lora.json": ("sd-scripts", ["xformers"], "float16", "none"),
    "kohya_gui_sdxl_sdpa.json": ("sd-scripts", ["sdpa"], "bfloat16", "none"),
    "kohya_gui_old_bool.json": ("sd-scripts", ["xformers"], "float16", "none"),
    "kohya_gui_none_memeff.json": ("sd-scripts", [], "float32", "none"),
    "kohya_gui_generated.toml": ("sd-scripts", ["xformers"], "bfloat16", "none"),
    # old LLaMA-Factory src/train_bash.py: --flash_attn was a boolean (FlashAttention 2)
    "lf_train_bash.sh": ("llama-factory", ["fa2"], "float16", "none"),
    "lf_train_bash_ds.sh": ("llama-factory", [], "bfloat16", "none"),
    "lf_torchrun.sh": ("llama-factory", ["fa2"], "bfloat16", "none"),
    "lf_env_prefix.sh": ("llama-factory", [], "float16", "none"),
    # SimpleTuner's older env files: USE_XFORMERS unless exactly "false"; Flux never took xformers
    "st_sdxl-env.sh": ("simpletuner", ["xformers"], "bfloat16", "none"),
    "st_config.env": ("simpletuner", [], "bfloat16", "none"),
    "st_sd3-env.sh": ("simpletuner", [], "bfloat16", "none"),  # xformers never reached SD3
    "tt_lower.sh": ("torchtune", ["flex"], "bfloat16", "default"),  # dataset.packed=true (OmegaConf's boolean)
    "litgpt_pretrain.sh": ("litgpt", [], "bfloat16", "default"),
    "swift_fa3.sh": ("ms-swift", ["fa3"], "bfloat16", "none"),
    "swift_padfree_sdpa.sh": ("ms-swift", ["sdpa"], "bfloat16", "none"),
    "qlora.yml": ("axolotl", ["fa2"], "bfloat16", "none"),
}


@pytest.mark.parametrize("name", sorted(READ))
def test_a_claimed_trainer_s_file_is_read_as_its_source_says(name):
    assert reading(name) == READ[name]


# torchtune packed on a GPU where FlexAttention does not run ----------------------------------------------------------

def _torchtune_check(gpus, torch="2.11.0+cu130", required=None, explicit=()):
    f = ff.gpu_box()
    ff.set_torch(f, torch, cuda="13.0")
    ff.set_gpus(f, gpus)
    cfg = configs.load(str(DATA / "tt_packed.yaml"))
    return ff.check(f, config=cfg, required=list(required if required is not None else cfg["required"]),
                    compile_mode=cfg["compile_mode"], explicit=list(explicit))


def test_torchtune_packed_requires_flex_where_torchtune_runs_it():
    report = _torchtune_check([("NVIDIA H200", (9, 0))])
    assert report.required == ["flex"] and report.config["required"] == ["flex"]
    assert not [x for x in report.findings if x.id == "config.backend-off-on-gpu"]


@pytest.mark.parametrize("gpu, torch", [(("Tesla V100-SXM2-32GB", (7, 0)), "2.11.0+cu130"),
                                        (("NVIDIA A100-SXM4-80GB", (8, 0)), "2.4.1+cu124")])
def test_torchtune_packed_on_a_gpu_or_torch_below_its_gate_runs_sdpa(gpu, torch):
    report = _torchtune_check([gpu], torch=torch)
    assert report.required == [] and report.config["required"] == []
    note = next(x for x in report.findings if x.id == "config.backend-off-on-gpu")
    assert note.severity == "info" and "SDPA" in note.title and gpu[0] in note.title
    assert "sm75" in note.title and "2.5" in note.title


def test_torchtune_gate_keeps_what_require_named():
    report = _torchtune_check([("Tesla V100-SXM2-32GB", (7, 0))], explicit=["flex"])
    assert report.required == ["flex"]


def test_torchtune_gate_needs_every_gpu_below_it():
    # a mixed node: torchtune decides on the GPU it runs on; attn-doctor keeps flex unless no GPU could run it
    report = _torchtune_check([("Tesla V100-SXM2-32GB", (7, 0)), ("NVIDIA L4", (8, 9))])
    assert report.required == ["flex"]


def test_torchtune_gate_without_a_gpu_keeps_the_reading():
    report = ff.check(ff.cpu_box(),
                      config=configs.load(str(DATA / "tt_packed.yaml")), required=["flex"])
    assert report.required == ["flex"]


def test_torchtune_packed_on_a_v100_end_to_end(tmp_path):
    # the H100 report's facts with its GPU made a V100 (sm70): `check --from ... --config` as a user runs it
    text = json.dumps(json.loads(GOOD_H100.read_text(encoding="utf-8")))
    assert text.count('"capability": [9, 0]') and text.count("NVIDIA H100 80GB HBM3")
    text = text.replace("NVIDIA H100 80GB HBM3", "Tesla V100-SXM2-32GB").replace('"capability": [9, 0]', '"capability": [7, 0]')
    saved = tmp_path / "v100.json"
    saved.write_text(text, encoding="utf-8")
    out = []
    for extra in ([], ["--require", "flex"]):
        p = subprocess.run([sys.executable, "-m", "attn_doctor", "check", "--from", str(saved), "--config",
                            str(DATA / "tt_packed.yaml"), "--json", "-", *extra], capture_output=True, text=True,
                           cwd=ROOT)
        out.append(json.loads(p.stdout))
    assert out[0]["required"] == [] and out[0]["config"]["required"] == []
    assert "config.backend-off-on-gpu" in {f["id"] for f in out[0]["findings"]}
    assert out[1]["required"] == ["flex"]


# ---- Command lines as the trainer's own parser reads them ------------------------------------------------------------

CMDLINES = {
    "sd_defaults.sh": ("sd-scripts", ["sdpa"], "bfloat16", "none"),     # ${VAR:-default}, ": ${ATTN:=--sdpa}", $((..))
    "diffusers_dreambooth.sh": ("diffusers", ["xformers"], "float16", "none"),  # export X=${X:-"..."}
    "diffusers_default_flag.sh": ("diffusers", ["xformers"], "float16", "none"),  # ${ATTN:---flag}
    "sd_prefix.sh": ("sd-scripts", ["xformers"], "float16", "none"),      # VAR=... prefixes, python -m accelerate
    "diffusers_envprefix.sh": ("diffusers", [], "bfloat16", "none"),      # DIFFUSERS_ATTN_BACKEND=flash_hub prefix
    "sd_win.bat": ("sd-scripts", ["xformers"], "bfloat16", "none"),       # set VAR=, %VAR%, ^
    "sd_win2.bat": ("sd-scripts", ["sdpa"], "bfloat16", "none"),          # set "ATTN=--sdpa", call accelerate
    "sd_seta.bat": ("sd-scripts", ["sdpa"], "float32", "none"),           # set /a; no --mixed_precision: fp32
    "sd_win.ps1": ("sd-scripts", ["xformers"], "bfloat16", "none"),       # $attn, backticks
    "musubi_win.ps1": ("musubi", ["sdpa"], "bfloat16", "none"),           # $env:VAR, backticks, CRLF
    "sd_torchrun.sh": ("sd-scripts", ["sdpa"], "bfloat16", "none"),       # torchrun
    "lf_torchrun.sh": ("llama-factory", ["fa2"], "bfloat16", "none"),     # python -m torch.distributed.run
    "lf_train_bash_ds.sh": ("llama-factory", [], "bfloat16", "none"),     # deepspeed --num_gpus
    "sd_prefix_flag.sh": ("sd-scripts", ["xformers"], "float16", "none"),  # --xform: a unique prefix of --xformers
    "musubi_prefix.sh": ("musubi", ["xformers"], "bfloat16", "none"),     # --xformer
    "musubi_wan/train_wan.sh": ("musubi", ["xformers"], "bfloat16", "none"),
    "musubi_hv_xformers.sh": ("musubi", ["xformers"], "bfloat16", "none"),
    "sd_assign_default.sh": ("sd-scripts", ["xformers"], "bfloat16", "none"),  # ${PREC:=bf16} then $PREC, ${ATTN:=..}
    "sd_win.cmd": ("sd-scripts", ["sdpa"], "float16", "none"),  # .cmd, setlocal enabledelayedexpansion, !ATTN!
    "ax_accel.sh": ("axolotl", ["fa2"], "bfloat16", "none"),  # accelerate launch --config_file ... -m axolotl.cli.train
    "diffusers_prefix.sh": ("diffusers", ["xformers"], "float16", "none"),  # --mixed=, --enable_xformers (prefixes)
    "diffusers_prefix_unique.sh": ("diffusers", ["xformers"], "float16", "none"),  # --enable: one option starts so
    "diffusers_prefix_ambig.sh": ("diffusers", [], "float16", "none"),  # --enable: two options start so
    "musubi_typo.sh": ("musubi", [], "bfloat16", "none"),
    "lf_typo.yaml": ("llama-factory", [], "bfloat16", "none"),
}


@pytest.mark.parametrize("name", sorted(CMDLINES))
def test_a_command_line_is_read_as_its_shell_and_parser_read_it(name):
    assert reading(name) == CMDLINES[name]


def test_arithmetic_sets_the_batch_size():
    assert configs.load(str(DATA / "diffusers_default_flag.sh"))["batch_size"] == 4  # BS=$(( 2 * 2 ))
    assert configs.load(str(DATA / "sd_seta.bat"))["batch_size"] == 4  # set /a BS=2*2


@pytest.mark.parametrize("expr, env, want", [
    ("2 * 2", {}, "4"), ("A*100", {"A": "3"}, "300"), ("$A + ${A}", {"A": "3"}, "6"), ("(N+1)*(N-1)", {"N": "5"}, "24"),
    ("B/2", {"B": "-7"}, "-3"), ("B%2", {"B": "-7"}, "-1"),  # C's division and remainder, as bash computes them
    ("EPOCHS*100", {}, None), ("S+1", {"S": "x"}, None), ("010+1", {}, None), ("2**3", {}, None), ("A>1", {"A": "3"}, None),
    ("7/0", {}, None), ("X=3", {}, None),
])
def test_arithmetic_is_bash_s_or_unknown(expr, env, want):
    assert arithmetic(expr, dict(env)) == want


def test_an_operand_the_caller_gives_leaves_the_value_unknown(tmp_path):
    p = tmp_path / "run.sh"
    p.write_text("# written by cfg76: STEPS from the caller's EPOCHS\n"
                 "accelerate launch train_network.py --pretrained_model_name_or_path=/m/v15.safetensors "
                 "--dataset_config=ds.toml --output_dir=out --network_module=networks.lora --sdpa "
                 "--train_batch_size=$((GPUS * 2))\n", encoding="utf-8")
    c = configs.load(str(p))
    assert c["detected"]["trainer"] == "sd-scripts" and c["batch_size"] is None


@pytest.mark.parametrize("name, option, fix", [
    ("sd_prefix_ambig.sh", "--mem", "--mem_eff_attn"),  # flux_train.py: --mem_eff_attn, --mem_eff_save
    ("sd_prefix_full.sh", "--full", "--full_bf16"),    # train_network.py: --full_bf16, --full_fp16
    ("diffusers_prefix_ambig.sh", "--enable", "--enable_npu_flash_attention"),  # train_text_to_image_sdxl.py
])
def test_an_ambiguous_prefix_is_argparse_s_error(name, option, fix):
    errs = configs.load(str(DATA / name))["cmdline_errors"]
    assert [(e["kind"], e["name"]) for e in errs] == [("ambiguous", option)]
    assert errs[0]["candidates"][0] == fix


def test_an_ambiguous_prefix_s_fix_pastes_no_candidate():
    # the first candidate of `--enable` in train_text_to_image_sdxl.py is Ascend's --enable_npu_flash_attention, which
    # diffusers refuses on an NVIDIA GPU: the fix names every candidate in a comment and pastes none
    p = subprocess.run([sys.executable, "-m", "attn_doctor", "check", "--from", str(GOOD_H100), "--config",
                        str(DATA / "diffusers_prefix_ambig.sh"), "--json", "-"], capture_output=True, text=True, cwd=ROOT)
    f = next(x for x in json.loads(p.stdout)["findings"] if x["id"] == "config.ambiguous-option")
    assert f["fix"].startswith("#") and "--enable_npu_flash_attention" in f["fix"] and \
        "--enable_xformers_memory_efficient_attention" in f["fix"]


@pytest.mark.parametrize("name, option, nearest", [
    ("sd_typo.sh", "--xfromers", "--xformers"),
    ("diffusers_typo.sh", "--enable_xformers_memory_efficent_attention", "--enable_xformers_memory_efficient_attention"),
    ("musubi_typo.sh", "--sdpa_attn", "--sdpa"),  # the option the name starts with, not --sage_attn (which cannot train)
])
def test_a_misspelt_flag_is_the_error_the_trainer_raises(name, option, nearest):
    cfg = configs.load(str(DATA / name))
    assert cfg["required"] == []
    errs = cfg["cmdline_errors"]
    assert [(e["kind"], e["name"], e["suggestion"]) for e in errs] == [("unknown", option, nearest)]


# ---- Printed fixes are safe to paste --------------------------------------------------------------------------------

@pytest.mark.parametrize("name, stage", [("lf_train_bash_ds.sh", "pt")])
def test_llamafactory_outside_sft_is_never_told_neat_packing(name, stage):
    cfg = configs.load(str(DATA / name))
    assert [p["setting"] for p in cfg["packing"]] == [f"stage: {stage} (packing on by default)"]
    assert cfg["fixes"]["packing"].startswith("packing: false") and "neat_packing: true" not in cfg["fixes"]["packing"]


def test_llamafactory_sft_packing_is_still_told_neat_packing(tmp_path):
    p = tmp_path / "sft.yaml"
    p.write_text("# written by cfg76: an sft run with plain packing\nstage: sft\ndo_train: true\n"
                 "model_name_or_path: Qwen/Qwen2.5-7B\ndataset: alpaca_en_demo\ntemplate: qwen\nfinetuning_type: lora\n"
                 "packing: true\nflash_attn: sdpa\nbf16: true\n", encoding="utf-8")
    cfg = configs.load(str(p))
    assert cfg["packing"] and cfg["fixes"]["packing"].startswith("neat_packing: true")


@pytest.mark.parametrize("name", sorted(set(READ) | set(CMDLINES)))
def test_every_printed_fix_names_no_uninstall(name, capsys, monkeypatch):
    # the CLI in this process (a fresh interpreter for each of 58 files was 3 minutes of CI's CPU, session 32): --from
    # re-reads a report, nothing is probed or run
    from attn_doctor.cli import main

    monkeypatch.chdir(ROOT)
    monkeypatch.setenv("NO_COLOR", "1")
    main(["check", "--from", str(GOOD_H100), "--config", str(DATA / name), "--json", "-"])
    report = json.loads(capsys.readouterr().out)
    for f in report["findings"]:
        fix = f.get("fix") or ""
        assert "uninstall" not in fix.split("#")[0], (f["id"], fix)
        if "pip install" in fix:
            assert fix.split()[0].endswith(("python", "python3")) or "--python" in fix, (f["id"], fix)


@pytest.mark.parametrize("text, want", [
    ("flash_atn: fa2\n", [("flash_atn", "flash_attn")]),
    ("enabel_lighter_kernel: true\n", [("enabel_lighter_kernel", "enable_liger_kernel")]),
    ("per_device_train_batchsize: 2\nlearning_rat: 1.0e-4\n",
     [("per_device_train_batchsize", "per_device_train_batch_size"), ("learning_rat", "learning_rate")]),
    ("flash_attn: fa2\n", []),                              # spelt right
    ("grpo_beta: 0.1\ngrpo_num_generations: 8\n", []),      # a fork's feature: no namesake upstream
    ("flash_atn: fa2\nmfsgd_rank: 8\n", []),                # a fork's file: its parser may take both
])
def test_a_misspelt_llamafactory_key_is_the_error_its_parser_raises(tmp_path, text, want):
    # hparams/parser.py _parse_args: parse_dict raises "Some keys are not used by the HfArgumentParser"
    p = tmp_path / "sft.yaml"
    p.write_text("# written by cfg76\nmodel_name_or_path: Qwen/Qwen2.5-7B-Instruct\nstage: sft\ndo_train: true\n"
                 "finetuning_type: lora\ndataset: alpaca_en_demo\ntemplate: qwen\nbf16: true\n" + text, encoding="utf-8")
    cfg = configs.load(str(p))
    assert cfg["detected"]["trainer"] == "llama-factory"
    assert [(e["name"], e["suggestion"]) for e in cfg.get("cmdline_errors") or []] == want


def test_a_misspelt_llamafactory_key_file():
    cfg = configs.load(str(DATA / "lf_typo.yaml"))
    assert [(e["kind"], e["name"], e["suggestion"]) for e in cfg["cmdline_errors"]] == [("unknown-key", "flash_atn", "flash_attn")]
    p = subprocess.run([sys.executable, "-m", "attn_doctor", "check", "--from", str(GOOD_H100), "--config",
                        str(DATA / "lf_typo.yaml"), "--json", "-"], capture_output=True, text=True, cwd=ROOT)
    report = json.loads(p.stdout)
    f = next(x for x in report["findings"] if x["id"] == "config.unknown-key")
    assert f["fix"].startswith("flash_attn: fa2") and report["exit_code"] == 1
