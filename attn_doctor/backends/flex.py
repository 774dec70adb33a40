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


# ---- smoke-test adapter: runs in the child process (attn_doctor.smoke.child) -------------------
#
# Warm, Flex's smoke run is import time plus one Dynamo trace per distinct graph (dtype x head dim
# x GQA x mask function). So every call of one case shape reuses one BlockMask (built once: a
# smoke case calls forward four times, varlen three times with the same documents), and the mask
# functions are module-level, the same objects on every call, so Dynamo's guards never see a new
# function (benchmarks/flex_smoke.py counts graphs, recompiles and mask builds per variant).

def causal_mask(b, h, q_idx, kv_idx):
    return q_idx >= kv_idx


def doc_mask(doc, causal: bool):
    """Block-diagonal (document) masking over packed rows; padding rows are a document of -1. A
    function (create_block_mask takes no bound method), made once per cached BlockMask."""
    def mask_mod(b, h, q_idx, kv_idx):
        same = doc[q_idx] == doc[kv_idx]
        return (same & (q_idx >= kv_idx)) if causal else same
    return mask_mod


class _Flex:
    def __init__(self, torch):
        from torch.nn.attention import flex_attention as fa

        self.fa = fa
        self.compiled = torch.compile(fa.flex_attention, dynamic=False)
        self.masks: dict = {}  # (kind, rows, causal, lens, device) -> BlockMask
        self.mask_builds = 0

    def block_mask(self, key, build):
        bm = self.masks.get(key)
        if bm is None:
            bm = self.masks[key] = build()
            self.mask_builds += 1
        return bm


def load(torch):
    warm = _warm_cache()  # looked at before torch.compile, which may fill it
    h = _Flex(torch)
    h.one_worker = _one_worker(warm)
    return h


def _warm_cache() -> bool:
    """FX graphs already in Inductor's cache directory, found without importing Inductor (an import that
    fails here and is retried by torch.compile would hide the real error): TORCHINDUCTOR_CACHE_DIR, else
    torch's default, <tempdir>/torchinductor_<user> (torch/_inductor/runtime/cache_dir_utils.py)."""
    import getpass
    import os
    import re
    import tempfile

    d = os.environ.get("TORCHINDUCTOR_CACHE_DIR")
    try:
        if not d:
            d = os.path.join(tempfile.gettempdir(), "torchinductor_" + re.sub(r'[\\/:*?"<>|]', "_", getpass.getuser()))
        with os.scandir(os.path.join(d, "fxgraph")) as it:
            return any(True for _ in it)
    except Exception:
        return False


def _one_worker(warm: bool) -> bool:
    """With a warm cache and no TORCHINDUCTOR_COMPILE_THREADS of the user's, compile in this process:
    there is little left to compile, and Inductor's pool of workers (one per core, each importing torch)
    only competes for the CPU with the other backends' smoke children. On the H100 (hold 3,
    fixtures/gpu/h100-issue22/f-fa4-import.txt) a warm full check took 44.8 s with the pool and 15.8 s
    without it (FA4's smoke child 32.6 s against 11.1 s): 0.97x `import flash_attn.cute`. A cold cache
    keeps the pool: compiling serially there is the slow setting settings.toml names. The pool starts at
    the first compile, after torch.compile() returned, so setting Inductor's config here is in time."""
    import os

    if not warm or os.environ.get("TORCHINDUCTOR_COMPILE_THREADS"):
        return False
    try:
        from torch._inductor import config

        config.compile_threads = 1
        return True
    except Exception:  # another torch's layout: keep its defaults
        return False


def environment(torch):
    """Where this process's compiled kernels go."""
    from torch._inductor.runtime.cache_dir_utils import cache_dir

    import os

    inductor = cache_dir()
    return {"inductor_cache": inductor, "triton_cache": os.environ.get("TRITON_CACHE_DIR") or os.path.join(inductor, "triton")}


def after(torch, h):
    """How many graphs torch.compile generated (0: Flex ran its unfused eager path), recompiles, and
    how many block masks were built."""
    from torch._dynamo.utils import counters

    return {"graphs": int(counters["stats"]["unique_graphs"]), "frames": int(counters["frames"]["ok"]),
            "recompiles": sum(counters["recompiles"].values()), "mask_builds": h.mask_builds,
            "one_compile_worker": getattr(h, "one_worker", False)}


def forward(h, torch, q, k, v, *, causal, scale):
    S, Sk = q.shape[1], k.shape[1]
    bm = None
    if causal:
        bm = h.block_mask(("causal", S, Sk, str(q.device)),
                          lambda: h.fa.create_block_mask(causal_mask, None, None, S, Sk, device=q.device))
    gqa = {"enable_gqa": True} if q.shape[2] != k.shape[2] else {}
    out = h.compiled(q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2), block_mask=bm, scale=scale, **gqa)
    return out.transpose(1, 2)


def varlen(h, torch, q, k, v, *, cu_q, cu_k, max_q, max_k, causal, scale):
    """A document mask over the packed sequence; padding rows are a document of their own."""
    rows = q.shape[0]
    lens = tuple((cu_q[1:] - cu_q[:-1]).tolist())

    def build():
        doc = torch.repeat_interleave(torch.arange(len(lens), device=q.device), torch.tensor(lens, device=q.device))
        pad = rows - sum(lens)
        if pad:
            doc = torch.cat([doc, torch.full((pad,), -1, device=q.device, dtype=doc.dtype)])
        return h.fa.create_block_mask(doc_mask(doc, causal), None, None, rows, rows, device=q.device)

    bm = h.block_mask(("doc", rows, lens, causal, str(q.device)), build)
    gqa = {"enable_gqa": True} if q.shape[1] != k.shape[1] else {}
    out = h.compiled(q.transpose(0, 1)[None], k.transpose(0, 1)[None], v.transpose(0, 1)[None], block_mask=bm,
                     scale=scale, **gqa)
    return out[0].transpose(0, 1)


def bench_call(h, torch, *, causal, scale, seqlen, device, variant=None, gqa=False):
    """(layout, fn) for timing: the block mask is built once, outside the timed calls."""
    bm = None
    if causal:
        bm = h.fa.create_block_mask(causal_mask, None, None, seqlen, seqlen, device=device)
    kw = {"enable_gqa": True} if gqa else {}
    return "bhsd", lambda q, k, v: h.compiled(q, k, v, block_mask=bm, scale=scale, **kw)
