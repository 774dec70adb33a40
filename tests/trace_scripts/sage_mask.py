"""Traced by tests/test_trace.py: a trainer-style swap of F.scaled_dot_product_attention for sageattn (the fake package in
fake_backends/, sageattention 1.0.6's signature: **kwargs taken and never read), then called as SDPA is, with a padding
mask (dropped by sageattn: the trace must say so) and with dropout_p=0.0 only (dropping it changes nothing: no finding)."""

import torch
import torch.nn.functional as F


def main():
    torch.manual_seed(0)
    q = torch.randn(2, 4, 64, 32)
    mask = torch.ones(2, 1, 64, 64, dtype=torch.bool)
    mask[1, :, :, 48:] = False  # the second sample is padded
    ref = F.scaled_dot_product_attention(q, q, q, attn_mask=mask)
    from sageattention import sageattn

    F.scaled_dot_product_attention = sageattn  # what a trainer's --sage flag does
    for _ in range(3):
        out = F.scaled_dot_product_attention(q, q, q, attn_mask=mask, dropout_p=0.0)
    F.scaled_dot_product_attention(q, q, q, dropout_p=0.0)
    print("padded sample the same as SDPA's:", bool(torch.allclose(ref[1], out[1], atol=1e-5)))


if __name__ == "__main__":
    main()
