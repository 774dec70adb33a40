"""Review of session 30's merged work (helper rev30, 2026-12-01): readings the merged helpers' rules gave that a maintainer
would call wrong, each a variant written here (none is a fixture's), failing on main as merged and passing after rev30's
mends; near misses beside them keep what the rules were written for."""

from __future__ import annotations

import pytest

from attn_doctor.explain import match
from explain_top import first_cause as _top

_IMA = "RuntimeError: CUDA error: an illegal memory access was encountered\n"


def _read(text: str) -> list[tuple[str, str | None]]:
    return [(m.entry.id, m.backend) for m in match(text)]


_KEYERROR = ('Traceback (most recent call last):\n  File "train.py", line 12, in <module>\n    cfg = load()\n'
             "KeyError: 'model_type'\n")


# 1. ex177 (prose.toml FAIL): the writer's ability denied ("not able to", 할 수 없, не могу, n'arrive pas à) is a failure word,
# except "not able to reproduce / tell / say / confirm". A reader's or maintainer's other words of the same kind ("not able to
# verify / check / test / look into", and the excluded verbs in the other languages, where no exclusion applied) said no failure
# of the backend and were read as prose.fails.
@pytest.mark.parametrize("text", [
    "I wasn't able to verify whether flash attention 3 is used here.",
    "I'm not able to test sageattention on my machine, can someone check?",
    "Sorry, I'm not able to check xformers here.",
    "I haven't been able to look into the flash attention path yet.",
    "We were not able to investigate the FlexAttention numbers further.",
    "Я не могу сказать, быстрее ли sageattention.",
    "Я не могу проверить sageattention на своей карте.",
    "Je n'arrive pas à reproduire le problème avec flash-attn.",
    "sageattention 문제는 재현할 수 없습니다",
])
def test_a_reader_not_able_to_check_says_no_failure(text):
    assert _top(text) == (None, None), _top(text)


# near misses: the writer's own failure in the same words still reads (ex177's mechanism)
@pytest.mark.parametrize("text,backend", [
    ("I'm not able to run sageattention after the torch update.", "sage"),
    ("We haven't been able to load the model with flash attention 2 since 4.46.", "fa2"),
    ("Я не могу запустить sageattention после обновления torch", "sage"),
    ("Je n'arrive pas à utiliser flash-attn avec mon modèle.", "fa2"),
    ("sageattention으로 워크플로를 실행할 수 없습니다", "sage"),
])
def test_the_writers_own_ability_denied_still_reads(text, backend):
    assert _top(text)[1] == backend, _top(text)


# 2. ex174 ([limit_as_reason] turned_on): the backend the writer turns on after a limit owns the bare failure reported first
# after it. Where the writer says it then worked ("When I enable it, it works fine. Unrelated, the tokenizer fails:") the
# failure is not the one turned on: main read it as the ruled-out backend's (backend.unsupported-gpu / cuda.kernel-fault, fa2).
@pytest.mark.parametrize("text", [
    "We use sdpa because our V100 can't run FA2. When I enable it, it works fine. Unrelated, the tokenizer fails:\n" + _KEYERROR,
    "Our T4s cannot run flash-attn 2, so we use xformers. If I turn it on it runs ok for a while; later the VAE fails with:\n"
    + _IMA,
    "V100不支持flash-attn 2，所以改用sdpa。开启后正常，但是VAE解码报错：\n" + _IMA,
])
def test_a_backend_turned_on_that_then_worked_owns_no_later_failure(text):
    assert not any(b == "fa2" for _, b in _read(text)), _read(text)


# near miss: turned on, then the failure (ex174's own form) still reads the ruled-out backend
@pytest.mark.parametrize("text", [
    "Our T4s cannot run flash-attn 2, so we use xformers. If I turn it on, I get this error:\n" + _IMA,
    "We use sdpa because our V100 can't run FA2. When I enable it anyway:\n" + _IMA,
])
def test_turned_on_then_failing_still_reads_the_ruled_out_backend(text):
    assert [b for e, b in _read(text) if e == "cuda.kernel-fault"] == ["fa2"], _read(text)
