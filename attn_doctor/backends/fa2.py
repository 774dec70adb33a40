"""FlashAttention 2: the `flash-attn` package and its `flash_attn_2_cuda` extension."""

from . import BackendSpec

SPEC = BackendSpec(
    name="fa2",
    title="FlashAttention 2",
    import_code="from flash_attn import flash_attn_func, flash_attn_varlen_func",
    module="flash_attn",
    top_module="flash_attn",
    dists=("flash-attn", "flash_attn"),
    install="pip install flash-attn --no-build-isolation",
    fwd_caps=((8, 0), (12, 9)),
    bwd_min_cap=None,
    dtypes=("float16", "bfloat16"),
    varlen="cu_seqlens (int32)",
    head_dims="up to 256, multiple of 8",
    notes=("prebuilt wheels are tagged +cuXXtorchX.Ycxx11abiTRUE/FALSE and must match torch",),
)


# ---- smoke-test adapter: runs in the child process (attn_doctor.smoke.child) -------------------

def load(torch):
    from flash_attn import flash_attn_func, flash_attn_varlen_func

    return flash_attn_func, flash_attn_varlen_func


def _out(r):
    return r[0] if isinstance(r, tuple) else r


def forward(h, torch, q, k, v, *, causal, scale):
    return _out(h[0](q, k, v, dropout_p=0.0, softmax_scale=scale, causal=causal))


def varlen(h, torch, q, k, v, *, cu_q, cu_k, max_q, max_k, causal, scale):
    return _out(h[1](q, k, v, cu_q, cu_k, max_q, max_k, dropout_p=0.0, softmax_scale=scale, causal=causal))


def bench_call(h, torch, *, causal, scale, seqlen, device, variant=None, gqa=False):
    """(layout, fn) for timing, in this backend's own (batch, seq, heads, dim) layout."""
    return "bshd", lambda q, k, v: forward(h, torch, q, k, v, causal=causal, scale=scale)
