"""Variants for round 82 (helper ex82): attention failures on other accelerators (AMD ROCm/HIP and ZLUDA, Intel XPU, Ascend
NPU, Apple MPS, CPU) that fixtures/errors/round82/ showed main missed or answered with CUDA-only fixes.

Every case was written by hand for this round (2026-11-29) from the mechanism, NOT copied from a real thread: another
GPU, gfx, op, path, version or wording. Each positive case asserts the entry and the backend of the first problem that can
be a failure's cause (None: no backend of the seven); the near misses assert what must NOT be claimed.

Mechanisms (knowledge file: entry or table):
  platform  accelerator.py + accelerators.toml [[platform]]: which accelerator a text comes from, against NVIDIA's words
  route     [[platform_route]]: flash-attn's CUDA install failures on a Mac/XPU/NPU -> fa2.platform-unsupported; kernel
            arch refusals under ZLUDA -> gpu.zluda
  fixes     [[platform_fix]] and the platforms' own fixes: no CUDA-only step (nvcc, CUDA_HOME, +cuNNN, TORCH_CUDA_ARCH_LIST,
            a CUDA build) printed for a ROCm, XPU, NPU or MPS text
  npu       accelerators.toml npu.fused-attention-failed: torch_npu's fused attention ops failing in CANN (aclnn...)
  aiter     accelerators.toml aiter.arch-unsupported: AITER's arch tables and JIT builds refusing the GPU
  ck        accelerators.toml fa2.rocm-ck-arch: flash-attn's CK backend's "invalid argument for fmha_fwd"
  mps-bwd   accelerators.toml sdpa.mps-no-backward: no derivative for the MPS SDPA kernel
  vllm-fa   accelerators.toml vllm.rocm-needs-flash-attn; xpu-ipex: xpu.ipex-attention; sage-arch: sage.cuda-arch-unknown
  widened   sdpa.op-not-on-device (the flash/efficient aten ops), flex.device-unsupported (the lowering on another device),
            torch.cpu-build (not when torch.compile raised it), train.oom (HIP/XPU/MPS)
"""

from __future__ import annotations

import re

import pytest

from attn_doctor.explain import match
from attn_doctor.knowledge import accelerator
from explain_top import first_cause as _top, ids as _ids


@pytest.mark.parametrize("text,entry,backend", [
    # npu: other ops, codes, prefixes
    ("RuntimeError: npu_fusion_attention_grad:torch_npu/csrc/aten/ops/op_api/FlashAttentionKernelNpuOpApi.cpp:780 NPU function "
     "error: call aclnnFlashAttentionScoreGrad failed, error code is 161002", "npu.fused-attention-failed", None),
    ("(EngineCore_DP0 pid=77) ERROR RuntimeError: NPU function error: call aclnnIncreFlashAttentionV4 failed, error code is 561000",
     "npu.fused-attention-failed", None),
    # aiter: another gfx list, another module
    ("RuntimeError: Unknown gfx gfx1036 in GPU_ARCHS", "aiter.arch-unsupported", None),
    ("[aiter] failed jit build [module_fmha_v3_fwd]", "aiter.arch-unsupported", None),
    # ck: the backward, another path
    ("  File \"/home/u/venv/lib/python3.11/site-packages/flash_attn/flash_attn_interface.py\", line 172, in _flash_attn_backward\n"
     "RuntimeError: invalid argument for fmha_bwd", "fa2.rocm-ck-arch", "fa2"),
    # mps-bwd: the derivative message under a trainer's traceback
    ("  File \"/Users/ann/kohya/train_network.py\", line 1201, in train\n    accelerator.backward(loss)\nRuntimeError: derivative for "
     "aten::_scaled_dot_product_attention_math_for_mps is not implemented", "sdpa.mps-no-backward", "sdpa"),
    # vllm-fa, xpu-ipex, sage-arch
    ("(EngineCore pid=12) ImportError: Rocm platform requires upstream flash-attn to be installed", "vllm.rocm-needs-flash-attn", "fa2"),
    ("  File \"/opt/venv/lib/python3.12/site-packages/vllm/_ipex_ops.py\", line 201, in varlen_attention\n"
     "    ipex.llm.functional.varlen_attention(query, key, value, out, seqlen_q, seqlen_k,", "xpu.ipex-attention", None),
    ("GPU: Radeon RX 9070 XT (gfx1201)\nException Message: SageAttention could not determine CUDA architecture on this device",
     "sage.cuda-arch-unknown", "sage"),
    # route: flash-attn's build on a Mac (no nvcc), on an Intel Arc (no package)
    ("Collecting flash-attn\n  File \"/private/var/folders/xy/T/pip-install-1/flash-attn_9/setup.py\", line 160, in <module>\n"
     "      raise OSError('CUDA_HOME environment variable is not set. Please set it to your CUDA install root.')\n"
     "OSError: CUDA_HOME environment variable is not set. Please set it to your CUDA install root.\n"
     "(on my MacBook Pro M3, torch 2.6 with mps)", "fa2.platform-unsupported", "fa2"),
    ("flash attention is not supported on XPU, the model import fails on my Intel Arc B580", "fa2.platform-unsupported", "fa2"),
    # route: ZLUDA's arch refusal of a backward kernel
    ("ComfyUI via ZLUDA on an RX 6800\nFATAL: kernel `fmha_cutlassB_f16_aligned_64x64_k64_sm80` is for sm80-sm100, but was built for sm61",
     "gpu.zluda", "xformers"),
    # widened: SDPA's flash op on MPS; the efficient op's words; Flex's lowering backward; OOM on HIP
    ("NotImplementedError: Could not run 'aten::_efficient_attention_forward' with arguments from the 'MPS' backend.",
     "sdpa.op-not-on-device", "sdpa"),
    ("torch.ops.aten._scaled_dot_product_flash_attention is not supported on MPS yet", "sdpa.op-not-on-device", "sdpa"),
    ("torch._inductor.exc.InductorError: LoweringException: AssertionError: Torch not compiled with CUDA enabled\n"
     "  target: flex_attention_backward", "flex.device-unsupported", "flex"),
])
def test_mechanism(text, entry, backend):
    got = _top(text)
    assert got == (entry, backend), got


