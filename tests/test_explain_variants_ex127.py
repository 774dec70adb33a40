"""Variants for helper ex127 (session 21): the finding is right, its backend or the variant of its cause is wrong
(attribution leftovers of ex119, ex121 and ex125). Every case was written by hand (2026-11-30): other programs, models and
wordings than the fixtures; each `fixed` case fails without its change (checked on s21start, fc4a881b), each near miss passes on both.

Mechanisms:
  fallback-when  attribution/sentences.py FALLBACK_TO: "fall back <object> to X when using Y" blanks only "X" (what ran
                 instead), with the verb's object between ("fallback vision tower to X") and the condition kept: Y, the
                 backend selected, is the report's (round 113m: verl-project/verl#4670)
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
