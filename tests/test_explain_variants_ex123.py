"""Variants for helper ex123 (session 21): the right cause as a class over every training round
(benchmarks/results/explain-right-cause-s21.md). Every case was written by hand (2026-11-30): other programs, GPUs and wordings
than the fixtures; each `fixed` case fails on main at fc4a881b (checked), each near miss passes on both.

Mechanisms:
  why-note   knowledge/match.py _rank: a note that a found entry is `explained_by` (prose.build by build.prebuilt-wheel-missing;
             prose.ignored and prose.slow by sdpa.built-without-flash) ranks as the root cause where nothing found is a cause,
             before the title's last resort it explains; a note no found entry names (a deprecation) stays last, and a real cause
             (a compiler error) stays first
  cute-arch  attribution.toml [[specialize]]: backend.unsupported-gpu said of FA4 is FA4's own cute.arch (the backend's
             architecture list), as xformers' rows are; another backend keeps the neutral entry
"""

from __future__ import annotations

import pytest

from explain_top import first, ids

# lines between a report's title and its body, so that the note stands further than NEAR lines from the title (as in the
# reports: an environment listing between them)
PAD = "\n\n" + "\n".join(f"- step {i}: ran the same workflow with seed 1234" for i in range(12)) + "\n\n"
NO_FLASH = "On this Windows build of torch, `torch.backends.cuda.is_flash_attention_available()` returns False."
NO_ARM_WHEEL = "There are no arm64 wheels for flash-attn, so pip tries to build it on the GH200 node"
DEPRECATED = ("C:\\app\\attention.py:12: FutureWarning: `torch.backends.cuda.sdp_kernel()` is deprecated. In the future, this "
              "context manager will be removed. Please see `torch.nn.attention.sdpa_kernel()` for the new context manager, with "
              "updated signature.")
NVCC_ARCH = "      nvcc fatal   : Unsupported gpu architecture 'compute_120'"


@pytest.mark.parametrize("text, want", [
    # why-note, fixed: the note a title's last resort is explained by comes first
    # (ex35p, session 35: these titles said "slow on Windows"; SDPA said slow on Windows is now sdpa.built-without-flash on the
    # title itself, tests/test_explain_variants_ex35p.py: the titles say another setting, so the note's ranking is still what is tested)
    ("Optimize Flux SDPA fallback performance on Windows" + PAD + NO_FLASH, ["sdpa.built-without-flash", "prose.ignored"]),
    ("Wan 2.2 SDPA fallback is slow at 720p" + PAD + NO_FLASH, ["sdpa.built-without-flash", "prose.ignored"]),
    ("HunyuanVideo SDPA is very slow at 720p" + PAD + NO_FLASH, ["sdpa.built-without-flash", "prose.slow"]),
    ("Cannot install flash-attn on GH200" + PAD + NO_ARM_WHEEL, ["build.prebuilt-wheel-missing", "prose.build"]),
    ("flash-attn installation fails on the GH200 node" + PAD + NO_ARM_WHEEL, ["build.prebuilt-wheel-missing", "prose.build"]),
    # ... near misses: a note nothing found names stays last (the title's last resort first)
    ("Optimize Flux SDPA fallback performance on Windows" + PAD + DEPRECATED, ["prose.ignored", "sdpa.sdp-kernel-deprecated"]),
    ("HunyuanVideo SDPA is very slow at 720p" + PAD + DEPRECATED, ["prose.slow", "sdpa.sdp-kernel-deprecated"]),
    # ... and a real cause found keeps the note after it (the note says why a build ran, the compiler error why it failed)
    ("Cannot install flash-attn on GH200" + PAD + NO_ARM_WHEEL + "\n" + NVCC_ARCH,
     ["build.nvcc-arch", "prose.build", "build.prebuilt-wheel-missing"]),
    ("flash-attn build fails on GH200" + PAD + NO_ARM_WHEEL + "\n" + NVCC_ARCH,
     ["build.nvcc-arch", "build.compile-failed", "build.prebuilt-wheel-missing"]),
])
def test_note_a_found_entry_is_explained_by_ranks_as_its_cause(text, want):
    assert ids(text) == want


@pytest.mark.parametrize("text, want", [
    # cute-arch, fixed: a GPU FA4 does not support, in words, is FA4's own entry
    ("# FA4 skipped on B300\n\nWe skip FA4 on GB300 (sm_103) because flash-attn cute does not support that GPU yet.", ("cute.arch", "cute")),
    ("sglang disables FlashAttention 4 on RTX 5090: the GPU is not supported by FA4 (sm_120)", ("cute.arch", "cute")),
    # ... near misses: the same words of another backend keep the backend-neutral entry
    ("sglang disables FlashAttention 3 on RTX 5090: the GPU is not supported by FA3 (sm_120)", ("backend.unsupported-gpu", "fa3")),
])
def test_unsupported_gpu_said_of_fa4_is_cute_arch(text, want):
    assert first(text) == want
