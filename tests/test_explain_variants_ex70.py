"""Variants for helper ex70 (session 10): mechanisms from the misses and the claimed unrelated logs of round 63m
(fixtures/errors/round63m/, session 10's measure-only set, training material since its final measurement; its README's
"Read after its final measurement" section says which text each comes from).

Every case was written by hand (2026-11-29): other paths, versions, wrappers and wordings than the fixtures; each positive case
asserts the entry (and backend where the entry has one) of the first problem that can be a failure's cause; the near misses
assert what must NOT be claimed.

Mechanisms (knowledge file: entry):
  cuda-too-old-words   builds.toml build.cuda-too-old (widened): a backend that "can only be installed on CUDA 11.6 and above",
                       or its install that "reports error with higher cuda version demand"
  xformers-wheel-arch  xformers.toml xformers.kernel-arch-mismatch (widened): the xformers wheels ship kernels only up to an
                       older sm than the GPU, or do not support a GPU generation, said in words
  fa3-check-false      flash_attn.toml fa3.import-name (widened): transformers' is_flash_attn_3_available() False while FA3 is
                       built from hopper/ (the name the check looks for)
  fully-masked-words   attention.toml attn.fully-masked-rows (widened): a row said fully masked in a sentence of its own, NaN named
                       elsewhere in the report
  unpack-words         attention.toml attn.unpack-mismatch (widened): a flash-attn helper said to return one more value than the
                       caller unpacks
  mps-materialise      sdpa.toml sdpa.mps-large-attention (widened): MPS said to materialise the whole score matrix
  dsl-written-for      cute.toml cute.dsl-drift (widened): an FA4 commit written for an older CUTLASS DSL that crashes
  forward-nan          sdpa.toml sdpa.backward-nan (narrowed): "results in NaN output" is a forward NaN, no backward
  unrelated            prose.toml ADDSUPPORT (prose.gpu's and prose.fails' line reading refuse a line that opens with adding
                       support: a change's summary or a request), FALLBACKROLE (prose.ignored refuses "SDPA (fallback)" in a
                       priority list and "success/fallback" as two outcomes to report)
"""

from __future__ import annotations

import pytest

from explain_top import first_cause as _top, ids as _ids


# cuda-too-old-words
@pytest.mark.parametrize("text", [
    "I noticed flash-attn can only be installed on 11.6 and above, but the README says CUDA 11.3.",
    "FlashAttention can only be built with CUDA 11.7 or higher according to the docs",
    "When I run pip install flash_attn on cuda 11.2 it reports error with higher cuda version demand",
    "xformers fails to build here: newer CUDA version required, my toolkit is 11.1",
])
def test_cuda_too_old_in_words(text):
    assert _top(text)[0] == "build.cuda-too-old"


@pytest.mark.parametrize("text", [
    "flash-attn installs fine with CUDA 12.1 and runs on my A100.",
    "The model can only be run on GPUs with 24 GB and above.",
    "You need a higher CUDA version for torch 2.5, flash-attn itself is fine.",
])
def test_cuda_too_old_near_misses(text):
    assert "build.cuda-too-old" not in _ids(text)


# xformers-wheel-arch
@pytest.mark.parametrize("text", [
    "xformers on RTX 5080\n\nThe official xformers wheels only include kernels up to sm_90, so nothing runs on sm_120.",
    "It seems the xformers wheel for cu126 only covers up to sm_89; my 5090 is sm_120.",
    "xformers wheels don't support the 50 series",
    "The xformers prebuilt wheel does not support RTX 5090 cards.",
])
def test_xformers_wheel_lacks_the_arch(text):
    assert _top(text) == ("xformers.kernel-arch-mismatch", "xformers")


@pytest.mark.parametrize("text", [
    "The xformers wheel supports sm_120 since 0.0.30, works on my 5090.",
    "the flash-attn wheels only ship kernels up to sm_90",
])
def test_xformers_wheel_near_misses(text):
    assert "xformers.kernel-arch-mismatch" not in _ids(text)


# fa3-check-false
@pytest.mark.parametrize("text", [
    "attn_implementation='flash_attention_3' fails: is_flash_attn_3_available() returns False although FA3 is built from hopper",
    "`is_flash_attn_3_available()` is `False` after installing the hopper wheel, so transformers refuses flash_attention_3",
])
def test_fa3_check_false(text):
    assert _top(text) == ("fa3.import-name", "fa3")


def test_fa3_check_true_is_not_claimed():
    assert "fa3.import-name" not in _ids("is_flash_attn_3_available() returns True on the H100 now, thanks")


# fully-masked-words
@pytest.mark.parametrize("text", [
    "SDPA backward gives NaN gradients with my boolean mask\n\nTurns out some query rows are fully masked out in the packed batch.",
    "Some rows were completely masked by the padding mask, that is why scaled_dot_product_attention gave NaN.",
])
def test_fully_masked_rows_in_words(text):
    assert "attn.fully-masked-rows" in _ids(text)


