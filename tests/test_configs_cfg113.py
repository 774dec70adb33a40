"""Issue 24, helper cfg113 (session 27): a dtype the GPU decides -- the rest of cfg110's class.

Forms read now (each written here as a variant of the mechanism; none is a file of a round):
- the probe through the script's own code: a torch dtype compared with another (`bf16=(dtype == torch.bfloat16)`,
  `is`, torch.half), a name as it is where the trainer's arguments are built (a notebook rebinds it after training),
  `hasattr(torch.cuda, "is_bf16_supported")`, a function of no parameters returning by its tests, names an `if` over
  the probe binds on each side;
- Unsloth: a trainer's bf16 / fp16 left to the probe where the loader is not read here; an explicit bfloat16 asked of
  the loader, which Unsloth turns into float16 below compute capability 8.0 (unsloth/models/llama.py:2436-2438);
- axolotl's `bf16: auto` (or no bf16): resolve_dtype asks transformers' is_torch_bf16_gpu_available(), i.e.
  torch.cuda.is_bf16_supported() (emulated bfloat16 counts on torch 2.3+), else fp16;
- the smoke tests' dtype: check --config hands `dtype_by_gpu` to the smoke children, which lead with the dtype the
  job runs on their GPU (smoke.plan.auto_dtype).

The GPUs are FAKE (the CPU machine's saved facts with a GPU added as nvidia-smi would list it, ci_support.with_gpu,
and a torch version set where it matters). Every test but the near misses fails without the change (checked against
main at the session's start).
"""

from __future__ import annotations

import json
import textwrap

import pytest

from attn_doctor import api, configs
from attn_doctor.smoke import plan as smoke_plan
from ci_support import CPU_REPORT, cli, evaluate
from test_configs_cfg110 import facts_with, write

# an Unsloth run whose model is loaded by a module of the repository (not read here)
UNSLOTH_NO_LOADER = """
    from unsloth import is_bfloat16_supported
    from trl import SFTTrainer, SFTConfig
    from mymodels import load_model
    model, tok = load_model()
    args = SFTConfig(output_dir="o", fp16=not is_bfloat16_supported(), bf16=is_bfloat16_supported())
    SFTTrainer(model=model, tokenizer=tok, args=args).train()
"""
UNSLOTH_BF16 = """
    import torch
    from unsloth import FastModel
    from trl import SFTTrainer, SFTConfig
    model, tok = FastModel.from_pretrained("unsloth/gemma-3-4b-it", dtype=torch.bfloat16, load_in_4bit=True)
    SFTTrainer(model=model, tokenizer=tok, args=SFTConfig(output_dir="o")).train()
"""
# near misses: bf16=True written too (the run stops on a GPU below 8.0: rl.py:2395), a Modal function pinned to an H100
UNSLOTH_BF16_PINNED = UNSLOTH_BF16.replace('SFTConfig(output_dir="o")', 'SFTConfig(output_dir="o", bf16=True)')
UNSLOTH_BF16_MODAL = """
    import modal
    app = modal.App("ft")

    @app.function(gpu="H100")
    def train():
        import torch
        from unsloth import FastLanguageModel
        from trl import SFTTrainer, SFTConfig
        model, tok = FastLanguageModel.from_pretrained("unsloth/llama-3-8b", dtype=torch.bfloat16)
        SFTTrainer(model=model, tokenizer=tok, args=SFTConfig(output_dir="o")).train()
"""
# a torch dtype compared with another; `is`, an alias (torch.half is torch.float16)
COMPARED = """
    import torch
    from transformers import AutoModelForCausalLM, TrainingArguments, Trainer
    dtype = torch.bfloat16 if torch.cuda.is_bf16_supported() else torch.half
    model = AutoModelForCausalLM.from_pretrained("org/model", attn_implementation="sdpa", torch_dtype=dtype)
    args = TrainingArguments(output_dir="out", bf16=dtype is torch.bfloat16, fp16=(dtype == torch.float16))
    Trainer(model=model, args=args).train()
"""
# the same in a notebook-like script that rebinds the name after training (to reload the adapter)
REBOUND = """
    import torch
    from unsloth import FastLanguageModel, is_bfloat16_supported
    from trl import SFTTrainer, SFTConfig
    dtype = torch.bfloat16 if is_bfloat16_supported() else torch.float16
    model, tok = FastLanguageModel.from_pretrained("unsloth/qwen3-4b", dtype=dtype, load_in_4bit=True)
    args = SFTConfig(output_dir="o", bf16=(dtype == torch.bfloat16), fp16=(dtype == torch.float16))
    SFTTrainer(model=model, tokenizer=tok, args=args).train()
    dtype = torch.float16 if torch.cuda.is_available() else torch.float32
    base, tok = FastLanguageModel.from_pretrained("o", dtype=dtype, load_in_4bit=True)
"""
HASATTR = COMPARED.replace("if torch.cuda.is_bf16_supported()",
                           "if hasattr(torch.cuda, 'is_bf16_supported') and torch.cuda.is_bf16_supported()")
