"""Variants for helper ex119 (session 20): wrong backend as a class. Training texts matched with another backend than their
label (s20start: 66 outside round113m and the measure-only sets) were classed by why; the attribution mechanisms fixed here are
each one way a line names a backend that did not fail (benchmarks/results/explain-wrong-backend-s20.md).

Every case was written by hand (2026-11-30): other backends, programs and wordings than the fixtures. Most fail on main at
127b3d23; the near misses say the same words about the failing backend and must keep it.

Mechanisms (all in knowledge/attribution/):
  reference  sentences.COMPARED_TO (_replaced_removed): the reference of a comparison by its other words ("against", "relative to",
             "different from", "slower than", a result that "matches" it) names no failing backend, and is blanked even where the
             rest of the line names none (then the title decides)
  healthy    sentences.HEALTHY: "performs well" is a clause that says a backend works (where another clause names the failing one)
  state      sentences.CONFIG_OFF: a library's state None in a listing of states (unsloth's "FA [Xformers = None. FA2 = False]")
  kernel     decide._torch_kernel_subject (in attribute): xformers' CUTLASS kernel names (fmha_cutlassF_*, cutlassB), which torch's
             memory-efficient SDPA kernel keeps, are SDPA's where the text shows SDPA and no xformers
  effect     sentences.EFFECT (_effect_removed): in "A causes B to fail" / "A 导致 B 失效" the backend B failed; a backend named in A
             (a flag, a setting) is the cause
"""

from __future__ import annotations

import pytest

from explain_top import first


@pytest.mark.parametrize("text, want", [
    # reference: the backend a result is compared to (named after the reference word) is not the failing one
    ("# xformers cutlassF on sm120\nI checked it against torch's scaled_dot_product_attention and the output values are wrong in fp16", 'xformers'),
    ('# FlexAttention with a score_mod is off in bf16\nThe outputs are different from SDPA by 0.5 for every head (wrong values)', 'flex'),
    ('# sageattn_qk_int8_pv_fp8_cuda on RTX 4090\nRelative to FlashAttention-2 the outputs are wrong by 0.3', 'sage'),
    ('# FA4 on B200\nIts output matches SDPA in norm, but element-wise values are wrong', 'cute'),
    ('# Hopper kernel from the FA3 beta\nThe kernel returns the right shape and its norm matched SDPA, but element-wise values are wrong', 'fa3'),
    # ... near misses: the subject before the reference word stays
    ('flash-attn 2.7.4 backward is 3x slower than xformers on my A100', 'fa2'),
    ('scaled_dot_product_attention output is wrong when compared to the eager reference', 'sdpa'),
    ("flash_attn_func gives wrong outputs compared to PyTorch's math SDPA in bf16", 'fa2'),  # (rev20: torch's kernel names as the reference)
    ('Tested against flash-attn 2.8.3: the backward crashes with an illegal memory access', 'fa2'),
    ('# Wrong values on H100\nThe outputs of FA3 don\'t match SDPA in bf16 (wrong values)', 'fa3'),
    ('xformers 0.0.28 was built against PyTorch 2.4.1 and fails to load its C++ extensions', 'xformers'),
    ('xformers is slower than expected on the 5090', 'xformers'),
    # healthy: "performs well" is a clause that says a backend works
    ('xformers performs well on the 4090, FA3 is 2x slower on H100', 'fa3'),
    ('xformers performs well, but flash_attn crashes at import with an undefined symbol', 'fa2'),
    ('SageAttention 2.2 performed fine on the 4090; FlexAttention gives NaN on the same prompt', 'flex'),
    # ... near misses: the failing clause names the backend, or the healthy clause's backend fails elsewhere
    ('Works fine with eager, but flash_attention_2 gives NaN loss after 100 steps', 'fa2'),
    ('FlexAttention performs well on A100 but crashes on H100 with an illegal memory access', 'flex'),
    # state: a library's None in a banner's listing of states
    ('Bfloat16 = TRUE. FA [Xformers = None. FA2 = False]\n\nflash_attn is definitely installed (2.8.3), pip show lists it', 'fa2'),
    ('Platform: Linux. FA [Xformers = None, FA2 = False]\nbut flash-attn is installed in the venv', 'fa2'),
    # kernel: xformers' CUTLASS kernel names in torch's own memory-efficient SDPA
    ('RuntimeError: FATAL: kernel `fmha_cutlassB_f16_aligned_64x64_k64_sm80` is for sm80-sm100, but was built for sm75\nIt happens in the backward of torch.nn.functional.scaled_dot_product_attention on ZLUDA', 'sdpa'),
    ('ZLUDA training: FATAL: kernel fmha_cutlassF_bf16_aligned_64x128_rf_sm80 is for sm80-sm90, but was built for sm35\nthe SDPA memory efficient path is what the model calls', 'sdpa'),
    # ... near miss: xformers itself shown
    ('ZLUDA training: FATAL: kernel fmha_cutlassF_bf16_aligned_64x128_rf_sm80 is for sm80-sm90, but was built for sm35\nthe model calls xformers.ops.memory_efficient_attention', 'xformers'),
    # effect: "A causes B to fail": B failed, A (a flag, a setting) is the cause
    ('[BUG] 启动器默认会带 --xformers 参数，导致 sage attention 失效', 'sage'),
    ('Launching with --use-pytorch-cross-attention causes SageAttention to be ignored completely', 'sage'),
    ('Setting ATTN_BACKEND=XFORMERS makes FlashAttention-2 stop working in the Wan node', 'fa2'),
    ('用 --use-sage-attention 启动，致使 flash_attn 报错 undefined symbol', 'fa2'),
    # ... near misses: the backend is the cause and nothing else is named
    ('SageAttention causes black images on the 5090', 'sage'),
    ('building xformers from source: make[2]: *** [third_party/flash-attention/csrc/flash_attn/src/flash_fwd_hdim128.o] Error 1',
     'xformers'),
    ('flash-attn 2.7.4 causes NaN loss in training', 'fa2'),
])
def test_backend(text: str, want: str | None) -> None:
    assert first(text)[1] == want
