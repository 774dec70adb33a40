"""Variants for helper ex42b (session 42): the backend explain names where the training rounds' first measurements named another
(benchmarks/results/ex42b-backend-at-first.md), fixed for two mechanisms, not for the texts.

Every case was written by hand (2026-12-03) from the upstream sources' own messages, in other programs, paths, versions and
languages than any fixture. Positives name what explain must report first (entry, backend); near misses what it must not.

  fa4-route    torch's FA4 route (torch/nn/attention/_fa4.py _fa4_forward_supported / _fa4_forward_support_error) refuses a call
               for the GPU's capability in its own words ("FA4 flash_attention forward unsupported: FA4 requires compute capability
               9.0 or 10.0", "... paged KV (block_table) not supported on SM 90"): torch raises it for an SDPA / varlen call,
               before any FA4 kernel runs, so it is sdpa.fa4-route (backend sdpa), as the route's dtype/dropout reasons already
               were; FA4's own architecture checks (flash_attn/cute asserts, another program's FA4 capability check) stay cute.arch
  torch-flash  torch vendors FA2's flash_api.cpp checks in FA2's words (attribution.toml [torch_flash_shared]): fa2.dtype,
               fa2.head-dim and fa2.last-dim-contiguous are SDPA's where the text shows torch's flash kernel or its varlen route
               (torch.nn.attention.varlen.varlen_attn, aten._flash_attention_forward) and names no FlashAttention package
  xf-flash-op  xformers' own flash operators in the code (fmha.flash.FwOp / BwOp, `from xformers.ops.fmha import flash3`) make
               "flash attention" words xformers' (attribution/decide.py FA_MODULE_CODE["xformers"]), as 49 of 50 training labels
               of texts showing them hold; code that also calls flash_attn itself keeps the words FA2's
"""

from __future__ import annotations

from each_case import each
from explain_top import first, ids

SDPA_FRAMES = ('Traceback (most recent call last):\n'
               '  File "/home/runner/vision/train_vit.py", line 77, in <module>\n'
               '    y = F.scaled_dot_product_attention(q, k, v, is_causal=True)\n')
VARLEN_FRAMES = ('Traceback (most recent call last):\n'
                 '  File "/opt/pack/trainer/packing.py", line 140, in attend\n'
                 '    out = varlen_attn(q, k, v, cu_seq_q, cu_seq_k, max_q, max_k, is_causal=True)\n'
                 '  File "/usr/local/lib/python3.11/site-packages/torch/nn/attention/varlen.py", line 188, in varlen_attn\n'
                 '    out, lse, _ = torch.ops.torch_attn._varlen_attn(\n')
FA2_FRAMES = ('Traceback (most recent call last):\n'
              '  File "/srv/app/model.py", line 51, in forward\n'
              '    o = flash_attn_varlen_func(q, k, v, cu, cu, m, m, causal=True)\n'
              '  File "/usr/lib/python3/dist-packages/flash_attn/flash_attn_interface.py", line 1124, in flash_attn_varlen_func\n'
              '    return FlashAttnVarlenFunc.apply(\n')