# a function of the script's returning by its tests
PICKED = """
    import torch
    from transformers import AutoModelForCausalLM, TrainingArguments, Trainer

    def pick_dtype():
        \"\"\"bf16 where the GPU has it.\"\"\"
        if not torch.cuda.is_available():
            return torch.float32
        if torch.cuda.is_bf16_supported():
            return torch.bfloat16
        return torch.float16

    model = AutoModelForCausalLM.from_pretrained("org/model", attn_implementation="sdpa", torch_dtype=pick_dtype())
    args = TrainingArguments(output_dir="out", bf16=pick_dtype() == torch.bfloat16, fp16=pick_dtype() == torch.float16)
    Trainer(model=model, args=args).train()
"""
# names an `if` over the probe binds, on both sides or over a value set before it
BRANCHED = """
    import torch
    from transformers import AutoModelForCausalLM, TrainingArguments, Trainer

    def main():
        use_fp16 = False
        if torch.cuda.is_bf16_supported():
            model_dtype, use_bf16 = torch.bfloat16, True
        else:
            model_dtype, use_bf16 = torch.float16, False
            use_fp16 = True
        model = AutoModelForCausalLM.from_pretrained("org/model", attn_implementation="sdpa", dtype=model_dtype)
        Trainer(model=model, args=TrainingArguments(output_dir="out", bf16=use_bf16, fp16=use_fp16)).train()

    main()
"""
# near miss: a dtype the file fixes, compared: bfloat16 on every GPU (round 29m's LazarusNLP form)
FIXED = """
    import torch
    from transformers import AutoModelForCausalLM, TrainingArguments, Trainer
    torch_dtype = torch.bfloat16
    model = AutoModelForCausalLM.from_pretrained("org/model", attn_implementation="eager", torch_dtype=torch_dtype)
    args = TrainingArguments(output_dir="out", fp16=torch_dtype == torch.float16, bf16=torch_dtype == torch.bfloat16)
    Trainer(model=model, args=args).train()
"""


@pytest.mark.parametrize("src, dtype, other", [
    (UNSLOTH_NO_LOADER, None, "float16"),
    (UNSLOTH_BF16, "bfloat16", "float16"),
    (COMPARED, None, "float16"),
    (REBOUND, None, "float16"),
    (HASATTR, None, "float16"),
    (PICKED, None, "float16"),
    (BRANCHED, None, "float16"),
])
def test_the_gpu_decides_through_the_scripts_own_code(tmp_path, src, dtype, other):
    cfg = configs.load(write(tmp_path, src))
    assert cfg["dtype"] == dtype  # (the labels' field: unchanged where the file does not fix it)
    got = cfg["dtype_by_gpu"]
    assert (got["bfloat16_gpu"], got["other_gpu"]) == ("bfloat16", other)


@pytest.mark.parametrize("src, dtype", [(UNSLOTH_BF16_PINNED, "bfloat16"), (UNSLOTH_BF16_MODAL, "bfloat16"),
                                        (FIXED, "bfloat16")])
def test_near_misses(tmp_path, src, dtype):
    cfg = configs.load(write(tmp_path, src))
    assert cfg["dtype"] == dtype and "dtype_by_gpu" not in cfg


