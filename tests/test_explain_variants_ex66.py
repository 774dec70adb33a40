"""Variants for helper ex66 (session 10): training texts matched with the wrong backend
(benchmarks/results/explain-wrong-backend-s10.md: 34 texts, 4 of them class C: the failure's own words name one backend, a
name met elsewhere on the line or in the text names another and wins).

Every case was written by hand (2026-11-28): other backends, programs and wordings than the fixtures. The variants fail on
main at 11221d8; the near misses say the same words about the failing backend and must keep it.

Mechanisms (knowledge file: rule):
  contrast  attribution/ NOT_WITH, ELLIPTIC_NOT (_contrast_removed in _scrub): the side of a contrast where the failure does
            not happen ("but not with PyTorch SDPA", "SDPA doesn't", "SDPA 不会") names no failing backend, where the rest of the
            line names one; an elliptic negation only answers a failure the line states (FAILURE_STATED), not a question
  fa3-v3    attribution.toml fa3 names: "flash_attention_v3", "flash-attn-v3" (the version as an underscore/hyphen suffix)
  examples  attribution/ PROSE_EXAMPLES (_scrub): examples in running prose ("other backends, like SageAttention, Sparse
            attention etc", "other kernels such as FA3 or xformers") are what else exists, not the failing backend, where the
            rest of the line names one; a list of one backend's own functions still names it
  advice    attribution/ ADVICE (_scrub): a backend offered as the cure in advice ("the easiest solution is to use SDPA",
            "please use xformers instead", "I'd recommend using flash-attn 2.6.3") names no failing backend; advice to stop
            using one ("the solution is not to use sageattention", "the fix is to disable xformers") and a sentence that goes
            on to say the offered backend fails too still name it
  retry     attribution/ SWITCHED_TO (the persisted-error sentence, _persisted_removed): a retry with another backend that
            kept the same error ("Tried using xformers as well, the same result", "I re-ran it using xformers and the error
            stays the same") rules that backend out; a retry with a version of it ("Tried with flash-attn 2.7.4, the same error")
            or one that fails differently ("Tried with FA3 and it crashes") still names it
  torch-fa  attribution/ TORCH_FLASH, FA_PACKAGE (_torch_flash_subject, in attribute): "Flash Attention" with no version,
            where the text shows PyTorch's own flash kernel (can_use_flash_attention, sdp_kernel(enable_flash=...), "Torch was
            not compiled with flash attention", "PyTorch's built-in flash attention") and no FlashAttention package (flash_attn,
            flash-attn, FlashAttention-2, FA3, hopper/), is SDPA's flash kernel
  choices   attribution/ BRACED_CHOICES, LISTED_CHOICES (_scrub): argparse's {a,b,c} choices and a comma list after
            "available/supported/valid (attention) backends:" are the options, not the backend chosen
"""

from __future__ import annotations

import pytest

from attn_doctor.knowledge import attribution
from explain_top import first_cause as _top, ids as _ids


def _named(line: str) -> str | None:
    hit = attribution._named(line)
    return hit[0] if hit else None


# contrast: variants (the failing side wins over the side named as not failing)
@pytest.mark.parametrize("line,backend", [
    ("Black images with SDPA but not with xformers on the same seed", "sdpa"),
    ("illegal memory access with flash_attn_func but not with xformers.ops.memory_efficient_attention", "fa2"),
    ("Garbage output with SDPA, not with flash-attn 2.7.4", "sdpa"),
    ("NaN with FlexAttention; xformers doesn't.", "flex"),
    ("FA3 gives garbage output at seqlen 8192; xformers does not.", "fa3"),
    ("black images with FA3 but not on sageattention 2.1.1", "fa3"),
    ("用 SDPA 会报错，xformers 不会", "sdpa"),
])
def test_contrast_side_that_does_not_fail_names_nothing(line, backend):
    assert _named(line) == backend


# contrast: the same through explain, a title over a body
@pytest.mark.parametrize("text,backend", [
    ("NaN gradients in backward with SDPA ... not with flash-attn though\n\n"
     "loss becomes nan at step 12 with attn_implementation='sdpa' on an A100", "sdpa"),
    ("梯度等于 NaN 的问题\n\n出现 NaN 的梯度，SDPA 不会，用 FlashAttention-3 会\n\nPyTorch: 2.6.0", "fa3"),
])
def test_contrast_through_explain(text, backend):
    assert _top(text)[1] == backend, (_ids(text), _top(text))


