"""scripts/gpu/trace.sh, case sdpa: SDPA with its flash, efficient and cuDNN kernels each forced once (one
call site each), the dispatcher's own pick, float32 (flash impossible), a causal mask passed as a tensor,
and a head dim flash refuses. bf16, head dim 128, causal, forward + backward."""

import torch
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel

dev = "cuda"
q = torch.randn(4, 16, 1024, 128, device=dev, dtype=torch.bfloat16, requires_grad=True)


def forced_flash():
    with sdpa_kernel(SDPBackend.FLASH_ATTENTION):
        return F.scaled_dot_product_attention(q, q, q, is_causal=True)


def forced_efficient():
    with sdpa_kernel(SDPBackend.EFFICIENT_ATTENTION):
        return F.scaled_dot_product_attention(q, q, q, is_causal=True)


def forced_cudnn():
    with sdpa_kernel(SDPBackend.CUDNN_ATTENTION):
        return F.scaled_dot_product_attention(q, q, q, is_causal=True)


def dispatcher_pick():
    return F.scaled_dot_product_attention(q, q, q, is_causal=True)


def float32():
    x = q.detach().float()
    return F.scaled_dot_product_attention(x, x, x, is_causal=True)


def causal_mask_tensor():
    mask = torch.ones(1024, 1024, dtype=torch.bool, device=dev).tril()
    return F.scaled_dot_product_attention(q, q, q, attn_mask=mask)


def head_dim_512():
    x = torch.randn(1, 4, 256, 512, device=dev, dtype=torch.bfloat16)
    return F.scaled_dot_product_attention(x, x, x, is_causal=True)


for fn in (forced_flash, forced_efficient, forced_cudnn, dispatcher_pick, float32, causal_mask_tensor, head_dim_512):
    for _ in range(3):
        try:
            out = fn()
            if out.requires_grad:
                out.float().sum().backward()
        except RuntimeError as e:  # a kernel refused here is a row with "first call raised"
            print(f"{fn.__name__}: {type(e).__name__}: {str(e).splitlines()[0][:160]}")
            break
torch.cuda.synchronize()
print("sdpa case done")
