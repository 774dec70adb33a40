"""Variants for helper ex83 (session 12): reports of wrong numbers (fixtures/errors/round83).

Every case was written by hand (2026-11-29): other backends, functions, models, wordings and languages than the fixtures, and
near misses that must stay unclaimed (a NaN that is the learning rate's, a backend named as absent, a question). Mechanisms:
  attn.nan-output             a backend said to cause NaN (导致 ... nan, "causes NaN")
  attn.wrong-output           the artifacts' kind before "artifacts" (mosaic, blocky); the backend said to reduce the quality,
                              or the quality said to drop with it against another backend
  attn.backend-rounding       two implementations named, then a slight diff in a tensor (细微diff); slightly different FROM a
                              reference; one backend's output "is different from" another's
  attn.nondeterministic-backward  the backward said to be not deterministic in a text that names the backend; atomic adds
  attn.fp16-overflow          the query/key product said to overflow fp16; fp16 attention, an overflow, then inf / NaN
  fa2.window-negative         window_size=(-1, -k): the right bound below -1
  attn.layout-mismatch        a BSHD function against a reference "not even close"; reproducing its result failing; two layouts
  attn.causal-alignment       a KV cache and causal=True giving inaccurate results; top-left against bottom-right
  attribution                 "sage-attention" names SageAttention (not where it is said absent); lower-case sdpa as a
                              sentence's subject or what the fix switches away from
"""

from __future__ import annotations

import pytest

from explain_top import first_cause as _top


@pytest.mark.parametrize("text,entry,backend", [
    # attn.nan-output: the backend as the cause, Chinese and English
    ("xformers 会导致训练几百步之后 loss nan", "attn.nan-output", "xformers"),
    ("开了 sageattn 引起 grad_norm 变成 inf，关掉就好了", "attn.nan-output", "sage"),
    ("In our ViT, SDPA causes NaN outputs for the padded images in a batch", "attn.nan-output", "sdpa"),
    ("flash_attn 2.7.4 leads to NaN after the first optimizer step on H20", "attn.nan-output", "fa2"),
    # attn.wrong-output: the artifacts' kind, the quality said to drop
    ("SageAttention 2.2 produces blocky artifacts on Flux at 2048px", "attn.wrong-output", "sage"),
    ("xformers 0.0.30 gives checkerboard artifacts in the VAE decode", "attn.wrong-output", "xformers"),
    ("sage-attention 2 noticeably degrades the output quality of Wan 2.2 I2V", "attn.wrong-output", "sage"),
    ("Using sageattn the video quality is much worse compared to sdpa with the same seed", "attn.wrong-output", "sage"),
    # attn.backend-rounding
    ("Qwen2.5 用 eager 和 SDPA 两种方式加载，logits 有细微差异，这正常吗？", "attn.backend-rounding", "sdpa"),
    ("the outputs of flash_attn_func are slightly different from my naive attention in bf16", "attn.backend-rounding", "fa2"),
    ("flex_attention output is different from scaled_dot_product_attention at atol=1e-3", "attn.backend-rounding", "flex"),
    # attn.nondeterministic-backward
    ("No: the backward pass is not deterministic unless you pass deterministic=True to FA3's flash_attn_func (hopper).",
     "attn.nondeterministic-backward", "fa3"),
    ("xformers cutlass kernels: the backward is non-deterministic, dq differs between two runs with the same seed",
     "attn.nondeterministic-backward", "xformers"),
    # attn.fp16-overflow
    ("the query/key dot products overflow in float16 for the long prompts and the softmax gets inf",
     "attn.fp16-overflow", None),
    ("Training in fp16 with our own attention block: the scores overflow after a large matmul, then inf and nan everywhere",
     "attn.fp16-overflow", None),
    # fa2.window-negative
    ("flash_attn_func(q, k, v, causal=False, window_size=(-1, -4))", "fa2.window-negative", "fa2"),
    # attn.layout-mismatch
    ("I compared xformers.ops.memory_efficient_attention with my torch code on (B, S, H, D) inputs\n"
     "the results are nowhere near each other", "attn.layout-mismatch", "xformers"),
    ("Trying to replicate the output of flash_attn_func with softmax(q @ k.T) but it did not match", "attn.layout-mismatch", "fa2"),
    ("SDPA wants (batch, heads, seq, dim) rather than (batch, seq, heads, dim), which flash_attn_func takes",
     "attn.layout-mismatch", None),
    # attn.causal-alignment
    ("Using past_key_values with flash attention and causal=True gives incorrect logits for the new token",
     "attn.causal-alignment", "fa2"),
    ("causal masking differs: SDPA aligns it upper-left, flash-attn 2.1+ lower-right when seqlen_q < seqlen_k",
     "attn.causal-alignment", None),
])
def test_mechanism(text, entry, backend):
    got = _top(text)
    assert got[0] == entry, (text, got)
    if backend is not None:
        assert got[1] == backend, (text, got)


@pytest.mark.parametrize("text,absent", [
    # a NaN that is not the backend's: the backend named as not causing it, a NaN log without a switch of attention
    ("sdpa 不会导致 nan，是学习率太大", "attn.nan-output"),
    ("{'loss': 0.0, 'grad_norm': nan, 'learning_rate': 2e-4, 'epoch': 0.3}\nlowering the learning rate to 1e-5 fixed it",
     "attn.nan-output"),
    ("Does SDPA cause NaN here? I am not sure yet, the loss scaler also skipped steps.", "attn.nan-output"),
    # a backend absent, a question whether it would reduce quality, no quality loss
    ("No triton or sage-attention installed. The output image is completely black with fp16.", "attn.wrong-output"),
    ("Would SageAttention 3 reduce the video quality? It is much faster", "attn.wrong-output"),
    ("sageattn does not reduce quality in my tests, same PSNR as sdpa", "attn.wrong-output"),
    # rounding: not different, a deterministic backward, a loss scaler's overflow
    ("flash_attn_func output is not different from SDPA in my test", "attn.backend-rounding"),
    ("The FA2 backward is deterministic when deterministic=True is passed.", "attn.nondeterministic-backward"),
    ("fp16 attention training: gradient overflow detected by the loss scaler, skipping step", "attn.fp16-overflow"),
    # window sizes: the documented (-1, -1) and (-1, 0)
    ("flash_attn_func(q, k, v, causal=True, window_size=(-1, -1))", "fa2.window-negative"),
    ("flash_attn_func(q, k, v, window_size=(-1, 0))", "fa2.window-negative"),
    # layouts: a close result, a transposed conv; causal: a cache that works
    ("memory_efficient_attention vs SDPA: results are close, max diff 1e-3", "attn.layout-mismatch"),
    ("KV cache with causal=True works fine, outputs match HF exactly", "attn.causal-alignment"),
])
def test_near_miss(text, absent):
    from explain_top import ids

    assert absent not in ids(text), text
