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


# ---- smoke-test adapter: runs in the child process (attn_doctor.smoke.child) -------------------

def load(torch):
    try:
        from flash_attn_interface import flash_attn_func, flash_attn_varlen_func
    except ModuleNotFoundError as e:
        if e.name != "flash_attn_interface":
            raise
        from flash_attn_3.flash_attn_interface import flash_attn_func, flash_attn_varlen_func
    return flash_attn_func, flash_attn_varlen_func


def environment(torch):
    """The build's switches: hopper/setup.py writes them into flash_attn_config.py (CONFIG["build_flags"])."""
    try:
        try:
            from flash_attn_config import CONFIG
        except ModuleNotFoundError:
            from flash_attn_3.flash_attn_config import CONFIG
    except Exception:
        return {}
    flags = (CONFIG or {}).get("build_flags") or {}
    off = sorted(k.split("DISABLE_", 1)[1] for k, v in flags.items() if v and "DISABLE_" in k)
    return {"fa3_built_without": off}


def _out(r):
    return r[0] if isinstance(r, tuple) else r  # older FA3 builds return (out, lse)


def forward(h, torch, q, k, v, *, causal, scale):
    return _out(h[0](q, k, v, softmax_scale=scale, causal=causal))


def varlen(h, torch, q, k, v, *, cu_q, cu_k, max_q, max_k, causal, scale):
    return _out(h[1](q, k, v, cu_q, cu_k, max_q, max_k, softmax_scale=scale, causal=causal))


def bench_call(h, torch, *, causal, scale, seqlen, device, variant=None, gqa=False):
    """(layout, fn) for timing, in this backend's own (batch, seq, heads, dim) layout."""
    return "bshd", lambda q, k, v: forward(h, torch, q, k, v, causal=causal, scale=scale)
