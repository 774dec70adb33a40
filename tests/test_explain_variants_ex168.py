"""Variants for helper ex168 (session 29): the wrong-backend pair that recurs at blind rounds' first measurement
(benchmarks/results/explain-recurring-s29.md: "sdpa -> fa2" in seven rounds): an unversioned "flash attention" read as the
flash-attn package where the text makes it PyTorch's own flash kernel.

Written by hand (2026-12-01): other programs, models and wordings than the fixtures. The variants fail on main at 275a3ccf;
the near misses say the same words with the package named or SDPA set against flash attention, and keep their backend.

Mechanisms (attribution/decide.py TORCH_FLASH, read by _torch_flash_subject):
  builtin  torch's attention function called built-in / inbuilt / native ("the inbuilt function scaled_dot_product_attention",
           "PyTorch's native SDPA op"), not set against something else ("instead of the built-in SDPA", "faster than ...")
  attend   lucidrains' Attend module (x-transformers and its many copies): its `flash` switch calls
           F.scaled_dot_product_attention; x-transformers' `attn_flash` option, its assert "in order to use flash attention, you
           must be using pytorch 2.0 or above", and x_transformers/attend.py are SDPA's flash kernel
"""

from __future__ import annotations

import pytest

from attn_doctor.knowledge.attribution import TORCH_FLASH
from explain_top import first_cause as _top


@pytest.mark.parametrize("text", [
    # builtin: the writer or a maintainer says the flash attention problem is torch's own function
    "Flash attention warning on startup\n\nI get a flash attention warning every time I run the demo on my RTX 3060 laptop.\n\n"
    "That means flash attention can't be used: the built-in function `scaled_dot_product_attention` falls back on Windows.",
    "flash attention error in the sampler\n\nThe flash attention step crashes with a long prompt. As far as I can tell it is the "
    "native SDPA op of PyTorch 2.4 that breaks here.",
    "Flash attention fails on Intel Arc\n\nIt is PyTorch's inbuilt F.scaled_dot_product_attention that crashes with head_dim 256.",
    # attend: x-transformers' switch and lucidrains' Attend assert
    "NaN loss with flash attention\n\nTraining a Decoder with `attn_flash = True` and rotary embeddings gives NaN after 3k steps.",
    "flash attention doesn't work\n\nAssertionError: in order to use flash attention, you must be using pytorch 2.0 or above",
    "Rotary + flash attention breaks\n\nThe bug is in x_transformers/attend.py, the mask is not expanded to four dimensions.",
])
def test_flash_attention_that_is_torch_sdpa(text):
    assert _top(text)[1] == "sdpa", _top(text)


@pytest.mark.parametrize("text,backend", [
    # the package named beside it: the package's failure
    ("Flash attention fails on my 3090\n\npip install flash-attn --no-build-isolation fails; the built-in function "
     "scaled_dot_product_attention works.", "fa2"),
    ("NaN loss with flash attention\n\nI set attn_flash=True but flash_attn_func from flash-attn 2.6.3 gives NaN in backward.",
     "fa2"),
    # SDPA set against flash attention: the flash attention that fails is the package's
    ("Flash attention crashes on my A6000\n\nI use flash attention instead of the built-in scaled_dot_product_attention and "
     "it crashes in the backward pass.", "fa2"),
    ("Flash attention crashes on my A6000\n\nIt is faster than the native SDPA but crashes in the backward pass.", "fa2"),
])
def test_flash_attention_package_near_miss(text, backend):
    assert _top(text)[1] == backend, _top(text)


def test_torch_flash_names_ex168():
    for s in ("the inbuilt function [scaled_dot_product_attention](https://docs.example/sdpa) is not working",
              "PyTorch's native SDPA op crashes here", "torch's built-in F.scaled_dot_product_attention fails with head_dim 256",
              "attn_flash=True", "x_transformers/attend.py#L373"):
        assert TORCH_FLASH.search(s), s
    # (review rev29: the built-in function counts where it is the one said to fail, in its own clause, not named alone or set
    # against flash attention: tests/test_review_rev29.py)
    for s in ("flash attention instead of the built-in scaled_dot_product_attention", "faster than the built-in SDPA",
              "PyTorch's SDPA", "the native flash_attn_func", "versus the native SDPA", "PyTorch's native SDPA op",
              "I replaced the built-in SDPA with flash attention and it crashes", "the built-in SDPA works; flash attention fails"):
        assert not TORCH_FLASH.search(s), s


# ---- works-but-not: "works with A but not with B" (attribution/sentences.py _not_with_blanked, in _contrast_removed) ----

@pytest.mark.parametrize("text,backend", [
    ("Training runs fine with FA2 but not with FA3: the loss is NaN from step one on the H100.", "fa3"),
    ("It works with xformers, but not with SageAttention; the sampler crashes at the first step.", "sage"),
    ("Everything works well on SDPA but not on FlexAttention, the compile step errors out.", "flex"),
    ("The pipeline worked with flash-attn 2 but not with xformers 0.0.28 -- black images every time.", "xformers"),
])
def test_works_with_one_but_not_with_the_other(text, backend):
    assert _top(text)[1] == backend, _top(text)


@pytest.mark.parametrize("text,backend", [
    # a failure said first: "not with X" is the side that does not fail
    ("Black images with SageAttention, but not with SDPA on the same seed.", "sage"),
    ("NaN loss with FA3 on the H100 but not with FA2.", "fa3"),
    # a restriction, not health: left as before
    ("It crashes; it works only with FA2 but not with FA3, and FA2 is what crashes.", "fa2"),
])
def test_works_but_not_near_miss(text, backend):
    assert _top(text)[1] == backend, _top(text)
