"""Review rev27 (session 27, issue 24): near misses of the session's configs changes, read as a maintainer would.

1. cfg114's bash model, compared with /bin/bash itself: the three forms it still read otherwise (a one-line `{ } &`
   group, a piped `if` block, a one-line function) were strict xfails here; cfg118 (session 28) reads them, and they
   moved to tests/test_configs_cfg118.py.
2. cfg113's probe read through the script's own code: a function of the script named like the GPU's bf16 probe is the
   script's code, not the probe (configs.pyscript.values.probe_call, nodes.SCRIPT_FUNCTIONS); read as the probe before."""

from __future__ import annotations

import pytest

from attn_doctor import configs
from test_configs_cfg110 import write

HEAD = """
    import torch
    from transformers import AutoModelForCausalLM, TrainingArguments, Trainer
"""
TAIL = """
    model = AutoModelForCausalLM.from_pretrained("org/model", attn_implementation="sdpa")
    args = TrainingArguments(output_dir="out", bf16=is_bf16_supported(), fp16=not is_bf16_supported())
    Trainer(model=model, args=args).train()
"""


@pytest.mark.parametrize("own", [
    # a default parameter: not one of cfg113's no-parameter functions that return by their tests
    "\n    def is_bf16_supported(device=0):\n        return False  # our V100 cluster: never bf16\n",
    "\n    def is_bf16_supported(*args):\n        return torch.cuda.get_device_capability()[0] >= 9  # Hopper only\n",
])
def test_a_function_of_the_script_named_like_the_probe_is_not_the_probe(tmp_path, own):
    cfg = configs.load(write(tmp_path, HEAD + own + TAIL))
    assert "dtype_by_gpu" not in cfg, cfg.get("dtype_by_gpu")


def test_near_miss_the_probe_itself_still_decides(tmp_path):
    cfg = configs.load(write(tmp_path, HEAD + "    from torch.cuda import is_bf16_supported\n" + TAIL))
    assert cfg["dtype_by_gpu"]["settings"] == ["bf16=is_bf16_supported()", "fp16=not is_bf16_supported()"]
