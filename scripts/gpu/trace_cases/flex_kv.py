"""scripts/gpu/trace_cases: compiled FlexAttention given a 512-long key and a 256-long value (bf16, head dim 128), which
torch 2.11 does not refuse (fixtures/gpu/h200-s16-faults: rc 0), beside SDPA given the same, which refuses. Prints what
came out, and how far it is from attention over the first 256 keys and values (the only rows both have)."""

import torch
import torch.nn.functional as F
from torch.nn.attention.flex_attention import flex_attention

torch.manual_seed(0)
q = torch.randn(2, 8, 1024, 128, device="cuda", dtype=torch.bfloat16)
k = torch.randn(2, 8, 512, 128, device="cuda", dtype=torch.bfloat16)
v = torch.randn(2, 8, 256, 128, device="cuda", dtype=torch.bfloat16)
flex = torch.compile(flex_attention)
for _ in range(2):
    out = flex(q, k, v)
torch.cuda.synchronize()
ref = F.scaled_dot_product_attention(q, k[:, :, :256], v)
print("flex returned", tuple(out.shape), "| non-finite values:", int((~torch.isfinite(out)).sum()),
      "| rel. difference from attention over the first 256 rows:", round(float((out.float() - ref.float()).norm() / ref.float().norm()), 3))
try:
    F.scaled_dot_product_attention(q, k, v)
except RuntimeError as e:
    print("SDPA refused the same inputs:", str(e).splitlines()[0][:160])
print("flex-kv case done")
