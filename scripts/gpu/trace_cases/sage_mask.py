"""scripts/gpu/final16.sh, case sage-mask: a trainer-style swap of F.scaled_dot_product_attention for sageattention's
sageattn, then called as SDPA is, with a padding mask (fp16, head dim 128, HND). SageAttention takes attn_mask through
**kwargs and never reads it: the padded sample's output differs from SDPA's, and the trace must name the dropped
keyword. Also prints whether sageattn left its k input as it was given."""

import torch
import torch.nn.functional as F
from sageattention import sageattn

torch.manual_seed(0)
q = torch.randn(2, 16, 1024, 128, device="cuda", dtype=torch.float16)
k = torch.randn(2, 16, 1024, 128, device="cuda", dtype=torch.float16)
v = torch.randn(2, 16, 1024, 128, device="cuda", dtype=torch.float16)
mask = torch.ones(2, 1, 1024, 1024, device="cuda", dtype=torch.bool)
mask[1, :, :, 768:] = False  # the second sample's last 256 keys are padding
with torch.no_grad():
    ref = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
    k0 = k.clone()
    sageattn(q, k, v, tensor_layout="HND")
    print("sageattn left k as given:", bool(torch.equal(k, k0)), "| max change:", float((k - k0).abs().max()))
    k = k0.clone()
    F.scaled_dot_product_attention = sageattn  # what a --sage flag of some trainers does
    for _ in range(3):
        out = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
torch.cuda.synchronize()
err = lambda i: float((out[i].float() - ref[i].float()).norm() / ref[i].float().norm())
print(f"rel. difference from SDPA with the mask: unpadded sample {err(0):.3f}, padded sample {err(1):.3f}")
print("sage-mask case done")
