"""helper ex41p (session 41): explain's reading policy for a report's head (knowledge/match.py HEAD_WIDE, HEAD_WIDE_LINES;
benchmarks/results/explain-policies-s41.md, where the ranking policies measured and not kept are too).

A pasted report's head is its first HEAD_LINES sentences within HEAD_MAX_LINES lines: blank lines count toward the six, so a
title, a blank, "Hi,", a blank leave two sentences. Where the head ends that way, the catch-alls that need a complaint of a
particular shape (prose.slow, prose.ignored, prose.crash, prose.numbers) read on to the fifth sentence, within 12 lines; the
broad ones (prose.fails, .build, .gpu, .import ...) do not: they claimed 9 unrelated logs when every prose entry read on.
Every case was written by hand (2026-12-03), none is a fixture's sentence. Positives name what explain must report first
(entry, backend); near misses what it must not report (None: nothing at all).
"""

from __future__ import annotations

from each_case import each
from explain_top import first, ids

# a title, a blank line, a greeting, a blank line, two sentences: the head's six lines end here
OPENING = "{title}\n\nHi,\n\nI train a 7B model on two nodes.\nThe cluster has eight GPUs per node.\n"

POSITIVES = [
    ("slow", OPENING.format(title="Training step time") + "With flash-attn 2.7 the step time is much slower than with sdpa.\n",
     ("prose.slow", "fa2")),
    ("slow-after-blank", OPENING.format(title="Inference question") + "\nsageattention makes each video take 20 minutes longer.\n",
     ("prose.slow", "sage")),
    ("ignored", OPENING.format(title="Attention setting") + "flash attention ignores the setting and sdpa is used instead.\n",
     ("prose.ignored", "fa2")),
    ("crash", OPENING.format(title="ComfyUI stops") + "sageattention crashes ComfyUI without any message.\n", ("prose.crash", "sage")),
    ("numbers", OPENING.format(title="Outputs") + "xformers gives different numbers than the default attention.\n",
     ("prose.numbers", "xformers")),
]

NEAR_MISSES = [
    # the broad catch-alls keep the six-line head: a guess or an install line past it claims nothing
    ("fails-past-head", OPENING.format(title="A question about masks") +
     "It is possible that flash attention is causing this error.\n", None),
    ("build-past-head", OPENING.format(title="Setup question") +
     "xformers gets installed during setup but the install breaks.\n", None),
    ("build-cannot-past-head", OPENING.format(title="Setup question") + "I cannot install xformers on this machine.\n",
     "prose.build"),
    # past the fifth sentence the head ends for every entry
    ("slow-past-fifth", OPENING.format(title="Training") + "We use bf16.\nThe batch is 8.\nWith flash attention the step is much slower.\n",
     None),
    ("crash-past-fifth", OPENING.format(title="ComfyUI") + "We use bf16.\nThe batch is 8.\nsageattention crashes ComfyUI.\n", None),
    # past HEAD_WIDE_LINES lines, blank ones counting
    ("slow-past-wide", OPENING.format(title="Training") + "\n" * 6 + "With flash attention the step is much slower.\n", None),
]


def _positive(text: str, want: tuple[str, str]) -> None:
    assert first(text) == want, (first(text), ids(text))


def _near(text: str, unwanted: str | None) -> None:
    got = ids(text)
    assert (got == []) if unwanted is None else (unwanted not in got), got


def test_head_wide_entries_read_on_past_blank_lines():
    each(((n, (t, w)) for n, t, w in POSITIVES), _positive)


def test_head_wide_reads_no_broad_catch_all_and_stops():
    each(((n, (t, u)) for n, t, u in NEAR_MISSES), _near)
