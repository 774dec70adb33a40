"""FlashAttention 2/3/4 messages read from the backend's own source that explain read as nothing before helper ex133
(issue 23; benchmarks/source_messages.py fa, benchmarks/results/explain-source-messages-fa.md): each as torch prints it,
with a variant of our own (another tensor, dtype spelling, head-dim list, a traceback frame), read by the entry for its
mechanism and attributed to the backend whose source raises it. Every case here failed at main 6f976f6e (read as nothing,
by a catch-all, or as another backend's); the near misses guard the new patterns' reach."""

from __future__ import annotations

import pytest

from attn_doctor.explain import match

FA3_FRAME = ('  File "/opt/conda/lib/python3.11/site-packages/flash_attn_3/flash_attn_interface.py", line 92, in '
             '_flash_attn_forward\n    out, softmax_lse, *rest = torch.ops.flash_attn_3.fwd(\n')
FA2_FRAME = ('  File "/venv/lib/python3.12/site-packages/flash_attn/flash_attn_interface.py", line 1609, in '
             'flash_attn_with_kvcache\n    out, softmax_lse = flash_attn_gpu.fwd_kvcache(\n')

CASES = [
    # (text, entry, backend)
    # the per-sequence int32 index tensors (csrc/flash_attn/flash_api.cpp:656-658,743-745,1429-1432,1491-1492;
    # hopper/flash_api.cpp:831-844,938,1007-1009,1076-1078,1087 at 0251105a)
    ("RuntimeError: seqused_k must have dtype int32", "fa2.index-tensor-args", "fa2"),
    ("RuntimeError: leftpad_k must be contiguous", "fa2.index-tensor-args", "fa2"),
    ("RuntimeError: cache_batch_idx must have dtype int32", "fa2.index-tensor-args", "fa2"),
    ("RuntimeError: seqlens_k must have shape (batch_size)", "fa2.index-tensor-args", "fa2"),
    ("RuntimeError: cache_seqlens must have dtype torch.int32", "fa2.index-tensor-args", "fa2"),  # variant
    ("RuntimeError: scheduler_metadata must be on CUDA", "fa2.index-tensor-args", "fa3"),
    ("RuntimeError: seqlens_rotary must have shape (batch_size)", "fa2.index-tensor-args", "fa3"),
    ("RuntimeError: cu_seqlens_k_new must be contiguous", "fa2.index-tensor-args", "fa3"),
    ("RuntimeError: kv_batch_idx must have dtype torch.int32", "fa2.index-tensor-args", "fa3"),  # variant
    ("RuntimeError: seqused_q must be contiguous", "fa2.index-tensor-args", "fa3"),
    (FA3_FRAME + "RuntimeError: leftpad_k must have dtype int32", "fa2.index-tensor-args", "fa3"),  # FA3's copy, under its frame
    # buffers of another dtype (csrc/flash_attn/flash_api.cpp:446,890,899,908; hopper/flash_api.cpp:1432-1458,1614;
    # flash_attn/cute/interface.py:3621)
    ("RuntimeError: Output must have the same dtype as inputs", "fa2.out-buffer-dtype", "fa2"),
    ("RuntimeError: dq must have the same dtype as q", "fa2.out-buffer-dtype", "fa2"),
    ("RuntimeError: dv must have the same dtype as q", "fa2.out-buffer-dtype", "fa2"),  # variant
    ("RuntimeError: Output type must be FP32, FP16 or BF16", "fa2.out-buffer-dtype", "fa3"),
    ("RuntimeError: For FP16/BF16 input, output must have the same dtype as inputs. For FP8 input, output must have dtype BF16",
     "fa2.out-buffer-dtype", "fa3"),
    # the fused rotary tables (csrc/flash_attn/flash_api.cpp:1471-1479; hopper/flash_api.cpp:1055-1069)
    ("RuntimeError: rotary_cos must have shape (seqlen_ro, params.rotary_dim / 2)", "fa2.kvcache-args", "fa2"),
    ("RuntimeError: rotary_sin must be contiguous", "fa2.kvcache-args", "fa2"),
    ("RuntimeError: rotary_cos must have the same dtype as query", "fa2.kvcache-args", "fa2"),
    (FA2_FRAME + "RuntimeError: rotary_sin must have the same dtype as q", "fa2.kvcache-args", "fa2"),  # variant
    # FA3's early head-dim lists (hopper/flash_api.cpp at v2.6.3, lines 300 and 604)
    ("RuntimeError: Only support head size 64, 128, and 256 for now", "attn.head-dim-unsupported", "fa3"),
    ("RuntimeError: Only support head size 64 and 128 for now", "attn.head-dim-unsupported", "fa3"),
    ("RuntimeError: Only support head size 64, 96, 128 and 256 for now", "attn.head-dim-unsupported", "fa3"),  # variant
    # FA4's shapes, Python tuples (flash_attn/cute/interface.py:623,628,632), and its combine's dtypes
    ("AssertionError: cu_seqlens_k must have shape (batch_size + 1,)", "varlen.cu-seqlens", "cute"),
    ("AssertionError: seqused_q must have shape (batch_size,)", "fa2.index-tensor-args", "cute"),  # interface.py:632
    ("AssertionError: out_partial must be fp16, bf16, or fp32", "fa2.out-buffer-dtype", "cute"),  # interface.py:3621
]


