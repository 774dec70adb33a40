"""The lead's mechanism change of the seventh session (2026-11-28), read from round 41m after its final measurement.

'cutlassF: no kernel found to launch!' (cutlassB for the backward) is raised by torch's own SDPA memory-efficient kernel
and by xformers' memory_efficient_attention, whose CUTLASS kernels torch copied. A report that names nothing else is torch's
SDPA (round 41m held three, round 17 one: a model's default attention on a GPU or dtype without a kernel); a traceback or a
sentence through xformers makes it xformers' (xformers takes over SDPA's entries, knowledge/attribution.toml [takes_over]).
Written variants: other Pythons, paths, GPUs and wordings; near misses must not be read as this entry."""

from __future__ import annotations

import pytest

from attn_doctor.explain import match

SDPA = [
    "RuntimeError: cutlassF: no kernel found to launch!",
    "cutlassB: no kernel found to launch!\n\nhappens on loss.backward() with bf16 on a Tesla T4",
    "  File \"/usr/lib/python3.10/site-packages/torch/nn/modules/module.py\", line 1518, in _call_impl\n"
    "    return forward_call(*args, **kwargs)\n"
    "  File \"/home/u/.cache/huggingface/modules/transformers_modules/modeling_qwen2.py\", line 700, in forward\n"
    "    attn_output = torch.nn.functional.scaled_dot_product_attention(\n"
    "RuntimeError: cutlassF: no kernel found to launch!",
    "Error occurred when executing VLM_Chat:\n\ncutlassF: no kernel found to launch!\n\n  File \"C:\\ComfyUI\\execution.py\", line 151, in recursive_execute",
]
XFORMERS = [
    "  File \"C:\\sd\\venv\\lib\\site-packages\\xformers\\ops\\fmha\\__init__.py\", line 192, in memory_efficient_attention\n"
    "    return _memory_efficient_attention(\nRuntimeError: cutlassF: no kernel found to launch!",
    "xformers 0.0.20 built from source: memory_efficient_attention raises cutlassB: no kernel found to launch! on an H100",
]
NOT_IT = [
    "cutlass kernels found: 12 (sm80, sm90); launching the GEMM benchmark",
    "CUTLASS: no GEMM kernel selected for this problem size, falling back to cuBLAS",
]


@pytest.mark.parametrize("text", SDPA)
def test_the_bare_message_is_torchs_sdpa(text):
    top = match(text)[0]
    assert (top.entry.id, top.backend) == ("attn.cutlass-no-kernel", "sdpa")


@pytest.mark.parametrize("text", XFORMERS)
def test_through_xformers_it_is_xformers(text):
    top = match(text)[0]
    assert (top.entry.id, top.backend) == ("attn.cutlass-no-kernel", "xformers")


@pytest.mark.parametrize("text", NOT_IT)
def test_other_cutlass_lines_are_not_it(text):
    assert "attn.cutlass-no-kernel" not in [m.entry.id for m in match(text)]
