"""Variants for helper ex69 (session 10, issue 23): rules written from the FRAMEWORKS' own attention messages (diffusers'
attention dispatcher and set_attention_backend, transformers' attn_implementation checks, ComfyUI's attention selection,
vLLM's backend selector), measured on the synthetic set fixtures/errors/source-frameworks/ (README there).

Every case was written by hand (2026-11-28) from the source's condition and words, with other paths, numbers, backend
names, wrappers and prefixes than the fixtures; each positive case asserts the entry (and backend) of the first problem
that can be a failure's cause; the near misses assert what must NOT be claimed.

Mechanisms (knowledge file: entry):
  sm-check      frameworks_source.toml diffusers.gpu-capability (new): _check_device_cuda_atleast_smXY (SageAttention's kernels)
  cp-backend    frameworks_source.toml diffusers.context-parallel-backend (new)
  fa2-no-gpu    frameworks_source.toml transformers.fa2-no-gpu (new): no CUDA device for flash_attention_2
  fa2-offload   frameworks_source.toml transformers.fa2-offload (new): device_map with cpu/disk
  comfy-mask    frameworks_source.toml comfyui.flash-mask (new): ComfyUI's flash path refuses a mask, falls back to SDPA
  widened       frameworks.toml app.unknown-backend-name (diffusers' `backend=...` list, ComfyUI's 'Attention function X not
                found'), attention.toml attn.qkv-device (diffusers' _check_device), guides.toml diffusers.dtype-check
                (bf16-only check), frameworks.toml vllm.head-size (the selected backend's 'head_size not supported'),
                sage.toml sage.arch-kernel (ComfyUI's sage fallback quoting 'no kernel image')
  attribution   attribution.toml: diffusers' flash_4_hub is FA4's (cute); ComfyUI's 'Flash Attention failed, using default
                SDPA:' line is flash-attn's failure (SDPA only the replacement)
"""

from __future__ import annotations

from pathlib import Path

import pytest

from explain_top import first_cause as _top, ids as _ids

SP = "/srv/envs/wan/lib/python3.12/site-packages"


# sm-check
@pytest.mark.parametrize("text", [
    f"  File \"{SP}/diffusers/models/attention_dispatch.py\", line 470, in check_device_cuda\n    raise ValueError(\n"
    "ValueError: Query, key, and value must be on a CUDA device with compute capability >= 8.0.",
    "[rank0]: ValueError: Query, key, and value must be on a CUDA device with compute capability >= 9.0.",
    "Query, key and value must be on a CUDA device with compute capability >=9.0",
])
def test_diffusers_gpu_capability(text):
    assert _top(text) == ("diffusers.gpu-capability", "sage")


def test_diffusers_cuda_only_is_not_the_capability_check():
    text = "ValueError: Query, key, and value must be on a CUDA device."
    assert _top(text)[0] == "diffusers.cuda-only-check" and "diffusers.gpu-capability" not in _ids(text)


# cp-backend
@pytest.mark.parametrize("text", [
    "ValueError: Context parallelism is enabled but current attention backend 'flex' does not support context parallelism. "
    "Please set a compatible attention backend: ['_native_cudnn', 'flash', 'native'] using `model.set_attention_backend()`.",
    "[rank3]: ValueError: Context parallelism is enabled but the attention processor 'WanAttnProcessor' is using backend "
    "'_native_math' which does not support context parallelism. Please set a compatible attention backend",
])
def test_diffusers_context_parallel_backend(text):
    assert _top(text)[0] == "diffusers.context-parallel-backend"


def test_context_parallel_notice_is_not_claimed():
    text = "INFO: Context parallelism is enabled with ring_degree=2, ulysses_degree=1"
    assert "diffusers.context-parallel-backend" not in _ids(text)


