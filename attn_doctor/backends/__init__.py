"""What each attention backend is and needs, as data (after xformers' op classes).

One module per backend holds its `SPEC`; `supports()` turns a GPU into the list of reasons the
backend cannot run there. Nothing here imports torch or a backend.
"""

from __future__ import annotations

from dataclasses import dataclass, field

Cap = tuple[int, int]


@dataclass(frozen=True)
class BackendSpec:
    name: str
    title: str
    import_code: str  # what the import probe runs (in a child process)
    module: str  # the module users import
    top_module: str  # the top-level module, located without importing it
    dists: tuple[str, ...]  # distributions that provide it
    install: str  # the command that installs it
    fwd_caps: tuple[Cap, Cap] | None  # inclusive (min, max) compute capability for forward; None: any
    bwd_min_cap: Cap | None  # backward needs at least this; None: same as forward
    dtypes: tuple[str, ...]
    cpu: bool = False  # runs on the CPU too
    training: bool = True  # has a backward
    varlen: str | None = None  # how it takes variable-length batches
    in_torch: bool = False  # part of torch itself
    exact_caps: tuple[Cap, ...] = ()  # only these capabilities (overrides the range), e.g. Sage 2.x
    head_dims: str = ""
    notes: tuple[str, ...] = field(default_factory=tuple)


def cap_str(cap) -> str:
    return f"sm{cap[0]}{cap[1]}"


def cap_dot(cap) -> str:
    return f"{cap[0]}.{cap[1]}"


def forward_reason(spec: BackendSpec, cap: Cap | None) -> str | None:
    """Why `spec` cannot run forward on a GPU of capability `cap` (None: a CPU), or None if it can."""
    if cap is None:
        return None if spec.cpu else f"{spec.name} needs a CUDA GPU"
    cap = tuple(cap)
    if spec.exact_caps and cap not in spec.exact_caps:
        return f"{spec.name} has kernels for {', '.join(cap_str(c) for c in spec.exact_caps)}, not {cap_str(cap)}"
    if spec.fwd_caps:
        lo, hi = spec.fwd_caps
        if cap < lo:
            return f"{spec.name} needs compute capability {cap_dot(lo)} or newer; this GPU is {cap_dot(cap)}"
        if cap[0] > hi[0] or (cap[0] == hi[0] and cap[1] > hi[1]):
            return f"{spec.name} supports compute capability {cap_dot(lo)} to {cap_dot(hi)}; this GPU is {cap_dot(cap)}"
    return None


def backward_reason(spec: BackendSpec, cap: Cap | None) -> str | None:
    if not spec.training:
        return f"{spec.name} has no backward pass (inference only)"
    if cap is None:
        return None if spec.cpu else f"{spec.name} needs a CUDA GPU"
    if spec.bwd_min_cap and tuple(cap) < spec.bwd_min_cap:
        return (f"{spec.name} backward needs compute capability {cap_dot(spec.bwd_min_cap)} or newer; "
                f"this GPU is {cap_dot(cap)}")
    return None


def _load() -> dict[str, BackendSpec]:
    from . import cute, fa2, fa3, flex, sage, sdpa, xformers

    return {m.SPEC.name: m.SPEC for m in (sdpa, flex, cute, fa2, fa3, sage, xformers)}


SPECS: dict[str, BackendSpec] = _load()

# transformers attn_implementation values that run the flash-attn library's kernels, as axolotl lists them
# (axolotl-ai-cloud/axolotl@067b021 enums.py ATTN_IMPLS_USING_FLASH_LIB, config.py attn_uses_flash_lib): the ones its
# context parallelism needs and the ones it swaps for FlashAttention 4 (configs/axolotl.py, checks/trainer.py)
FLASH_LIB = frozenset({"flash_attention_2", "flash_attention_3", "kernels-community/flash-attn2",
                       "kernels-community/flash-attn3"})
