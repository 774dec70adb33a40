"""The FlexAttention smoke adapter as it was before issue 22 (attn_doctor/backends/flex.py at commit
4256152), kept so benchmarks/flex_smoke.py can time it side by side with the current one: a new
BlockMask (and a new lambda) on every call. Not used by the doctor."""

class _Flex:
    def __init__(self, torch):
        from torch.nn.attention import flex_attention as fa

        self.fa = fa
        self.compiled = torch.compile(fa.flex_attention, dynamic=False)


def load(torch):
    return _Flex(torch)


def environment(torch):
    """Where this process's compiled kernels go."""
    from torch._inductor.runtime.cache_dir_utils import cache_dir

    import os

    inductor = cache_dir()
    return {"inductor_cache": inductor, "triton_cache": os.environ.get("TRITON_CACHE_DIR") or os.path.join(inductor, "triton")}


def forward(h, torch, q, k, v, *, causal, scale):
    S = q.shape[1]
    bm = None
    if causal:
        bm = h.fa.create_block_mask(lambda b, hh, qi, ki: qi >= ki, None, None, S, k.shape[1], device=q.device)
    gqa = {"enable_gqa": True} if q.shape[2] != k.shape[2] else {}
    out = h.compiled(q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2), block_mask=bm, scale=scale, **gqa)
    return out.transpose(1, 2)


def varlen(h, torch, q, k, v, *, cu_q, cu_k, max_q, max_k, causal, scale):
    """A document mask over the packed sequence; padding rows are a document of their own."""
    rows = q.shape[0]
    lens = (cu_q[1:] - cu_q[:-1]).tolist()
    doc = torch.repeat_interleave(torch.arange(len(lens), device=q.device), torch.tensor(lens, device=q.device))
    pad = rows - int(cu_q[-1])
    if pad:
        doc = torch.cat([doc, torch.full((pad,), -1, device=q.device, dtype=doc.dtype)])

    def mask_mod(b, hh, qi, ki):
        same = doc[qi] == doc[ki]
        return (same & (qi >= ki)) if causal else same

    bm = h.fa.create_block_mask(mask_mod, None, None, rows, rows, device=q.device)
    gqa = {"enable_gqa": True} if q.shape[1] != k.shape[1] else {}
    out = h.compiled(q.transpose(0, 1)[None], k.transpose(0, 1)[None], v.transpose(0, 1)[None], block_mask=bm,
                     scale=scale, **gqa)
    return out[0].transpose(0, 1)


def bench_call(h, torch, *, causal, scale, seqlen, device, variant=None, gqa=False):
    """(layout, fn) for timing: the block mask is built once, outside the timed calls."""
    bm = None
    if causal:
        bm = h.fa.create_block_mask(lambda b, hh, qi, ki: qi >= ki, None, None, seqlen, seqlen, device=device)
    kw = {"enable_gqa": True} if gqa else {}
    return "bhsd", lambda q, k, v: h.compiled(q, k, v, block_mask=bm, scale=scale, **kw)


def after(torch, h):
    from torch._dynamo.utils import counters

    return {"graphs": int(counters["stats"]["unique_graphs"]), "frames": int(counters["frames"]["ok"]),
            "recompiles": sum(counters["recompiles"].values()), "mask_builds": None}
