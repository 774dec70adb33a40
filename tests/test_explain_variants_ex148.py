"""A last resort for a backend whose kernels the named GPU is too old for (helper ex148, session 25; issue 23, the right-cause
residuals of benchmarks/results/explain-residuals-s25.md): where the only answer for FlashAttention 2/3 or SageAttention is a
catch-all reading a traceback (through its frames, cut before the error line; an exception that names it) and the text names a GPU
below every kernel that backend ships (Volta, Turing, Pascal: T4, V100, P100, a 2080 Ti, a Quadro RTX 4000, compute
capability 7.5), the cause is that GPU: backend.unsupported-gpu (attribution.toml [[specialize]], entry a list). Variants of
our own, written from round 11 (verl-project/verl#985) and round 12 (OpenGVLab/InternVL#918); each positive failed at s25start
(15e7edae): read as triage.through-backend. The near misses keep their catch-all: a supported GPU, slowness or a build on an
old GPU, "Turing or newer", xformers (which has Volta kernels), and the prose layer's sentences (prose.gpu's own reading)."""

from __future__ import annotations

import pytest

from attn_doctor.explain import match

SITE = "/home/u/venv/lib/python3.10/site-packages/"


def _frame(path: str, line: int, func: str, code: str) -> str:
    return f'  File "{SITE}{path}", line {line}, in {func}\n    {code}\n'


FA2_CUT = ("Traceback (most recent call last):\n"
           + _frame("transformers/modeling_flash_attention_utils.py", 380, "_flash_attention_forward",
                    "attn_output = flash_attn_varlen_func(")
           + _frame("flash_attn/flash_attn_interface.py", 1200, "flash_attn_varlen_func", "return FlashAttnVarlenFunc.apply("))
SAGE_CUT = ("Traceback (most recent call last):\n"
            + _frame("sageattention/core.py", 98, "sageattn", "o = attn_false(q_int8, k_int8, v, q_scale, k_scale)")
            + _frame("sageattention/attn_qk_int8_per_block.py", 100, "forward", "_attn_fwd[grid]("))

REFUSED = [
    ("PPO training cannot run on our V100 nodes\n" + FA2_CUT, "fa2"),
    ("Tesla P100 上使用 flash_attn 报错\n" + FA2_CUT, "fa2"),  # CJK right after the GPU: no word boundary there
    ("GTX 1080 Ti安装sageattention报错\n" + SAGE_CUT, "sage"),
    ("sageattention fails on my 2080 Ti\n" + SAGE_CUT, "sage"),
    ("My card reports compute capability 7.5\n" + FA2_CUT, "fa2"),
]


@pytest.mark.parametrize("text,backend", REFUSED)
def test_catch_all_beside_a_gpu_below_the_backend_is_that_gpu(text, backend):
    found = match(text)
    assert found, "explain found nothing"
    assert (found[0].entry.id, found[0].backend) == ("backend.unsupported-gpu", backend), \
        [(m.entry.id, m.backend) for m in found]


KEPT = [
    # (policy: lead, session 26: "[Bug] flash attention error while fine-tuning Qwen2-VL on a Colab T4" left this list: a sentence
    # naming the backend, a failure and a GPU below its kernels is that GPU refused, tests/test_explain_variants_ex152.py)
    # a crash said on an old GPU is a kernel that ran, not the backend's refusal (it refuses before any kernel runs)
    "My card reports compute capability 7.5 and flash-attn crashes on the first step.",
    "[Bug] flash attention error while fine-tuning Qwen2-VL on an A100\nIt stops in the vision tower.",  # a supported GPU
    "flash-attn is very slow on my T4, slower than eager",  # slowness happens on any GPU
    "pip install flash-attn fails to build on our V100 server",  # a build is not the GPU's refusal
    "flash attention fails here although it supports Turing or newer cards",  # a range, not the GPU
    "xformers error during training on a V100\n" + _frame("xformers/ops/fmha/__init__.py", 200, "memory_efficient_attention",
                                                        "return _memory_efficient_attention("),
]


@pytest.mark.parametrize("text", KEPT)
def test_no_gpu_below_the_backend_keeps_the_catch_all(text):
    assert "backend.unsupported-gpu" not in [m.entry.id for m in match(text)]

