"""scripts/gpu/hold.sh, case built: the three backends built from source in the same hold (FA2, FA3,
xformers), each called the way a trainer calls it, bf16 head dim 128, forward and backward; a backend
that is not importable is said and skipped (the trace then shows what did run)."""

import torch

q = torch.randn(2, 1024, 8, 128, device="cuda", dtype=torch.bfloat16, requires_grad=True)
ran = []
try:
    from flash_attn import flash_attn_func  # FA2
    for _ in range(3):
        flash_attn_func(q, q, q, causal=True).sum().backward()
    ran.append("fa2")
except Exception as e:  # noqa: BLE001 - what failed is the point of the case
    print("fa2 not run:", type(e).__name__, e)
try:
    from flash_attn_interface import flash_attn_func as fa3_func  # FA3 (hopper/)
    for _ in range(3):
        out = fa3_func(q, q, q, causal=True)
        (out[0] if isinstance(out, tuple) else out).sum().backward()
    ran.append("fa3")
except Exception as e:  # noqa: BLE001
    print("fa3 not run:", type(e).__name__, e)
try:
    import xformers.ops as xops
    for _ in range(3):
        xops.memory_efficient_attention(q, q, q, attn_bias=xops.LowerTriangularMask()).sum().backward()
    ran.append("xformers")
except Exception as e:  # noqa: BLE001
    print("xformers not run:", type(e).__name__, e)
torch.cuda.synchronize()
print("built case done:", ran)
