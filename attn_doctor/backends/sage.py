"""SageAttention: quantised (int8 QK) attention. Forward only: never for training."""

from . import BackendSpec

SPEC = BackendSpec(
    name="sage",
    title="SageAttention",
    import_code="from sageattention import sageattn",
    module="sageattention",
    top_module="sageattention",
    dists=("sageattention",),
    install="pip install sageattention",
    fwd_caps=((8, 0), (12, 9)),
    bwd_min_cap=None,
    dtypes=("float16", "bfloat16"),
    training=False,
    varlen="cu_seqlens (sageattn_varlen)",
    head_dims="64, 96, 128 (1.x)",
    notes=("PyPI has only 1.0.6 (Triton); 2.x is built from source for sm80/86/89/90/120",),
)
