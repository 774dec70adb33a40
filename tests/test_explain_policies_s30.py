"""Helper ex174 (session 30, issue 23): explain's policy leftovers of session 29 (benchmarks/results/explain-policies-s28.md,
"Session 30 (ex174)"). Variants of my own, none a fixture's.

1. A catch-all's backend named only as context (a limit given as the reason for a choice, a line above a backend-free traceback
   that says no failure) is passed over where the nearest naming line is chosen (refusals.context_only, search._nearest_for),
   not lent and then taken back: a line further away that says the failure names it.
2. The writer turning the ruled-out backend on after a limit ("We use sdpa because our V100 can't run FA2. When I enable it
   anyway:") over a failure that names no backend: the failure is the backend turned on ([limit_as_reason] turned_on,
   refusals.turned_on), in the corpus's languages. Each variant of the table read no backend at s30start (checked)."""

from __future__ import annotations

import pytest

from tests.test_review_rev28 import _read, read_as

_NK = "RuntimeError: CUDA error: no kernel image is available for execution on the device\n"
_IMA = "RuntimeError: CUDA error: an illegal memory access was encountered\n"
_KEYERROR = ('Traceback (most recent call last):\n  File "train.py", line 12, in <module>\n    cfg = load()\n'
             "KeyError: 'model_type'\n")


# 2. the backend turned on after the limit owns the failure that follows
@pytest.mark.parametrize("text, backend", [
    ("We use sdpa because our V100 can't run FA2. When I enable it anyway:\n" + _NK, "fa2"),
    ("Our V100 can't run FA2, so we use sdpa. If I turn it on, I get this error:\n" + _NK, "fa2"),
    ("Our T4s cannot run flash-attn 2, so we use xformers.\n\nWith it enabled I get:\n\n" + _NK, "fa2"),
    ("My 2080 has no SageAttention support, so I use sdpa. Once I force it on, the run dies:\n" + _IMA, "sage"),
    ("We use sdpa because the 1080 Ti can't run xformers. Enabling it gives:\n" + _NK, "xformers"),
    ("V100不支持flash-attn 2，所以改用sdpa。开启后报错：\n" + _NK, "fa2"),
    ("V100ではFA2が使えないので、SDPAを使っています。有効にすると次のエラーが出ます：\n" + _NK, "fa2"),
    ("sdpa를 사용합니다. V100은 FA2를 지원하지 않기 때문입니다. 켜면 이런 오류가 납니다:\n" + _NK, "fa2"),
    ("Usamos sdpa porque nuestra V100 no soporta FA2. Si lo activo, me da este error:\n" + _NK, "fa2"),
    ("Наши V100 не поддерживают flash-attn 2, поэтому мы используем sdpa. Если включить его, получаю ошибку:\n" + _NK, "fa2"),
    ("Usamos sdpa porque nossa V100 não suporta FA2. Se eu ativar, recebo este erro:\n" + _NK, "fa2"),
])
def test_the_backend_turned_on_after_a_limit_owns_the_failure(text, backend):
    got = _read(text)
    assert any(e == "gpu.arch-not-in-torch" or e == "cuda.kernel-fault" for e, _ in got), got
    assert [b for e, b in got if e in ("gpu.arch-not-in-torch", "cuda.kernel-fault")] == [backend], got


# near misses: a thing named, not "it" (torch.compile is no backend); no turning on (the failure stays nobody's, as before); a
# backend named on the failing line; "it" with nothing failing after it
@pytest.mark.parametrize("text, entry, backend", [
    ("Our V100 can't run FA2, so we use sdpa. If I turn on torch.compile, I get this error:\n" + _NK, "gpu.arch-not-in-torch",
     None),
    ("Our V100 can't run FA2, so we use sdpa. It crashes with:\n" + _NK, "gpu.arch-not-in-torch", None),
    ("V100不支持flash-attn 2，所以改用sdpa。开启torch.compile后报错：\n" + _NK, "gpu.arch-not-in-torch", None),
    ("sdpa를 사용합니다. V100은 FA2를 지원하지 않기 때문입니다. torch.compile을 켜면 이런 오류가 납니다:\n" + _NK,
     "gpu.arch-not-in-torch", None),
    ("V100ではFA2が使えないので、SDPAを使っています。torch.compileを有効にすると次のエラーが出ます：\n" + _NK,
     "gpu.arch-not-in-torch", None),
    ("Our V100 can't run FA2, so we use sdpa. When I enable it, xformers says:\n"
     "RuntimeError: xformers: CUDA error: no kernel image is available for execution on the device\n", "gpu.arch-not-in-torch",
     "xformers"),
])
def test_near_misses_of_turning_on(text, entry, backend):
    got = [(e, b) for e, b in _read(text) if e == entry]
    assert got == [(entry, backend)], _read(text)


# 1. the nearest line is chosen past the context lines: a line further down that says the failure lends its backend (ex171's
# policy: the writer's summary), where the first line only names a backend in passing or as a choice's reason (s30start lent
# the context line's backend, then took the match back: the exception was read by nothing)
@pytest.mark.parametrize("text, backend", [
    ("I use flash-attn 2 on my card.\nWith sage attention it crashes:\n" + _KEYERROR, "sage"),
    ("I use flash-attn 2 because sdpa is not supported on my ROCm card.\nSwitching to xformers fails too:\n" + _KEYERROR,
     "xformers"),
    ("Using xformers 0.0.28\nsage attention fails at the first step\n" + _KEYERROR, "sage"),
])
def test_a_failing_line_past_a_line_in_passing(text, backend):
    read_as(text, "triage.error-names-backend", backend)


# (context alone, nothing further on naming a backend, still lends nothing: tests/test_explain_concepts_s29.py's list)


# the lone form, no choice: "X is slow on my card. If I turn it on, I get:" read X at s30start in six languages; in Russian and
# Spanish "работает медленно" / "funciona lento" (works slowly) was read as praise (sentences.PRAISE) and X cleared. Near misses:
# "works" alone still praises, and the other sentence's failure stays nobody's
@pytest.mark.parametrize("text, backend", [
    ("SageAttention работает медленно на моей карте. Если включить его, получаю ошибку:\n" + _NK, "sage"),
    ("xformers funciona lento en mi tarjeta. Si lo activo, me da este error:\n" + _NK, "xformers"),
    ("xformers работает очень плохо на моей карте. При его включении:\n" + _NK, "xformers"),
    ("xformers funciona bien. El VAE falla con este error:\n" + _NK, None),
    ("SageAttention работает. Но VAE падает с ошибкой:\n" + _NK, None),
])
def test_works_slowly_is_no_praise(text, backend):
    assert [b for e, b in _read(text) if e == "gpu.arch-not-in-torch"] == [backend], _read(text)