# fa2-no-gpu
@pytest.mark.parametrize("text", [
    "ValueError: FlashAttention2 has been toggled on, but it cannot be used due to the following error: Flash Attention 2 "
    "is not available on CPU. Please make sure torch can access a CUDA device.",
    "[rank1]: ValueError: You are attempting to use Flash Attention 2 with a model not initialized on GPU and with no GPU "
    "available. This is not supported yet.",
    "  File \"/opt/conda/lib/python3.11/site-packages/transformers/modeling_utils.py\", line 2213, in _flash_attn_2_can_dispatch\n"
    "    raise ValueError(\nValueError: FlashAttention2 has been toggled on, but it cannot be used due to the following "
    "error: Flash Attention 2 is not available on CPU. Please make sure torch can access a CUDA device.",
])
def test_transformers_fa2_no_gpu(text):
    assert _top(text) == ("transformers.fa2-no-gpu", "fa2")


def test_fa2_not_on_gpu_advisory_stays_the_advisory():
    text = ("You are attempting to use Flash Attention 2.0 with a model not initialized on GPU. Make sure to move the model "
            "to GPU after initializing it on CPU with `model.to('cuda')`.")
    assert _top(text)[0] == "fa2.model-not-on-gpu" and "transformers.fa2-no-gpu" not in _ids(text)


# fa2-offload
@pytest.mark.parametrize("text", [
    "ValueError: You are attempting to use Flash Attention 2 with a model dispatched on CPU or disk. This is not supported.",
    "[rank0]:   File \"/w/.venv/lib/python3.10/site-packages/transformers/modeling_utils.py\", line 1902, in "
    "_check_and_enable_flash_attn_2\n[rank0]: ValueError: You are attempting to use Flash Attention 2.0 with a model "
    "dispatched on CPU or disk. This is not supported. Please make sure to initialise the model on a GPU",
])
def test_transformers_fa2_offload(text):
    assert _top(text) == ("transformers.fa2-offload", "fa2")


def test_accelerate_offload_notice_is_not_fa2_offload():
    text = "Some parameters are on the meta device because they were offloaded to the cpu and disk."
    assert "transformers.fa2-offload" not in _ids(text)


# comfy-mask
@pytest.mark.parametrize("text", [
    "Flash Attention failed, using default SDPA: Mask must not be set for Flash attention",
    "[2026-11-27 21:04:11.337] Flash Attention failed, using default SDPA: Mask must not be set for Flash attention\n"
    "100%|##########| 30/30 [01:12<00:00,  2.41s/it]",
])
def test_comfyui_flash_mask(text):
    assert _top(text) == ("comfyui.flash-mask", "fa2")


def test_other_mask_refusal_is_not_comfys():
    assert "comfyui.flash-mask" not in _ids("ValueError: mask must not be None for this layer")


# attribution: ComfyUI's flash fallback line is flash-attn's failure
def test_comfyui_flash_fallback_line_is_flash_attns():
    text = "Flash Attention failed, using default SDPA: FlashAttention only supports Ampere GPUs or newer."
    assert _top(text) == ("backend.unsupported-gpu", "fa2")


def test_flash_4_hub_is_fa4s():
    text = ("  File \"/w/gen.py\", line 12, in <module>\n    pipe.transformer.set_attention_backend(\"flash_4_hub\")\n"
            "RuntimeError: Backend 'flash_4_hub' needs to be used with a `kernels` version of at least 0.12.3. Please update "
            "with `pip install -U kernels`.")
    assert _top(text) == ("config.hub-kernels-missing", "cute")


# widened: app.unknown-backend-name
@pytest.mark.parametrize("text", [
    "ValueError: `backend='flash_attn'` must be one of the following: flash, flash_varlen, native, sage, xformers",
    "!!! Exception during processing !!! 'Attention function sageattn3 not found.'\nKeyError: 'Attention function sageattn3 not found.'",
    "KeyError: 'Attention function flash-attn not found.'",
])
def test_unknown_backend_name_widened(text):
    assert _top(text)[0] == "app.unknown-backend-name"


