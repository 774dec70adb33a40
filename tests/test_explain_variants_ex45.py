"""Variants for helper ex45 (issue 23, session 7): the mechanisms behind wrong numbers in attention, each from upstream code or
a maintainer's answer (benchmarks/results/numerics-mechanisms-s7.md), for the numerics reports of round 44
(fixtures/errors/round44/) that only prose entries read.

Every case was written by hand (2026-11-28) from the mechanism, NOT copied from a real thread: another path, version, symbol,
wrapper, language or wording. Each positive case asserts the entry and the backend of the first problem that can be a
failure's cause; the near misses beside each mechanism assert what must NOT be claimed.

Mechanisms (knowledge file: entry):
  batched     flash_attn.toml fa2.batched-padding-outputs (new): batched / padded inputs broken or batch-size dependent under
              FlashAttention 2 (huggingface/transformers#25598, #27050, #34824; QwenLM/Qwen3-VL#1463)
  rounding    attention.toml attn.backend-rounding (new): slight differences between backends or between packed and padded
              layouts, expected in bf16/fp16 (Dao-AILab/flash-attention#145, #410)
  masked      attention.toml attn.fully-masked-rows (new): fully masked query rows give NaN (pytorch/pytorch#103963, #131060)
  determin    attention.toml attn.nondeterministic-backward (new): atomic adds in the backward, run-to-run differences
              (Dao-AILab/flash-attention#384, #414; torch's "defaults to a non-deterministic algorithm" warning)
  degenerate  attention.toml attn.wrong-output (widened): repeated tokens / gibberish from a backend's path; training that
              does not converge, said in Chinese after the backend
"""

from __future__ import annotations

import pytest

from explain_top import first_cause as _top, ids as _ids


# batched
@pytest.mark.parametrize("text", [
    "Batch generation returns garbage for the shorter prompts with FA2 (Llama-3 8B, left padding)",
    "flash_attn gives wrong results for batched decoding on Qwen2-VL, bs=1 fine",
    "The predictions differ with the batch size when attn_implementation='flash_attention_2' is set",
    "用 flash_attn 之后批量生成结果乱码",
    "flash_attention_2 破坏了批量推理，batch=1 正常",
])
def test_batched_outputs_under_fa2(text):
    assert _top(text) == ("fa2.batched-padding-outputs", "fa2")


@pytest.mark.parametrize("text", [
    "Batched inference with flash_attention_2 works fine and is 2x faster",
    "| batch size | flash_attention_2 | sdpa |\n| 8 | 120 tok/s | 95 tok/s |",  # a benchmark table
    "the output is the same for every batch size with flash_attention_2",
    "flash attention 不影响批量推理结果",  # does NOT affect
])
def test_batched_near_misses(text):
    assert "fa2.batched-padding-outputs" not in _ids(text)


# rounding
@pytest.mark.parametrize("text, backend", [
    ("There is a slight discrepancy in logits between SDPA and our reference implementation", "sdpa"),
    ("xformers output shows slightly different values compared with vanilla attention in bf16", "xformers"),
    ("Different results with packed sequences and flash_attn_varlen_func versus padded batches", "fa2"),
    ("Mismatched outputs between sdpa and eager for Gemma in bf16", "sdpa"),
    ("SDPA 与 eager 输出不一致", "sdpa"),
])
def test_rounding_between_backends(text, backend):
    assert _top(text) == ("attn.backend-rounding", backend)


def test_rounding_train_eval_mismatch():
    # a model trained with one implementation evaluated with another: the line names both, attribution picks one of them
    text = "We switched to sdpa instead of flash_attention_2 for evaluation and the accuracy dropped by 3 points"
    assert _top(text)[0] == "attn.backend-rounding"


@pytest.mark.parametrize("text", [
    "No difference between flash attention and eager on our test set (max abs diff 0)",
    "flash_attn 3 has a slightly different API than flash_attn 2",
    "sdpa vs eager: 1.8x faster, same outputs",
    "There is not a slight difference between SDPA and eager, they match bit for bit",
])
def test_rounding_near_misses(text):
    assert "attn.backend-rounding" not in _ids(text)