# contrast: near misses (the negation is about the named backend itself, or answers a question, not a failure)
@pytest.mark.parametrize("line,backend", [
    ("Does it run on an RTX 5090? FA3 doesn't.", "fa3"),  # no failure stated: "doesn't" may be "doesn't run"
    ("flash-attn does not work with fp32 inputs", "fa2"),  # "not work with": the backend's own failure
    ("SDPA doesn't support this mask, so the call crashes", "sdpa"),  # not elliptic: the negation has its verb
    ("RuntimeError: SageAttention not with this head dim", "sage"),  # nothing else named: the line keeps its only backend
])
def test_contrast_near_misses_keep_the_backend(line, backend):
    assert _named(line) == backend


# fa3-v3: variants
@pytest.mark.parametrize("line", [
    "flash_attention_v3 gives NaN gradients on the NPU port",
    "pip install flash-attn-v3 fails on CUDA 12.3",
    "ImportError in flash_attn_v3 wrapper",
])
def test_fa3_by_underscore_version_suffix(line):
    assert _named(line) == "fa3"


# fa3-v3: near misses (FA2 by its own version, a speed-up)
@pytest.mark.parametrize("line,backend", [
    ("flash_attention_v2 gives NaN gradients", "fa2"),
    ("flash_attn_v3x speed-up claims", None),  # not the version: a word goes on after the 3
])
def test_fa3_suffix_near_misses(line, backend):
    got = _named(line)
    assert got != "fa3" and (backend is None or got == backend), got


# examples: variants (the failing backend beside examples of others wins; main reads the examples' names first)
@pytest.mark.parametrize("line,backend", [
    ("FlexAttention crashes at compile; other backends like SDPA, xFormers etc. run fine", "flex"),
    ("SDPA gives NaN here; is it the same with other backends, like SageAttention, xFormers etc?", "sdpa"),
    ("FlexAttention hangs at compile; would other kernels such as xformers or SageAttention avoid it?", "flex"),
])
def test_examples_in_prose_name_no_failing_backend(line, backend):
    assert _named(line) == backend, attribution._scrub(line)


# examples: the failing backend beside the examples stays
@pytest.mark.parametrize("line,backend", [
    ("SageAttention fails on sm_120 where other kernels such as xformers or FA2 run", "sage"),
])
def test_examples_beside_the_failure(line, backend):
    assert _named(line) == backend


# examples: near misses (one backend's own functions listed; a comparison, no list)
@pytest.mark.parametrize("line,backend", [
    ("NaN from functions like flash_attn_func, flash_attn_varlen_func etc. after the upgrade", "fa2"),
    ("flash-attn crashes like it did in 2.5.8", "fa2"),
])
def test_examples_near_misses(line, backend):
    assert _named(line) == backend


# advice: variants (the cure offered names no failing backend)
@pytest.mark.parametrize("line,backend", [
    ("The easiest solution is to use SDPA for now.", None),
    ("Please use xformers instead.", None),
    ("you could try switching to FlexAttention instead", None),
    ("I'd recommend using flash-attn 2.6.3 with this torch", None),
    ("RuntimeError in flash_attn_func; the workaround would be to use SDPA", "fa2"),
    ("FlexAttention fails to compile; use SDPA instead.", "flex"),
])
def test_advice_names_no_failing_backend(line, backend):
    assert _named(line) == backend, attribution._scrub(line)


# advice: through explain, a catch-all whose only backend is the cure offered is not claimed as that backend's
def test_cure_offered_does_not_claim_a_catch_all():
    text = ("Training crashes with an illegal memory access\n\nRuntimeError: CUDA error: an illegal memory access was encountered"
            "\n\nThe easiest solution is to use SDPA for now.")
    assert _top(text) == (None, None), _ids(text)


# advice: near misses (stop using the backend; a narrative, not advice; the offered backend said to fail too)
@pytest.mark.parametrize("line,backend", [
    ("Easiest solution is not to use sageattention or the compile_args.", "sage"),
    ("The fix is to disable xformers", "xformers"),
    ("I used SDPA instead and it crashes the same", "sdpa"),
    ("Use SageAttention instead: it crashes at import", "sage"),
])
def test_advice_near_misses(line, backend):
    assert _named(line) == backend


