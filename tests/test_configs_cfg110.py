"""Issue 24, helper cfg110 (session 26): a dtype the script leaves to the GPU, resolved on the machine checked.

`bf16=torch.cuda.is_bf16_supported()`, `fp16=not is_bfloat16_supported()`, `torch_dtype=torch.bfloat16 if use_bf16 else
torch.float16` read as dtype None (the file does not fix it; the labels' scoring is unchanged) and now also as
`dtype_by_gpu`: the dtype where the probe answers True and where it answers False
(configs.pyscript.gpu_decides asks value() both ways). `check --config` resolves it with the GPUs of the machine
(checks.trainer.dtype_here: the config's `dtype_here`, in --json too) and judges the chosen backend on it.

Every script below is written here (none is a file of a round). The GPUs are FAKE: the CPU machine's saved facts with
one (or two) GPUs added as nvidia-smi would list them (ci_support.with_gpu), and a torch version set where it matters.
All but the near misses (a bf16 set True, a bf16 from a settings file not here) fail without the change (checked:
the change reverted, no dtype_by_gpu, no config.dtype-by-gpu* findings).
"""

from __future__ import annotations

import json
import textwrap

import pytest

from attn_doctor import configs
from ci_support import CPU_REPORT, cli, evaluate, saved_facts, with_gpu

TRL = """
    import torch
    from transformers import AutoModelForCausalLM
    from trl import SFTConfig, SFTTrainer
    model = AutoModelForCausalLM.from_pretrained("org/model", attn_implementation="flash_attention_2")
    args = SFTConfig(output_dir="out", bf16=torch.cuda.is_bf16_supported(), fp16=not torch.cuda.is_bf16_supported())
    SFTTrainer(model=model, args=args, train_dataset=None).train()
"""
# the probe through names, and the model's dtype from it too
NAMED = """
    import torch
    from transformers import AutoModelForCausalLM, TrainingArguments, Trainer
    use_bf16 = torch.cuda.is_available() and torch.cuda.is_bf16_supported()
    model = AutoModelForCausalLM.from_pretrained("org/model", attn_implementation="sdpa",
                                                 torch_dtype=torch.bfloat16 if use_bf16 else torch.float16)
    args = TrainingArguments(output_dir="out", bf16=use_bf16, fp16=not use_bf16)
    Trainer(model=model, args=args).train()
"""
# set on the arguments object after building it
AFTER = """
    import torch
    from transformers import AutoModelForCausalLM, TrainingArguments, Trainer
    model = AutoModelForCausalLM.from_pretrained("org/model", attn_implementation="flash_attention_2")
    args = TrainingArguments(output_dir="out")
    args.bf16 = torch.cuda.is_bf16_supported()
    args.fp16 = not torch.cuda.is_bf16_supported()
    Trainer(model=model, args=args).train()
"""
# no autocast where the probe answers False: the weights' float32 (prepare_model_for_kbit_training), which FA2 refuses
UPCAST = """
    import torch
    from transformers import AutoModelForCausalLM, BitsAndBytesConfig, TrainingArguments, Trainer
    from peft import prepare_model_for_kbit_training
    model = AutoModelForCausalLM.from_pretrained("org/model", attn_implementation="flash_attention_2",
                                                 quantization_config=BitsAndBytesConfig(load_in_4bit=True),
                                                 torch_dtype=torch.bfloat16)
    model = prepare_model_for_kbit_training(model)
    args = TrainingArguments(output_dir="out", bf16=torch.cuda.is_bf16_supported(including_emulation=False))
    Trainer(model=model, args=args).train()
"""
UNSLOTH = """
    from unsloth import FastLanguageModel, is_bfloat16_supported
    from trl import SFTTrainer
    from transformers import TrainingArguments
    model, tok = FastLanguageModel.from_pretrained("unsloth/llama-3-8b", max_seq_length=2048, dtype=None,
                                                   load_in_4bit=True)
    args = TrainingArguments(output_dir="o", fp16=not is_bfloat16_supported(), bf16=is_bfloat16_supported())
    SFTTrainer(model=model, tokenizer=tok, args=args).train()
"""
# near misses: bf16 fixed in the file; bf16 from a settings file that is not here (not the GPU's to decide)
EXPLICIT = TRL.replace("bf16=torch.cuda.is_bf16_supported(), fp16=not torch.cuda.is_bf16_supported()", "bf16=True")
ELSEWHERE = TRL.replace("bf16=torch.cuda.is_bf16_supported()", "bf16=cfg['bf16']").replace(
    "import torch\n", "import torch, json\n    cfg = json.load(open('not_here.json'))\n")


def write(tmp_path, src: str, name: str = "train.py") -> str:
    p = tmp_path / name
    p.write_text(textwrap.dedent(src))
    return str(p)


def facts_with(*caps, torch_version: str | None = None) -> dict:
    """FAKE facts: the CPU machine's, with these GPUs (none: no GPU) and this torch version."""
    facts = saved_facts()
    if caps:
        facts = with_gpu(facts, f"FAKE sm{caps[0][0]}{caps[0][1]}", caps[0])
        facts["driver"]["gpus"] += [{"index": i, "name": f"FAKE sm{c[0]}{c[1]}", "capability": list(c),
                                     "memory_mib": 81559} for i, c in enumerate(caps[1:], 1)]
    if torch_version:
        for part in ("probe", "dist"):
            if isinstance(facts.get("torch", {}).get(part), dict):
                facts["torch"][part]["version"] = torch_version
    return facts


