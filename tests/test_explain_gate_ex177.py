"""Variants for helper ex177 (session 30): the prose reader's line condition "a failure word on the name's line"
(benchmarks/results/explain-gate-s30.md, G3 head-line-context-word-only: the line's only failure word is NOTON's "not").

Written by hand (2026-12-01): other backends, programs, wordings and languages than the fixtures. Every variant reads
nothing at s30start (main 52e4404b's code); the near misses read nothing before and after.

Mechanism (knowledge/prose.toml FAIL): the writer's ability denied is a failure word as "unable" is: "not able to",
"isn't / wasn't / haven't been able to", "no longer able to", and 할 수 없, не могу, n'arrive pas à, impossible de, nicht in
der Lage, no soy capaz / no logro. Not "not able to reproduce / tell / say / confirm": a maintainer's or a reader's words.
"""

from __future__ import annotations

import pytest

from explain_top import first_cause as _top


@pytest.mark.parametrize("text,backend", [
    ("Why am I not able to get any speedup from sageattention in my workflow?", "sage"),
    ("I am just not able to make flash attention run with Qwen2-VL.", "fa2"),
    ("xformers is not able to run the new VAE after the ComfyUI update.", "xformers"),
    ("We haven't been able to use FlexAttention with our document mask since 2.6.", "flex"),
    ("I'm no longer able to start the workflow with sage attention enabled.", "sage"),
    ("sageattention으로 워크플로를 실행할 수 없습니다", "sage"),
    ("Я не могу запустить sageattention после обновления torch", "sage"),
    ("Je n'arrive pas à utiliser flash-attn avec mon modèle.", "fa2"),
    ("Ich bin nicht in der Lage, flash attention zu verwenden.", "fa2"),
    ("No logro usar xformers con el nuevo modelo.", "xformers"),
])
def test_ability_denied_read(text, backend):
    assert _top(text)[1] == backend, _top(text)


@pytest.mark.parametrize("text", [
    # a maintainer or a reader who cannot reproduce, tell or confirm: no failure of the backend
    "I was not able to reproduce it with flash attention 2.5 here.",
    "We weren't able to tell whether xformers is faster here.",
    "I'm not able to confirm that sageattention is the cause yet.",
    # the ability stated, not denied
    "FlashAttention is able to run on this GPU without changes.",
    "Note that SDPA is now able to pick the flash kernel by itself.",
    # Korean 수 after a noun (변수, a variable), not after a verb's -ㄹ
    "변수 없이 flash attention 사용하기",
])
def test_ability_near_miss(text):
    assert _top(text) == (None, None), _top(text)
