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


# ---- smoke-test adapter: runs in the child process (attn_doctor.smoke.child) -------------------

def load(torch):
    import sageattention

    return sageattention


def forward(sa, torch, q, k, v, *, causal, scale):
    # k itself, as a user's call passes it: sageattn 1.0.6 subtracts the key mean from it in place (smooth_k), which the
    # smoke child sees by comparing its inputs after the call (smoke.inputs-changed) and measures against its own copies
    return sa.sageattn(q, k, v, tensor_layout="NHD", is_causal=causal, sm_scale=scale)


def varlen(sa, torch, q, k, v, *, cu_q, cu_k, max_q, max_k, causal, scale):
    return sa.sageattn_varlen(q, k.clone(), v, cu_q, cu_k, max_q, max_k, is_causal=causal, sm_scale=scale)


def bench_call(sa, torch, *, causal, scale, seqlen, device, variant=None, gqa=False):
    """(layout, fn) for timing in sageattn's default HND layout. No copy of k: sageattn subtracts
    k's mean in place, as it does in a user's job (and attention does not change under that shift)."""
    return "bhsd", lambda q, k, v: sa.sageattn(q, k, v, tensor_layout="HND", is_causal=causal, sm_scale=scale)
