"""Issue 24, helper cfg97 (session 23): every option a claimed trainer takes for attention, dtype and compile, read from
the trainer's own source (benchmarks/configs_option_surface.py; results/configs-option-surface-s23.md), and the options
the readers did not know or read wrong.

1. axolotl: `context_parallel_size` (or the deprecated `sequence_parallel_degree`) above 1 runs ring-flash-attn and
   axolotl's validation refuses it with any backend but the flash-attn library's ("context_parallel_size > 1 requires
   flash attention (attn_implementation: flash_attention_2 or flash_attention_3)",
   axolotl-ai-cloud/axolotl@067b021 src/axolotl/utils/schemas/validation.py:1634-1657); main read such a file as the
   backend it names (sdpa, or nothing required).
2. diffusers' example scripts: `--enable_npu_flash_attention` (14 scripts at huggingface/diffusers@58eb52c) runs Ascend's
   flash attention through torch_npu, or stops the script where torch_npu is missing
   (examples/dreambooth/train_dreambooth_lora_flux.py:1223-1228); main read it as nothing at all (PyTorch SDPA).
3. The extraction itself (configs_option_surface.scan): each way a trainer declares an option, on sources of our own.
Every file here is written by cfg97 for these tests; each reading asserted in 1. and 2. differed on main (checked).
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

from attn_doctor import configs
from configs_corpus import read, write

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
import configs_option_surface as surface  # noqa: E402

AXOLOTL = """base_model: NousResearch/Llama-2-7b-hf
datasets:
  - path: mhenrichsen/alpaca_2k_test
    type: alpaca
