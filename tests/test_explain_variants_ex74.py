"""Variants for round 74 (session 11, helper ex74): the mechanisms fixtures/errors/round74/ (FA4 / CuTe DSL,
SageAttention and Blackwell failures of any backend, 2025-26) missed on main's rules (before:
benchmarks/results/explain-round74-main.json).

Every case was written by hand for this round (2026-11-29) from the mechanism, NOT copied from a real thread:
another GPU, version, path, symbol or wording. Each positive case asserts the entry (one of a few acceptable ids
where two say the same) and the backend of the first problem that can be a failure's cause (None: no backend of
the seven); the near misses beside each mechanism assert what must NOT be claimed.

Mechanisms (knowledge file: entry or rule):
  fa4-gate    cute.toml cute.feature-arch: a feature FA4 gates by GPU generation (backward below sm90, pack_gqa,
              paged KV) told in words, a fix that turns it off for an SM generation of FA4, FA4 picked on SM8x
              dying in the CuTe op builder
  dsl-pin     cute.toml cute.dsl-drift: FA4's nvidia-cutlass-dsl requirement written in code spans; FA4 said not
              to be installable beside a package that pins the DSL
  dsl-words   cute.toml cute.dsl-error: the CuTe DSL's JIT compiler said in words not to handle a construct
  sage-disp   sage.toml sage.arch-kernel: sageattn's per-arch dispatch (core.py) said to have no branch for the arch
  fa3-hopper  backends.toml backend.unsupported-gpu: FA3 said Hopper-only, or said not to work on a Blackwell
  old-torch   platform.toml gpu.arch-not-in-torch: a torch build said not to support the GPU's architecture (a
              Blackwell card named beside a cu124/cu126 torch was tried and left: it claimed round 10's unrelated
              unslothai/unsloth#2431)
  srv-triton  triton.toml triton.out-of-resources: a kernel's config said to fail with OutOfResources (a serving
              engine's own Triton attention kernel named some lines before the OutOfResources was tried and left: the
              entry's patterns stay on one line, tests/test_explain_variants_7a.py)
  sgl-fa3     attribution.toml: sgl-kernel's flash_attn named in words is FA3; SGLang's Triton attention modules are
              no backend of the seven
  hang-guard  attention.toml attn.kernel-hang: a test table's passing "hang guard" row is no hang
"""

from __future__ import annotations

import pytest

from explain_top import first_cause as _top, ids as _ids


@pytest.mark.parametrize("text,ids,backend", [
    # fa4-gate
    ("We keep FA2 for training on the A10G fleet: flash_attn.cute's backward asserts sm90+ there",
     {"cute.feature-arch"}, "cute"),
    ("FA4 works for inference on our L40S, but its paged KV path fails below SM90, so decode stays on FA3",
     {"cute.feature-arch"}, "cute"),
    ("Disable pack_gqa for SM86 FA4", {"cute.feature-arch"}, "cute"),
    ("fix: skip the backward on sm89 flash-attn-4 runs", {"cute.feature-arch"}, "cute"),
    ("Hardware: 2x L4 (SM89)\nNo FA2 in the image, so the selector takes flash_attn.cute\n"
     "the first prefill then aborts with: Operation creation failed", {"cute.feature-arch"}, "cute"),
    # dsl-pin
    ("`flash-attn-4` requires `nvidia-cutlass-dsl>=4.7.1`, our constraints file still says 4.6.2",
     {"cute.dsl-drift"}, "cute"),
    ("vendored-attn cannot be co-installed with FA4 because quack-kernels pins the CUTLASS DSL exactly",
     {"cute.dsl-drift"}, "cute"),
    # dsl-words
    ("The CuTe DSL compiler can't handle a Python list comprehension inside FA4's score_mod", {"cute.dsl-error"},
     "cute"),
    # sage-disp
    ("sm100 is not handled in sageattention/core.py, so on our B200 pods every sageattn call raises",
     {"sage.arch-kernel"}, "sage"),
    ("sageattention.core has no case for sm103 (GB300); the build itself finished fine", {"sage.arch-kernel"},
     "sage"),
    # fa3-hopper
    ("flash-attention-3 kernels are Hopper-only, so the RTX 5080 box falls back to eager", {"backend.unsupported-gpu"},
     "fa3"),
    ("FA3 through the kernels hub doesn't run on GB200 (sm_100a)", {"backend.unsupported-gpu"}, "fa3"),
    # old-torch
    ("The torch build shipped with this launcher does not support your GPU's architecture (RTX 5060 Ti)",
     {"gpu.arch-not-in-torch"}, None),
    # srv-triton
    ("With head_dim 512 the forward config dies with OutOfResources on the 5090", {"triton.out-of-resources"}, None),
    # sgl-fa3
    ("NotImplementedError: flash_attn from sgl-kernel is only supported on sm90 and above",
     {"backend.unsupported-gpu"}, "fa3"),
])
def test_mechanism(text, ids, backend):
    got = _top(text)
    assert got[0] in ids and got[1] == backend, got


