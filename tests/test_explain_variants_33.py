"""Variants for round 33 (issue 23, helper ex33): LLM/VLM training and serving trackers, 2025-2026, whose texts
(fixtures/errors/round33/) main's rules missed.

Every case was written by hand for this round (2026-11-28) from the mechanism, NOT copied from a real thread:
another model, path, version, symbol, wrapper or wording. Each positive case asserts the entry (and the backend where
explain names one) of the first problem that can be a failure's cause; the near misses beside each mechanism assert
what must NOT be claimed.

Mechanisms (knowledge file: entry):
  fa2-head-words   flash_attn.toml fa2.head-dim: FlashAttention's head-dim limit said as "only supports head dimensions
                   up to / <= N" (the kernels' own "at most N" messages stay the existing patterns' and triage's)
  arch-fa2         frameworks.toml transformers.attn-impl-unsupported: transformers 4.34's "The current architecture does
                   not support Flash Attention 2.0"
  helper-words     frameworks.toml transformers.helper-moved: a FlashAttention helper (index_first_axis, pad_input,
                   unpad_input, _flash_attention_forward, is_flash_attn_greater_or_equal_2_10, ...) said moved / removed /
                   renamed with transformers named after it
  serving-headdim  frameworks.toml vllm.head-size: the serving engines' other kernels refusing a head dim (FlashInfer's
                   "failed to dispatch head_dim N", its "Invalid configuration : NUM_MMA_Q=", TRT-LLM-gen's
                   "Expect (32 <= headDim <= N)", "sglang only supports some head_dim")
  te-fused         frameworks.toml te.fused-attn-cudnn: nvte_fused_attn_fwd/bwd's "Invalid combination of data type and
                   sequence length for fused attention", tex.fused_attn_fwd/bwd above cuDNN frontend's no-plan errors,
                   FusedAttention said to give wrong or NaN gradients
  vllm-fa-ext      flash_attn.toml fa2.no-extension: vLLM's FlashAttention fork without its compiled _vllm_fa2_C/_vllm_fa3_C
  sp-needs-fa      flash_attn.toml fa2.model-wants-fa2: sequence / context / ring / Ulysses parallelism said to require
                   "flash attention" in words
  old-triton-oor   triton.toml triton.out-of-resources: Triton 2.x's triton.runtime.autotuner.OutOfResources (FlexAttention
                   needs Triton 3): another kernel's shared-memory overflow
  sdpa-bwd-nan     sdpa.toml sdpa.backward-nan: SDPA / cuDNN backward said to return NaN, or NaN in grad_q/k/v
  wrong-for        attention.toml attn.wrong-output: "the result is wrong for sdpa / with xformers / using flash_attn"
  fa-submodule     flash_attn.toml fa2.too-old-for-feature: a flash_attn submodule said missing on older releases
  posid-varlen     flash_attn.toml varlen.cu-seqlens: FlashAttention said to fail with position_ids; position_ids said
                   3-D or expanded 3 times on a line about varlen / packed FlashAttention
  trtllm-arch      frameworks.toml vllm.backend-fallback: FlashInfer's TRT-LLM-gen kernels' "Unsupported architecture"
  hub-broken       frameworks.toml kernels.hub-build-broken (new): a hub kernel that loads but whose build fails in the
                   backward or forward (kernels-community/flash-attn2's v3 stable-ABI builds with GQA)
  impl-ignored     frameworks.toml app.backend-selection-ignored: a backend set via attn_implementation that "still falls
                   back to eager"
  block-mask-words flex.toml flex.block-mask-shape: a BlockMask's length mismatch with q/k said in words (probed from the
                   brief's FlexAttention class, not a round-33 text)
  padding-free-arg flash_attn.toml fa2.model-wants-fa2: the argument's own name (padding_free, use_packing) requiring the
                   attn_implementation to be a FlashAttention value (probed likewise)
  fp32-words       flash_attn.toml fa2.dtype: FlashAttention said not to support fp32 / float32, or fp32 said unsupported by
                   it (the brief's dtype class, probed)
  needs-newer-fa   flash_attn.toml fa2.too-old-for-feature: a feature (softcapping, sliding window, window_size) said to
                   need flash-attn >= 2.x (probed)
"""

from __future__ import annotations

import pytest

from explain_top import first_cause as _top, ids as _ids, tb


# fa2-head-words
@pytest.mark.parametrize("text", [
    "RuntimeError: FlashAttention only supports head dimensions up to 256",
    "flash-attn only supports head_dim <= 256, our global layers use 512",
    tb(("/srv/app/model.py", 311, "forward", "out = flash_attn_func(q, k, v, causal=True)"),
       error="RuntimeError: flash_attn only supports head dim up to 256 (got 320)"),
])
def test_fa2_head_dim_limit_in_other_words(text):
    assert _top(text)[0] == "fa2.head-dim"


