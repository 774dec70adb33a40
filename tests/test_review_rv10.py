"""Session 8, helper rv10: the closing review of the session's knowledge entries. Each test failed on main before its fix."""

from __future__ import annotations

import pytest

from attn_doctor.knowledge import get
from explain_top import first_cause as _top, ids as _ids


# cute.cache-lock-timeout: FA4's disk cache is FLASH_ATTENTION_CUTE_DSL_CACHE_DIR, else tempfile.gettempdir()/<user>/
# flash_attention_cute_dsl_cache, and opt-in (FLASH_ATTENTION_CUTE_DSL_CACHE_ENABLED=1): flash-attention@0251105a
# flash_attn/cute/cache_utils.py:33-48. The fix listed ~/.cache/flash_attn, a directory FA4 never writes.


def test_the_fa4_lock_fix_lists_the_cache_fa4_uses():
    e = get("cute.cache-lock-timeout")
    assert "~/.cache/flash_attn" not in e.fix
    assert "FLASH_ATTENTION_CUTE_DSL_CACHE_DIR" in e.fix and "flash_attention_cute_dsl_cache" in e.fix
    assert "FLASH_ATTENTION_CUTE_DSL_CACHE_ENABLED" in e.fix and "FLASH_ATTENTION_CUTE_DSL_CACHE_ENABLED" in e.cause


@pytest.mark.parametrize("text", [
    "RuntimeError: Timed out after 15s waiting for shared 9c1e4b7a02d5 lock: /tmp/dev/flash_attention_cute_dsl_cache/9c1e4b7a02d5.lock",
    "RuntimeError: Timed out after 15s waiting for exclusive a1b2 lock: /scratch/fa4cache/a1b2.lock",
])
def test_the_fa4_lock_timeout_still_matches_in_the_real_cache_dir(text):
    assert _top(text) == ("cute.cache-lock-timeout", "cute")


# The ROCm memory-efficient kernel's mask warning (torch sdp_utils.cpp, USE_ROCM: TORCH_WARN, then `return false`) is printed
# by a call that goes on with the math kernel: a working, slow run (a benchmark log of this shape is in the search tool's
# pages: 'SDPA with mask: 151.923 ms' right after the warning). It is sdpa.math-fallback's warning, not sdpa.mask-dtype's
# error ("attn_mask ... is refused").

ROCM_MASK = ("/work/bench.py:84: UserWarning: Efficient attention on ROCM requires attn_mask be boolean, or has the same datatype "
             "as of q,k,v (Triggered internally at /src/pytorch/aten/src/ATen/native/transformers/hip/sdp_utils.cpp:775.)\n"
             "  return F.scaled_dot_product_attention(q, k, v, attn_mask=mask)\n"
             "SDPA with mask: 151.923 ms, 0.90 TFLOPS")


def test_the_rocm_mask_warning_is_the_math_fallback_not_a_refused_mask():
    assert "sdpa.mask-dtype" not in _ids(ROCM_MASK)
    assert _top(ROCM_MASK) == ("sdpa.math-fallback", "sdpa")


def test_a_refused_mask_is_still_the_mask_dtype_error():
    text = ("RuntimeError: Expected attn_mask dtype to be bool or float or to match query dtype, but got attn_mask.dtype: "
            "long int and  query.dtype: c10::Half instead.")
    assert _top(text) == ("sdpa.mask-dtype", "sdpa")


# False positives of the session's widened patterns (each claimed on main):


@pytest.mark.parametrize("text", [
    "With torch 2.5 SDPA no longer falls back to the mem-efficient/math kernel for this mask.",  # helper ex53's widening
    "After the fix scaled_dot_product_attention no longer falls back to the math kernel for GQA.",  # round 38's shape
])
def test_a_fallback_said_to_be_gone_is_not_the_math_fallback(text):
    assert "sdpa.math-fallback" not in _ids(text)


def test_a_fallback_still_said_is_the_math_fallback():
    assert _top("With fp32 inputs SDPA falls back to the mem-efficient/math kernel and the step takes 3x longer") == \
        ("sdpa.math-fallback", "sdpa")