POSITIVES = [
    # fa4-route
    ("route-capability-l40s", SDPA_FRAMES + "RuntimeError: FA4 flash_attention forward unsupported: FA4 requires compute capability 9.0 or 10.0",
     ("sdpa.fa4-route", "sdpa")),
    ("route-capability-quoted", "after activate_flash_attention_impl('FA4') my RTX 6000 Ada box raises \"FA4 requires compute capability 9.0 or 10.0\" "
     "from the first attention call", ("sdpa.fa4-route", "sdpa")),
    ("route-paged-sm90", "E1203 12:01:44 worker.py:310] RuntimeError: FA4 SDPA forward unsupported: paged KV (block_table) not supported on SM 90",
     ("sdpa.fa4-route", "sdpa")),
    ("fa4-own-assert", "  File \"/venv/lib/python3.12/site-packages/flash_attn/cute/flash_fwd_sm100.py\", line 92, in __init__\n"
     "AssertionError: Only SM 10.x and 11.x are supported", ("cute.arch", "cute")),
    # torch-flash
    ("varlen-dtype", VARLEN_FRAMES + "RuntimeError: FlashAttention only support fp16 and bf16 data type", ("fa2.dtype", "sdpa")),
    ("aten-head-dim", "  File \"/work/bench/raw_ops.py\", line 12, in <module>\n"
     "    out = torch.ops.aten._flash_attention_forward(q, k, v, None, None, 4096, 4096, 0.0, True, False)\n"
     "RuntimeError: FlashAttention forward only supports head dimension at most 256", ("fa2.head-dim", "sdpa")),
    ("varlen-dtype-ja", "torch.nn.attention.varlen の varlen_attn に fp32 の q/k/v を渡すと "
     "'FlashAttention only support fp16 and bf16 data type' で落ちます (torch 2.12)", ("fa2.dtype", "sdpa")),
]

# xf-flash-op: the backend only (the entry is whichever catch-all reads the words)
XF_BACKEND = [
    ("xf-op-prose", "FlashAttention 2 gives no speedup in our server\n\nI set `self.attn_op = xops.fmha.flash.FwOp()` in attention.py and "
     "reran the throughput benchmark, flash attention v2 is not faster at all.", "xformers"),
    ("xf-import-flash3", "from xformers.ops.fmha import flash3\nFlashAttention-3 fails on my H100 with this error\n"
     "RuntimeError: CUDA error: an illegal memory access was encountered", "xformers"),
    ("fa2-code-beside-xf-words", "flash attention 2 is slow\n\nfrom flash_attn import flash_attn_func\nout = flash_attn_func(q, k, v, causal=True)\n"
     "xformers was faster before.", "fa2"),
    ("both-codes", "flash attention 2 crashes\n\nfrom flash_attn import flash_attn_func\nop = xops.fmha.flash.FwOp()\n"
     "RuntimeError: CUDA error: an illegal memory access was encountered", "fa2"),
]

NEAR_MISSES = [
    # another program's own FA4 capability check is no route refusal
    ("wrapper-fa4-check", "RuntimeError: H100 FA4 requires compute capability 9.0, found (8, 9)", "sdpa.fa4-route"),
]

# the same messages where the FlashAttention package raised them: FA2's
STAYS_FA2 = [
    ("fa2-frames-dtype", FA2_FRAMES + "RuntimeError: FlashAttention only support fp16 and bf16 data type", ("fa2.dtype", "fa2")),
    ("fa2-import-beside-varlen", "from flash_attn import flash_attn_varlen_func  # our varlen_attn wrapper\n"
     "RuntimeError: FlashAttention only support fp16 and bf16 data type", ("fa2.dtype", "fa2")),
    ("hf-fa2-dtype", "model = AutoModelForCausalLM.from_pretrained(path, attn_implementation=\"flash_attention_2\")\n"
     "UserWarning: Flash attention kernel not used because of the mask\n"
     "RuntimeError: FlashAttention only support fp16 and bf16 data type", ("fa2.dtype", "fa2")),
]


def _positive(text, want):
    got = first(text)
    assert got == want, (got, ids(text))


def _near_miss(text, must_not):
    found = ids(text)
    assert must_not not in found, found


def test_ex42b_variants():
    each(((name, (text, want)) for name, text, want in POSITIVES + STAYS_FA2), _positive)


def test_ex42b_near_misses():
    each(((name, (text, must_not)) for name, text, must_not in NEAR_MISSES), _near_miss)


def _backend(text, want):
    got = first(text)
    assert got is not None and got[1] == want, (got, ids(text))


def test_ex42b_xformers_flash_op_backend():
    each(((name, (text, want)) for name, text, want in XF_BACKEND), _backend)
