"""Variants for helper ex125 (session 21): causes the knowledge had no entry for (benchmarks/results/explain-new-causes-s21.md).
Every case was written by hand (2026-11-30): other programs, GPUs, versions and wordings than the fixtures; each `fixed` case
fails on main at fc4a881b (the session start, /work/wt/s21start; checked), each near miss passes on both.

Mechanisms:
  zero-length  knowledge/flash_attn.toml varlen.zero-length-sequence: a sequence of length 0 in a varlen batch (repeated
               cu_seqlens offsets, fewer tokens than sequences), which some varlen kernels do not handle
               (Dao-AILab/flash-attention#1619, #2562)
  bf16-ptx     knowledge/triton.toml triton.ptx-feature-arch: ptxas' "'.bf16' requires .target sm_80 or higher" retold without
               its "Feature" word (deepbeepmeep/Wan2GP#104)
"""

from __future__ import annotations

import pytest

from explain_top import first


@pytest.mark.parametrize("text, want", [
    # zero-length, fixed
    ("flash_attn_varlen_qkvpacked_func returns NaN when the packed batch holds empty sequences", "varlen.zero-length-sequence"),
    ("[Bug] FA3 varlen backward: illegal memory access with length-0 documents", "varlen.zero-length-sequence"),
    ("    cu_seqlens_k = torch.tensor([0, 0, 512, 1024], dtype=torch.int32, device='cuda')\n"
     "RuntimeError: CUDA error: an illegal memory access was encountered", "varlen.zero-length-sequence"),
    ("flash_attn.cute varlen: total sequence length less than batch size raises an error", "varlen.zero-length-sequence"),
    # bf16-ptx, fixed
    ("sageattn on a Tesla T4: '.bf16' requires .target sm_80 or higher", "triton.ptx-feature-arch"),
    ("error: '.bf16x2' requires .target sm_90 or higher when compiling the flex_attention kernel on a V100",
     "triton.ptx-feature-arch"),
])
def test_new_causes_are_named(text, want):
    assert first(text)[0] == want


@pytest.mark.parametrize("text", [
    # zero-length near misses: empty / zero-length words away from any varlen call, and cu_seqlens that start with a real sequence
    "the data loader skips zero-length sequences before batching; flash_attention_2 then fails with a dtype error",
    "cu_seqlens_q = torch.tensor([0, 7, 19, 31], dtype=torch.int32)",
    "varlen attention: non-empty sequences only, as documented",
    # ... and a hang on empty sequences is not claimed (attn.kernel-hang names that symptom and its fix: where the kernel is stuck)
    "FA3 flash_attn_varlen_func backward is stuck at 100% GPU when cu_seqlens holds empty sequences",
    # bf16-ptx near miss: a requirement said in prose, no ptxas message
    "bf16 requires compute capability 8.0 or higher, so we run fp16 on the T4",
])
def test_near_misses_stay_off(text):
    assert first(text)[0] not in ("varlen.zero-length-sequence", "triton.ptx-feature-arch")