# masked
@pytest.mark.parametrize("text", [
    "torch.nn.functional.scaled_dot_product_attention returns NaN for entirely masked-out rows when padding queries",
    "SDPA: NaN appears for fully masked tokens in the cross-attention mask",
    "F.scaled_dot_product_attention 的 mask 全为 -inf 的行会得到 NaN",
])
def test_fully_masked_rows(text):
    assert _top(text) == ("attn.fully-masked-rows", "sdpa")


@pytest.mark.parametrize("text", [
    "We use a key padding mask so padded tokens are ignored; no NaN appears with SDPA",
    "flex_attention returns zero output for a fully masked batch row instead of NaN, grads are zero too",
    "torch 2.5 SDPA: fully masked rows now give zeros, not NaN",
])
def test_fully_masked_near_misses(text):
    assert "attn.fully-masked-rows" not in _ids(text)


# determin
@pytest.mark.parametrize("text, backend", [
    ("xformers memory_efficient_attention backward is nondeterministic, grads change between runs", "xformers"),
    ("Non-deterministic results under SDPA in training even with torch.manual_seed", "sdpa"),
    ("UserWarning: Memory Efficient attention defaults to a non-deterministic algorithm. To explicitly enable determinism "
     "call torch.use_deterministic_algorithms(True, warn_only=False). (Triggered internally at "
     "/pytorch/aten/src/ATen/native/transformers/cuda/attention_backward.cu:775.)", "sdpa"),
    ("flash_attn 训练结果无法复现", "fa2"),
    ("用 flash_attn 训练，同一个 seed 两次 loss 不一样", "fa2"),
])
def test_nondeterministic_backward(text, backend):
    assert _top(text) == ("attn.nondeterministic-backward", backend)


@pytest.mark.parametrize("text", [
    "FA2's forward is deterministic; the backward with deterministic=True too",
    "with flash attention the results are reproducible now (deterministic=True)",
    "the data loader is non-deterministic because of shuffle workers",  # no attention backend
])
def test_nondeterministic_near_misses(text):
    assert "attn.nondeterministic-backward" not in _ids(text)


# degenerate
@pytest.mark.parametrize("text, backend", [
    ("xformers generates repetitive text after the first sentence on the T4", "xformers"),
    ("flash_attn 2.6 produces gibberish for Mistral with sliding window", "fa2"),
    ("Flash-Attention regurgitates the same tokens for our Marian models", "fa2"),
    ("开启 flash attention 后模型无法收敛", "fa2"),
    ("用 sageattention 微调，loss 不收敛", "sage"),
])
def test_degenerate_output_and_non_convergence(text, backend):
    assert _top(text) == ("attn.wrong-output", backend)


@pytest.mark.parametrize("text", [
    "flash attention repeats the KV heads for GQA before the kernel",
    "用 flash attention 训练收敛正常，速度快了一倍",
    "关掉 flash attention 后模型不收敛",  # the backend off: not its fault
    "sdpa 不收敛的问题在关闭 xformers 之后依然存在",
])
def test_degenerate_near_misses(text):
    assert "attn.wrong-output" not in _ids(text)


def test_cudnn_refusing_determinism_is_torchs_message():
    # torch's own error when determinism is asked of the cuDNN kernel: not the atomic-add note
    assert "attn.nondeterministic-backward" not in _ids("RuntimeError: cuDNN SDPA is not deterministic.")


# fp16 overflow (attention.toml attn.fp16-overflow, new: huggingface/transformers#17437, open-compass/opencompass#1955)
@pytest.mark.parametrize("text", [
    "Gemma 7B in half precision: attention weights overflow and the loss is nan",
    "The eager path in float16 produces inf in the attention softmax after 8k tokens",
    "float16 下 attention 出现 nan，eager 模式",
])
def test_fp16_overflow(text):
    assert _top(text)[0] == "attn.fp16-overflow"


@pytest.mark.parametrize("text", [
    "we upcast the softmax to fp32 to avoid overflow in fp16 attention",
    "eager in fp16 is 2x slower than sdpa, no NaN",
    "fp16 training works, the attention does not overflow",
])
def test_fp16_overflow_near_misses(text):
    assert "attn.fp16-overflow" not in _ids(text)
