"""Arch lists in the environment: which GPUs a source build will have kernels for.

TORCH_CUDA_ARCH_LIST is read by torch.utils.cpp_extension (and SageAttention's setup.py) for every CUDA
extension built from source; FLASH_ATTN_CUDA_ARCHS by flash-attn's setup.py, which ignores
TORCH_CUDA_ARCH_LIST (it passes its own -gencode flags).
"""

from __future__ import annotations

import re

# torch.utils.cpp_extension's named architectures (the ones still in use)
NAMED = {"ampere": "8.0;8.6+PTX", "ada": "8.9+PTX", "hopper": "9.0+PTX", "turing": "7.5+PTX", "volta": "7.0+PTX",
         "pascal": "6.0;6.1+PTX"}
# flash-attn's tokens: a GPU of major 8 runs the sm_80 kernels, 9 sm_90, 10 sm_100, 12 sm_120
FA2_TOKENS = {8: "80", 9: "90", 10: "100", 12: "120"}
_ENTRY = re.compile(r"^(?:sm_|compute_)?(\d+)\.?(\d)([af]?)(\+ptx)?$", re.IGNORECASE)


def torch_entries(raw: str) -> tuple[list[tuple[tuple[int, int], str, bool]], list[str]]:
    """((major, minor), suffix, ptx) for each entry of TORCH_CUDA_ARCH_LIST, and the tokens not understood."""
    out, unknown = [], []
    for tok in re.split(r"[;,\s]+", raw.strip()):
        if not tok:
            continue
        if tok.lower() in NAMED:
            sub, _ = torch_entries(NAMED[tok.lower()])
            out += sub
            continue
        m = _ENTRY.match(tok)
        if not m:
            unknown.append(tok)
            continue
        digits = m.group(1)
        if "." in tok:
            major, minor = int(digits), int(m.group(2))
        else:  # "90", "sm_90a", "120"
            whole = digits + m.group(2)
            major, minor = int(whole[:-1]), int(whole[-1])
        out.append(((major, minor), m.group(3).lower(), bool(m.group(4))))
    return out, unknown


def torch_covers(entries, cap: tuple[int, int]) -> bool:
    """A GPU runs code built for the same major and a minor <= its own ('a' variants: only that exact
    arch), or JIT-compiles PTX of any older arch."""
    for (maj, mnr), suffix, ptx in entries:
        if ptx and (maj, mnr) <= cap:
            return True
        if suffix == "a":
            if (maj, mnr) == cap:
                return True
        elif maj == cap[0] and mnr <= cap[1]:
            return True
    return False


def fa2_tokens(raw: str) -> list[str]:
    return [t for t in re.split(r"[;,\s]+", raw.strip()) if t]


def fa2_covers(tokens: list[str], cap: tuple[int, int]) -> bool:
    return FA2_TOKENS.get(cap[0]) in tokens


def missing(var: str, raw: str, caps: list[tuple[int, int]]) -> tuple[list[tuple[int, int]], str] | None:
    """The capabilities `raw` leaves out, and the list that adds them; None when the list cannot be judged."""
    if var == "FLASH_ATTN_CUDA_ARCHS":
        toks = fa2_tokens(raw)
        if not toks:
            return None
        left = [c for c in caps if c[0] in FA2_TOKENS and not fa2_covers(toks, c)]
        add = [FA2_TOKENS[c[0]] for c in left]
        fixed = toks + [t for i, t in enumerate(add) if t not in toks and t not in add[:i]]
        return left, ";".join(fixed)
    entries, unknown = torch_entries(raw)
    if not entries:
        return None
    left = [c for c in caps if not torch_covers(entries, c)]
    kept = [t for t in re.split(r"[;,\s]+", raw.strip()) if t]
    add = []
    for c in left:
        dot = f"{c[0]}.{c[1]}"
        if dot not in kept and dot not in add:
            add.append(dot)
    return left, ";".join(kept + add)
