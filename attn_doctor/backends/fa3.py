"""FlashAttention 3 (Hopper): built from flash-attention's `hopper/`; not on PyPI."""

from . import BackendSpec

SPEC = BackendSpec(
    name="fa3",
    title="FlashAttention 3",
    import_code=(
        "try:\n"
        "    from flash_attn_interface import flash_attn_func, flash_attn_varlen_func\n"
        "except ModuleNotFoundError as e:\n"
        "    if e.name != 'flash_attn_interface':\n"
        "        raise\n"
        "    from flash_attn_3.flash_attn_interface import flash_attn_func, flash_attn_varlen_func\n"
    ),
    module="flash_attn_interface",
    top_module="flash_attn_interface|flash_attn_3",
    dists=("flash_attn_3", "flash-attn-3", "flashattn-hopper"),
    install="cd flash-attention/hopper && pip install . --no-build-isolation",
    fwd_caps=((8, 0), (9, 0)),
    bwd_min_cap=None,
    dtypes=("float16", "bfloat16", "float8_e4m3fn"),
    varlen="cu_seqlens (int32)",
    head_dims="up to 256",
    notes=("built for sm90; sm80 kernels only in builds that include them",),
)