@pytest.mark.parametrize("text", [
    "SageAttention only supports head dim up to 128 on this build",  # another backend's limit
    "FlashAttention supports head dimensions up to 256 since 2.0",  # said as a feature, no "only"
])
def test_head_dim_words_near_misses(text):
    assert "fa2.head-dim" not in _ids(text)


# arch-fa2
@pytest.mark.parametrize("text", [
    "ValueError: The current architecture does not support Flash Attention 2.0. Please open an issue on GitHub to request "
    "support for this architecture: https://github.com/huggingface/transformers/issues/new",
    "  File \"/opt/conda/lib/python3.10/site-packages/transformers/modeling_utils.py\", line 1265, in "
    "_check_and_enable_flash_attn_2\n    raise ValueError(\nValueError: The current architecture does not support Flash Attention 2.0.",
])
def test_transformers_434_wording_of_no_fa2_for_the_class(text):
    assert _top(text) == ("transformers.attn-impl-unsupported", "fa2")


def test_architecture_that_supports_fa2_is_not_it():
    assert "transformers.attn-impl-unsupported" not in _ids("The current architecture supports Flash Attention 2.0 since 4.36")


# helper-words
@pytest.mark.parametrize("text", [
    "Since transformers 4.55, `index_first_axis` and `unpad_input` were moved to transformers.modeling_flash_attention_utils",
    "_flash_attention_forward has been removed from the model files in transformers 4.48, so the patch breaks",
    "is_flash_attn_greater_or_equal_2_10 was removed in transformers 5.0; ring-flash-attn still imports it",
])
def test_flash_helper_moved_said_in_words(text):
    assert _top(text)[0] == "transformers.helper-moved"


@pytest.mark.parametrize("text", [
    "pad_input was moved to the left side so the batch is left padded for generation",  # padding, not transformers' helper
    "index_first_axis is used by flash_attn.bert_padding",  # named, nothing moved
])
def test_helper_words_near_misses(text):
    assert "transformers.helper-moved" not in _ids(text)


# serving-headdim
@pytest.mark.parametrize("text", [
    "RuntimeError: BatchDecodeWithPagedKVCache failed to dispatch head_dim 48",
    "what():  FlashInfer Internal Error: Invalid configuration : num_frags_x=1 num_frags_y=7 num_frags_z=4 num_warps_x=4",
    "(EngineCore_DP0 pid=77) RuntimeError: Expect (32 <= headDim <= 512) && (numTokensPerPage <= 64), got headDimQk=576",
    "This checkpoint has head_dim 80 but sglang only supports a few hard coded head dims in its triton backend",
])
def test_serving_engine_kernel_refuses_head_dim(text):
    assert _top(text)[0] == "vllm.head-size"


@pytest.mark.parametrize("text", [
    "failed to dispatch the request to worker 3",  # a scheduler, no head dim
    "sglang only supports some sampling parameters with speculative decoding",
])
def test_serving_headdim_near_misses(text):
    assert "vllm.head-size" not in _ids(text)


# te-fused
@pytest.mark.parametrize("text", [
    "RuntimeError: /workspace/TransformerEngine/transformer_engine/common/fused_attn/fused_attn.cpp:600 in function "
    "nvte_fused_attn_fwd_kvpacked: Invalid combination of data type and sequence length for fused attention.",
    "dq, dk, dv = fused_attn_bwd(...)  ->  RuntimeError: cuDNN Error: [cudnn_frontend] Error: No execution plans support the graph",
    "FusedAttention gives wrong gradients for the padding_causal mask on sm_120 (UnfusedDotProductAttention is fine)",
])
def test_transformer_engine_fused_attention(text):
    assert _top(text)[0] == "te.fused-attn-cudnn"


def test_sdpa_cudnn_no_plan_without_transformer_engine_stays_sdpas():
    text = ("  File \"/venv/lib/python3.12/site-packages/torch/nn/functional.py\", line 5000, in scaled_dot_product_attention\n"
            "RuntimeError: cuDNN Frontend error: [cudnn_frontend] Error: No execution plans support the graph.")
    assert _top(text) == ("sdpa.cudnn", "sdpa")


# vllm-fa-ext
@pytest.mark.parametrize("text", [
    "ImportError: vllm.vllm_flash_attn requires the CUDA flash attention extensions (_vllm_fa2_C or _vllm_fa3_C).",
    "ModuleNotFoundError: No module named 'vllm._vllm_fa3_C'",
])
def test_vllm_flash_attention_fork_without_extension(text):
    assert _top(text) == ("fa2.no-extension", "fa2")


