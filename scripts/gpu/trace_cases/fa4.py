"""scripts/gpu/trace.sh, case fa4: FA4 through flash_attn.cute.flash_attn_func, then SDPA with FA4 activated
as its flash implementation (torch.nn.attention.activate_flash_attention_impl("FA4"), where this torch has
it). bf16, head dim 128, causal, forward + backward."""

import torch
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel

from flash_attn.cute import flash_attn_func

q = torch.randn(2, 1024, 16, 128, device="cuda", dtype=torch.bfloat16, requires_grad=True)  # (B, S, H, D)
for _ in range(3):
    out = flash_attn_func(q, q, q, causal=True)
    out = out[0] if isinstance(out, tuple) else out
    out.float().sum().backward()
print("cute direct: ok")

import torch.nn.attention as attention

activate = getattr(attention, "activate_flash_attention_impl", None)
if activate is None:
    print("SDPA FA4 route: absent in torch", torch.__version__, "(no torch.nn.attention.activate_flash_attention_impl)")
else:
    print("flash impls registered:", attention.list_flash_attention_impls())
    try:
        activate("FA4")
        print("SDPA FA4 route: activated; current impl:", attention.current_flash_attention_impl())
    except Exception as e:
        print("SDPA FA4 route: activate_flash_attention_impl('FA4') raised", type(e).__name__, str(e)[:200])
    x = q.transpose(1, 2)  # (B, H, S, D)
    for _ in range(3):
        try:
            with sdpa_kernel(SDPBackend.FLASH_ATTENTION):
                F.scaled_dot_product_attention(x, x, x, is_causal=True).float().sum().backward()
        except Exception as e:
            print("SDPA FA4 route: the call raised", type(e).__name__, str(e).splitlines()[0][:200])
            break
torch.cuda.synchronize()
print("fa4 case done")
