"""Variants for helper ex72 (session 11): the mechanisms behind round 71m's misses (fixtures/errors/round71m, measured blind at the
session's start, training material since), each with texts written by hand (2026-11-29) in other programs, backends, versions and
wordings than the fixtures, and near misses that must stay as they were.

Mechanisms (knowledge file: rule):
  docs      attribution.toml [not_a_report.document] marks: a pull request or commit titled as a documentation change ("docs:",
            "docs(scope):", "[Docs]", "Documentation:") states facts for a guide; nothing in it is claimed unless it quotes a
            failure (Comfy-Org/docs#1299: a bot's summary that flash-attn has no Windows wheels read as build.prebuilt-wheel-missing)
  question  attribution.toml [not_a_report.question] + attribution/ _asks_in_question_form: 问题 means "question" too; in a report
            filed with a question form, a line whose only word of failure is 问题 asks, it does not report (modelscope/ms-swift#9629:
            "qwen3-vl-embedding训练的flash_attn问题" read as prose.fails)
  padding   attention.toml attn.fully-masked-rows: NaN out of attention "when the batch has padding", "for padded sequences",
            "masked out with float('-inf')" (allenai/OLMo#322, #323)
  nograd    sage.toml sage.training: no gradients through SageAttention or a kernel built on it, or "for inference only" in words
            (thu-ml/SpargeAttn#25)
  misapply  attention.toml attn.wrong-output + prose.toml IGNORED: a mask, bias, sinks or score_mod "not applied correctly" around a
            backend is a wrong output, not a selection that did not take (huggingface/transformers#41026)
  added     prose.toml FALLBACKADDED in prose.ignored: a change that ADDS a fallback ("fix: add ... with SDPA fallback") is no
            ignored selection (karpathy/autoresearch#1)
"""

from __future__ import annotations

import pytest

from attn_doctor.explain import match
from explain_top import first_cause as _top, tb


def _claims(text: str) -> list[tuple[str, str | None]]:
    return [(m.entry.id, m.backend) for m in match(text)]


# ---- docs ---------------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("text", [
    "docs: add a Windows install page for the portable build\n\nxformers does not provide pre-built wheels for Python 3.13 on "
    "Windows; users must build it from source with the MSVC build tools.\n",
    "docs(install): note that SageAttention 2 has no official wheels for torch 2.9\n\nSageAttention does not ship pre-built wheels "
    "for every torch; the page lists the community builds.\n",
    "[Docs] Clarify FlashAttention on Windows\n\nflash-attn doesn't provide prebuilt wheels for Windows, so pip install builds it from "
    "source, which often fails without the right toolchain.\n",
    "Documentation: explain the attention backends\n\nxformers only supports fp16 and bf16; FA3 needs Hopper GPUs.\n",
])
def test_docs_titled_change_claims_nothing(text):
    assert _claims(text) == []


@pytest.mark.parametrize("text, expected", [
    # a docs title over a quoted failure is still read (round 23: triton-lang/triton#10331's ptxas error under "Docs: ...")
    ("docs: troubleshooting page for RTX 50 cards\n\nThe page quotes the error users hit:\n\n"
     "RuntimeError: CUDA error: no kernel image is available for execution on the device\n", "gpu.arch-not-in-torch"),
])
def test_docs_title_over_a_quoted_failure_is_read(text, expected):
    assert _top(text)[0] == expected


def test_docs_tagged_report_without_an_edit_is_read():
    # a docs-tagged title that is no edit of a page (round 23: triton-lang/triton#10331, "Docs: bring-up recipe ...") over the
    # writer's own failure stays a report
    text = ("Docs: bring-up notes for SageAttention on the RTX PRO 6000\n\n## What I tested\n\nsageattention 2.2.0, torch 2.9.0+cu130\n\n"
            "Building from source on Windows: Precompiled wheel not found. Building from source...\n")
    assert _claims(text) != []


def test_docs_mark_only_at_the_title():
    # a "docs:" later in the text is no title: a user's report that names a docs page stays a report
    text = ("flash-attn install fails on Windows\n\nsee docs: https://example.org/install\n\n"
            "Precompiled wheel not found. Building from source...\n")
    assert ("build.prebuilt-wheel-missing", "fa2") in _claims(text)


# ---- question -----------------------------------------------------------------------------------------------------------
FORM = ("### Checklist / 检查清单\n\n- [x] I have searched existing issues, and this is a new question or discussion topic. / "
        "我已经搜索过现有的 issues，确认这是一个新的问题与讨论。\n\n### Question Description / 问题描述\n\n")


@pytest.mark.parametrize("text", [
    "关于xformers的问题\n\n" + FORM + "训练时能不能把 xformers 换成 sdpa？\n",
    "sageattention 的使用问题\n\n# ❓ Questions and Help\n\n请问 sageattention 可以用在 Qwen-Image 的 VAE 上吗？\n",
    "flash_attention_3 相关问题\n\n### Question\n\n默认是 flash_attention_2，能否直接改成 flash_attention_3？\n",
])
def test_question_form_title_asks(text):
    assert _claims(text) == []


