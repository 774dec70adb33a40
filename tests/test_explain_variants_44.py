"""Variants for round 44 (issue 23, helper ex44): a training round from repositories no earlier set used, weighted to
config and numerics reports (fixtures/errors/round44/), whose texts main's rules missed or read only as prose.

Every case was written by hand for this round (2026-11-28) from the mechanism, NOT copied from a real thread:
another path, version, symbol, wrapper, language or wording. Each positive case asserts the entry (and the backend
where explain names one) of the first problem that can be a failure's cause; the near misses beside each mechanism
assert what must NOT be claimed.

Mechanisms (knowledge file: entry):
  flash-switch     attribution.toml (fa2's shared names): a trainer's switch for its FlashAttention path as flags and
                   config keys spell it ("--enable_flashattn", "use_flash_attn: true"), inside which the names' word
                   boundary does not fall, so a NaN loss said beside it had no backend
  nan-zh           attention.toml attn.nan-output: a NaN / inf loss or gradient said in Chinese on a line naming the
                   backend, either order ("loss 变成 nan", "出现 NaN 的梯度"); "不会出现" (does not) is no claim
  nan-backtick     attention.toml attn.nan-output: "`NaN` values" written in backticks
  aotriton         attribution.toml (sdpa's files): AOTriton (pyaotriton, libaotriton_v2.so), the kernels behind
                   torch's SDPA on ROCm: its "Flash-Attention kernel" is SDPA's, not flash-attn's
  output-attn      frameworks.toml transformers.sdpa-output-attentions: output_attentions=True said to force / switch
                   to eager attention
  math-pinned      sdpa.toml sdpa.math-pinned (new): code that pins SDPA to SDPBackend.MATH ("only enable", "restrict ...
                   to MATH"), slow and out of memory on long prompts
"""

from __future__ import annotations

import pytest

from explain_top import first_cause as _top, ids as _ids


# flash-switch
@pytest.mark.parametrize("text", [
    "Since the last update, training with --enable_flashattn gives nan loss after the first epoch; without the flag it trains",
    "config.yaml has use_flash_attn: true and the loss becomes nan at step 1200",
    "python train.py --use-flash-attention --bf16 -> loss=nan from the second eval on",
])
def test_flash_switch_names_the_backend(text):
    assert _top(text) == ("attn.nan-output", "fa2")


@pytest.mark.parametrize("text", [
    "enable_flashattn=False",  # the switch alone, nothing failed
    "Added a use_flash_attn flag to the training script; defaults to true on Ampere",
])
def test_flash_switch_near_misses(text):
    assert _ids(text) == []


# nan-zh
@pytest.mark.parametrize("text, backend", [
    ("换成 sageattention 之后训练到第3个epoch, loss 变成 nan", "sage"),
    ("xformers 0.0.28 下 grad norm 会出现 NaN，回退到 0.0.27 正常", "xformers"),
    ("训练时产生 NaN 的梯度，关掉 flash_attn 就正常", "fa2"),
    ("升级 flash-attn 之后损失变为无穷，降级就好了", "fa2"),
])
def test_nan_said_in_chinese_beside_the_backend(text, backend):
    assert _top(text) == ("attn.nan-output", backend)


@pytest.mark.parametrize("text", [
    "用 flash attention 训练 loss 不会出现 nan",  # "does not" become NaN
    "sdpa 不会出现nan的梯度",
    "flash attention 的 loss 为 0.35，eager 为 0.36",  # a loss value, not NaN
])
def test_nan_zh_near_misses(text):
    assert "attn.nan-output" not in _ids(text)


# nan-backtick
@pytest.mark.parametrize("text", [
    "the xformers cutlass kernel writes `NaN` values into the output for seqlen 65536",
    "FlashAttention's varlen backward leaves sporadic `NaN` values in dq on H20",
])
def test_backticked_nan_values(text):
    assert _top(text)[0] == "attn.nan-output"


def test_backticked_nan_values_near_miss():
    # NaN values of a dataset, no attention backend named
    assert "attn.nan-output" not in _ids("the labels column has `NaN` values, drop them before training")


# aotriton
@pytest.mark.parametrize("text", [
    "libaotriton_v2.so.0.11 on gfx1151 returns NaN output for head dim 72",
    "The AOTriton flash attention forward produces `NaN` values in the LSE on Strix Point",
])
def test_aotriton_is_sdpa(text):
    assert _top(text) == ("attn.nan-output", "sdpa")


def test_aotriton_near_miss():
    assert _ids("AOTriton 0.11 adds gfx1151 kernels for the memory-efficient backend") == []


# output-attn
@pytest.mark.parametrize("text", [
    "Setting output_attentions=True forces the eager attention implementation, so Whisper never runs SDPA and decoding is 3x slower",
    "our pipeline passes `output_attentions=True` on every step, which makes transformers use eager instead of flash_attention_2",
    "output_attentions = True falls back to eager attention in every layer",
])
def test_output_attentions_forces_eager(text):
    assert _top(text)[0] == "transformers.sdpa-output-attentions"


@pytest.mark.parametrize("text", [
    "output_attentions=True works fine with eager",
    "set attn_implementation='eager' and output_attentions=True to plot the maps",
])
def test_output_attentions_near_misses(text):
    assert "transformers.sdpa-output-attentions" not in _ids(text)


# math-pinned
@pytest.mark.parametrize("text", [
    "We only enable `SDPBackend.MATH` in both the prefill and decode phases, so a 60k-token prompt runs out of memory.",
    "The vision tower pins SDPA to MATH for determinism, which makes the 4K-image forward 5x slower",
    "model(qwen3): do not restrict scaled_dot_product_attention to the MATH backend during prefill",
])
def test_sdpa_pinned_to_math(text):
    assert _top(text) == ("sdpa.math-pinned", "sdpa")


@pytest.mark.parametrize("text", [
    "Only the MATH backend supports double backward",  # a fact about torch, no code pins it
    "with sdpa_kernel(SDPBackend.MATH): ref = F.scaled_dot_product_attention(q, k, v)  # the reference in the test",
    "restrict the sequence length to 4096 tokens",
])
def test_sdpa_math_pinned_near_misses(text):
    assert "sdpa.math-pinned" not in _ids(text)
