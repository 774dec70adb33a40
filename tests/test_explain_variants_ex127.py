"""Variants for helper ex127 (session 21): the finding is right, its backend or the variant of its cause is wrong
(attribution leftovers of ex119, ex121 and ex125). Every case was written by hand (2026-11-30): other programs, models and
wordings than the fixtures; each `fixed` case fails without its change (checked on s21start, fc4a881b), each near miss passes on both.

Mechanisms:
  fallback-when  attribution/sentences.py FALLBACK_TO: "fall back <object> to X when using Y" blanks only "X" (what ran
                 instead), with the verb's object between ("fallback vision tower to X") and the condition kept: Y, the
                 backend selected, is the report's (round 113m: verl-project/verl#4670)
  wheel-arch     attribution.toml [[specialize]] with `near` (attribution/evidence.py specialized()): "no kernel image" under
                 FlashAttention 2 or 3 where the text says the backend's own wheel, extension or build carries only other
                 architectures is the backend's entry (backend.unsupported-gpu), not torch's arch list (round 118m:
                 vllm-project/vllm-omni#5617); said of torch's wheel, or not said, or of another backend, it stays
  triton-import  the same `near` on flex.no-triton for xformers: a traceback whose code line is `import triton` itself is
                 xformers needing Triton to import (import.dep-missing), not its optional-Triton notice (round 106:
                 vladmandic/sdnext#2887)
  same-major     platform.toml gpu.arch-not-in-torch: torch's capability warning for a GPU whose major is the built maximum's
                 (GB10, 12.1 under (8.0) - (12.0)) is a false positive (the GPU runs its major's code): not torch's missing
                 arch, so the backend's own failure after it comes first (round 16: unslothai/unsloth#3898, round 63m:
                 GeeeekExplorer/nano-vllm#130); another major (Thor 11.0 under 10.0, an RTX 5090 under 9.0) or the range
                 line alone stays torch's, and so does a GPU torch's own list excepts from its major (8.7, 10.1)
"""

from __future__ import annotations

import pytest

from explain_top import first


@pytest.mark.parametrize("text, want", [
    # fallback-when, fixed: the verb's object stands between "fallback" and "to", the condition names what was selected
    ("# Fallback decoder layers to SDPA if FA3 is selected\n\nFA3 is slower than SDPA on the decoder here, so the trainer "
     "keeps SDPA there.", ("prose.ignored", "fa3")),
    ("Patch: fallback cross attention to xformers for SDXL when using flash_attention_2, which produces black images",
     ("attn.wrong-output", "fa2")),
    ("It falls back to SDPA when flash_attention_2 is requested for the vision encoder, so training is slow",
     ("prose.ignored", "fa2")),
    # ... near misses: a switch back to a backend that works leaves the failing one (unchanged); the object alone, no condition
    ("black images with --use-sage-attention, but when I switch back to xformers it works fine", ("attn.wrong-output", "sage")),
    ("black images with sage attention; switching the unet back to xformers works fine", ("attn.wrong-output", "sage")),
    ("[model] fix: fall back the text encoder to sdpa when using sageattention", ("prose.ignored", "sage")),
])
def test_fallback_names_the_backend_selected_not_the_one_it_falls_back_to(text, want):
    assert first(text) == want


FA2_FRAME = '  File "/opt/app/.venv/lib/python3.12/site-packages/flash_attn/flash_attn_interface.py", line 91, in _flash_attn_forward\n'
NO_IMAGE = "RuntimeError: CUDA error: no kernel image is available for execution on the device"