def test_unsloth_turns_an_explicit_bfloat16_into_float16_below_sm80(tmp_path):
    cfg = configs.load(write(tmp_path, UNSLOTH_BF16))
    assert cfg["dtype_by_gpu"]["settings"] == ["dtype=torch.bfloat16"] and not cfg["dtype_by_gpu"]["emulated"]
    for cap, want in (((7, 5), "float16"), ((8, 6), "bfloat16")):
        report = evaluate(facts_with(cap, torch_version="2.13.0"), config=cfg, required=list(cfg["required"]))
        assert [h["dtype"] for h in report.config["dtype_here"]] == [want]


AXOLOTL = """
    base_model: org/model
    datasets:
      - path: data.jsonl
        type: alpaca
    sequence_len: 2048
    micro_batch_size: 1
    attn_implementation: sdpa
"""


@pytest.mark.parametrize("extra, other, setting", [
    ("bf16: auto\n", "float16", "bf16: auto"),
    ("", "float16", "bf16 (not set: auto)"),
    ("bf16: auto\nfp16: false\n", "float32", "bf16: auto"),
    ("bf16: auto\nfp16: false\nload_in_8bit: true\n", "float16", "bf16: auto"),
])
def test_axolotl_bf16_auto(tmp_path, extra, other, setting):
    cfg = configs.load(write(tmp_path, AXOLOTL + textwrap.indent(extra, "    "), "config.yml"))
    assert cfg["trainer"] == "axolotl" and cfg["dtype"] == "bfloat16"  # (what the labels take: unchanged)
    got = cfg["dtype_by_gpu"]
    assert (got["bfloat16_gpu"], got["other_gpu"], got["emulated"], got["settings"]) == \
        ("bfloat16", other, True, [setting])


@pytest.mark.parametrize("extra, dtype", [("bf16: true\n", "bfloat16"), ("fp16: true\n", "float16"),
                                          ("bf16: auto\nbfloat16: true\n", "bfloat16"), ("bf16: false\n", "float32")])
def test_axolotl_near_misses(tmp_path, extra, dtype):
    cfg = configs.load(write(tmp_path, AXOLOTL + textwrap.indent(extra, "    "), "config.yml"))
    assert cfg["dtype"] == dtype and "dtype_by_gpu" not in cfg


@pytest.mark.parametrize("cap, torch_version, dtype, ids", [
    ((7, 0), "2.13.0", "bfloat16", {"config.dtype-by-gpu", "config.dtype-by-gpu-emulated"}),
    ((7, 5), "2.2.2", "float16", {"config.dtype-by-gpu"}),
    ((9, 0), "2.13.0", "bfloat16", {"config.dtype-by-gpu"}),
])
def test_axolotl_auto_resolved_here_with_its_own_fix(tmp_path, cap, torch_version, dtype, ids):
    cfg = configs.load(write(tmp_path, AXOLOTL + "    bf16: auto\n", "config.yml"))
    report = evaluate(facts_with(cap, torch_version=torch_version), config=cfg, required=list(cfg["required"]))
    assert [h["dtype"] for h in report.config["dtype_here"]] == [dtype]
    found = {f.id: f for f in report.findings if f.section == "config"}
    assert set(found) == ids
    if "config.dtype-by-gpu-emulated" in found:  # axolotl's own key, not a Python keyword
        assert found["config.dtype-by-gpu-emulated"].fix.startswith("fp16: true   # in ")
        assert "including_emulation" not in found["config.dtype-by-gpu-emulated"].fix


