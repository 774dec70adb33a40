"""Issue 24: a YAML boolean written as a quoted string ("true") is read as the trainer's own loader reads it.

Found by rewriting the training rounds' YAML files with their booleans quoted (`bf16: "true"`): 50 of 133 stayed right
before this change, 130 after. Every case is written here (what it fakes is in its text), not copied from a user's file.
- axolotl validates its config with pydantic, whose lax mode takes "true"/"yes"/"on" for True and "false"/"no"/"off"
  for False, in any case;
- LLaMA-Factory hands a YAML's values to the dataclass unconverted (HfArgumentParser.parse_dict), and `if self.bf16`
  takes the string "true" as true."""

from __future__ import annotations

import pytest

from configs_corpus import read as _read

AXOLOTL = ("base_model: Qwen/Qwen2.5-7B\nadapter: lora\ndatasets:\n  - path: data.jsonl\n    type: alpaca\n"
           "sequence_len: 2048\nmicro_batch_size: 2\nflash_attention: {fa}\nbf16: {bf}\n")
LLAMAFACTORY = ("model_name_or_path: Qwen/Qwen2.5-7B-Instruct\nstage: sft\ndo_train: true\nfinetuning_type: lora\n"
                "dataset: alpaca_en_demo\ntemplate: qwen\noutput_dir: saves/q\nflash_attn: fa2\nbf16: {bf}\n")


@pytest.mark.parametrize("fa,bf,want", [
    ('"true"', '"true"', (["fa2"], "bfloat16")),
    ("'True'", "'yes'", (["fa2"], "bfloat16")),
    ('"false"', '"false"', ([], "float32")),
    ("true", "true", (["fa2"], "bfloat16")),  # unquoted: as before
])
def test_axolotl_lax_bools(tmp_path, fa, bf, want):
    assert tuple(_read(tmp_path, "qlora.yml", AXOLOTL.format(fa=fa, bf=bf))[1:3]) == want


@pytest.mark.parametrize("bf,dtype", [('"true"', "bfloat16"), ("'TRUE'", "bfloat16"), ("true", "bfloat16"), ("false", ""),
                                     ('"false"', "")])  # quoted false: left unsaid (llamafactory.py _settings)
def test_llamafactory_quoted_true(tmp_path, bf, dtype):
    got = _read(tmp_path, "sft.yaml", LLAMAFACTORY.format(bf=bf))
    assert got[0] == "llama-factory" and got[2] == dtype, got
