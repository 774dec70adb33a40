"""Variants for helper ex59 (session 9, issue 23): the recurring mechanisms of the cross-blind study
(benchmarks/results/explain-blind-misses-s9.md: why blind rounds 21m, 24m, 30m, 36m, 41m and 49m missed what they missed).
The study's own variants are tests/data/explain_blind_variants_s9.toml (measured by benchmarks/explain_variants.py); these
are more, written by hand (2026-11-28) with other paths, versions, GPUs, wrappers and wordings, and the near misses that
must NOT be claimed.

Mechanisms (knowledge file: entry or rule):
  fa4-words       attribution.toml FA4's names (widened) and the shared flash-attn name (narrowed): FlashAttention 4 named
                  in words ("flash-attn 4", "FlashAttention-4", "flash attn 4.0.0b19") is FA4's, not FA2's
                  (allenai/OLMo-core#857, round 41m)
  quoted-error    match.py _quoted_error_leads and LINE_PREFIX: an error quoted mid-sentence behind a short lead ("the
                  error message “AssertionError: ...”", "It fails with '...'", "报错“...") or a curly quote at the line's
                  start is read as the error line (Ascend/sglang#16, round 41m)
  mask-words      sdpa.toml sdpa.mask-dtype (widened): a 0/1 float mask SDPA adds to the scores as a bias; a fix passing a
                  bool mask instead of a float one (QwenAudio/CosyVoice#628, ArcInstitute/state#213)
  disabled-gpu    backends.toml backend.unsupported-gpu (widened): a model's start-up check that turns a backend off for a
                  GPU older than it needs, in other words (facebookresearch/sam2#136)
  none-of         frameworks.toml vllm.backend-fallback (widened): "none of <engine>'s attention backends supports that
                  combination" for a KV-cache dtype (AEON-7/vllm-ultimate-dgx-spark#1)
  class-gone      frameworks.toml transformers.attention-class-removed (widened): a per-backend class said to exist no
                  more in (newer) transformers (deepseek-ai/DeepSeek-OCR#161)
  xf-mismatch     versions.toml xformers.built-for-other-torch (widened): "version mismatch between xformers and torch",
                  xformers compiled against one torch while another is installed (DepthAnything/Depth-Anything-V2#251)
  no-iso-words    builds.toml build.no-isolation-deps (widened): --no-build-isolation and the wheel package said to be
                  missing (llm-jp/llm-jp-sft#41)
"""

from __future__ import annotations

import pytest

from explain_top import first_cause as _top, ids as _ids


# fa4-words
@pytest.mark.parametrize("text", [
    "Bump flash-attn 4 to 4.0.0b21 and pass cu_seqlens by keyword\n\nTypeError: flash_attn_varlen_func() got an unexpected "
    "keyword argument 'seqused_q'",
    "FlashAttention-4 backward crashes on B200 with RuntimeError: CUDA error: an illegal memory access was encountered",
    "After upgrading flash attn 4.0.0b19 the varlen call fails: AttributeError: 'int' object has no attribute 'shape'",
])
def test_fa4_named_in_words_is_fa4(text):
    assert _top(text)[1] == "cute"


@pytest.mark.parametrize("text", [
    # near misses: a count or a speed-up after the name is not FlashAttention 4; FA2's own versions stay FA2's
    "flash-attn is 4x faster than eager here, but the run crashes with RuntimeError: CUDA error: misaligned address",
    "flash-attn 4 GPUs each: RuntimeError: CUDA error: an illegal memory access was encountered",
    "flash-attn 2.4.2 fails: RuntimeError: FlashAttention only supports Ampere GPUs or newer.",
])
def test_counts_and_fa2_versions_are_not_fa4(text):
    assert _top(text)[1] != "cute"


# quoted-error
@pytest.mark.parametrize("text, want", [
    ("[Actual Result]\nThe service exits and the error message “ValueError: fa3 attention backend does not support page_size 32 "
     "on this model” is printed", "fa3"),
    ("It fails with 'AssertionError: xformers is required for this model but got sdpa'", "xformers"),
    ("运行时报错“AttributeError: module 'flash_attn_2_cuda' has no attribute 'varlen_fwd'”", "fa2"),
    ("Startup fails with the message 'KeyError: flash_attention_3'", "fa3"),
    ("[Actual Result]\n“AssertionError: fa3, aiter or triton is required for Gemma3 but got npu”", "fa3"),
])
def test_error_quoted_mid_sentence_is_read_as_the_error_line(text, want):
    # on main at 75ec472 these were unread or read only as prose (prose.fails, prose.import)
    assert _top(text) == ("triage.error-names-backend", want)


def test_quoted_error_of_no_attention_library_is_not_claimed():
    # near miss: the lead is cut, but the error it quotes is no attention backend's
    assert _ids("The job stopped and the error message “ValueError: invalid literal for int() with base 10: 'abc'” was shown") == []


