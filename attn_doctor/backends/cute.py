"""FlashAttention 4 on the CuTe DSL: `flash_attn.cute` from the `flash-attn-4` pre-releases."""

from . import BackendSpec

SPEC = BackendSpec(
    name="cute",
    title="FlashAttention 4 (CuTe DSL)",
    import_code="from flash_attn.cute import flash_attn_func, flash_attn_varlen_func",
    module="flash_attn.cute",
    top_module="flash_attn",
    dists=("flash-attn-4",),
    install="pip install 'flash-attn-4>=4.0.0b0'",
    fwd_caps=((8, 0), (12, 9)),
    bwd_min_cap=(9, 0),
    dtypes=("float16", "bfloat16"),
    varlen="cu_seqlens (int32)",
    head_dims="64-256 on sm90; up to 128, (192,128) or 256 on sm100",
    notes=("layout (batch, seq, heads, dim); returns (out, lse)",
           "first call per shape JIT-compiles; FA4's disk cache is off by default"),
)


# ---- smoke-test adapter: runs in the child process (attn_doctor.smoke.child) -------------------

def load(torch):
    from flash_attn.cute import flash_attn_func, flash_attn_varlen_func

    return flash_attn_func, flash_attn_varlen_func


def environment(torch):
    import os

    return {"fa4_cache_enabled": os.environ.get("FLASH_ATTENTION_CUTE_DSL_CACHE_ENABLED", "0") == "1",
            "fa4_cache_dir": os.environ.get("FLASH_ATTENTION_CUTE_DSL_CACHE_DIR")}


def _out(r):
    return r[0] if isinstance(r, tuple) else r  # FA4 returns (out, lse)


def forward(h, torch, q, k, v, *, causal, scale):
    return _out(h[0](q, k, v, softmax_scale=scale, causal=causal))


def varlen(h, torch, q, k, v, *, cu_q, cu_k, max_q, max_k, causal, scale):
    return _out(h[1](q, k, v, cu_seqlens_q=cu_q, cu_seqlens_k=cu_k, max_seqlen_q=max_q, max_seqlen_k=max_k,
                     softmax_scale=scale, causal=causal))


def bench_call(h, torch, *, causal, scale, seqlen, device, variant=None, gqa=False):
    """(layout, fn) for timing, in this backend's own (batch, seq, heads, dim) layout."""
    return "bshd", lambda q, k, v: forward(h, torch, q, k, v, causal=causal, scale=scale)
