"""Variants for helper ex175 (session 30): the catch-all gate's name condition (benchmarks/results/explain-gate-s30.md).

A prose catch-all (knowledge/prose.toml) reads a sentence by prose.toml's B names; attribution.toml [needs_backend] then wants the
library rules to name a backend near the line. The two disagreed on what a name is: B reads "flex-attention", "flash_attention",
"FlashAttn" inside a class name and "flash attention v4", the library rules none of them, so the sentence reader's finding was
refused for want of a name. [prose_named] (refusals.prose_named): where the library rules find nothing at all near the line,
the one backend family the matched line names (paths, URLs, file names and code spans blanked) is the backend.

Written by hand (2026-12-01) with other wordings, programs and class names than the rows it was decided from (rounds up to
148m: meta-pytorch/attention-gym#15, Robbyant/lingbot-vla-v2#36, Dao-AILab/flash-attention#2352,
feifeibear/long-context-attention#149, ecmwf/anemoi-core#959). Every variant reads nothing at s30start (main 663dc55d); the near
misses read no backend of the seven before and after.
"""

from __future__ import annotations

import pytest

from explain_top import first_cause as _top


@pytest.mark.parametrize("text,backend", [
    # a hyphenated name the library rules do not take
    ("flex-attention does not work on the RTX 2080", "flex"),
    ("Sometimes people have trouble compiling the whole model and just compile flex-attention.", "flex"),
    # lower-case flash_attention as the writer's word for the package
    ("flash_attention fails to install on Windows", "fa2"),
    ("Installing flash_attention fails on Windows", "fa2"),
    # flash-attn's autograd Function classes and their wrappers, a prefix glued before
    ("Training crashes when I use RingFlashAttnFunc with long sequences", "fa2"),
    ("ZigzagRingFlashAttnFunc is slow on 8 GPUs", "fa2"),
    # FA4 as "flash attention v4"
    ("The flash attention v4 kernels crash on my B200", "cute"),
    ("Segfault in flash attention v4 on B200", "cute"),
])
def test_prose_name_counts(text, backend):
    assert _top(text)[1] == backend, _top(text)


@pytest.mark.parametrize("text", [
    # two families on the line: no one backend
    "Both FlashAttnFunc and flex-attention fail on my machine",
    # a name only inside a path, a URL or a code span: a program's file, not the writer's word
    "I get a crash in vllm/attention/ops/triton_flash_attention.py on gfx906",
    "It fails to build: see https://github.com/someone/flash-attention-fork/issues/3",
    "The `flash_attention_forward` call fails on my A100",
    # glued after an underscore or in lower case: another identifier's part (another library's module), not the name
    "flex_flash_attn only supports sm90 on my RTX 5090 (sm120)",
    "import flexible_flash_attention_cuda fails on my machine",
    # a question: the weak name is read in statements only
    "flex-attention is slower on Blackwell than on Hopper, is this expected?",
    # a quoted exception: a program's message, whose backend the library rules decide
    "apple implementation: ValueError: [scaled_dot_product_attention] mismatching batch dimension for input",
    # the failure in one sentence, the name in another (the sentence the entry reads names nothing)
    "No prebuilt wheel exists for ROCm 7 yet. Here is my own build of flash_attention for gfx1100.",
])
def test_prose_name_near_miss(text):
    assert _top(text) == (None, None), _top(text)


@pytest.mark.parametrize("text", [
    # another program's own flash attention: the library rules name it (other), their word stands
    "llama.cpp flash attention crashes on my GPU",
    "my flash attention in ollama fails on the RX 580",
])
def test_prose_name_other_program(text):
    assert _top(text)[1] is None, _top(text)