def config_findings(cfg: dict, facts: dict) -> dict:
    report = evaluate(facts, config=cfg, required=list(cfg["required"]))
    return {f.id: f for f in report.findings if f.section == "config"}


@pytest.mark.parametrize("src, yes, no, settings", [
    (TRL, "bfloat16", "float16", ["bf16=torch.cuda.is_bf16_supported()", "fp16=not torch.cuda.is_bf16_supported()"]),
    (NAMED, "bfloat16", "float16", ["bf16=use_bf16", "fp16=not use_bf16",
                                    "torch_dtype=torch.bfloat16 if use_bf16 else torch.float16"]),
    (AFTER, "bfloat16", "float16", None),
    (UPCAST, "bfloat16", "float32", ["bf16=torch.cuda.is_bf16_supported(including_emulation=False)"]),
    (UNSLOTH, "bfloat16", "float16", ["bf16=is_bfloat16_supported()", "fp16=not is_bfloat16_supported()"]),
])
def test_reading_says_the_gpu_decides(tmp_path, src, yes, no, settings):
    cfg = configs.load(write(tmp_path, src))
    assert cfg["dtype"] is None  # the file does not fix it: the labels' field is unchanged
    got = cfg["dtype_by_gpu"]
    assert (got["bfloat16_gpu"], got["other_gpu"]) == (yes, no)
    if settings is not None:
        assert got["settings"] == settings


@pytest.mark.parametrize("src, dtype", [(EXPLICIT, "bfloat16"), (ELSEWHERE, None)])
def test_near_misses_keep_their_reading(tmp_path, src, dtype):
    cfg = configs.load(write(tmp_path, src))
    assert cfg["dtype"] == dtype and "dtype_by_gpu" not in cfg
    assert not [i for i in config_findings(cfg, facts_with((7, 5))) if i.startswith("config.dtype-by-gpu")]


# (script, FAKE GPUs, torch, the dtype each GPU runs, emulated, config findings expected)
RESOLVED = [
    (TRL, [], None, [], False, {"config.dtype-by-gpu-unresolved"}),
    (TRL, [(7, 0)], "2.13.0", ["bfloat16"], True, {"config.dtype-by-gpu", "config.dtype-by-gpu-emulated"}),
    (TRL, [(7, 5)], "2.2.2", ["float16"], False, {"config.dtype-by-gpu"}),
    (TRL, [(8, 0)], "2.13.0", ["bfloat16"], False, {"config.dtype-by-gpu"}),
    (TRL, [(9, 0)], "2.13.0", ["bfloat16"], False, {"config.dtype-by-gpu"}),
    (UNSLOTH, [(7, 0)], "2.13.0", ["float16"], False, {"config.dtype-by-gpu"}),
    (UNSLOTH, [(7, 5), (8, 0)], "2.13.0", ["float16", "bfloat16"], False,
     {"config.dtype-by-gpu", "config.dtype-by-gpu-differs"}),
    (UPCAST, [(7, 5)], "2.13.0", ["float32"], False, {"config.dtype-by-gpu", "config.attention-dtype-unsupported"}),
    (UPCAST, [(9, 0)], "2.13.0", ["bfloat16"], False, {"config.dtype-by-gpu"}),
]


@pytest.mark.parametrize("src, caps, torch_version, dtypes, emulated, ids", RESOLVED)
def test_check_resolves_it_with_the_gpus_here(tmp_path, src, caps, torch_version, dtypes, emulated, ids):
    cfg = configs.load(write(tmp_path, src))
    facts = facts_with(*caps, torch_version=torch_version)
    report = evaluate(facts, config=cfg, required=list(cfg["required"]))
    assert [h["dtype"] for h in report.config["dtype_here"]] == dtypes
    assert any(h["emulated"] for h in report.config["dtype_here"]) is emulated
    found = {f.id: f for f in report.findings if f.section == "config"}
    assert set(found) == ids
    if "config.attention-dtype-unsupported" in found:  # FA2 refuses the float32 this GPU runs: set fp16 in the file
        assert found["config.attention-dtype-unsupported"].severity == "error"
        assert found["config.attention-dtype-unsupported"].fix.startswith("bf16=False, fp16=True   # in ")
    if "config.dtype-by-gpu-unresolved" in found:
        assert "not known on this machine" in found["config.dtype-by-gpu-unresolved"].title


def test_cli_json_and_text_say_it(tmp_path):
    script = write(tmp_path, TRL)
    saved = json.loads(CPU_REPORT.read_text())
    saved["facts"] = facts_with((7, 5), torch_version="2.13.0")
    report = tmp_path / "report.json"
    report.write_text(json.dumps(saved))
    out = cli("check", "--from", str(report), "--config", script, "--json", "-")
    data = json.loads(out.stdout)
    assert data["config"]["dtype_by_gpu"]["bfloat16_gpu"] == "bfloat16"
    assert data["config"]["dtype_here"] == [{"gpu": "FAKE sm75", "capability": "sm75", "dtype": "bfloat16",
                                             "emulated": True}]
    assert {"config.dtype-by-gpu", "config.dtype-by-gpu-emulated"} <= {f["id"] for f in data["findings"]}
    text = " ".join(cli("check", "--from", str(report), "--config", script).stdout.split())  # (wrapped lines)
    assert "dtype: decided by the GPU: bfloat16 where torch.cuda.is_bf16_supported(), else float16; here: " \
           "bfloat16 (emulated) on FAKE sm75 (sm75)" in text
