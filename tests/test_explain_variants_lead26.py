"""The lead, session 26: a clause naming the backend that runs in the failing one's place is not the failing backend.

rev26 found it (pre-existing at s26start): Unsloth's own notice "Your GPU (Tesla T4) does not support Flash Attention 2, using
Xformers instead." was read as backend.unsupported-gpu for xformers, telling a T4 user that xformers (which runs there) does
not. attribution/sentences.py USED_INSTEAD blanks "using X instead" unless the sentence says X fails too. Variants written by
the lead (other wordings, GPUs, replacements); the near misses keep their readings.
"""
import pytest

from attn_doctor.explain import match

POSITIVES = [
    ("Unsloth: Your GPU (Tesla T4) does not support Flash Attention 2, using Xformers instead.", "fa2"),
    ("Your GPU (Tesla V100-SXM2-16GB) does not support flash attention, will use sdpa instead.", "fa2"),
    ("WARNING: this GPU (Quadro RTX 5000) does not support FlashAttention-2, now using xformers instead", "fa2"),
    ("SageAttention does not support your GPU (Tesla T4), defaulting to sdpa instead.", "sage"),
]

NEAR_MISSES = [
    # the replacement said to fail too keeps its own reading (as at s26start)
    ("xformers fails on my T4, I am using sdpa instead.", "xformers"),
    # "instead of X" names the one not used: another rule's (REPLACED), unchanged
    ("flash attention fails on my V100 (using it instead of sdpa).", "fa2"),
]


@pytest.mark.parametrize("text, backend", POSITIVES)
def test_the_replacement_is_not_the_refused_backend(text, backend):
    found = match(text)
    assert found and found[0].backend == backend, [(m.entry.id, m.backend) for m in found]
    assert found[0].entry.id == "backend.unsupported-gpu", [(m.entry.id, m.backend) for m in found]


@pytest.mark.parametrize("text, backend", NEAR_MISSES)
def test_near_misses_keep_their_backend(text, backend):
    found = match(text)
    assert found and found[0].backend == backend, [(m.entry.id, m.backend) for m in found]
