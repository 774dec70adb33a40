"""Traced by tests/test_trace.py under `torchrun --nproc-per-node 2` (gloo, CPU): a DDP training loop of
10000 steps that attn-doctor trace --steps 2 must stop on every rank."""

import torch
import torch.distributed as dist
import torch.nn.functional as F


class Attn(torch.nn.Module):
    def __init__(self, d=16, heads=2):
        super().__init__()
        self.heads, self.qkv, self.out = heads, torch.nn.Linear(d, 3 * d), torch.nn.Linear(d, d)

    def forward(self, x):
        B, T, C = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.heads, C // self.heads).permute(2, 0, 3, 1, 4)
        y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        return self.out(y.transpose(1, 2).reshape(B, T, C))


dist.init_process_group("gloo")
model = torch.nn.parallel.DistributedDataParallel(Attn())
opt = torch.optim.SGD(model.parameters(), lr=0.01)
for step in range(10000):
    model(torch.randn(2, 8, 16)).pow(2).mean().backward()
    opt.step()
    opt.zero_grad()
print("rank", dist.get_rank(), "ran all 10000 steps")
