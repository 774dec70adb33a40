"""scripts/gpu/trace.sh, case sage: sageattention.sageattn called directly (HND layout, fp16, head dim 128,
forward only: it has no backward), then a trainer-style swap of F.scaled_dot_product_attention for it, which
a model's attention then runs through."""

import torch
import torch.nn.functional as F
from sageattention import sageattn

q = torch.randn(2, 16, 1024, 128, device="cuda", dtype=torch.float16)
with torch.no_grad():
    for _ in range(3):
        sageattn(q, q, q, tensor_layout="HND", is_causal=True)


class Attention(torch.nn.Module):
    def forward(self, x):
        return F.scaled_dot_product_attention(x, x, x, is_causal=True)


F.scaled_dot_product_attention = sageattn  # what a --sage flag of some trainers does
with torch.no_grad():
    for _ in range(4):
        Attention()(q)
torch.cuda.synchronize()
print("sage case done")
