"""xformers memory_efficient_attention: a compiled extension pinned to one torch build."""

from . import BackendSpec

SPEC = BackendSpec(
    name="xformers",
    title="xformers",
    import_code="import xformers.ops\nfrom xformers.ops import memory_efficient_attention",
    module="xformers.ops",
    top_module="xformers",
    dists=("xformers",),
    install="pip install xformers  # the release built for your torch",
    fwd_caps=((5, 0), (12, 9)),
    bwd_min_cap=None,
    dtypes=("float32", "float16", "bfloat16"),
    varlen="BlockDiagonalMask",
    head_dims="up to 128 for backward on most ops",
    notes=("layout (batch, seq, heads, dim)",),
)


# ---- smoke-test adapter: runs in the child process (attn_doctor.smoke.child) -------------------

def load(torch):
    import xformers.ops as xops

    return xops


def forward(xops, torch, q, k, v, *, causal, scale):
    if q.shape[2] != k.shape[2]:  # GQA: xformers wants (B, M, G, H, K); expanding is what trainers do
        rep = q.shape[2] // k.shape[2]
        k = k.repeat_interleave(rep, dim=2)
        v = v.repeat_interleave(rep, dim=2)
    bias = xops.LowerTriangularMask() if causal else None
    return xops.memory_efficient_attention(q, k, v, attn_bias=bias, scale=scale)


def varlen(xops, torch, q, k, v, *, cu_q, cu_k, max_q, max_k, causal, scale):
    """Block-diagonal bias over the packed batch; padding rows are one more block."""
    from xformers.ops import fmha

    lens = (cu_q[1:] - cu_q[:-1]).tolist()
    pad = q.shape[0] - int(cu_q[-1])
    seqlens = lens + ([pad] if pad else [])
    cls = fmha.attn_bias.BlockDiagonalCausalMask if causal else fmha.attn_bias.BlockDiagonalMask
    bias = cls.from_seqlens(seqlens)
    if q.shape[1] != k.shape[1]:
        rep = q.shape[1] // k.shape[1]
        k = k.repeat_interleave(rep, dim=1)
        v = v.repeat_interleave(rep, dim=1)
    return xops.memory_efficient_attention(q[None], k[None], v[None], attn_bias=bias, scale=scale)[0]


def bench_call(h, torch, *, causal, scale, seqlen, device, variant=None, gqa=False):
    """(layout, fn) for timing, in this backend's own (batch, seq, heads, dim) layout."""
    return "bshd", lambda q, k, v: forward(h, torch, q, k, v, causal=causal, scale=scale)