def test_oom_other_gpus():
    # the allocator's failure on an Intel GPU under ComfyUI's SDPA call is read as the OOM it is
    text = ("  File \"/srv/ComfyUI/comfy/ldm/modules/attention.py\", line 455, in attention_pytorch\n"
            "    out = torch.nn.functional.scaled_dot_product_attention(q, k, v)\n"
            "torch.OutOfMemoryError: XPU out of memory. Tried to allocate 9.00 GiB (Arc A750, sampling at 1536x1536)")
    assert "train.oom" in _ids(text)


@pytest.mark.parametrize("text,absent", [
    # npu: another NPU error that is no attention op
    ("RuntimeError: NPU function error: call aclnnMatmul failed, error code is 161002", "npu.fused-attention-failed"),
    # aiter: a gfx named without a refusal
    ("[aiter] import [module_aiter_core] under gfx942 done", "aiter.arch-unsupported"),
    # ck: another library's invalid argument
    ("RuntimeError: CUDA error: invalid argument", "fa2.rocm-ck-arch"),
    # route: the same missing nvcc on an NVIDIA Linux box stays the toolkit's
    ("OSError: CUDA_HOME environment variable is not set. Please set it to your CUDA install root.\nRTX 4090, torch 2.6.0+cu124",
     "fa2.platform-unsupported"),
    # widened: the op called through SDPA on CUDA with a supported device is no "not on device"
    ("aten::_flash_attention_forward took 3.1 ms on cuda:0", "sdpa.op-not-on-device"),
    # torch.cpu-build: torch.compile's own AssertionError is no CPU torch
    ("torch._dynamo.exc.BackendCompilerFailed: backend='inductor' raised AssertionError: Torch not compiled with CUDA enabled",
     "torch.cpu-build"),
    # train.oom: a sentence about memory that is no allocator failure; a small allocation (the model does not fit)
    ("the XPU has more memory than the GPU I used before", "train.oom"),
    ("  File \"/srv/ComfyUI/comfy/ldm/modules/attention.py\", line 455, in attention_pytorch\n"
     "torch.OutOfMemoryError: HIP out of memory. Tried to allocate 96.00 MiB. GPU 0 has a total capacity of 4.00 GiB", "train.oom"),
    # sage-arch: the same refusal on an NVIDIA machine (an old SageAttention) stays the version's
    ("RTX 4090, sageattention 1.0.6\nRuntimeError: sageattention is not new enough version or could not determine CUDA architecture, "
     "cannot apply the patch", "sage.cuda-arch-unknown"),
])
def test_near_miss(text, absent):
    assert absent not in _ids(text)


