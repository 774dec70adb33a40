"""Which cases each backend runs: small shapes that still cover both dtypes, head dims 64 and 128,
causal and not, GQA, the documented dtype refusals, and variable-length batches."""

from __future__ import annotations

from ..backends import SPECS, backward_reason, forward_reason

# ‖out − ref‖/‖ref‖ bounds against a float64 reference, and the worst single row.
TOL = {"float32": 2e-3, "float16": 5e-3, "bfloat16": 2e-2}
ROW_TOL = {"float32": 2e-2, "float16": 5e-2, "bfloat16": 1e-1}
# SageAttention quantises Q and K to int8: its error is larger by design.
SAGE_TOL, SAGE_ROW_TOL = 8e-2, 0.35

SHAPE = {"batch": 2, "seqlen": 256, "heads": 8}
VARLEN = {"lens": [200, 77, 13], "pad": 24}


def _case(backend: str, kind: str, dtype: str, head_dim: int, causal: bool, gqa: bool = False,
          backward: bool = False, **extra) -> dict:
    tol, row = TOL[dtype], ROW_TOL[dtype]
    if backend == "sage":
        tol, row = max(tol, SAGE_TOL), max(row, SAGE_ROW_TOL)
    parts = [kind if kind != "dense" else ("fwd+bwd" if backward else "fwd"), dtype.replace("float", "fp").replace("bfp", "bf"),
             f"d{head_dim}", "causal" if causal else "full"]
    if gqa:
        parts.append("gqa")
    c = dict(SHAPE, kind=kind, dtype=dtype, head_dim=head_dim, causal=causal, backward=backward,
             tol=tol, row_tol=row, leak_tol=tol)
    c.update(extra)
    c.setdefault("kv_heads", c["heads"] // 4 if gqa else c["heads"])
    c["name"] = " ".join(parts)
    return c


def gpu_dtype(by_gpu: dict, cap, emulates: bool) -> tuple[str | None, bool]:
    """(the dtype a run whose config reading has `dtype_by_gpu` computes in on a GPU of this compute capability, whether
    its bfloat16 is emulated there). The probes: Unsloth's is_bfloat16_supported() and torch.cuda.is_bf16_supported(
    including_emulation=False) are capability >= 8.0; torch.cuda.is_bf16_supported() itself (`emulated` in the reading)
    answers True below it too where this torch `emulates` (2.3 and later), and before that capability >= 8.0 as well.
    checks/trainer.py reports it; the smoke child (auto["dtype_by_gpu"]) tests the kernels in it."""
    if tuple(cap) >= (8, 0):
        return by_gpu["bfloat16_gpu"], False
    if by_gpu.get("emulated") and emulates:
        return by_gpu["bfloat16_gpu"], by_gpu["bfloat16_gpu"] == "bfloat16"
    return by_gpu["other_gpu"], False


def auto_dtype(auto: dict, cap, emulates: bool) -> str | None:
    """The dtype the smoke tests of one device lead with: where the config lets the GPU decide (`dtype_by_gpu`), what it
    decides on this one (a V100 runs a `bf16=is_bfloat16_supported()` job in float16: testing it in bfloat16 would test
    another job), else the config's dtype."""
    by_gpu = auto.get("dtype_by_gpu")
    if by_gpu and cap is not None:
        got, _emulated = gpu_dtype(by_gpu, cap, emulates)
        if got:
            return got
    return auto.get("dtype")


def plan(backend: str, cap: tuple[int, int] | None, torch_version=None, level: str = "standard",
         dtype: str | None = None, head_dims: list[int] | None = None) -> tuple[list[dict], list[str]]:
    """(cases, notes) for one backend on one device (cap None: the CPU)."""
    spec = SPECS[backend]
    notes: list[str] = []
    why = forward_reason(spec, cap) if cap is not None else None
    if why:  # a node may mix GPUs: this one cannot run it, the others may
        return [], [f"not run on this GPU: {why}"]
    bwd_why = backward_reason(spec, cap)
    if cap is None and backend == "flex":
        bwd_why = "FlexAttention has no backward on the CPU"
    can_bwd = bwd_why is None
    if not can_bwd:
        notes.append(f"forward only: {bwd_why}")
    gpu_dtypes = [d for d in ("bfloat16", "float16") if d in spec.dtypes]

    if cap is None:  # the CPU: sdpa and flex only, and flex compiles slowly there (one kernel)
        if backend == "sdpa":
            return [
                _case(backend, "dense", "float32", 64, True, backward=True),
                _case(backend, "dense", "bfloat16", 128, False, gqa=True, backward=True),
                _case(backend, "varlen", "float32", 64, True, heads=4, **VARLEN),
                _case(backend, "sdpa-kernels", "float32", 64, True),
            ], notes
        if backend == "flex":
            return [_case(backend, "varlen", "float32", 64, True, heads=4, kv_heads=4, **VARLEN)], notes
        return [], [f"{backend} needs a CUDA GPU"]

    first_dtype = dtype if dtype in gpu_dtypes else "bfloat16"
    second_dtype = "float16" if first_dtype == "bfloat16" else "bfloat16"
    dims = list(dict.fromkeys((head_dims or []) + [128, 64]))
    cases: list[dict] = []
    if level == "thorough":
        for dt in gpu_dtypes:
            for hd in dims:
                for causal in (True, False):
                    cases.append(_case(backend, "dense", dt, hd, causal, gqa=causal, backward=can_bwd))
    else:
        cases.append(_case(backend, "dense", first_dtype, dims[0], True, gqa=True, backward=can_bwd))
        cases.append(_case(backend, "dense", second_dtype, dims[1], False, backward=can_bwd))
        for hd in dims[2:]:
            cases.append(_case(backend, "dense", first_dtype, hd, True, backward=can_bwd))
    if "float32" in spec.dtypes:
        cases.append(_case(backend, "dense", "float32", 64, True, backward=can_bwd))
    if spec.varlen:
        cases.append(_case(backend, "varlen", first_dtype, dims[0], True, **VARLEN))
    if backend == "sdpa":
        for dt, hd in ((first_dtype, dims[0]), ("float32", 64)):
            cases.append(_case(backend, "sdpa-kernels", dt, hd, True))
    if "float32" not in spec.dtypes:  # last: a backend that crashes on it (FA3, measured) loses no other case
        cases.append(_case(backend, "refusal", "float32", 64, False))
    return cases, notes
