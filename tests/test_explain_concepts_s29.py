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
])
def test_a_choice_and_its_reason_lend_no_backend_to_an_unrelated_exception(text):
    assert not [r for r in _read(text) if r[0].startswith("triage.")], _read(text)


# near misses: the exception line or its traceback names the backend (its own line), a title that says the backend fails, a
# choice stated with no limit as its reason (not this rule's: left as found)
@pytest.mark.parametrize("text, backend", [
    ("I use flash-attn 2 because sdpa is not supported on my ROCm card.\nTraceback (most recent call last):\n"
     '  File "train.py", line 12, in <module>\n    out = model(x)\nRuntimeError: flash_attn_varlen_func got cu_seqlens of the wrong length\n',
     "fa2"),
    ("flash-attn 2 crashes on my ROCm card.\n" + _KEYERROR, "fa2"),
    ("I use flash-attn 2 on my card.\n" + _KEYERROR, "fa2"),
])
def test_the_failures_own_naming_stays(text, backend):
    read_as(text, "triage.error-names-backend", backend)
