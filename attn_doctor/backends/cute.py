"""FlashAttention 4 on the CuTe DSL: `flash_attn.cute` from the `flash-attn-4` pre-releases."""

from . import BackendSpec

SPEC = BackendSpec(
    name="cute",
    title="FlashAttention 4 (CuTe DSL)",
    import_code="from flash_attn.cute import flash_attn_func, flash_attn_varlen_func",
    module="flash_attn.cute",
    top_module="flash_attn",
    dists=("flash-attn-4",),
    install="pip install --pre flash-attn-4",
    fwd_caps=((8, 0), (12, 9)),
    bwd_min_cap=(9, 0),
    dtypes=("float16", "bfloat16"),
    varlen="cu_seqlens (int32)",
    head_dims="64-256 on sm90; up to 128, (192,128) or 256 on sm100",
    notes=("layout (batch, seq, heads, dim); returns (out, lse)",
           "first call per shape JIT-compiles; FA4's disk cache is off by default"),
)