@pytest.mark.parametrize("text, expected", [
    # another word of failure on the line: a report filed as a question is still a report
    ("flash_attn安装失败的问题\n\n" + FORM + "按照文档安装，一直失败。\n", "fa2"),
    # no question form: 问题 is "problem"
    ("qwen2-vl训练的flash_attn问题\n\n### Describe the bug / 描述问题\n\n训练的时候 flash_attn 一直出问题。\n", "fa2"),
])
def test_question_word_still_read_as_failure(text, expected):
    assert _top(text)[1] == expected


def test_question_form_over_a_traceback_is_read():
    text = ("xformers 的问题\n\n# ❓ Questions and Help\n\n运行时报下面的错：\n\n"
            + tb(("/opt/conda/lib/python3.11/site-packages/xformers/ops/fmha/__init__.py", 306, "memory_efficient_attention",
                  "return _memory_efficient_attention("),
                 error="NotImplementedError: No operator found for `memory_efficient_attention_forward` with inputs:") + "\n")
    assert _top(text)[1] == "xformers"


# ---- padding ------------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("text, backend", [
    ("NaN outputs from xformers.ops.memory_efficient_attention when the batch has left padding", "xformers"),
    ("F.scaled_dot_product_attention returns NaN for padded queries under fp16", "sdpa"),
    ("Padding tokens give NaN in flex_attention output when the mask_mod hides every key", "flex"),
    ("flash_attn_func: outputs become nan because of right padding in the batch", "fa2"),
    ("scaled_dot_product_attention yields nan wherever a row is masked out with -inf", "sdpa"),
])
def test_nan_from_padding_is_fully_masked_rows(text, backend):
    assert _top(text) == ("attn.fully-masked-rows", backend)


@pytest.mark.parametrize("text", [
    "No NaN with padding when using SDPA, the fix worked",                         # no NaN
    "NaN loss in the first step. We use padding to 512 tokens. flash_attn 2.7.4",  # another sentence
    "The padded half of the last key tile is scored 0 -> inf * 0 (zero-padded K) gives NaN in dQ with SDPA's cudnn backend",
])
def test_nan_and_padding_not_read_as_fully_masked(text):
    assert _top(text)[0] != "attn.fully-masked-rows"


def test_padding_nan_needs_an_attention_backend():
    # NaN from padding in any model's code is not an attention backend's (needs_backend)
    assert _claims("The tokenizer's padding gives NaN in my custom loss function") == []


# ---- nograd -------------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("text", [
    "With sageattn there are no gradients on q, k and v, so the LoRA on the attention projections stays at zero",
    "SpargeAttn is built on SageAttention, so it focuses on inference and returns no gradients",
    "sageattn_qk_int8_pv_fp8_cuda doesn't compute gradients; my fine-tune learns nothing",
    "Sage Attention 2 is only meant for inference, use sdpa to train",
    "no gradients flow through sageattention in the training loop",
])
def test_no_gradient_through_sage_is_training(text):
    assert _top(text) == ("sage.training", "sage")


@pytest.mark.parametrize("text", [
    "SageBwd Release\n\nWill you also release SageBwd? I could only find the forward/inference implementation.\n",
    "SageAttention3 now has gradients on the tensors in the new release",
    "Request: Add Backward Pass support for SageAttention3\n\nSageAttention3 lacks the backward pass; please add it.\n",
])
def test_sage_backward_requests_and_news_not_training(text):
    assert ("sage.training", "sage") not in _claims(text)


# ---- misapply -----------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("text, backend", [
    ("Attention sinks are not applied correctly in `integrations.sdpa_attention`", "sdpa"),
    ("The ALiBi bias is applied twice in our xformers path", "xformers"),
    ("flex_attention: the sliding window isn't being handled properly for the last block", "flex"),
    ("softcap gets applied after the softmax in the flash_attn wrapper", "fa2"),
])
def test_misapplied_term_is_wrong_output(text, backend):
    assert _top(text) == ("attn.wrong-output", backend)


@pytest.mark.parametrize("text", [
    "The causal mask is applied correctly in flex_attention, the bug is elsewhere",
    "Attention sinks are applied correctly with SDPA after the fix",
])
def test_term_applied_correctly_is_no_wrong_output(text):
    assert ("attn.wrong-output", None) not in _claims(text) and _top(text)[0] != "attn.wrong-output"


@pytest.mark.parametrize("text", ["The sage attention patch is not applied",
                                  "--use-sage-attention is not applied, the log still shows SDPA"])
def test_not_applied_alone_is_still_ignored(text):
    assert _top(text)[0] in ("prose.ignored", "app.backend-selection-ignored")


# ---- added --------------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("text", [
    "feat: add an xformers fallback when flash-attn cannot be imported",
    "Add SDPA fallback for GPUs without FlashAttention 3 kernels",
    "fix: introduce a math-kernel fallback for sageattn on Turing",
])
def test_change_adding_a_fallback_is_not_ignored(text):
    assert _top(text)[0] != "prose.ignored"


@pytest.mark.parametrize("text", ["flash attention falls back to sdpa despite setting it",
                                  "After adding the new node, sageattn still falls back to SDPA"])
def test_fallback_that_happens_is_still_ignored(text):
    # (a sage fallback said in words is SageAttention's own entry since ex203, session 42: the same complaint, read more
    # specifically; a fallback that happens is still read, never dropped as a change that adds one)
    assert _top(text)[0] in ("prose.ignored", "sage.runtime-fallback") and \
        (_top(text)[0] == "sage.runtime-fallback") == ("sage" in text.lower())
