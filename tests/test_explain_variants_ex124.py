"""Variants for helper ex124 (session 21): the labelled cause not found, patterns too narrow for the wording
(benchmarks/results/explain-right-cause-s21.md, section "ex124"). Every case was written by hand (2026-11-30): other programs,
versions, symbols and wordings than the fixtures; each `fixed` case fails on main at 9a13b59c (checked), each near miss passes
on both.

Mechanisms:
  head-size    vllm.head-size: vLLM's selector line whose reason is the head size ("Cannot use FlashAttention-2 backend for head
               size 72."), before the backend-fallback symptom that reads the same line for any reason
  impl-raise   transformers.attn-impl-unsupported: a model's own code raising NotImplementedError for the attn_implementation the
               loader set
  xf-cpu       xformers.no-cuda: xformers (its blocks, ops) said not to run on the CPU; CPU offload is not that
  setup-torch  build.isolation: the backend's setup.py said to rely on / import torch
  bias-moved   xformers.api-removed: an xformers attention-bias class named with an error and an xformers release
  arg-shift    attn.api-mismatch: a parameter inserted at a position of an attention function's signature
"""

from __future__ import annotations

import pytest

from explain_top import first


@pytest.mark.parametrize("text, want", [
    # head-size, fixed
    ("INFO 05-02 10:01:11 selector.py:54] Cannot use FlashAttention-2 backend for head size 80.", "vllm.head-size"),
    ("WARNING: Cannot use FlashAttention backend for head size 96, falling back to XFormers", "vllm.head-size"),
    ("Cannot use FLASH_ATTN backend because the model's head size 200 is not supported", "vllm.head-size"),
    # ... near miss: another reason on the same kind of line stays the fallback symptom
    ("INFO selector.py:51] Cannot use FlashAttention-2 backend for Volta and Turing GPUs.", "vllm.backend-fallback"),
    # impl-raise, fixed
    ("  File \"/root/.cache/huggingface/modules/transformers_modules/m/modeling_internlm3.py\", line 901, in forward\n"
     "    raise NotImplementedError(f'{self.config._attn_implementation=}')\n"
     "NotImplementedError: self.config._attn_implementation='sdpa'", "transformers.attn-impl-unsupported"),
    ("NotImplementedError: attn_implementation flex_attention is not implemented for this vision tower",
     "transformers.attn-impl-unsupported"),
    # xf-cpu, fixed
    ("The pipeline ended up on the CPU; xformers ops don't support CPU, so move it to cuda first.", "xformers.no-cuda"),
    ("Note that xFormers memory_efficient_attention is not supported on CPU.", "xformers.no-cuda"),
    # setup-torch, fixed
    ("pip install -r requirements.txt fails: xformers' setup.py imports torch, so install torch first", "build.isolation"),
    ("The failure comes from SageAttention's setup.py, which relies on torch being importable.", "build.isolation"),
    # bias-moved, fixed
    ("AttributeError on LowerTriangularMask with xformers 0.0.29: the class moved to attn_bias", "xformers.api-removed"),
    ("After updating to xformers==0.0.28.post3 the BlockDiagonalCausalMask import is missing", "xformers.api-removed"),
    # arg-shift, fixed
    ("flash_attn_interface in FA3 added a new `qv` argument at position 3, so our positional call broke", "attn.api-mismatch"),
    ("sageattn 2.2 inserted a `sm_scale` parameter at index 4 and the call passes is_causal into it", "attn.api-mismatch"),
])
def test_labelled_cause_in_other_words(text, want):
    assert first(text)[0] == want


@pytest.mark.parametrize("text, not_want", [
    # near misses: the same words without the mechanism
    ("xformers does not support CPU offload in this node, so keep the model on the GPU", "xformers.no-cuda"),
    ("torch 2.5 added a new argument at position 2 of torch.load", "attn.api-mismatch"),
    ("NotImplementedError: rotary embedding for this model is not implemented", "transformers.attn-impl-unsupported"),
    ("the setup.py of my own project imports torch and works", "build.isolation"),
])
def test_near_misses_do_not_read_the_mechanism(text, not_want):
    assert not_want not in [first(text)[0]]