def test_lead_that_names_a_backend_keeps_the_line():
    # near miss of the cut: a title whose lead names the backend keeps it (prose reads it as FlexAttention's)
    assert _top("compiled flex_attention with jagged tensors raises `TypeError: unhashable type: 'list'`")[1] == "flex"


# mask-words
@pytest.mark.parametrize("text", [
    "The collator builds attention_mask as ones and zeros in fp16 and we pass it to F.scaled_dot_product_attention, which "
    "adds it to the attention scores, so padding is attended to.",
    "SDPA in the text encoder gets a 0/1 float mask, which it treats as an additive bias: nothing is masked.",
    "fix: give scaled_dot_product_attention a bool attention mask instead of the float32 padding mask",
])
def test_float_mask_to_sdpa_in_words(text):
    assert _top(text) == ("sdpa.mask-dtype", "sdpa")


@pytest.mark.parametrize("text", [
    # near misses: SDPA's float mask used as intended (a bias of -inf); 0/1 words about something else
    "scaled_dot_product_attention accepts a float mask, which is added to the scores: put -inf where a key must not be seen.",
    "The 0/1 labels are added to the loss mask; we call scaled_dot_product_attention elsewhere without a mask.",
])
def test_sdpa_float_mask_as_bias_is_not_mask_dtype(text):
    assert "sdpa.mask-dtype" not in _ids(text)


# disabled-gpu
@pytest.mark.parametrize("text, backend", [
    ("UserWarning: FlashAttention disabled: GPU 'Tesla V100-SXM2-32GB' is older than Ampere, using the math kernel", "fa2"),
    ("[WARN] xformers turned off because the GPU is below sm70 (GTX 1080)", "xformers"),
    ("sageattention deactivated since it requires compute capability 8.0 or newer (found 7.5)", "sage"),
])
def test_backend_disabled_for_an_older_gpu(text, backend):
    assert _top(text) == ("backend.unsupported-gpu", backend)


def test_backend_disabled_for_another_reason_is_not_unsupported_gpu():
    # near miss: turned off in a config, for memory, on a GPU that supports it
    assert "backend.unsupported-gpu" not in _ids("Flash attention is disabled in the config since it needs more memory on Ampere")


# none-of
@pytest.mark.parametrize("text", [
    "With an NVFP4 KV cache and cross-attention in the encoder, none of the engine's attention backends supports that "
    "combination, so vLLM refuses to start.",
    "kv_cache_dtype=fp8_e5m2 plus sliding window: none of its backends can handle this configuration on sm_89",
])
def test_none_of_the_backends_supports_that_combination(text):
    assert _top(text)[0] == "vllm.backend-fallback"


def test_a_backend_that_supports_the_combination_is_not_claimed():
    # near miss: the combination is supported
    assert "vllm.backend-fallback" not in _ids("With an FP8 KV cache the FlashInfer backend supports that combination on H100.")


# class-gone
@pytest.mark.parametrize("text", [
    "Our monkey patch imports MistralFlashAttention2, which no longer exists in transformers 4.49.",
    "Qwen2SdpaAttention has been deleted from newer transformers, so the LoRA script fails at import",
    "The remote code expects LlamaFlexAttention, but it does not exist anymore in the current transformers",
])
def test_attention_class_gone_from_transformers_in_words(text):
    assert _top(text) == ("transformers.attention-class-removed", None)


def test_class_gone_from_the_models_own_code_is_not_claimed():
    # near miss: the model's own file dropped its class, not transformers
    assert "transformers.attention-class-removed" not in _ids(
        "MyModelFlashAttention2 was removed from modeling_mymodel.py in the last commit of this repo")


# xf-mismatch
@pytest.mark.parametrize("text", [
    "There is a version mismatch between torch and xformers after the update, generation is slow now.",
    "xformers 0.0.27 was compiled against torch 2.3.1 but torch 2.4.1+cu124 is in the venv",
])
def test_xformers_torch_mismatch_in_words(text):
    assert _top(text) == ("xformers.built-for-other-torch", "xformers")


def test_same_torch_named_twice_is_not_a_mismatch():
    # near miss: the version xformers was built for is the one installed
    assert "xformers.built-for-other-torch" not in _ids(
        "xformers was built for torch 2.5.1 but torch 2.5.1 is what I have, and it still crashes on the first step")


# no-iso-words
@pytest.mark.parametrize("text", [
    "Installing sageattention with --no-build-isolation fails because the packaging module is missing in the venv.",
    "uv pip install flash-attn --no-build-isolation errors out: the wheel package was not installed in this env",
])
def test_no_build_isolation_missing_tool_in_words(text):
    assert _top(text)[0] == "build.no-isolation-deps"


def test_missing_torch_under_no_build_isolation_is_not_claimed():
    # near miss: what is missing is torch, which --no-build-isolation is meant to see
    assert "build.no-isolation-deps" not in _ids(
        "flash-attn fails with --no-build-isolation because torch is not installed in this venv yet")