@pytest.mark.parametrize("text", [
    "pip reports incompatible versions of xformers and diffusers in this env",
    "the solver picked incompatible xformers builds or triton wheels, so I pinned both",
])
def test_xformers_incompatible_with_another_package_is_not_the_torch_mismatch(text):
    assert "xformers.built-for-other-torch" not in _ids(text)


def test_xformers_incompatible_with_torch_is_still_the_torch_mismatch():
    assert "xformers.built-for-other-torch" in _ids("pip gives me incompatible versions of xformers and torch 2.9 every time")


def test_a_module_error_naming_another_module_is_not_the_isolated_build_missing_torch():
    text = "I have torch installed and pip install flash-attn --no-build-isolation gives a module error: No module named 'packaging'"
    assert "build.isolation" not in _ids(text)
    assert "build.isolation" in _ids("I have torch installed, but pip install -e . in flash-attention still gives a module "
                                      "error: No module named 'torch'")


# flash-attn's ROCm build without GPU_ARCHS (setup.py:475-492): 'current device does not expose gcnArchName' needs a GPU torch
# sees (torch.cuda.is_available()) that has no gcnArchName: a CUDA torch on an NVIDIA GPU, reached only with BUILD_TARGET=rocm.
# The fix told to install a ROCm torch into this env, over a working CUDA torch; 'no GPU detected' got build.no-arch-list,
# whose export TORCH_CUDA_ARCH_LIST this build never reads.


def test_the_rocm_arch_fix_names_gpu_archs_and_keeps_the_envs_torch():
    e = get("build.rocm-torch-missing")
    assert e.fix.startswith('export GPU_ARCHS="${{') and ":?" in e.fix
    assert "ROCm build of torch into this env" not in e.fix and "BUILD_TARGET" in e.fix


@pytest.mark.parametrize("text", [
    "RuntimeError: GPU_ARCHS not set and no GPU detected. Please set GPU_ARCHS (e.g. GPU_ARCHS='gfx942') to cross-compile.",
    "RuntimeError: GPU_ARCHS not set and current device does not expose gcnArchName. This usually means the active PyTorch "
    "build is not ROCm. Please set GPU_ARCHS explicitly.",
])
def test_both_gpu_archs_messages_are_the_rocm_arch_entry(text):
    assert _ids(text)[0] == "build.rocm-torch-missing" and "build.no-arch-list" not in _ids(text)


# attn.qkv-device, widened by ex51 to FlashAttention's CHECK_DEVICE ('q must be on CUDA': a tensor left on the CPU): its
# fix moved q, k, v to q's device, which for a q on the CPU is the CPU; it now says to move them to the GPU.


def test_the_device_fix_covers_a_tensor_left_on_the_cpu():
    fix = get("attn.qkv-device").fix
    assert "must be on CUDA" in fix and "to the GPU" in fix
    assert _top("RuntimeError: q must be on CUDA\n  (flash_attn_gpu.fwd)")[0] == "attn.qkv-device"


# prose.said (ex50): a sentence that says the errors are over ("no more errors") denies the failure, as "no errors" did


BODY_HEAD = "Image generation is slow\n\nWindows 11, RTX 3090.\nComfyUI portable.\nNo custom nodes.\n\n"


def test_no_more_errors_is_a_denial():
    assert "prose.said" not in _ids(BODY_HEAD + "I fixed it by reinstalling flash-attn, no more errors now.")
    assert "prose.said" not in _ids(BODY_HEAD + "We upgraded xformers and have had no further issues since.")


@pytest.mark.parametrize("body", [
    "I have never had a problem with xformers before.",  # before: it has one now
    "Now I always get an error about flash attention when the node starts.",
])
def test_a_failure_said_still_is(body):
    assert "prose.said" in _ids(BODY_HEAD + body)


# attn.qkv-dtype, widened by ex51 to FlashAttention's backward ('query and dout must have the same dtype'): the gradient of
# the output, not q/k/v, has the other dtype, which casting q, k, v does not change; the fix now says so.


def test_the_dtype_fix_covers_the_backwards_gradient():
    assert "dout" in get("attn.qkv-dtype").fix
    assert _top("RuntimeError: query and dout must have the same dtype")[0] == "attn.qkv-dtype"
