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
