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
