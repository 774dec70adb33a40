"""Variants for round 46 (issue 23, helper ex46): a training round from repositories no earlier set used, meant for
runtime, import, install and arch reports (fixtures/errors/round46/), whose texts main's rules missed or attributed to
the wrong backend.

Every case was written by hand for this round (2026-11-28) from the mechanism, NOT copied from a real thread:
another path, version, package, wrapper or wording. Each positive case asserts the entry (and the backend where
explain names one) of the first problem that can be a failure's cause; the near misses beside each mechanism assert
what must NOT be claimed.

Mechanisms (knowledge file: entry):
  uv-hint        builds.toml build.isolation: uv's hint "`pkg@x.y` depends on `torch`, but doesn't declare it as a build
                 dependency" on its own, its words wrapped across lines (a docker build prefixing each wrapped line
                 with its seconds), the import error after it or cut away (groundlight/r1_vlm#27)
  isolation-prose builds.toml build.isolation: said in prose: the backend cannot be installed because torch is not
                 available to its build, or torch is not declared as its (build) dependency (tilde-research/activault#2)
  sam2-sdpa      attribution.toml (sdpa's names): SAM 2's / SAM 3's get_sdpa_settings warnings ("Flash Attention is disabled
                 as it requires a GPU with Ampere (8.0) CUDA capability", "... without Flash Attention v2 support. Consider
                 upgrading to PyTorch 2.2+") are about SDPA's flash kernel, not flash-attn's (kijai/ComfyUI-segment-anything-2#27,
                 round 24m's facebookresearch/sam2#136)
  int32          attention.toml attn.int32-overflow (new): an attention kernel's 32-bit offsets overflowing for very large
                 inputs, said on a line naming the kernel (PaddlePaddle/flash-attention#65; Dao-AILab/flash-attention#2214)
"""

from __future__ import annotations

import pytest

from explain_top import first_cause as _top, ids as _ids


# uv-hint
@pytest.mark.parametrize("text, backend", [
    ("#9 41.20 hint: This error likely indicates that `xformers@0.0.30` depends\n"
     "12.331      on `torch`, but doesn't declare it as a build dependency. If `xformers` is a first-party package,", "xformers"),
    ("  help: `sageattention` (v2.2.0) was included because `my-app` depends on `sageattention`\n"
     "  hint: This error likely indicates that `sageattention@2.2.0` depends on `torch`, but does not declare it as a build "
     "dependency.", "sage"),
    ("uv sync\n  x Failed to build `flash-attn==2.8.3`\nhint: This error likely indicates that `flash-attn@2.8.3` depends\n"
     "on `torch`,\nbut doesn't declare it as a build dependency.", "fa2"),
])
def test_uv_build_dependency_hint(text, backend):
    assert _top(text) == ("build.isolation", backend)


@pytest.mark.parametrize("text", [
    "hint: This error likely indicates that `pycocotools@2.0.7` depends on `numpy`, but doesn't declare it as a build dependency.",
    "flash-attn depends on torch, which is installed (torch 2.7.1+cu128); the build then fails in nvcc with exit status 2",
])
def test_uv_hint_near_misses(text):
    assert "build.isolation" not in _ids(text)


# isolation-prose
@pytest.mark.parametrize("text, backend", [
    ("pip can't install flash-attn because torch is not installed in its build environment", "fa2"),
    ("uv fails to build sageattention because `torch` isn't available during the build", "sage"),
    ("`torch` is not declared as a build dependency of `xformers`, so the isolated build cannot see it", "xformers"),
])
def test_isolation_said_in_prose(text, backend):
    assert _top(text) == ("build.isolation", backend)


@pytest.mark.parametrize("text", [
    "can't install flash-attn because torch is not compatible with CUDA 12.8",
    "torch is not declared as a dependency of my project, so install it first",
])
def test_isolation_prose_near_misses(text):
    assert "build.isolation" not in _ids(text)


# sam2-sdpa
@pytest.mark.parametrize("text", [
    "/opt/app/sam3/model/model_misc.py:41: UserWarning: Flash Attention is disabled as it requires a GPU with Ampere (8.0) "
    "CUDA capability.\n  warnings.warn(",
    "C:\\ComfyUI\\custom_nodes\\ComfyUI-SAM2\\sam2\\utils\\misc.py:22: UserWarning: Flash Attention is disabled as it requires "
    "a GPU with Ampere (8.0) CUDA capability.",
])
def test_sam2_notice_is_sdpa(text):
    assert _top(text) == ("backend.unsupported-gpu", "sdpa")


def test_sam2_old_torch_notice_names_sdpa():
    from attn_doctor.explain import match
    text = ("sam2/utils/misc.py:31: UserWarning: You are using PyTorch 2.1.2 without Flash Attention v2 support. Consider "
            "upgrading to PyTorch 2.2+ for Flash Attention v2 (which could be faster).\n"
            "RuntimeError: No available kernel. Aborting execution.")
    assert _top(text)[1] == "sdpa"


def test_sam2_near_miss_flash_attn_own_refusal_stays_fa2():
    text = ("  File \"/venv/lib/python3.10/site-packages/flash_attn/flash_attn_interface.py\", line 91, in _flash_attn_forward\n"
            "    out, softmax_lse, S_dmask, rng_state = flash_attn_gpu.fwd(\n"
            "RuntimeError: FlashAttention only supports Ampere GPUs or newer.")
    assert _top(text)[1] == "fa2"


# int32
@pytest.mark.parametrize("text, backend", [
    ("flash_attn_varlen_func: int32 index overflow once the packed batch passes 2^31 elements", "fa2"),
    ("fix(fa3): varlen kernel int32 offset overflow for 40k-token packed batches", "fa3"),
    ("The xformers memory_efficient_attention call crashes: 32-bit indexing overflow for B=2048", "xformers"),
])
def test_int32_overflow(text, backend):
    assert _top(text) == ("attn.int32-overflow", backend)


@pytest.mark.parametrize("text", [
    "the tokenizer hits an int32 overflow on vocab ids above 2**31",
    "RuntimeError: cu_seqlens_q must have dtype int32",
    "flash_attn_func works; the loss computation has a separate int64 issue",
])
def test_int32_near_misses(text):
    assert "attn.int32-overflow" not in _ids(text)
