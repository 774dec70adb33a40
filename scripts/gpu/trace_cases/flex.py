"""scripts/gpu/trace.sh, case flex: FlexAttention with a causal block mask, eager (the unfused path) and
through torch.compile (Triton), bf16, head dim 128, forward + backward."""

import torch
from torch.nn.attention.flex_attention import create_block_mask, flex_attention


def causal(b, h, q_idx, kv_idx):
    return q_idx >= kv_idx


q = torch.randn(2, 8, 1024, 128, device="cuda", dtype=torch.bfloat16, requires_grad=True)
mask = create_block_mask(causal, None, None, 1024, 1024, device="cuda")
for _ in range(2):
    flex_attention(q, q, q, block_mask=mask).float().sum().backward()
compiled = torch.compile(flex_attention)
for _ in range(5):
    compiled(q, q, q, block_mask=mask).float().sum().backward()
torch.cuda.synchronize()
print("flex case done")
