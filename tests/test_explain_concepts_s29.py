"""Helper ex169 (session 29, issue 23): a catch-all's backend comes from the failure's own sentence, line or traceback, never
from a sentence that only gives a limit as the reason for the writer's choice (refusals.named_by_choice; ex166's leftover in
benchmarks/results/explain-policies-s28.md). Variants of my own; each read fa2 or xformers before the change (checked).

(Task A's concept table did not carry to later rounds and is no part of explain: benchmarks/explain_concepts_carry.py.)"""

from __future__ import annotations

import pytest

from tests.test_review_rev28 import _read, read_as

_KEYERROR = 'Traceback (most recent call last):\n  File "train.py", line 12, in <module>\n    cfg = load()\nKeyError: \'model_type\'\n'
_VALUEERROR = ('Traceback (most recent call last):\n  File "/srv/app/data.py", line 40, in collate\n    batch = pad(items)\n'
               'ValueError: expected sequence of length 128 at dim 1 (got 96)\n')


@pytest.mark.parametrize("text", [
    "I use flash-attn 2 because sdpa is not supported on my ROCm card.\n" + _KEYERROR,
    "sdpa is not supported on my ROCm card, so I use flash-attn 2.\n" + _KEYERROR,
    "I use flash-attn 2 because sdpa is not supported on my ROCm card.\n" + _VALUEERROR,
    "Since SageAttention does not support the 2080, I use xformers.\n" + _KEYERROR,
    # helper ex171: a line above the exception's traceback that names a backend and says no failure (a title, a first sentence,
    # a setup line) is the writer's setup, not the failure's sentence: it lends no backend to a traceback that names none
    # (refusals.named_in_passing). The first was ex169's near miss (read fa2 there); each read the backend before (checked).
    "I use flash-attn 2 on my card.\n" + _KEYERROR,
    "Running Wan 2.1 with sage attention\n" + _VALUEERROR,
    "Running Wan 2.1 with sage attention\n\nI start the workflow and get this:\n" + _VALUEERROR,
    "Using xformers 0.0.28\n" + _KEYERROR,
    "Training Qwen2-VL with FlashAttention-2 on 8xA100\n\nSetup: torch 2.5\n" + _VALUEERROR,
    "我在4090上用flash-attn 2训练。\n" + _KEYERROR,
    "Ich nutze xformers 0.0.28 mit SDXL.\n" + _VALUEERROR,
    "Uso sage attention con Wan 2.1.\n" + _KEYERROR,
])
def test_context_lends_no_backend_to_an_unrelated_exception(text):
    assert not [r for r in _read(text) if r[0].startswith("triage.")], _read(text)


# near misses: the exception line or its traceback names the backend (its own line), a title that says the backend fails ("I use
# flash-attn 2 on my card.", a choice with no limit as its reason, was a third: ex171 moved it to the variants above: a line that
# says no failure lends nothing)
@pytest.mark.parametrize("text, backend", [
    ("I use flash-attn 2 because sdpa is not supported on my ROCm card.\nTraceback (most recent call last):\n"
     '  File "train.py", line 12, in <module>\n    out = model(x)\nRuntimeError: flash_attn_varlen_func got cu_seqlens of the wrong length\n',
     "fa2"),
    ("flash-attn 2 crashes on my ROCm card.\n" + _KEYERROR, "fa2"),
    # ex171's: the line says the failure (the writer's summary), in three languages
    ("I use flash-attn 2 on my card and it crashes.\n" + _KEYERROR, "fa2"),
    ("xformers 0.0.28 fails on my card\n" + _VALUEERROR, "xformers"),
    ("flash-attn 2 报错\n" + _KEYERROR, "fa2"),
    ("sage attention: Fehler beim Start\n" + _KEYERROR, "sage"),
])
def test_the_failures_own_naming_stays(text, backend):
    read_as(text, "triage.error-names-backend", backend)


# ex171's near misses: the backend in the traceback's own frames; no traceback shows where the exception was raised, so the line
# above stays its evidence; a kernel fault (no last resort) keeps the backend the run selected (explain_attribution_s6.toml)
@pytest.mark.parametrize("text, entry, backend", [
    ("Running Wan 2.1 with sage attention\nTraceback (most recent call last):\n"
     '  File "/srv/wan/generate.py", line 88, in sample\n    x = model(x, t)\n'
     "torch.AcceleratorError: CUDA error: an illegal memory access was encountered\n", "cuda.kernel-fault", "sage"),
    ("Running Wan 2.1 with sage attention\nTraceback (most recent call last):\n"
     '  File "/venv/lib/python3.11/site-packages/sageattention/core.py", line 120, in sageattn\n    q = q.contiguous()\n'
     "KeyError: 'head_dim'\n", "triage.raised-in-sage", "sage"),
    ("Using flash-attn 2.\nRuntimeError: CUDA error: an illegal memory access was encountered\n", "cuda.kernel-fault", "fa2"),
])
def test_the_exceptions_own_place_stays(text, entry, backend):
    read_as(text, entry, backend)

