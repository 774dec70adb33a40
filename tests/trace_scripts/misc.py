"""Traced by tests/test_trace.py: SDPA in a loop, SDPA under sdpa_kernel(MATH), FlexAttention without
torch.compile, an SDPA call that raises and is caught (a trainer's fallback), flash_attn_func (the fake
FlashAttention 2 in fake_backends/, which runs SDPA inside), a trainer-style swap of
F.scaled_dot_product_attention for sageattn (the fake package in fake_backends/), and last an error planted
inside the hook, which must not change what the program computes."""

import os
import sys

import torch
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel
from torch.nn.attention.flex_attention import flex_attention


class Block(torch.nn.Module):
    def forward(self, x):
        return F.scaled_dot_product_attention(x, x, x, is_causal=True)


def fast_or_none(x):
    try:  # a trainer's fallback: q and k of different head dims make SDPA raise
        return F.scaled_dot_product_attention(x, x[..., :16], x)
    except RuntimeError:
        return None


def main():
    torch.manual_seed(0)
    q = torch.randn(2, 4, 64, 32)
    block = Block()
    for _ in range(20):
        ref = block(q)
    with sdpa_kernel(SDPBackend.MATH):
        for _ in range(3):
            block(q)
    for _ in range(2):
        flex_attention(q, q, q)
    fast_or_none(q)
    from flash_attn import flash_attn_func

    for _ in range(3):
        flash_attn_func(q.transpose(1, 2), q.transpose(1, 2), q.transpose(1, 2), causal=True)
    from sageattention import sageattn

    sdpa = F.scaled_dot_product_attention
    F.scaled_dot_product_attention = sageattn  # what a trainer's --sage flag does
    for _ in range(4):
        swapped = block(q)
    F.scaled_dot_product_attention = sdpa
    hook = sys.modules.get("_attn_doctor_trace_hook")
    if hook is not None:
        def broken():
            raise RuntimeError("planted by the test")

        hook._sdpa_flags = (broken,) * 4
    out = block(q)
    print("same result through the sage swap:", bool(torch.allclose(ref, swapped, atol=1e-5)))
    print("same result with a broken hook:", bool(torch.equal(ref, out)))
    print("user sitecustomize ran:", os.environ.get("USER_SITECUSTOMIZE_RAN"))


main()
