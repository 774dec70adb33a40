"""rv8's review (session 7) of what the session merged (fe8b374..4b9f2a0), explain side.

Every case was written by hand (2026-11-28) from the mechanism, not copied from a thread.

  int32     attention.toml attn.int32-overflow: a 32-bit offset overflow said beside an attention kernel's name; not an
            int32 overflow of a data loader, a tokenizer or numpy on a line that also names the backend in passing
  fp16      attention.toml attn.fp16-overflow: eager / unfused attention overflowing in fp16; not the AMP loss scaler's
            routine "loss scale overflow, skipping step", nor a benchmark table's cells
  advice    triton.toml triton.launcher-py-ssize-clean: clearing the cached launchers first (rebuilt on the next run), and
            reinstalling the Triton torch pins rather than `pip install --upgrade triton`, which moves Triton off that pin
"""

from __future__ import annotations

import pytest

from attn_doctor import knowledge
from explain_top import ids as _ids


# int32
@pytest.mark.parametrize("text", [
    "[WIP] fa3 varlen fix int32 overflow",
    "flash_attn_varlen_func backward: int32 offset overflow for 190k packed tokens",
    "FlexAttention's backward hits a 32-bit index overflow once batch x heads x seq passes INT32_MAX",
    "The flash_attn_func call fails with an illegal memory access; this appears to be related to using int32 as the address dtype.",
    "Does FA4 support int64 addressing?",
    "xformers memory_efficient_attention: 32-bit indexing overflow at B=4096",
])
def test_int32_overflow_beside_an_attention_kernel(text):
    assert "attn.int32-overflow" in _ids(text)


@pytest.mark.parametrize("text", [
    "numpy int32 overflow in the dataloader index when the dataset passes 2**31 rows (sdpa model)",
    "ValueError: int32 overflow while tokenizing; model uses flash-attn 2",
    "Does the sdpa dataloader support int64 indexing for shards?",
    "flash-attn 2.7.4 installed. The tokenizer uses int32 offsets overflow-safe.",
])
def test_near_miss_an_int32_overflow_elsewhere_on_a_line_that_names_a_backend(text):
    assert "attn.int32-overflow" not in _ids(text)


# fp16
@pytest.mark.parametrize("text", [
    "With fp16 the attention scores overflow for sequences above 4k tokens",
    "float16 + attn_implementation='eager' gives nan logits after layer 20",
    "In half precision the eager path overflows and every logit is inf",
    "| Qwen2.5-7B | eager | fp16 | outputs NaN after layer 20 |",
])
def test_fp16_overflow_of_unfused_attention(text):
    assert "attn.fp16-overflow" in _ids(text)


@pytest.mark.parametrize("text", [
    "fp16 training with eager attention: loss scale overflow, skipping step (normal for AMP)",
    "fp16 run, attention=eager: Gradient overflow. Skipping step, loss scaler 0 reducing loss scale to 32768",
    "| fp16 | eager | 12.3 ms | speedup inf |",
    "| float16 | eager | 812 | inf |",
])
def test_near_miss_the_loss_scaler_and_a_benchmark_table(text):
    assert "attn.fp16-overflow" not in _ids(text)


# advice
def test_py_ssize_clean_fix_does_not_move_triton_off_torchs_pin():
    fix = knowledge.entries()["triton.launcher-py-ssize-clean"].plain_fix
    first = fix.split("#", 1)[0]
    assert "--upgrade" not in fix, fix  # the newest Triton is not the one torch pins
    assert first.strip().startswith("rm -rf"), fix  # the cached launchers first: rebuilt, nothing that works is replaced
    assert "TRITON_CACHE_DIR" in first


def test_int32_cause_says_the_kernel_counts_padded_extents():
    # [1600, 16, 729, 72] is 1.34e9 elements, under 2**31: the overflow comes from the kernel's padded extents
    e = knowledge.entries()["attn.int32-overflow"]
    assert "1600 x 729 x 16 x 72" not in e.cause or "rounded up" in e.cause, e.cause
    assert "rounded up" in e.fix or "well below" in e.fix, e.fix


# cost: attn.nan-output's Chinese rule (round 44) read from each backend name to the line's end (LINE_GAP, 4096) for the
# loss word: 0.16 s on a 32 KB line naming backends every few words, against 0.007 s with the clause's reach (120)
NAN_ZH = [p for p in knowledge.entries()["attn.nan-output"].patterns if "(?:出现|变成|变为|等于|成为)" in p]


def test_chinese_nan_rule_reads_a_clause_not_the_line():
    assert NAN_ZH and all("[^\\n]*?(?:loss|梯度" not in p for p in NAN_ZH), NAN_ZH


@pytest.mark.parametrize("text", [
    "flash attention版本从 0.2 切换到 2.0 之后，训练到第二个 epoch 时 loss和grad norm会出现 NAN的情况",
    "加了flash-attn 会导致loss 变为无穷",
    "用 xformers 跑 fp32 没问题，bf16 下训练一段时间后梯度变成 nan",
])
def test_chinese_nan_after_the_backend_still_read(text):
    assert "attn.nan-output" in _ids(text)


def test_fully_masked_rows_cites_the_pull_request_that_landed():
    # pytorch/pytorch#131060 was closed unmerged; _safe_softmax landed with #133882 ("Update fused kernels and call
    # _safe_softmax from SDPA"), which is what makes torch 2.5+ return 0 for those rows, as the fix says
    refs = " ".join(knowledge.entries()["attn.fully-masked-rows"].refs)
    assert "pytorch/pytorch#133882" in refs, refs


def test_batched_outputs_tells_a_bug_from_rounding():
    # FA2's own split of the keys depends on batch x heads (num_splits), so slightly different numbers at another batch size
    # are rounding; the entry's advice is for garbage padded rows, and must say where its own claim stops
    cause = knowledge.entries()["fa2.batched-padding-outputs"].cause
    assert "rounding" in cause and "attn.backend-rounding" in cause, cause


# rounding: two implementations, not one implementation's runs
@pytest.mark.parametrize("text", [
    "Slight differences in the learning-rate schedule between runs (xformers enabled)",
    "flash_attn: slight differences across seeds in the eval loss, nothing else changed",
    "We see slightly different results between two runs on the same machine with sdpa",
])
def test_near_miss_one_implementations_runs_are_not_rounding_between_two(text):
    assert "attn.backend-rounding" not in _ids(text)


@pytest.mark.parametrize("text", [
    "There is a slight difference between the outputs of flash_attn_func and the eager path in bf16",
    "xformers gives slightly different logits than the math kernel; between runs it is stable",
])
def test_rounding_between_two_implementations_still_read(text):
    assert "attn.backend-rounding" in _ids(text)