# choices: variants (the backend chosen outside the list wins; a list alone names none)
@pytest.mark.parametrize("line,backend", [
    ("RuntimeError: SDPA failed for head_dim 512. Supported attention backends are: xformers, flash_attn", "sdpa"),
    ("usage: infer.py [-h] [--attention {xformers,sage,flash}] [--fp16]", None),
    ("usage: train.py [-h] [--attn_implementation {eager,sdpa,flash_attention_2}] [--seed SEED]", None),
    ("Available backends: FLASH_ATTN, XFORMERS, TORCH_SDPA", None),
])
def test_choices_name_no_failing_backend(line, backend):
    assert _named(line) == backend, attribution._scrub(line)


# choices: near misses (one item; one backend's own functions; not a list of choices)
@pytest.mark.parametrize("line,backend", [
    ("FA3 crashes; supported: FA3 only", "fa3"),
    ("Available: flash_attn", "fa2"),
    ("flash_attn_func failed, available kernels: flash_attn_func, flash_attn_varlen_func", "fa2"),
    ('f"{backend}" flash_attn_func raised', "fa2"),
])
def test_choices_near_misses(line, backend):
    assert _named(line) == backend


# retry: variants (the backend retried with the same error is ruled out; the failing one before it stays)
@pytest.mark.parametrize("line,backend", [
    ("Black images in the sampler with SDPA. Tried using xformers as well, the same result.", "sdpa"),
    ("illegal memory access in FlexAttention. I re-ran it using xformers and the error stays the same.", "flex"),
])
def test_retry_with_same_error_rules_out(line, backend):
    assert _named(line) == backend, attribution._scrub(line)


def test_retry_alone_does_not_claim_a_catch_all():
    text = ("RuntimeError: CUDA error: an illegal memory access was encountered\n\n"
            "Happens in the sampler. I retried with xformers and the error is the same.")
    assert _top(text) == (None, None), _ids(text)


# retry: near misses (a version of the backend; a retry that fails in its own way)
@pytest.mark.parametrize("line,backend", [
    ("Tried with flash-attn 2.7.4, the same error", "fa2"),
    ("Tried with FA3 and it crashes", "fa3"),
])
def test_retry_near_misses(line, backend):
    assert _named(line) == backend


# torch-fa: variants (a shared "Flash Attention" over PyTorch's own flash kernel is SDPA's)
@pytest.mark.parametrize("text", [
    "Flash Attention not working on my T4\n\ntorch.backends.cuda.can_use_flash_attention(params, debug=True) returns False\n\n"
    "flash attention only works on newer GPUs?",
    "PyTorch's built-in flash attention gives NaN\n\nwith torch.backends.cuda.sdp_kernel(enable_flash=True, enable_math=False):"
    " out = model(x)\nloss is nan after the first step",
])
def test_shared_flash_name_over_torch_flash_kernel_is_sdpa(text):
    assert _top(text)[1] == "sdpa", (_ids(text), _top(text))


# torch-fa: near misses (a FlashAttention package in the text; no torch flash kernel shown)
@pytest.mark.parametrize("text", [
    "Flash Attention not working on my T4\n\npip install flash-attn --no-build-isolation\n"
    "torch.backends.cuda.can_use_flash_attention(params) returns False",
    "Flash attention gives NaN\n\nfrom flash_attn import flash_attn_func\nUserWarning: 1Torch was not compiled with flash attention.",
    "Flash attention gives NaN after 200 steps\n\nloss: nan",
])
def test_shared_flash_name_with_a_package_stays_flash_attention(text):
    assert _top(text)[1] == "fa2", (_ids(text), _top(text))


# advice and choices: near misses inside a backend's own message (advice naming no backend; a list of versions, not backends)
@pytest.mark.parametrize("line,backend", [
    ("return_lse is deprecated and will be removed in v2.10. Please use return_aux=AuxRequest(lse=True) instead.", "flex"),
    ("AssertionError: Unsupported compute capability. Supported: 9.x, 10.x, 11.x", "cute"),
])
def test_a_message_keeps_its_own_advice_and_lists(line, backend):
    assert _top(line)[1] == backend, (_ids(line), _top(line))