FA4_FRAME = ('  File "/usr/local/lib/python3.12/dist-packages/flash_attn/cute/interface.py", line 623, in _flash_attn_fwd\n'
             '    assert cu_seqlens_k.shape == (batch_size + 1,), "cu_seqlens_k must have shape (batch_size + 1,)"\n')


def test_fa4_cu_seqlens_under_its_frame_is_fa4s():
    found = match(FA4_FRAME + "AssertionError: cu_seqlens_k must have shape (batch_size + 1,)")
    assert found and found[0].entry.id == "varlen.cu-seqlens" and found[0].backend == "cute"


NEAR_MISSES = [
    # the same words about tensors of other libraries: not FlashAttention's index tensors, buffers or rotary tables
    "ValueError: positions must have dtype int32",
    "RuntimeError: cos_cache must be contiguous",
    "RuntimeError: Output must have the same shape as inputs",
    "AssertionError: dx must have the same dtype as x",
    "RuntimeError: We only support head size 64 and 128 in this kernel",
    # helper ex137: not FA4's block-sparse metadata or buffers, not FlashAttention's slopes or splits
    "AssertionError: x dtype torch.float16 != expected torch.bfloat16",
    "AssertionError: weight shape torch.Size([4, 4]) != expected (4, 8)",
    "ValueError: block tensors must have dtype torch.int32",
    "ValueError: sparse tensors must live on CUDA",
    "ValueError: alibi slopes must be a list of floats",
    "ValueError: num_splits must be positive",
    "AssertionError: grad must not have broadcast dimensions",
]


@pytest.mark.parametrize("text", NEAR_MISSES)
def test_other_tensors_words_are_not_flash_attentions(text):
    ids = [m.entry.id for m in match(text)]
    assert not {"fa2.index-tensor-args", "fa2.out-buffer-dtype", "fa2.kvcache-args", "fa2.head-dim", "cute.block-sparsity-args",
                "cute.buffer-args", "fa2.alibi-slopes", "fa2.num-splits"} & set(ids), ids


# rev22b (review of ex133): the same index-tensor checks raised by torch's own vendored FlashAttention 2. torch 2.13's
# varlen_attn passes seqused_k to aten._flash_attention_forward (torch/nn/attention/varlen.py:58,110,124), whose copy of
# flash_api.cpp checks it word for word as FA2 does: under torch's frame the backend is SDPA's (as varlen.cu-seqlens
# reads there), not the flash-attn package's. Inside xformers' bundled FA2 it stays xformers'.
TORCH_VARLEN_FRAME = ('  File "/opt/venv/lib/python3.11/site-packages/torch/nn/attention/varlen.py", line 110, in varlen_attn\n'
                      '    output, softmax_lse, rng_state, _, _ = torch.ops.aten._flash_attention_forward(\n')
XFORMERS_FA2_FRAME = ('  File "/opt/venv/lib/python3.11/site-packages/xformers/ops/fmha/flash.py", line 120, in _flash_fwd\n'
                      '    ) = _C_flashattention.varlen_fwd(\n')
FRAMED = [
    (TORCH_VARLEN_FRAME + "RuntimeError: seqused_k must have dtype int32", "sdpa"),
    (TORCH_VARLEN_FRAME + "RuntimeError: seqused_k must be contiguous", "sdpa"),
    (TORCH_VARLEN_FRAME + "RuntimeError: cu_seqlens_k must have dtype int32", "sdpa"),  # the entry beside it, for reference
    (XFORMERS_FA2_FRAME + "RuntimeError: seqused_k must have dtype int32", "xformers"),
]


@pytest.mark.parametrize("text,backend", FRAMED, ids=[c[0].splitlines()[0][-40:] + c[0].splitlines()[-1][:40] for c in FRAMED])
def test_index_tensor_checks_under_another_backends_frame_are_that_backends(text, backend):
    found = match(text)
    assert found and found[0].backend == backend, [(m.entry.id, m.backend) for m in found]


# helper ex137 (session 23): what ex133's "Left" list named, each read from the source at 0251105a, with variants of our own
# (another tensor of the pair, another context or block size, another release's head-dim ranges). Each failed at s23start
# (178ca03e): read as nothing, by the last resort triage.backend-message, or as another backend's.
FA4_BLOCK_SPARSITY = ('  File "/usr/local/lib/python3.12/dist-packages/flash_attn/cute/block_sparsity.py", line 383, in '
                      'infer_block_sparse_expected_shapes\n    raise ValueError(\n')