def test_vllm_own_extension_missing_is_not_it():
    assert "fa2.no-extension" not in _ids("ModuleNotFoundError: No module named 'vllm._C'")


# sp-needs-fa
@pytest.mark.parametrize("text", [
    "ValueError: Context parallelism requires flash attention; set attn_implementation accordingly.",
    "Ring attention needs flash-attn (varlen kernels); got sdpa",
])
def test_parallelism_requires_flash_attention_in_words(text):
    assert _top(text) == ("fa2.model-wants-fa2", "fa2")


@pytest.mark.parametrize("text", [
    "Sequence parallelism requires torch>=2.4 and NCCL",  # another requirement
    "Sequence parallelism requires flash attention 3 on Hopper",  # FA3, not FA2
])
def test_parallelism_requirement_near_misses(text):
    assert "fa2.model-wants-fa2" not in _ids(text)


# old-triton-oor
@pytest.mark.parametrize("text", [
    "triton.runtime.autotuner.OutOfResources: out of resource: shared memory, Required: 98304, Hardware limit: 65536. "
    "Reducing block sizes or `num_stages` may help.",
    tb(("/home/u/.cache/huggingface/modules/transformers_modules/phi3small/triton_blocksparse_attention.py", 96, "forward",
        "out = _fwd_kernel[grid](q, k, v)"),
       error="triton.runtime.autotuner.OutOfResources: out of resource: shared memory"),
])
def test_triton_2_autotuner_out_of_resources_is_not_flex(text):
    assert _top(text)[0] == "triton.out-of-resources"


def test_triton_3_out_of_resources_bare_stays_flex():
    text = ("triton.runtime.errors.OutOfResources: out of resource: shared memory, Required: 131074, Hardware limit: 101376. "
            "Reducing block sizes or `num_stages` may help.")
    assert _top(text) == ("flex.shared-memory", "flex")


# sdpa-bwd-nan
@pytest.mark.parametrize("text", [
    "cuDNN attention backward returns NaN when the sequence length is 320 and a padding mask is passed",
    "F.scaled_dot_product_attention: NaN in grad_v after the first step on B200, forward is fine",
])
def test_sdpa_backward_nan_in_words(text):
    assert _top(text) == ("sdpa.backward-nan", "sdpa")


def test_sdpa_forward_nan_is_not_backward():
    assert "sdpa.backward-nan" not in _ids("SDPA forward returns NaN for fully masked rows")


# wrong-for
@pytest.mark.parametrize("text,backend", [
    ("the result is wrong for SDPA with a block-diagonal mask past 45k tokens", "sdpa"),
    ("outputs are incorrect with flash_attn_varlen_func for the second sequence", "fa2"),
])
def test_result_wrong_for_a_backend(text, backend):
    assert _top(text) == ("attn.wrong-output", backend)


@pytest.mark.parametrize("text", [
    "the result is wrong for the tokenizer when add_bos is set",  # no backend
    "the result is wrong without SDPA, eager gives garbage too",  # said of no backend running
    "the result is wrong for sdpa in the config file",  # the lower-case config value names no backend
])
def test_result_wrong_near_misses(text):
    assert "attn.wrong-output" not in _ids(text)


# fa-submodule
@pytest.mark.parametrize("text", [
    "ImportError: flash_attn.layers.rotary not found on older versions of flash-attn",
    "flash_attn.ops.triton.cross_entropy is missing in older flash-attn releases (the loss patch needs 2.1+)",
])
def test_flash_attn_submodule_missing_on_old_release(text):
    assert _top(text) == ("fa2.too-old-for-feature", "fa2")


def test_flash_attn_ops_missing_with_fa4_is_not_an_old_release():
    assert "fa2.too-old-for-feature" not in _ids("ModuleNotFoundError: No module named 'flash_attn.ops' (flash-attn-4 installed)")


# posid-varlen
@pytest.mark.parametrize("text", [
    "FlashAttention2 crashes with 3D position_ids on Qwen2.5-Omni",
    "with packing on, the position_ids are 3D (t, h, w) and flash_attention_2 builds cu_seqlens three times too long",
    "flash attention fails on packed position_ids that start at 17 instead of 0",
])
def test_packed_position_ids_misread_by_flash_attention(text):
    assert _top(text)[0] == "varlen.cu-seqlens"


@pytest.mark.parametrize("text", [
    "position_ids are 3D for mrope in Qwen2-VL",  # a fact, nothing about varlen or a failure
    "The tokenizer fails with position_ids given as a list",
])
def test_position_ids_near_misses(text):
    assert "varlen.cu-seqlens" not in _ids(text)