@pytest.mark.parametrize("text,platform", [
    ("RuntimeError: HIP error: invalid device function\nFor debugging consider passing AMD_SERIALIZE_KERNEL=3", "rocm"),
    ("torch 2.8.0+rocm6.4 on gfx1100", "rocm"),
    ("xpu:0 Intel(R) Arc(TM) B580 Graphics", "xpu"),
    ("RuntimeError: NPU function error: call aclnnFlashAttentionScore failed", "npu"),
    ("tensor([1.], device='mps:0') on my MacBook", "mps"),
    ("under ZLUDA on a Radeon RX 7900 XTX", "zluda"),
    # helper ex144 (session 24): a Moore Threads GPU (torch_musa, device 'musa', MTT S-series, MUSA's own words), and words that only
    # look like it
    ("torch 2.5.0 with torch_musa 2.1.0", "musa"),
    ("tensor([1.], device='musa:0')", "musa"),
    ("GPU: MTT S4000 (48 GB)", "musa"),
    ("RuntimeError: MUSA error: out of memory", "musa"),
    ("Moore Threads MTT S80, driver 3.1", "musa"),
    ("export MUSA_HOME=/usr/local/musa", "musa"),
    ("the museum dataset (musa_corpus) loads", None),
    # NVIDIA named as often: read as CUDA
    ("RTX 4090 driver 560, torch 2.5.1+cu124, also tried my MacBook", None),
    ("RuntimeError: CUDA error: out of memory", None),
])
def test_platform(text, platform):
    from attn_doctor.explain import examine  # noqa: F401  (the probes run in explain's own scan)
    from attn_doctor.knowledge.match import scan

    s = scan(text, probes=accelerator.probes())
    assert accelerator.detect(s.probed) == platform


CUDA_ONLY = re.compile(r"\bnvcc\b|\bCUDA_HOME\b|\+cu1\d\d\b|\bwhl/cu|TORCH_CUDA_ARCH_LIST|FLASH_ATTN_CUDA_ARCHS|\bCUDA build\b|"
                       r"\bcu128\b|for Blackwell")


@pytest.mark.parametrize("text", [
    # a ROCm torch without kernels for the GPU (gpu.arch-not-in-torch's CUDA fix is cu128+ and TORCH_CUDA_ARCH_LIST)
    "torch 2.7.1+rocm6.3 on a Radeon 890M (gfx1150)\nRuntimeError: HIP error: invalid device function",
    # xformers built for a CUDA torch under a ROCm one
    "WARNING[XFORMERS]: xFormers can't load C++/CUDA extensions. xFormers was built for:\n"
    "    PyTorch 2.5.1+cu121 with CUDA 1201 (you have 2.5.1+rocm6.2)",
    # flash-attn's build on a Mac
    "flash_attn was requested, but nvcc was not found.\nInstalling on Apple Silicon (M2 Max) with mps",
    # a CPU-only torch error raised on an XPU machine and on a Mac
    "AssertionError: Torch not compiled with CUDA enabled\nDevice: xpu:0 Intel(R) Arc(TM) A770 Graphics",
    "AssertionError: Torch not compiled with CUDA enabled\nrunning on my MacBook Air M2 (mps)",
    # xformers on MPS
    "NotImplementedError: No operator found for `memory_efficient_attention_forward` with inputs:\n"
    "     query       : shape=(2, 4096, 8, 40) (torch.float16)\n`cutlassF` is not supported because:\n    device=mps (supported: {'cuda'})",
    # NPU fused attention
    "RuntimeError: npu_fusion_attention:op_plugin/ops/opapi/FlashAttentionKernelNpuOpApi.cpp:99 NPU function error: "
    "call aclnnFlashAttentionScore failed, error code is 161002",
])
def test_no_cuda_only_fix_off_cuda(text):
    found = match(text)
    assert found, "explain found nothing"
    for m in found:
        assert not CUDA_ONLY.search(m.fix or ""), (m.entry.id, m.fix)


def test_cuda_fix_kept_on_cuda():
    # the same arch failure on an NVIDIA GPU keeps the CUDA answer
    found = match("RTX 5090, torch 2.6.0+cu124\nRuntimeError: CUDA error: no kernel image is available for execution on the device")
    assert found and found[0].entry.id == "gpu.arch-not-in-torch"
    assert "TORCH_CUDA_ARCH_LIST" in (found[0].fix or "") or "cu1" in (found[0].fix or "")
