"""Variants for helper ex97 (session 15): round97, UIs' and trainers' trackers (ComfyUI and its node packs, Forge's
extensions, unsloth, Wan2GP), read with a held-back half.

Rules written from half A (knowledge/attention.toml attn.qkv-dtype, attribution.toml's SDPA dtype check,
xformers.toml xformers.ops-not-loaded and xformers.api-removed, env.toml flex.no-triton, platform.toml
gpu.arch-not-in-torch) and then from half B (see fixtures/errors/round97/README.md). Every case below was written by hand
(2026-11-29): other apps, paths, dtypes, versions and wordings than the fixtures. The unrelated logs (ComfyUI's start-up
report of comfy_kitchen backends, a quantization library's own kernel without an image) must stay unclaimed.
"""

from __future__ import annotations

import pytest

from explain_top import first, ids, tb


@pytest.mark.parametrize("text, want", [
    # qkv-dtype: xformers' older wording (without "either"), and torch's check as a user transcribes it
    ("Error occurred when executing KSamplerAdvanced: Query/Key/Value should all have the same dtype", ("attn.qkv-dtype", "xformers")),
    ("ValueError: Query/Key/Value should all have the same dtype\n  query.dtype: torch.bfloat16\n  key.dtype  : torch.float32",
     ("attn.qkv-dtype", "xformers")),
    ("RuntimeError: Expected query, key, and value to have the same dtype, but got query.type: c10::BFloat16 key.dtype: float "
     "and value.dtype: float instead.", ("attn.qkv-dtype", "sdpa")),
    ("Expected query, key, and value to have the same dtype, but got query.Type: struct c10::Half key.dtype: struct c10::BFloat16 "
     "and value.dtype: struct c10::BFloat16 instead.", ("attn.qkv-dtype", "sdpa")),
    # ops-not-loaded: the submodule itself missing, not a renamed operator
    (tb(("/srv/invoke/nodes/video/attn.py", 77, "forward", "h = xformers.ops.memory_efficient_attention(q, k, v, attn_bias=None)"),
        error="AttributeError: module 'xformers' has no attribute 'ops'"), ("xformers.ops-not-loaded", "xformers")),
    ("AttributeError: module \"xformers\" has no attribute \"ops\". Did you mean: 'os'?", ("xformers.ops-not-loaded", "xformers")),
    ("AttributeError: module 'xformers.ops' has no attribute 'fmha'", ("xformers.ops-not-loaded", "xformers")),
    # api-removed keeps the renamed operators
    ("AttributeError: module 'xformers.ops' has no attribute 'MemoryEfficientAttentionTritonFwdFlashBwOp'",
     ("xformers.api-removed", "xformers")),
    ("AttributeError: module 'xformers.ops.fmha' has no attribute 'BlockDiagonalCausalWithOffsetPaddedKeysMask'",
     ("xformers.api-removed", "xformers")),
    # no-triton: a real missing module still reads
    ("ModuleNotFoundError: No module named 'triton'", ("flex.no-triton", None)),
    (tb(("C:\\AI\\ComfyUI\\python_embeded\\Lib\\site-packages\\sageattention\\core.py", 20, "<module>", "import triton"),
        error="ModuleNotFoundError: No module named 'triton'"), ("import.dep-missing", None)),
    # half B: the mem-efficient SDPA kernel's mask check without a torch frame, read as SDPA's
    ("[Bug] Flux text encode: RuntimeError: (*bias): last dimension must be contiguous", ("attn.bias-alignment", "sdpa")),
    # half B: an attention function's missing keyword said in words
    ("flash_attn_func in 2.5.6 doesn't accept the softcap argument, so Gemma 2 training stops", ("attn.api-mismatch", "fa2")),
    ("F.scaled_dot_product_attention() does not take a 'scale' keyword argument in torch 2.0.1", ("attn.api-mismatch", "sdpa")),
    # half B: FlexAttention's eager fallback backward mixing dtypes
    ("  File \"/opt/conda/lib/python3.10/site-packages/torch/_higher_order_ops/flex_attention.py\", line 611, in sdpa_dense_backward\n"
     "    grad_value = softmax_scores.to(query.dtype).transpose(-2, -1) @ grad_out\n"
     "RuntimeError: expected scalar type Half but found Float", ("flex.eager-backward-dtype", "flex")),
    ("RuntimeError: expected scalar type BFloat16 but found Float\nin sdpa_dense_backward (flex attention run without compile on a V100)",
     ("flex.eager-backward-dtype", "flex")),
    # arch-not-in-torch: torch's own message, without an extension's source location, still reads
    ("RuntimeError: CUDA error: no kernel image is available for execution on the device\nCUDA kernel errors might be "
     "asynchronously reported at some other API call, so the stacktrace below might be incorrect.", ("gpu.arch-not-in-torch", None)),
])
def test_round97_variants(text, want):
    got = first(text)
    if want[1] is None:
        assert got[0] == want[0], ids(text)
    else:
        assert got == want, ids(text)


@pytest.mark.parametrize("text", [
    # comfy_kitchen's availability report: the reason field of a backend that is off is no failure
    "2026-03-02T10:11:12.000001 - Found comfy_kitchen backend triton: {'available': False, 'disabled': True, "
    "'unavailable_reason': \"ImportError: No module named 'triton'\", 'capabilities': []}\n"
    "2026-03-02T10:11:12.400000 - Using pytorch attention\n2026-03-02T10:11:14.000000 - ComfyUI version: 0.14.2",
    "[INFO] Found comfy_kitchen backend triton: {'available': False, 'disabled': True, 'unavailable_reason': "
    "'ImportError: No module named \\'triton\\'', 'capabilities': []}\n[INFO] Using sage attention",
    # another library's kernel (its check macro's source location) without an image for the GPU
    "RuntimeError: CUDA error: no kernel image is available for execution on the device (at /build/nunchaku/src/kernels/"
    "zgemm/gemm_w4a4.cu:412)",
    "[Bug] CUDA error: no kernel image is available for execution on the device (at D:\\src\\bitsandbytes\\csrc\\ops.cu:88)",
    # a dtype mismatch in a matmul that is no attention's, and words about a keyword of a function that is no attention's
    "RuntimeError: expected scalar type Half but found Float\n  File \"/app/nodes/lora_loader.py\", line 40, in apply\n    w = w @ up",
    "torch.load() does not have a keyword argument 'mmap' in torch 2.0, so the loader crashes",
])
def test_round97_unrelated_stay_unclaimed(text):
    assert ids(text) == [], ids(text)
