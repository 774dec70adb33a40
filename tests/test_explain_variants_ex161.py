"""Helper ex161 (session 28, issue 23; benchmarks/results/explain-policies-s28.md): a limit given as the reason for a choice is
context ("Our V100s cannot run flash-attn 2, so we use sdpa; the error below comes from the tokenizer"): the failure is what
follows. Every text is written here (none is a fixture's); each positive read backend.unsupported-gpu (or the backend the
sentence rules out) at s28start (checked against /work/wt/s28start), each near miss reads the same at both."""

from __future__ import annotations

import pytest

_TOKENIZER = "ValueError: tokenizer.json not found\n"


def _read(text: str) -> list[tuple[str, str | None]]:
    from attn_doctor.explain import match

    return [(m.entry.id, m.backend) for m in match(text)]


# The limit is known and worked around, the report goes on to another failure: no reading of the limit's sentence (attribution.toml
# [limit_as_reason], explain._past_stated_limit), in the languages the table reads, the choice in the sentence or opening the next.
@pytest.mark.parametrize("text", [
    "Our V100s cannot run flash-attn 2, so we use sdpa; the error below comes from the tokenizer\nTraceback (most recent call "
    'last):\n  File "x.py", line 3, in <module>\n' + _TOKENIZER,
    "Our V100s cannot run flash-attn 2, so we use sdpa. Training now gives NaN loss after 200 steps with bf16.\n",
    "Since my V100 does not support flash attention, I use sdpa.\nBut generation crashes with this:\nRuntimeError: CUDA error: "
    "device-side assert triggered\n",
    "flash-attn 2 is not supported on the P100, hence we use eager attention.\nTraceback (most recent call last):\n  File "
    "\"train.py\", line 10, in <module>\nKeyError: 'input_ids'\n",
    "Since our 2080 Ti can't run flash attention 2, we fell back to sdpa. The script then errors in the dataloader:\n"
    "FileNotFoundError: data/train.jsonl\n",
    "我们的V100不支持flash-attn 2，所以改用sdpa。下面的报错来自tokenizer：\n" + _TOKENIZER,
    "V100ではFlashAttention 2が使えないので、SDPAを使っています。\n以下のエラーが出ます:\n" + _TOKENIZER,
    "T4ではflash-attn 2が動かないため、eagerに切り替えました。エラーは以下です：\nKeyError: 'input_ids'\n",
    "Наши V100 не поддерживают flash-attn 2, поэтому мы используем sdpa. Ошибка ниже:\n" + _TOKENIZER,
    "Nuestras V100 no soportan flash-attn 2, así que usamos sdpa. El error es este:\n" + _TOKENIZER,
    "Minha V100 não suporta flash-attn 2, por isso uso sdpa. O erro é outro:\nKeyError: 'input_ids'\n",
    "Nos V100 ne supportent pas flash-attn 2, donc nous utilisons sdpa. Voici l'erreur :\n" + _TOKENIZER,
    "Unsere V100 unterstützen flash-attn 2 nicht, deshalb nutzen wir sdpa. Der Fehler:\n" + _TOKENIZER,
])
def test_a_limit_given_as_the_reason_for_a_choice_is_context(text):
    got = _read(text)
    assert not any(e in ("backend.unsupported-gpu", "prose.gpu") or b == "fa2" for e, b in got), got


# The failure that follows is read, and with the backend the writer chose, not the one the limit names; where it is the backend's
# own refusal quoted below, that line is the reading and names the backend (s28start: the choice's line, backend cleared). (The
# xformers case reads the same at s28start; it guards refusals._shadowed_match, which named the line's first backend, the one the
# limit rules out, and dropped the match once "that's why" cleared it.)
@pytest.mark.parametrize("text, first", [
    ("My V100 doesn't support flash-attn 2, so I switched to sdpa.\nBut it still fails:\nRuntimeError: FlashAttention only "
     "supports Ampere GPUs or newer.\n", ("backend.unsupported-gpu", "fa2")),
    ("Our T4 doesn't support FlashAttention 2. So we use eager attention.\nNow the model OOMs:\ntorch.OutOfMemoryError: CUDA "
     "out of memory. Tried to allocate 2.00 GiB\n", ("train.oom", None)),
    ("We can't use FA2 on our T4s, that's why we switched to xformers. Now xformers gives black images after a few steps:\n"
     "NaN detected in the output\n", ("attn.wrong-output", "xformers")),
])
def test_the_failure_after_the_choice_is_the_report(text, first):
    got = _read(text)
    assert got[:1] == [first], got


# Near misses: the limit IS the failure -- a question, a failure said before
# the choice (a crash, "fails"), nothing reported after it, a title that only names the limit.
@pytest.mark.parametrize("text, first", [
    ("Our V100s cannot run flash-attn 2, so is sdpa the only option? Any errors I should expect?\n",
     ("backend.unsupported-gpu", "fa2")),
    ("flash-attn crashed on my V100 so I switched to sdpa; the error below:\nRuntimeError: FlashAttention only supports Ampere "
     "GPUs or newer.\n", ("backend.unsupported-gpu", "fa2")),
    ("FA2 fails on my T4, the error below:\nRuntimeError: FlashAttention only supports Ampere GPUs or newer.\n",
     ("backend.unsupported-gpu", "fa2")),
    ("Our V100s cannot run flash-attn 2, so we use sdpa.\n", ("backend.unsupported-gpu", None)),
    ("V100 跑不了 FlashAttention2，所以只能用 sdpa 吗？\n", ("backend.unsupported-gpu", "fa2")),
    ("Tesla P40不支持 flash_attn\n报错如下\n", ("backend.unsupported-gpu", "fa2")),
    # (no choice: "stuck with" chooses no attention; the first version read it as one and lost this reading, rev27's variant too)
    ("flash-attn won't run on our T4 cards so we are stuck with the old checkpoint. The error below:\n" + _TOKENIZER,
     ("backend.unsupported-gpu", "fa2")),
])
def test_where_the_limit_is_the_failure_it_stays(text, first):
    got = _read(text)
    assert got[:1] == [first], got