@pytest.mark.parametrize("text, want", [
    # wheel-arch, fixed: the backend's own build said to carry other architectures only
    ("We pin flash-attn 2.7.4 from a prebuilt wheel. The wheel ships only sm80 and sm90 kernels, so on the RTX 5090 the first "
     "call fails:\n" + FA2_FRAME + NO_IMAGE, ("backend.unsupported-gpu", "fa2")),
    ("B200 crash with hopper build\n\nOur flash_attn_3 extension was compiled without Blackwell cubins. FA3 is picked because "
     "the import works, then:\n" + NO_IMAGE, ("backend.unsupported-gpu", "fa3")),
    # ... near misses: said of torch's wheel, not said at all, or of SageAttention (no row): torch's arch list stays
    ("We pin flash-attn 2.7.4 from a prebuilt wheel. The torch wheel ships only sm_50 to sm_90 kernels, so on the RTX 5090 the "
     "first call fails:\n" + FA2_FRAME + NO_IMAGE, ("gpu.arch-not-in-torch", "fa2")),
    ("We pin flash-attn 2.7.4 from a prebuilt wheel. On the RTX 5090 the first call fails:\n" + FA2_FRAME + NO_IMAGE,
     ("gpu.arch-not-in-torch", "fa2")),
    ("Our sageattention wheel ships only sm80 and sm90 kernels, so on the RTX 5090 the first call fails:\n"
     '  File "/opt/app/.venv/lib/python3.12/site-packages/sageattention/core.py", line 91, in sageattn\n' + NO_IMAGE,
     ("gpu.arch-not-in-torch", "sage")),
])
def test_no_kernel_image_where_the_backends_own_build_lacks_the_arch(text, want):
    assert first(text) == want


@pytest.mark.parametrize("text, want", [
    # triton-import, fixed: the import statement itself raised inside xformers
    ("Traceback (most recent call last):\n"
     '  File "/home/u/ComfyUI/venv/lib/python3.11/site-packages/xformers/ops/fmha/__init__.py", line 10, in <module>\n'
     "    from . import attn_bias, cutlass, decoder, flash, small_k, triton_splitk\n"
     '  File "/home/u/ComfyUI/venv/lib/python3.11/site-packages/xformers/ops/fmha/triton_splitk.py", line 12, in <module>\n'
     "    import triton\nModuleNotFoundError: No module named 'triton'", ("import.dep-missing", "xformers")),
    ("Traceback (most recent call last):\n"
     '  File "C:\\ai\\venv\\Lib\\site-packages\\xformers\\ops\\fmha\\_triton\\splitk_kernels.py", line 9, in <module>\n'
     "    from triton.language import tensor as tl_tensor\nModuleNotFoundError: No module named 'triton'",
     ("import.dep-missing", "xformers")),
    # ... near miss: no import statement shown, xformers' optional-Triton reading stays
    ("Installed xformers on Windows: No module named 'triton'", ("flex.no-triton", "xformers")),
])
def test_xformers_import_statement_needing_triton(text, want):
    assert first(text) == want


WARN = "/opt/venv/lib/python3.12/site-packages/torch/cuda/__init__.py:283: UserWarning: \n"
BROKEN = "\n\nUnsloth: Your Flash Attention 2 installation seems to be broken?"


def capability(gpu: str, cap: str, low: str, high: str) -> str:
    return (f"    Found GPU0 NVIDIA {gpu} which is of cuda capability {cap}.\n"
            f"    Minimum and Maximum cuda capability supported by this version of PyTorch is\n    ({low}) - ({high})")


@pytest.mark.parametrize("text, want", [
    # same-major, fixed: a GPU of the maximum's major with a higher minor runs the build's code
    ("DGX Spark warning\n\n" + WARN + capability("GB10", "12.1", "8.0", "12.0") + BROKEN, ("fa2.wrapper-says-broken", "fa2")),
    ("Found GPU0 NVIDIA GB10 which is of cuda capability 12.1. Minimum and Maximum cuda capability supported by this version of "
     "PyTorch is (8.0) - (12.0)", (None, None)),
    ("Ada warning\n\n" + WARN + capability("GeForce RTX 4090", "8.9", "5.0", "8.6") + BROKEN, ("fa2.wrapper-says-broken", "fa2")),
    # ... near misses: another major than the maximum's, a GPU torch's own list excepts (Orin 8.7), or the range line without
    # the GPU's line, stay torch's
    ("Jetson warning\n\n" + WARN + capability("Orin", "8.7", "5.0", "8.6") + BROKEN, ("gpu.arch-not-in-torch", None)),
    (capability("Thor", "11.0", "7.5", "10.0"), ("gpu.arch-not-in-torch", None)),
    ("RTX 5090 warning\n\n" + WARN + capability("GeForce RTX 5090", "12.0", "5.0", "9.0") + BROKEN, ("gpu.arch-not-in-torch", None)),
    ("    Minimum and Maximum cuda capability supported by this version of PyTorch is\n    (8.0) - (12.0)",
     ("gpu.arch-not-in-torch", None)),
])
def test_capability_warning_within_the_maximums_major_is_not_a_missing_arch(text, want):
    assert first(text) == want
