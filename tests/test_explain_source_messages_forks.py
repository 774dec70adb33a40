"""Messages the forks of FlashAttention raise in its words, read from their own source (helper ex137, session 23; issue 23;
benchmarks/source_messages.py files, benchmarks/results/explain-source-messages-forks.md): flash-attn's ROCm build (its CK
extension, csrc/flash_attn_ck/, in Dao-AILab/flash-attention and ROCm/flash-attention) and its AMD Triton backend (whose
kernels now live in ROCm/aiter, aiter/ops/triton/_triton_kernels/flash_attn_triton_amd/). ROCm's flash_attn IS the flash_attn
package: FA2 with the same API, so its checks are FA2's entries; their fixes must name the ROCm environment. Each case failed
at s23start (178ca03e): read as nothing or by a catch-all (triage.*). Variants of our own beside the source's texts."""

from __future__ import annotations

import pytest

from attn_doctor.explain import match
from attn_doctor.knowledge import accelerator
from explain_top import first, ids

TRITON_AMD_FRAME = ('  File "/opt/venv/lib/python3.12/site-packages/aiter/ops/triton/_triton_kernels/flash_attn_triton_amd/'
                    'interface_v2.py", line 383, in varlen_fwd\n    raise NotImplementedError(\n')

CASES = [
    # flash-attn's CK build (csrc/flash_attn_ck/*.cpp at Dao-AILab/flash-attention@0251105a)
    ("RuntimeError: num_splits greater than 128 is not supported", "fa2.num-splits", "fa2"),  # mha_fwd_kvcache.cpp:479
    ("RuntimeError: num_splits should greater than 0", "fa2.rocm-num-splits-device", "fa2"),  # :478 (rev23: a failed HIP device query)
    ("RuntimeError: Expected alibi_slopes.sizes() == torch::IntArrayRef({h}) || alibi_slopes.sizes() == "
     "torch::IntArrayRef({b, h}) to be true, but got false.", "fa2.alibi-slopes", "fa2"),  # mha_bwd.cpp:122
    ("RuntimeError: Paged KV does not support dropout", "fa2.paged-kv", "fa2"),  # mha_varlen_fwd.cpp:455
    ("RuntimeError: return_dropout_randval require p_dropout > 0", "fa2.argument-combination", "fa2"),  # mha_fwd.cpp:276
    ("AssertionError: return_dropout_randval requires p_dropout > 0", "fa2.argument-combination", "fa2"),  # variant (aiter's wording)
    # the AMD Triton backend (ROCm/aiter@e4048607 .../flash_attn_triton_amd/interface_v2.py, interface_v3.py, fwd_prefill.py)
    ("ValueError: Alibi can be (nheads,) or (batch_size, nheads).", "fa2.alibi-slopes", "fa2"),  # interface_v2.py:293
    ("NotImplementedError: softcap is not supported in the AMD Triton FA2 interface (expected 0.0).",
     "fa2.rocm-triton-unsupported", "fa2"),
    ("NotImplementedError: block_table / paged attention is not supported in AMD Triton FA2 varlen_fwd.",
     "fa2.rocm-triton-unsupported", "fa2"),
    ("NotImplementedError: num_splits > 1 not supported in AMD Triton FA2 fwd_kvcache.", "fa2.rocm-triton-unsupported", "fa2"),
    ("NotImplementedError: pack_gqa is not yet supported in the AMD Triton backend (got pack_gqa=True)",
     "fa2.rocm-triton-unsupported", "fa2"),
    ("NotImplementedError: softcap is not supported in varlen_bwd (expected 0.0).", "fa2.rocm-triton-unsupported", "fa2"),
    ("NotImplementedError: Rotary embeddings with varlen (thd layout) prefill are not implemented yet.",
     "fa2.rocm-triton-unsupported", "fa2"),
    (TRITON_AMD_FRAME + "NotImplementedError: seqused_k is not supported in AMD Triton FA2 varlen_fwd.",
     "fa2.rocm-triton-unsupported", "fa2"),  # variant: under the backend's frame
    ("NotImplementedError: Dropout is not yet supported with the decode kernel in the AMD Triton backend",
     "fa2.rocm-triton-unsupported", "fa2"),  # variant: another option
]


@pytest.mark.parametrize("text,entry,backend", CASES, ids=[c[0].splitlines()[-1][:60] for c in CASES])
def test_fork_message_is_read_by_its_mechanism(text, entry, backend):
    assert first(text) == (entry, backend)


NEAR_MISSES = [
    # the same words about other code: not flash-attn's AMD Triton backend, its split count or its slopes
    "NotImplementedError: softcap is not supported in this model (expected 0.0)",
    "RuntimeError: num_splits greater than 16 is not allowed here",
    "ValueError: bias can be (nheads,) or (batch_size, nheads).",
    "NotImplementedError: fp8 is not supported in the Triton backend",
]