sequence_len: 8192
micro_batch_size: 1
num_epochs: 1
bf16: true
"""


# -- 1. axolotl context parallelism ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("extra, setting", [
    ("context_parallel_size: 2\nattn_implementation: sdpa\n", "context_parallel_size: 2 with attn_implementation: sdpa"),
    ("context_parallel_size: 4\nsdp_attention: true\n", "context_parallel_size: 4 with sdp_attention: true"),
    ("context_parallel_size: 2\nattn_implementation: flex_attention\n",
     "context_parallel_size: 2 with attn_implementation: flex_attention"),
    # no backend named: the model's default is not the flash-attn library either
    ("context_parallel_size: 2\n", "context_parallel_size: 2 with no attn_implementation"),
    # the deprecated name, taken when context_parallel_size is unset
    ("sequence_parallel_degree: 4\nattn_implementation: sdpa\n",
     "sequence_parallel_degree: 4 with attn_implementation: sdpa"),
])
def test_context_parallelism_without_flash_attn_is_refused_not_read_as_the_backend(tmp_path, extra, setting):
    cfg = configs.load(write(tmp_path, "config.yml", AXOLOTL + extra))
    assert cfg["detected"]["trainer"] == "axolotl"
    assert cfg["required"] == []
    [entry] = cfg["attention"]
    assert entry["known"] is False and entry["setting"] == setting
    assert entry["fix"] == "attn_implementation: flash_attention_2"


@pytest.mark.parametrize("extra, required", [
    ("context_parallel_size: 2\nattn_implementation: flash_attention_2\n", ["fa2"]),
    ("context_parallel_size: 2\nattn_implementation: flash_attention_3\n", ["fa3"]),
    ("sequence_parallel_degree: 2\nflash_attention: true\n", ["fa2"]),
    # 1 (and an unset size) is no context parallelism
    ("context_parallel_size: 1\nattn_implementation: sdpa\n", ["sdpa"]),
    # the GLM DSA kernels bring their own context-parallel attention (validation.py:1642-1651)
    ("context_parallel_size: 2\nattn_implementation: sdpa\nuse_glm_dsa_kernels: true\n", ["sdpa"]),
])
def test_context_parallelism_that_axolotl_accepts_reads_as_before(tmp_path, extra, required):
    assert read(tmp_path, "config.yml", AXOLOTL + extra)[:3] == ("axolotl", required, "bfloat16")


def test_the_refusal_is_axolotls_finding_with_the_fix(tmp_path):
    from test_configs import config_ids, run

    cfg, report = run(write(tmp_path, "config.yml", AXOLOTL + "context_parallel_size: 2\nattn_implementation: sdpa\n"))
    assert config_ids(report) == ["config.axolotl-unknown-attn"]
    [f] = [f for f in report.findings if f.id == "config.axolotl-unknown-attn"]
    assert "context_parallel_size: 2 with attn_implementation: sdpa" in f.title and f.severity == "error"
    assert f.fix.startswith("attn_implementation: flash_attention_2")


# -- 2. diffusers' NPU option -----------------------------------------------------------------------------------------

NPU = ("accelerate launch {script} --pretrained_model_name_or_path=black-forest-labs/FLUX.1-dev --instance_data_dir=d "
       "--instance_prompt=x --output_dir=o --mixed_precision=bf16 --enable_npu_flash_attention{more}\n")


@pytest.mark.parametrize("script", ["train_dreambooth_lora_flux.py", "examples/text_to_image/train_text_to_image_sdxl.py"])
def test_the_npu_option_is_a_backend_attn_doctor_does_not_check(tmp_path, script):
    from test_configs import config_ids, run

    cfg, report = run(write(tmp_path, "train.sh", NPU.format(script=script, more="")))
    assert (cfg["detected"]["trainer"], cfg["required"], cfg["dtype"]) == ("diffusers", [], "bfloat16")
    assert [(e["setting"], e["kind"]) for e in cfg["attention"]] == [("--enable_npu_flash_attention", "other")]
    assert "config.backend-not-checked" in config_ids(report)
    [f] = [f for f in report.findings if f.id == "config.backend-not-checked"]
    assert f.fix.startswith("drop --enable_npu_flash_attention")


def test_the_npu_option_beside_xformers_keeps_both(tmp_path):
    cfg = configs.load(write(tmp_path, "train.sh", NPU.format(script="train_dreambooth_lora_flux.py",
                                                               more=" --enable_xformers_memory_efficient_attention")))
    assert [e["kind"] for e in cfg["attention"]] == ["other", "local"] and cfg["required"] == ["xformers"]


def test_a_script_without_the_npu_option_stops_at_argparse_not_at_npu(tmp_path):
    # train_dreambooth.py defines no --enable_npu_flash_attention: "unrecognized arguments" comes first
    cfg = configs.load(write(tmp_path, "train.sh", NPU.format(script="train_dreambooth.py", more="")))
    assert cfg["attention"] == [] and [e["name"] for e in cfg["cmdline_errors"]] == ["--enable_npu_flash_attention"]


# -- 3. the extraction ------------------------------------------------------------------------------------------------

SOURCE = '''
import os
from dataclasses import dataclass, field
from typing import Literal
from enum import Enum

MECHS = ["diffusers", "xformers", "flash-attn"]


class AttentionKind(Enum):
    SDP = "SDP"
    FLASH = "FLASH"


def setup_parser(parser):
    parser.add_argument("--sdpa", action="store_true")
    parser.add_argument("--mixed_precision", "--mixed-precision", choices=["no", "fp16", "bf16"], default="no")
    parser.add_argument("--learning_rate", type=float)       # no field of ours
    parser.add_argument("--attn_dropout", type=float)        # attention-looking, not a backend
    registry.add(ConfigField(name="attention_mechanism", arg_name="--attention_mechanism", default_value="diffusers",
                             choices=[{"value": a, "label": a} for a in MECHS]))
    if os.environ.get("MY_COMPILE_DISABLE", "0") == "1":
        os.environ["OTHER_COMPILE_MODE"] = "default"    # written, not read: no option


@dataclass
class Args:
    attn_impl: Literal["sdpa", "flash_attn"] = field(default="sdpa")
    compute_dtype: str = field(default=None, init=False)
    torch_compile: bool = False
    attention_kind: AttentionKind = AttentionKind.SDP


class ModelConfig:
    def __init__(self, **kwargs):
        self.compile_mode = kwargs.get("compile_mode", "default")
        self.dtype = kwargs["dtype"]


def default_values():
    data = []
    data.append(("train_dtype", DataType.FLOAT_16, DataType, False))
    return data


def setup(precision: Literal["bf16-true", "32-true"] = None, devices: int = 1):
    pass
'''


def _rows():
    return {(r["name"], r["kind"]): r for r in surface.scan(ast.parse(SOURCE))}


def test_each_way_an_option_is_declared_is_found_with_its_values():
    rows = _rows()
    assert rows[("sdpa", "argparse")]["line"] == 16
    assert rows[("mixed_precision", "argparse")]["values"] == "no|fp16|bf16"
    assert rows[("mixed-precision", "argparse (alias of --mixed_precision)")]["values"] == "no|fp16|bf16"
    assert rows[("attention_mechanism", "registry field")]["values"] == "diffusers|xformers|flash-attn"
    assert rows[("MY_COMPILE_DISABLE", "environment")]["default"] == "'0'"
    assert rows[("attn_impl", "field Args")]["values"] == "sdpa|flash_attn"
    assert rows[("attn_impl", "field Args")]["default"] == "'sdpa'"
    assert rows[("torch_compile", "field Args")]["default"] == "False"
    assert ("compute_dtype", "field Args (init=False: derived, HfArgumentParser takes no such key)") in rows
    assert rows[("compile_mode", "kwargs.get")]["cls"] == "ModelConfig"
    assert rows[("dtype", "kwargs[...]")]["cls"] == "ModelConfig"
    assert rows[("train_dtype", "config default")]["default"] == "DataType.FLOAT_16"
    assert rows[("precision", "parameter of setup()")]["values"] == "bf16-true|32-true"


def test_names_that_set_none_of_the_fields_are_left_out():
    names = {n for n, _ in _rows()}
    assert not names & {"learning_rate", "attn_dropout", "devices", "OTHER_COMPILE_MODE"}


def test_an_enum_typed_option_takes_the_enums_members():
    enums = surface.enum_values(ast.parse(SOURCE))
    assert enums == {"AttentionKind": ["SDP", "FLASH"]}
    rows = surface.with_enums([dict(r) for r in surface.scan(ast.parse(SOURCE))], enums)
    assert next(r for r in rows if r["name"] == "attention_kind")["values"] == "SDP|FLASH"


def test_known_is_a_whole_word_of_the_readers_module():
    reader = 'STRONG_KEYS = {"sdpa_varlen", "torch_compile"}'
    assert surface.known("torch_compile", reader)
    assert not surface.known("sdpa", reader)


def test_the_probe_writes_the_option_where_the_trainer_takes_it_and_reads_it(tmp_path):
    row = {"name": "torch_compile", "kind": "field AxolotlInputConfig", "values": "auto", "default": "None", "cls": "",
           "file": "src/axolotl/utils/schemas/config.py"}
    assert surface.probe_values(row) == ["auto"]
    name, text = surface.probe_file("axolotl", row, "auto")
    assert name == "config.yaml" and '"torch_compile": "auto"' in text
    flag = {"name": "sdpa", "kind": "argparse", "values": "", "default": "", "cls": "", "file": "library/train_util.py"}
    assert surface.probe_values(flag) == [True]
    assert surface.probe_file("sd-scripts", flag, True)[1].rstrip().endswith("--sdpa")
    nested = {"name": "compile", "kind": "kwargs.get", "values": "", "default": "False", "cls": "ModelConfig",
              "file": "toolkit/config_modules.py"}
    assert '"compile": true' in surface.probe_file("ai-toolkit", nested, True)[1]
    result = {"axolotl": {"rows": [row]}, "sd-scripts": {"rows": [flag]}}
    surface.probe(result, tmp_path)
    assert row["probe_base"] == "axolotl - bfloat16 none" and row["probe"] == {"auto": "axolotl - bfloat16 default"}
    assert flag["probe"] == {"True": "sd-scripts sdpa float32 none"}
    assert surface.probe_cell(flag) == "sd-scripts - float32 none -> True: sd-scripts sdpa float32 none"
