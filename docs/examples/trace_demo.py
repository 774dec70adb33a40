"""The example of docs/trace.md: a small GPT-style model trained on the CPU with its attention through
F.scaled_dot_product_attention, and every other step an evaluation pass that runs under sdpa_kernel(MATH)
("deterministic") and scores a long context with a sliding-window FlexAttention left uncompiled.
Run: attn-doctor trace --steps 5 -- python docs/examples/trace_demo.py"""

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel
from torch.nn.attention.flex_attention import create_block_mask, flex_attention

T, D, H = 128, 64, 4


class Attention(nn.Module):
    def __init__(self):
        super().__init__()
        self.qkv, self.out = nn.Linear(D, 3 * D), nn.Linear(D, D)

    def forward(self, x):
        B, L, _ = x.shape
        q, k, v = self.qkv(x).view(B, L, 3, H, D // H).permute(2, 0, 3, 1, 4)
        y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        return x + self.out(y.transpose(1, 2).reshape(B, L, D))


def window(b, h, q, kv):
    return (q >= kv) & (q - kv < 256)


def long_context_score(q):
    mask = create_block_mask(window, None, None, q.shape[-2], q.shape[-2], device="cpu")
    return flex_attention(q, q, q, block_mask=mask).mean()


model = nn.Sequential(Attention(), Attention())
opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
for step in range(1000):
    model(torch.randn(2, T, D)).pow(2).mean().backward()
    opt.step()
    opt.zero_grad()
    if step % 2 == 1:
        with torch.no_grad(), sdpa_kernel(SDPBackend.MATH):
            model(torch.randn(2, T, D))
            long_context_score(torch.randn(1, H, 2048, D // H))
print("trained")