# the smoke tests: what each GPU's child leads with (FAKE capabilities; the child runs smoke.plan.auto_dtype)
@pytest.mark.parametrize("src, name, cap, emulates, lead", [
    (UNSLOTH_BF16, "train.py", (7, 0), True, "float16"),       # a V100 runs this job in float16
    (UNSLOTH_BF16, "train.py", (9, 0), True, "bfloat16"),
    (AXOLOTL + "    bf16: auto\n", "config.yml", (7, 5), False, "float16"),   # torch 2.2: the probe says False
    (AXOLOTL + "    bf16: auto\n", "config.yml", (7, 5), True, "bfloat16"),  # torch 2.3+: emulated bfloat16
])
def test_smoke_leads_with_the_dtype_the_job_runs_on_that_gpu(tmp_path, src, name, cap, emulates, lead):
    plan = api.plan_check(config=write(tmp_path, src, name), python=None)
    assert plan.smoke["dtype_by_gpu"]["bfloat16_gpu"] == "bfloat16"
    dtype = smoke_plan.auto_dtype(plan.smoke, cap, emulates)
    assert dtype == lead
    cases, _ = smoke_plan.plan("sdpa", cap, dtype=dtype)
    assert cases[0]["dtype"] == lead


def test_smoke_without_a_gpu_decided_dtype_is_unchanged(tmp_path):
    plan = api.plan_check(config=write(tmp_path, AXOLOTL + "    fp16: true\n", "config.yml"), python=None)
    assert "dtype_by_gpu" not in plan.smoke
    assert smoke_plan.auto_dtype(plan.smoke, (7, 0), True) == "float16"
    assert smoke_plan.auto_dtype({"dtype": None}, None, True) is None


def test_cli_json_resolves_axolotl_auto_on_a_fake_t4(tmp_path):
    cfg_path = write(tmp_path, AXOLOTL + "    bf16: auto\n", "config.yml")
    saved = json.loads(CPU_REPORT.read_text())
    saved["facts"] = facts_with((7, 5), torch_version="2.2.2")
    report = tmp_path / "report.json"
    report.write_text(json.dumps(saved))
    data = json.loads(cli("check", "--from", str(report), "--config", cfg_path, "--json", "-").stdout)
    assert data["config"]["dtype"] == "bfloat16"
    assert data["config"]["dtype_by_gpu"]["settings"] == ["bf16: auto"]
    assert data["config"]["dtype_here"] == [{"gpu": "FAKE sm75", "capability": "sm75", "dtype": "float16",
                                             "emulated": False}]
    assert "config.dtype-by-gpu" in {f["id"] for f in data["findings"]}


# the probe and a settings file that is not here decide together: the reading says so (dtype_open), guessing nothing
OPEN = """
    import json
    from unsloth import FastLanguageModel, is_bfloat16_supported
    from trl import GRPOTrainer, GRPOConfig
    training_config = json.load(open("configs/not_here.json"))
    model, tok = FastLanguageModel.from_pretrained("unsloth/gemma-3-1b-it", load_in_4bit=True)
    args = GRPOConfig(output_dir="o", bf16=is_bfloat16_supported() and training_config.get("bf16", False),
                      fp16=not is_bfloat16_supported() and training_config.get("fp16", True))
    GRPOTrainer(model=model, args=args).train()
"""


def test_a_probe_with_an_unknown_is_said_not_guessed(tmp_path):
    path = write(tmp_path, OPEN)
    cfg = configs.load(path)
    assert cfg["dtype"] is None and "dtype_by_gpu" not in cfg
    assert cfg["dtype_open"] == {
        "probes": ["is_bfloat16_supported()"],
        "settings": ["bf16=is_bfloat16_supported() and training_config.get('bf16', False)",
                     "fp16=not is_bfloat16_supported() and training_config.get('fp16', True)"],
        "unknown": ["training_config.get('bf16', False)", "training_config.get('fp16', True)"]}
    saved = json.loads(CPU_REPORT.read_text())
    saved["facts"] = facts_with((7, 5), torch_version="2.13.0")
    report = tmp_path / "report.json"
    report.write_text(json.dumps(saved))
    text = " ".join(cli("check", "--from", str(report), "--config", path).stdout.split())
    assert "dtype: not known from the file: bf16=is_bfloat16_supported() and training_config.get('bf16', False); " \
           "fp16=not is_bfloat16_supported() and training_config.get('fp16', True) depends on the GPU " \
           "(is_bfloat16_supported()) and on training_config.get('bf16', False), " \
           "training_config.get('fp16', True), not known here" in text