@pytest.mark.parametrize("text", NEAR_MISSES)
def test_near_misses_stay_unread(text):
    assert not {"fa2.rocm-triton-unsupported", "fa2.num-splits", "fa2.alibi-slopes"} & set(ids(text)), ids(text)


# The AMD-only code paths name the platform (accelerators.toml [[platform]] rocm): aiter's package folder in a traceback,
# flash-attn's AMD Triton backend by its module, its switch and its refusals, its CK sources in a build log
@pytest.mark.parametrize("text", [
    TRITON_AMD_FRAME + "AssertionError: softmax_lse must be float32",
    '  File "/usr/lib/python3/dist-packages/aiter/jit/core.py", line 512, in build_module\nRuntimeError: failed',
    "$ FLASH_ATTENTION_TRITON_AMD_ENABLE=TRUE python train.py\nTraceback (most recent call last):",
    "csrc/flash_attn_ck/mha_fwd.cpp:42:10: fatal error: 'fmha_fwd.hpp' file not found",
    "NotImplementedError: pack_gqa is not yet supported in the AMD Triton backend (got pack_gqa=True)",
])
def test_fork_paths_name_rocm(text):
    from attn_doctor.knowledge.match import scan

    s = scan(text, probes=accelerator.probes())
    assert accelerator.detect(s.probed) == "rocm"


def test_rocm_fix_for_an_arch_failure_in_aiters_build():
    # the GPU has no kernels: on an AMD machine (aiter's JIT in the traceback) the fix is ROCm's, not cu128+ / TORCH_CUDA_ARCH_LIST
    found = match('  File "/opt/venv/lib/python3.12/site-packages/aiter/jit/core.py", line 300, in build_module\n'
                  "RuntimeError: CUDA error: no kernel image is available for execution on the device")
    assert found and found[0].entry.id == "gpu.arch-not-in-torch"
    assert "TORCH_CUDA_ARCH_LIST" not in (found[0].fix or "") and "hip" in (found[0].fix or "")


# torch's flash kernels on Intel GPUs (intel/torch-xpu-ops@ab84f925 src/ATen/native/transformers/xpu/flash_attn/): FA2's checks
# with "mha_fwd on xpu" in front are SDPA's there (attribution.toml's sdpa names; [entry_takes_over]), the arch refusal is
# backend.unsupported-gpu's, and the dtype fix is the XPU's autocast
XPU_CASES = [
    ("RuntimeError: mha_fwd on xpu only support fp16 and bf16 data type", "fa2.dtype"),  # sycltla/mha_fwd.cpp:124
    ("RuntimeError: mha_bwd on xpu only support fp16 and bf16 data type", "fa2.dtype"),  # mha_bwd.cpp:95
    ("RuntimeError: mha_fwd on xpu: query and key must have the same dtype", "attn.qkv-dtype"),  # mha_fwd.cpp:127
    ("RuntimeError: mha_bwd on xpu: dout tensor must have contiguous last dimension", "fa2.last-dim-contiguous"),  # mha_bwd.cpp:138
    ("RuntimeError: XPU device architecture does not support flash attention. Supported architectures are: intel_gpu_pvc, "
     "intel_gpu_pvc_vg, intel_gpu_bmg_g21", "backend.unsupported-gpu"),  # mha_fwd.cpp:114
    ("RuntimeError: XPU device architecture does not support flash attention backward. Supported architectures are: "
     "intel_gpu_pvc", "backend.unsupported-gpu"),  # mha_bwd.cpp:84
]


@pytest.mark.parametrize("text,entry", XPU_CASES, ids=[c[0][:60] for c in XPU_CASES])
def test_xpu_flash_kernels_are_sdpas(text, entry):
    assert first(text) == (entry, "sdpa")


def test_xpu_dtype_fix_is_the_xpus():
    found = match("RuntimeError: mha_fwd on xpu only support fp16 and bf16 data type")
    assert found and "autocast('xpu'" in (found[0].fix or "") and "'cuda'" not in (found[0].fix or ""), found[0].fix


@pytest.mark.parametrize("text", [
    "RuntimeError: FlashAttention only support fp16 and bf16 data type",
    # a report that names SDPA elsewhere: flash-attn's own message stays flash-attn's (the XPU reading is by its line only)
    "- sdpa worked: scaled_dot_product_attention downcasts under autocast\n"
    "- flash-attn crashed with `RuntimeError: FlashAttention only support fp16 and bf16 data type` outside autocast",
])
def test_flash_attns_own_dtype_message_stays_fa2s(text):
    found = match(text)
    assert found and found[0].entry.id == "fa2.dtype" and found[0].backend == "fa2", [(m.entry.id, m.backend) for m in found]