LEFT_CASES = [
    # FA4's block-sparse metadata (flash_attn/cute/block_sparsity.py:207,240,257-267,294-298,349-407,473,582-593,648-654)
    ("ValueError: mask_block_cnt and mask_block_idx must both be provided or both be None", "cute.block-sparsity-args", "cute"),
    ("ValueError: full_block_cnt and full_block_idx must be on the same device", "cute.block-sparsity-args", "cute"),  # variant
    ("ValueError: mask_block tensors must have dtype torch.int32", "cute.block-sparsity-args", "cute"),
    ("ValueError: full_block tensors must live on CUDA", "cute.block-sparsity-args", "cute"),  # variant
    ("ValueError: dq_write_order_full must have dtype torch.int32", "cute.block-sparsity-args", "cute"),
    ("ValueError: mask_block_idx (forward) with shape torch.Size([1, 4, 8, 8]) cannot be expanded to expected shape "
     "(2, 16, 8, 8). Hint: pass block_size", "cute.block-sparsity-args", "cute"),  # variant
    ("ValueError: Block sparse tensorsforward must have shapes (B, H, M) and (B, H, M, N).", "cute.block-sparsity-args", "cute"),
    ("ValueError: Block sparse tensors (backward) head dim must be 16 or 1.", "cute.block-sparsity-args", "cute"),  # variant
    ("ValueError: Block sparse tensorsforward m-block dimension 32 does not match sparse_block_size_q=128. Set "
     "BlockSparseTensorsTorch.block_size to match the BlockMask BLOCK_SIZE.", "cute.block-sparsity-args", "cute"),
    ("ValueError: Block sparsity requires sparse_block_size[1]=128 to match tile_n.", "cute.block-sparsity-args", "cute"),
    ("ValueError: Varlen block sparsity requires sparse_block_size[0]=256 (= q_stage * tile_m); got 128.",
     "cute.block-sparsity-args", "cute"),
    ("ValueError: All block sparse tensors must be on the same device", "cute.block-sparsity-args", "cute"),
    (FA4_BLOCK_SPARSITY + "ValueError: Block sparse tensorsforward n-block dimension must be <= 64.", "cute.block-sparsity-args",
     "cute"),
    # FA4's caller-provided buffers (flash_attn/cute/interface.py:259-263; cute_dsl_utils.py:102-112)
    ("AssertionError: out dtype torch.float16 != expected torch.bfloat16", "cute.buffer-args", "cute"),
    ("AssertionError: lse dtype torch.bfloat16 != expected torch.float32", "cute.buffer-args", "cute"),
    ("AssertionError: dv device cuda:1 != expected cuda:0", "cute.buffer-args", "cute"),  # variant
    ("AssertionError: k_descale dtype torch.bfloat16 != expected torch.float32", "cute.buffer-args", "cute"),  # variant
    ("AssertionError: out must not have broadcast dimensions", "cute.buffer-args", "cute"),
    ("AssertionError: lse must have aligned strides and a contiguous last dimension", "cute.buffer-args", "cute"),
    # FA2's ALiBi slopes and split count (csrc/flash_attn/flash_api.cpp:343,356,359)
    ("RuntimeError: ALiBi slopes must have dtype fp32", "fa2.alibi-slopes", "fa2"),
    ("RuntimeError: Expected alibi_slopes.sizes() == torch::IntArrayRef({num_heads}) || alibi_slopes.sizes() == "
     "torch::IntArrayRef({batch_size, num_heads}) to be true, but got false.", "fa2.alibi-slopes", "fa2"),
    (FA2_FRAME + "RuntimeError: num_splits > 128 not supported", "fa2.num-splits", "fa2"),
    # FA3's V head dim pairs read bare (hopper/flash_api.cpp:783); the variant: another release's ranges
    ("RuntimeError: If V headdim is different from Q/K dim, we only support Q/K headdim in (128, 192] and V headdim in (96, 128], "
     "or (Q/K <= 64 and V <= 512).", "attn.head-dim-unsupported", "fa3"),
    ("RuntimeError: If V headdim is different from Q/K dim, we only support Q/K headdim in (64, 128] and V headdim in (32, 64].",
     "attn.head-dim-unsupported", "fa3"),  # variant
]


@pytest.mark.parametrize("text,entry,backend", CASES + LEFT_CASES, ids=[c[0].splitlines()[-1][:60] for c in CASES + LEFT_CASES])
def test_source_message_is_read_by_its_mechanism(text, entry, backend):
    found = match(text)
    assert found, "read as nothing"
    assert found[0].entry.id == entry, [m.entry.id for m in found]
    assert found[0].backend == backend, found[0].backend


# torch's vendored FlashAttention 2 raises the same ALiBi and split-count checks (set_params_alibi / set_params_splitkv of aten's
# flash_api.cpp): under torch's frame they are SDPA's (attribution.toml [entry_takes_over])
@pytest.mark.parametrize("message", ["RuntimeError: ALiBi slopes must have dtype fp32", "RuntimeError: num_splits > 128 not supported"])
def test_alibi_and_num_splits_under_torchs_frame_are_sdpas(message):
    found = match(TORCH_VARLEN_FRAME + message)
    assert found and found[0].entry.id in ("fa2.alibi-slopes", "fa2.num-splits"), [(m.entry.id, m.backend) for m in found]
    assert found[0].backend == "sdpa", [(m.entry.id, m.backend) for m in found]

