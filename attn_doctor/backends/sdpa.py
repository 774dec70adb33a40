"""PyTorch scaled_dot_product_attention: always there with torch; four sub-kernels."""

from . import BackendSpec

SPEC = BackendSpec(
    name="sdpa",
    title="PyTorch SDPA",
    import_code="from torch.nn.functional import scaled_dot_product_attention",
    module="torch.nn.functional",
    top_module="torch",
    dists=("torch",),
    install="pip install torch",
    fwd_caps=None,
    bwd_min_cap=None,
    dtypes=("float32", "float16", "bfloat16"),
    cpu=True,
    varlen="attn_mask",
    in_torch=True,
    head_dims="any (flash sub-kernel: up to 256)",
    notes=("sub-kernels flash / efficient / cudnn / math, chosen with torch.nn.attention.sdpa_kernel",),
)


# ---- smoke-test adapter: runs in the child process (attn_doctor.smoke.child) -------------------
# Canonical layout (batch, seq, heads, dim); varlen: packed (total, heads, dim) + int32 cu_seqlens.

def load(torch):
    return torch.nn.functional.scaled_dot_product_attention


def forward(sdpa, torch, q, k, v, *, causal, scale):
    gqa = {"enable_gqa": True} if q.shape[2] != k.shape[2] else {}
    out = sdpa(q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2), is_causal=causal, scale=scale, **gqa)
    return out.transpose(1, 2)


def segment_mask(torch, cu, total_rows, causal):
    """Boolean (rows, rows) mask: block-diagonal over cu_seqlens; rows past cu[-1] (padding) form
    their own block, so no real token can see them."""
    lens = (cu[1:] - cu[:-1]).tolist()
    seg = torch.repeat_interleave(torch.arange(len(lens), device=cu.device), torch.tensor(lens, device=cu.device))
    pad = total_rows - int(cu[-1])
    if pad:
        seg = torch.cat([seg, torch.full((pad,), -1, device=cu.device, dtype=seg.dtype)])
    m = seg[:, None] == seg[None, :]
    if causal:
        m &= torch.ones_like(m).tril()
    return m


def varlen(sdpa, torch, q, k, v, *, cu_q, cu_k, max_q, max_k, causal, scale):
    mask = segment_mask(torch, cu_q, q.shape[0], causal)
    gqa = {"enable_gqa": True} if q.shape[1] != k.shape[1] else {}
    out = sdpa(q.transpose(0, 1)[None], k.transpose(0, 1)[None], v.transpose(0, 1)[None], attn_mask=mask,
               scale=scale, **gqa)
    return out[0].transpose(0, 1)


def bench_call(sdpa, torch, *, causal, scale, seqlen, device, variant=None, gqa=False):
    """(layout, fn) for timing: SDPA's own (batch, heads, seq, dim) layout; `variant` pins one
    sub-kernel (flash, efficient, cudnn, math) the way torch.nn.attention.sdpa_kernel does."""
    from torch.nn.attention import SDPBackend, sdpa_kernel

    kw = {"enable_gqa": True} if gqa else {}
    if variant is None:
        return "bhsd", lambda q, k, v: sdpa(q, k, v, is_causal=causal, scale=scale, **kw)
    be = {"flash": SDPBackend.FLASH_ATTENTION, "efficient": SDPBackend.EFFICIENT_ATTENTION,
          "cudnn": SDPBackend.CUDNN_ATTENTION, "math": SDPBackend.MATH}[variant]

    def fn(q, k, v):
        with sdpa_kernel([be]):
            return sdpa(q, k, v, is_causal=causal, scale=scale, **kw)
    return "bhsd", fn
