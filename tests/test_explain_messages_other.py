"""Variants of the Sage, xFormers, Flex and SDPA messages read from their sources (knowledge/messages/sage*.toml,
xformers.toml, flex.toml, sdpa*.toml): written here with other values, prefixes and wrappers than the examples the
data makes, as a user's paste shows them. Each is named as its backend's; those no specific entry knows fall to the
last resort triage.backend-message. Hand-written, not from users' reports."""

from __future__ import annotations

import pytest

from attn_doctor.explain import match

VARIANTS = [
    # SageAttention (thu-ml d1a57a5; woct0rdho e147939)
    ("sage", "AssertionError: qk_quant_gran must be either 'per_warp' or 'per_thread'."),
    ("sage", "ValueError: Unsupported pv_accum_dtype: fp16+fp16"),
    # (ex52: the smooth_v notice, printed while the kernel runs, left knowledge/messages/sage.toml: a working log's
    # notice is no failure; tests/test_explain_variants_ex52.py asserts it stays unclaimed. Another message instead:)
    ("sage", "  File \"/opt/venv/lib/python3.12/site-packages/sageattention/core.py\", line 986\nNotImplementedError: Please use pv_accum_dtype='fp32+fp32' for sm90."),
    ("sage", "std::invalid_argument: SM90 kernel does not support head_dim=256. Only 64 and 128 are supported. Use SM80 or SM89 kernels for head_dim=256."),
    ("sage", "RuntimeError: Unsupported compute capability. You may set TORCH_CUDA_ARCH_LIST"),
    ("sage", "AssertionError: qo_len and kv_len must be equal for causal attention"),
    # xFormers (v0.0.35)
    ("xformers", "    `fa3F@0.0.0` is not supported because:"),
    ("xformers", "RuntimeError: No keys are attended in q_seqlen 128 k_seqlen 64 with sliding window 32"),
    ("xformers", "     operator wasn't built - see `python -m xformers.info` for more info"),
    # FlexAttention (torch 2.13.0)
    ("flex", "ValueError: Expect query and key/value to have the same number of heads but got Hq=32 and Hkv=8. Try setting enable_gqa=True for GQA."),
    ("flex", "RuntimeError: BACKEND='FLASH' but flash attention cannot be used: Input buffers require gradients (not supported by flash attention)"),
    ("flex", "torch._dynamo.exc.InternalTorchDynamoError: RuntimeError: Cannot use mask_mod from a sliced BlockMask. When you slice a BlockMask using [], the mask_mod attribute is reset. You must set it from the original BlockMask's mask_mod."),
    # SDPA (sdp_utils_cpp.h at torch 2.13.0; cuda/sdp_utils.cpp at 001f694)
    ("sdpa", "UserWarning: Flash attention requires q,k,v to have the same last dimension and to be less than or equal to 256. Got Query.size(-1): 512, Key.size(-1): 512, Value.size(-1): 512 instead. (Triggered internally at /pytorch/aten/src/ATen/native/transformers/cuda/sdp_utils.cpp:216.)"),
    ("sdpa", "UserWarning: Mem efficient attention requires last dimension of inputs to be divisible by 8. Got Query.size(-1): 100, Key.size(-1): 100, Value.size(-1): 100 instead. (Triggered internally at ../aten/src/ATen/native/transformers/cuda/sdp_utils.cpp:239.)"),
    ("sdpa", "UserWarning: Flash Efficient attention on Current AMD GPU is still experimental. Enable it with TORCH_ROCM_AOTRITON_ENABLE_EXPERIMENTAL=1. (Triggered internally at /pytorch/aten/src/ATen/native/transformers/hip/sdp_utils.cpp:269.)"),
    ("sdpa", "UserWarning: Expected query, key and value to all be of dtype: {Half, BFloat16}. Got Query dtype: float, Key dtype: float, and Value dtype: float instead. (Triggered internally at ../aten/src/ATen/native/transformers/sdp_utils_cpp.h:98.)"),
    ("sdpa", "UserWarning: Both fused kernels do not support non-zero dropout. (Triggered internally at ../aten/src/ATen/native/transformers/sdp_utils_cpp.h:242.)"),
]


@pytest.mark.parametrize("backend,text", VARIANTS, ids=[f"{b}-{i}" for i, (b, _) in enumerate(VARIANTS)])
def test_a_sources_message_in_another_form_names_its_backend(backend, text):
    found = match(text)
    assert found, text
    assert found[0].backend == backend, (found[0].entry.id, found[0].backend)


# near misses: the same words in a message no backend source raises stay unclaimed by the last resort
NEAR_MISSES = [
    "ValueError: Unsupported block_size 96",  # Sage's dispatch prints it too, but any library may: left out
    "Tensor weight must be contiguous",  # the generic half of Sage's CHECK_CONTIGUOUS: left out
]


@pytest.mark.parametrize("text", NEAR_MISSES)
def test_a_generic_message_is_not_taken_for_a_backends(text):
    assert all(f.entry.id != "triage.backend-message" for f in match(text))
