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


# 3. ex172's rules for round 172m, read on variants of my own: each claimed a text its mechanism does not hold for.
@pytest.mark.parametrize("text,entry", [
    # attn.release-regression: 'slower with the latest <package>', attention named after it on the line: a question, and
    # attention said to be no part of it
    ("Is training slower with the latest transformers? The attention code did not change as far as I can see",
     "attn.release-regression"),
    ("Training is slower with the latest torch, not related to attention at all", "attn.release-regression"),
    # sdpa.mask-not-flash: a mask said to raise the memory of an SDPA call; a masked-modelling objective is no attention mask
    ("Masked LM pretraining increases GPU memory because of the 250k vocab.\nWe use F.scaled_dot_product_attention everywhere.",
     "sdpa.mask-not-flash"),
    ("We call scaled_dot_product_attention in every block.\nMasked image modeling increases the memory a lot because of "
     "the decoder.", "sdpa.mask-not-flash"),
    # app.backend-selection-ignored: the public key renamed to the private one as a fix; transformers' own copy described
    ("from_pretrained copies config.attn_implementation to _attn_implementation, as documented",
     "app.backend-selection-ignored"),
    ("attn_implementation is mapped to _attn_implementation internally by PreTrainedModel", "app.backend-selection-ignored"),
])
def test_ex172_rules_pass_over_what_their_mechanism_does_not_say(text, entry):
    assert entry not in {e for e, _ in _read(text)}, _read(text)


# near misses: ex172's own forms, and variants of them, still read
@pytest.mark.parametrize("text,entry,backend", [
    ("Generation got slower with the latest vllm 0.6.3 because flashattn.py now recomputes the attention metadata",
     "attn.release-regression", "fa2"),
    ("Training is 30% slower since the new release of transformers because the SDPA attention path is no longer patched",
     "attn.release-regression", "sdpa"),
    ("F.scaled_dot_product_attention(q, k, v, attn_mask=pad_mask)\nwith the padding mask the memory grows 4x at 8k tokens",
     "sdpa.mask-not-flash", "sdpa"),
    ("Try changing \"attn_implementation\": \"flash_attention_2\" to \"_attn_implementation\": \"flash_attention_2\" in "
     "config.json", "app.backend-selection-ignored", "fa2"),
    ("Fix: rename attn_implementation to _attn_implementation in the checkpoint's config.json, otherwise the remote code "
     "never picks flash attention", "app.backend-selection-ignored", "fa2"),
])
def test_ex172_rules_still_read_their_mechanism(text, entry, backend):
    got = _read(text)
    assert got[:1] == [(entry, backend)], got


# 4. ex172's attribution rule (sentences.FROM_NOT_FROM): an error said to come from one place and not from another rules the
# other out. The verb denied ("doesn't come from X but from Y", "isn't coming from X, it's ...") is the same statement; it was
# not read (the scrub looked for "not" only), and X was lent to the failure.
@pytest.mark.parametrize("text,backend", [
    ("The error doesn't come from xformers but from diffusers. RuntimeError: shape mismatch", "xformers"),
    ("It isn't coming from flash-attn, it's the dataloader. RuntimeError: CUDA error: device-side assert triggered", "fa2"),
    ("The crash doesn't originate from sageattention but from the VAE decode. RuntimeError: shape mismatch", "sage"),
])
def test_a_source_denied_with_its_verb_is_ruled_out(text, backend):
    assert not any(b == backend for _, b in _read(text)), _read(text)


# near miss: a backend said to be the source keeps it
def test_a_source_affirmed_keeps_its_backend():
    got = _read("RuntimeError: CUDA error: device-side assert triggered from flash-attn, it is not from the dataloader")
    assert any(b == "fa2" for _, b in got), got
