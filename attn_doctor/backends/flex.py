"""FlexAttention: Triton kernels that Inductor generates on the first torch.compile'd call."""

from . import BackendSpec

SPEC = BackendSpec(
    name="flex",
    title="PyTorch FlexAttention",
    import_code="from torch.nn.attention.flex_attention import flex_attention",
    module="torch.nn.attention.flex_attention",
    top_module="torch",
    dists=("torch",),
    install="pip install 'torch>=2.5'",
    fwd_caps=((7, 0), (99, 9)),
    bwd_min_cap=None,
    dtypes=("float32", "float16", "bfloat16"),
    cpu=True,  # forward only, torch >= 2.6
    varlen="document mask (BlockMask)",
    in_torch=True,
    head_dims="powers of two up to 256 (large ones may exceed shared memory on consumer GPUs)",
    notes=("must run under torch.compile, or it takes an unfused slow path",),
)