# trtllm-arch
@pytest.mark.parametrize("text", [
    "RuntimeError: Error in function 'TllmGenFmhaRunner' at /usr/include/flashinfer/trtllm/fmha/fmhaRunner.cuh:30: "
    "Unsupported architecture",
    "sglang's MLA prefill calls flashinfer.prefill.trtllm_ragged_attention_deepseek, which says Unsupported architecture on sm120",
])
def test_flashinfer_trtllm_kernels_refuse_the_gpu(text):
    assert _top(text)[0] == "vllm.backend-fallback"


def test_unsupported_architecture_of_a_wheel_is_not_it():
    assert "vllm.backend-fallback" not in _ids("ERROR: Unsupported architecture aarch64 for this wheel of numpy")


# hub-broken
@pytest.mark.parametrize("text", [
    "kernels-community/flash-attn3@v2 crashes in the backward for MQA models on H100",
    "the hub kernel's stable ABI build breaks in the forward for head_dim 96: illegal memory access",
    "flash-attn2 v3 (stable ABI): backward fails for grouped-query models",
])
def test_hub_kernel_build_fails_at_run_time(text):
    assert _top(text)[0] == "kernels.hub-build-broken"


def test_hub_kernel_without_a_build_stays_no_build():
    text = "kernels-community/flash-attn2: no build variant for torch 2.13 (torch212-cxx11-cu126-x86_64-linux only)"
    assert _top(text)[0] == "kernels.hub-no-build"


def test_hub_kernel_that_works_is_not_broken():
    assert "kernels.hub-build-broken" not in _ids("kernels-community/flash-attn2 runs the backward fine on H100 after the pin")


# impl-ignored
@pytest.mark.parametrize("text", [
    "flash_attention_2 set via attn_implementation, but Gemma3's vision tower still falls back to eager",
    "I passed with attention_implementation=\"sdpa\", the loader nevertheless falls back to eager attention",
])
def test_backend_set_via_attn_implementation_overridden(text):
    assert _top(text)[0] == "app.backend-selection-ignored"


def test_eager_chosen_on_purpose_is_not_ignored():
    assert "app.backend-selection-ignored" not in _ids("eager set via attn_implementation for the reference run; it is slower")


# block-mask-words (flex.toml flex.block-mask-shape): the BlockMask / qkv length mismatch said in words
@pytest.mark.parametrize("text", [
    "Same here: the block_mask did not match the q_len once the prompt was truncated to 1200 tokens",
    "block mask built for 2048 but the seq_len at eval is 1900 -> flex_attention ValueError",
])
def test_block_mask_length_mismatch_in_words(text):
    assert _top(text) == ("flex.block-mask-shape", "flex")


def test_block_mask_that_matches_is_not_it():
    assert "flex.block-mask-shape" not in _ids("the block_mask matches the query length now; training runs")


# padding-free-arg (flash_attn.toml fa2.model-wants-fa2): the argument's own name requiring a FlashAttention attn_implementation
@pytest.mark.parametrize("text", [
    "ValueError: `padding_free` requires `attn_implementation` to be one of flash_attention_2, flash_attention_3",
    "AssertionError: use_packing requires attn_implementation in ['flash_attention_2'] (got 'sdpa')",
])
def test_padding_free_argument_requires_flash_attention(text):
    assert _top(text) == ("fa2.model-wants-fa2", "fa2")


def test_padding_free_requiring_something_else_is_not_it():
    assert "fa2.model-wants-fa2" not in _ids("ValueError: padding_free requires per_device_train_batch_size > 1")


# fp32-words (flash_attn.toml fa2.dtype): FlashAttention said not to support fp32 (a wrapper's own refusal)
@pytest.mark.parametrize("text", [
    "AssertionError: flash-attn can't handle float32, the vision tower runs in fp32 under this trainer",
    "NotImplementedError: fp32 is not supported by flash_attention_2; set torch_dtype=torch.bfloat16",
])
def test_flash_attention_refuses_fp32_in_words(text):
    assert _top(text) == ("fa2.dtype", "fa2")


def test_fp32_supported_elsewhere_is_not_it():
    assert "fa2.dtype" not in _ids("SDPA's math kernel does not support fp8; fp32 runs fine with flash-attn turned off")


# needs-newer-fa (flash_attn.toml fa2.too-old-for-feature): a feature said to need flash-attn >= 2.x
@pytest.mark.parametrize("text", [
    "UserWarning: logit soft-capping requires flash-attn>=2.6.0; falling back to eager",
    "ImportError: Mistral's window_size needs flash_attn v2.3 or newer (found 2.1.2)",
])
def test_feature_needs_newer_flash_attn(text):
    assert _top(text) == ("fa2.too-old-for-feature", "fa2")


def test_plain_version_requirement_is_not_a_feature():
    assert "fa2.too-old-for-feature" not in _ids("this repo requires flash-attn>=2.5.0 (see requirements.txt)")