def test_registration_notice_is_not_an_unknown_name():
    text = "Attention function sage already registered, skipping registration."
    assert "app.unknown-backend-name" not in _ids(text)


# widened: attn.qkv-device, diffusers.dtype-check, vllm.head-size, sage.arch-kernel
@pytest.mark.parametrize("text, want", [
    ("ValueError: Query, key, and value must be on the same device.", "attn.qkv-device"),
    ("[rank2]: ValueError: Query, key and value must be on the same device", "attn.qkv-device"),
    ("ValueError: Query, key, and value must be bfloat16.", "diffusers.dtype-check"),
    ("  File \"/x/diffusers/models/attention_dispatch.py\", line 491, in _check_qkv_dtype_bf16\nValueError: Query, key, and "
     "value must be bfloat16.", "diffusers.dtype-check"),
    ("ValueError: Selected backend AttentionBackendEnum.TRITON_ATTN is not valid for this configuration. Reason: "
     "['head_size not supported']", "vllm.head-size"),
    ("(EngineCore_DP0 pid=9) ValueError: Selected backend AttentionBackendEnum.FLASH_ATTN is not valid for this configuration. "
     "Reason: ['dtype not supported', 'head_size not supported']", "vllm.head-size"),
])
def test_widened(text, want):
    assert _top(text)[0] == want


@pytest.mark.parametrize("text", [
    "Error running sage attention: no kernel image is available for execution on the device, using pytorch attention instead.",
    "[2026-11-28 08:00:01.123] Error running sage attention: CUDA error: no kernel image is available for execution on the "
    "device\nCUDA kernel errors might be asynchronously reported at some other API call\n, using pytorch attention instead.",
])
def test_comfy_sage_fallback_no_kernel_image_is_sages_build(text):
    assert _top(text) == ("sage.arch-kernel", "sage")


@pytest.mark.parametrize("text, not_want", [
    # the selected backend refused for another reason: not a head size
    ("ValueError: Selected backend AttentionBackendEnum.FLASHINFER is not valid for this configuration. Reason: "
     "['compute capability not supported']", "vllm.head-size"),
    # the sage fallback quoting another CUDA error: not the arch
    ("Error running sage attention: CUDA out of memory. Tried to allocate 748.00 MiB., using pytorch attention instead.",
     "sage.arch-kernel"),
    # another library's bf16 requirement
    ("ValueError: weights must be bfloat16 for this quantizer", "diffusers.dtype-check"),
])
def test_widened_near_misses(text, not_want):
    assert not_want not in _ids(text)


# the set itself: labels valid, and a floor on what explain gets right
SET = Path(__file__).resolve().parents[1] / "fixtures" / "errors" / "source-frameworks"


def test_source_frameworks_is_labelled_and_kept():
    from attn_doctor.knowledge import entries

    known, right, texts = entries(), 0, sorted(SET.glob("*.txt"))
    assert len(texts) == 62
    for p in texts:
        head, sep, body = p.read_text(encoding="utf-8").partition("\n---\n")
        meta = dict(line.split(": ", 1) for line in head.splitlines())
        assert sep and "SYNTHETIC" in meta["captured"] and ":" in meta["source"]
        labels = [x.strip() for x in meta["entry"].split("|")]
        assert all(x.startswith("new: ") or x in known for x in labels), p.name
        top, backend = _top(body)
        want = None if meta["backend"] == "none" else meta["backend"]
        right += top in labels and backend == want
    assert right >= 58  # 28 on main's rules at 796d4273 (benchmarks/results/explain-source-frameworks-main.json)


def test_source_frameworks_unrelated_not_claimed():
    for p in sorted((SET / "unrelated").glob("*.txt")):
        body = p.read_text(encoding="utf-8").partition("\n---\n")[2]
        assert _ids(body) == [], p.name