@pytest.mark.parametrize("text,absent", [
    # fa4-gate: FA4's backward working on Hopper, a feature that passes, a generation named with no gate
    ("flash_attn.cute's backward runs fine on sm90 and sm100 in our CI", "cute.feature-arch"),
    ("Enable pack_gqa for SM100 FA4 (it is faster there)", "cute.feature-arch"),
    ("FA4 on an H100 (SM90): the forward works; Operation creation failed is gone since b20", "cute.feature-arch"),
    # dsl-pin: a requirement that is some other package's, a co-install that works
    ("`vllm` requires `torch==2.9.0`", "cute.dsl-drift"),
    ("mylib can be co-installed with flash-attn-4 since both moved to nvidia-cutlass-dsl 4.7", "cute.dsl-drift"),
    # dsl-words: another compiler's limits
    ("the Triton compiler can't handle a 3-D block pointer here", "cute.dsl-error"),
    # sage-disp: an arch that core.py does handle, a core.py that is not SageAttention's
    ("sm90 is handled in sageattention/core.py through the fp8 kernel", "sage.arch-kernel"),
    ("sm120 is not handled in mmcv/core.py either", "sage.arch-kernel"),
    # fa3-hopper: FA3 working on Hopper, FA2 said to work on Blackwell
    ("FA3 kernels are Hopper-tuned and run fine on our H200s", "backend.unsupported-gpu"),
    ("flash-attn 2 works on the RTX 5090 since 2.7.4", "backend.unsupported-gpu"),
    # old-torch: a torch that supports the arch
    ("torch 2.8 does support this architecture; the crash is in my own kernel", "gpu.arch-not-in-torch"),
    # srv-triton: FlexAttention's own kernel stays flex.shared-memory's; a server's kernel that fit
    ("torch._inductor.exc.InductorError: RuntimeError: No valid triton configs. OutOfMemoryError: out of resource: "
     "triton_tem_fused_flex_attention_0 Required: 139776 Hardware limit: 101376", "triton.out-of-resources"),
    ("extend_attention ran fine after the block-size change, no OutOfResources any more", "triton.out-of-resources"),
    # hang-guard: a test suite's hang guard that passed
    ("| `test_flash_attn_varlen_bwd.py` (hang guard) | 24/24, no hang |", "attn.kernel-hang"),
])
def test_near_miss(text, absent):
    assert absent not in _ids(text)


def test_flex_oor_stays_flex():
    # srv-triton: a bare OutOfResources with FlexAttention's kernel named is still FlexAttention's
    text = ("  File \"/venv/lib/python3.12/site-packages/torch/nn/attention/flex_attention.py\", line 1320, in flex_attention\n"
            "triton.runtime.errors.OutOfResources: out of resource: shared memory, Required: 131072, Hardware limit: 101376. "
            "Reducing block sizes or `num_stages` may help.")
    assert _top(text) == ("flex.shared-memory", "flex")


def test_capability_refusal_needs_an_attention_library():
    # sgl-fa3: the minimum-capability refusal is an attention backend's only when one is named on its line
    assert "backend.unsupported-gpu" not in _ids("RuntimeError: FP8 GEMM is only supported on sm89 and above")
    assert _top("RuntimeError: SageAttention is only supported on sm80 or higher") == ("backend.unsupported-gpu", "sage")
