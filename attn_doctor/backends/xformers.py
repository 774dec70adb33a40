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