@pytest.mark.parametrize("text", [
    "SDPA with a boolean mask: padded rows are fully masked and the output there is zero on torch 2.5, as documented.",
    "The loss is NaN with scaled_dot_product_attention; the mask is fine, no row is fully masked.",
])
def test_fully_masked_rows_near_misses(text):
    assert "attn.fully-masked-rows" not in _ids(text)


# unpack-words
@pytest.mark.parametrize("text", [
    "Since flash-attn 2.7.0, unpad_input returns 5 values instead of 4, so the remote model code breaks.",
    "flash_attn.bert_padding.unpad_input returns five outputs, and the model assigns its result to four variables.",
    "see flash_attn/bert_padding.py: it generates 5 variables, not 4",
])
def test_unpack_mismatch_in_words(text):
    assert _top(text)[0] == "attn.unpack-mismatch"


@pytest.mark.parametrize("text", [
    "unpad_input returns four values in 2.6.3 and our code takes four.",
    "The tokenizer returns five outputs; assign them to five variables.",
])
def test_unpack_mismatch_near_misses(text):
    assert "attn.unpack-mismatch" not in _ids(text)


# mps-materialise
@pytest.mark.parametrize("text", [
    "On Apple Silicon, MPS materializes the entire attention matrix for scaled_dot_product_attention and exceeds the buffer cap.",
    "Metal materialises the full QK matrix in bf16 with sdpa, so 1024x1024 images crash on my M3 Max.",
])
def test_mps_materialises_scores(text):
    assert _top(text)[0] == "sdpa.mps-large-attention"


def test_mps_without_the_matrix_is_not_claimed():
    text = "MPS is slower than CUDA for scaled_dot_product_attention; it does not materialize anything large here."
    assert "sdpa.mps-large-attention" not in _ids(text)


# dsl-written-for
@pytest.mark.parametrize("text", [
    "Bump flash-attn-cute\n\nThe pinned FA4 commit was written for nvidia-cutlass-dsl <4.3 and fails at import with 4.3.1.",
    "flash_attn.cute from January was built for cutlass-dsl 4.2.0 and crashes in the backward with the 4.4 DSL",
])
def test_fa4_written_for_older_dsl(text):
    assert _top(text) == ("cute.dsl-drift", "cute")


def test_dsl_pin_that_works_is_not_drift():
    text = "flash-attn-cute was written for nvidia-cutlass-dsl 4.4.1 and runs fine with it on B200."
    assert "cute.dsl-drift" not in _ids(text)


# forward-nan (sdpa.backward-nan narrowed)
@pytest.mark.parametrize("text", [
    "NaN values in the keys passed to torch.nn.functional.scaled_dot_product_attention result in NaN output even when masked.",
    "SDPA leads to NaN outputs when the value tensor has NaN at padded positions",
])
def test_forward_nan_is_not_a_backward_nan(text):
    assert "sdpa.backward-nan" not in _ids(text)


@pytest.mark.parametrize("text", [
    "attn_implementation as sdpa leads to NaN after a few steps",
    "With SDPA the training results in NaN gradients from step 2",
])
def test_backward_nan_still_read(text):
    assert "sdpa.backward-nan" in _ids(text)


# unrelated: ADDSUPPORT, FALLBACKROLE
@pytest.mark.parametrize("text", [
    "Adds support for flash attention 4, and switches the default back to fa2 while we debug learning issues.",
    "- Adds FlashAttention-3 support for Hopper GPUs (SM 9.0), detected via flash_attn_interface",
    "Add xformers support for the RTX 50 series",
    "Detection order: FA3 (Hopper) > FA2 (default) > SDPA (fallback)",
    "The installer should print success/fallback clearly when it picks the SageAttention 1.0.6 wheel.",
])
def test_added_support_and_fallback_roles_are_not_failures(text):
    found = _ids(text)
    assert not {"prose.gpu", "prose.fails", "prose.ignored"} & set(found), found


@pytest.mark.parametrize("text, entry", [
    ("flash attention not compatible with my MI300X, added to the ticket", "prose.gpu"),
    ("After adding the LoRA patch, flash attention has troubles with long prompts", "prose.fails"),
    # (since ex203, session 42, SageAttention's own fallback entry reads a sage option that falls back to SDPA, in words:
    # the more specific reading of the same complaint)
    ("--use-sage-attention has no effect, it falls back to SDPA", "sage.runtime-fallback"),
    ("SageAttention install: the fallback wheel was used instead of 2.2 and it is slower", "prose.ignored"),
])
def test_prose_still_read(text, entry):
    assert entry in _ids(text)
