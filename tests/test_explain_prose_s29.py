"""Variants for helper ex170 (session 29): prose texts explain read nothing in, where the writer says the failure in words
(benchmarks/results/explain-recurring-s29.md, "Session 29 (ex170)"; the rows U-prose-skipped/* of rounds up to 136m).

Written by hand (2026-12-01): other backends, programs and wordings than the fixtures. Every variant reads nothing at
s29start (main 834eef7d's code); the near misses read nothing before and after.

Mechanisms (knowledge/prose.toml):
  not-verb  FAIL: the backend said not to install / build / compile / load / import, the verb used without an object
            ("Flash-Attention not installing", "xformers is not building on Windows"): the backend is what does not install.
            Not with an object after the verb ("the script is not installing xformers by default": a program's choice), not
            a writer's own choice ("I'm not installing flash-attn").
  any-way   NOTON: "is there a way / any way to use X ...?" is the can-I-use question (prose.gpu reads it only with a GPU or
            platform beside it, as it reads "Can I use X on ...?").
"""

from __future__ import annotations

import pytest

from explain_top import first_cause as _top


@pytest.mark.parametrize("text,backend", [
    # not-verb: the backend is the subject of a negated install / build / load verb
    ("Flash-Attention not installing\n\nI am on Ubuntu 24.04 and tried three times with uv.", "fa2"),
    ("xformers is not building on Windows 11\n\nThe wheel for my torch is missing, so pip goes to the source build.",
     "xformers"),
    ("SageAttention not compiling with CUDA 12.8\n\nAny hints welcome.", "sage"),
    ("Why is flash-attn not installing? I tried pip and uv.", "fa2"),
    ("The FA3 kernels are not loading anymore after the update to 2.8.", "fa3"),
    # any-way: the can-I-use question's other phrasing, with a GPU or platform
    ("Is there a way to use flash attention on AMD Windows? RX 6800", "fa2"),
    ("Is there any way to use SageAttention on a GTX 1080?", "sage"),
])
def test_prose_failure_read(text, backend):
    assert _top(text)[1] == backend, _top(text)


@pytest.mark.parametrize("text", [
    # the verb with an object: a program's behaviour or a choice, no failure of the backend
    "The setup script is not installing xformers by default; add --xformers to get it.",
    "pip install flash-attn  # not installing torch again, it is pinned",
    # the writer's choice
    "I'm not installing flash-attn on this box, I use SDPA instead.",
    "We are not building xformers from source any more.",
    # a question without a GPU or platform: a feature question
    "Is there a way to use flash attention with a custom mask?",
    # a feature request and a setup line
    "Feature request: a flag so that the launcher is not loading xformers at start.",
    "To install, run `pip install sageattention` and restart; the node will pick it up.",
])
def test_prose_near_miss(text):
    assert _top(text) == (None, None), _top(text)
