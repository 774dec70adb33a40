"""The one way attn-doctor tells users to (re)install torch: pinned to the version and CUDA build
they need (`torch==2.11.0+cu130`), so pip neither upgrades torch nor picks another build by accident.
No index is named: pip's configured index serves it; a comment says which of PyTorch's wheel indexes
has that build, for a pip that is not set up with it."""

from __future__ import annotations

import re

from packaging.version import InvalidVersion, Version

def index_of(version: str | None, cuda: str | None = None) -> str | None:
    """The index a torch build comes from: its local tag (cu130, cpu, rocm6.4), else torch's CUDA
    (12.8 -> cu128); None when neither is known."""
    local = (version or "").partition("+")[2]
    if re.fullmatch(r"cu\d+|cpu|rocm[\d.]+", local):
        return local
    m = re.fullmatch(r"(\d+)\.(\d+)(\.\d+)?", cuda or "")
    return f"cu{m.group(1)}{m.group(2)}" if m else None


def base(version: str | None) -> str | None:
    try:
        return Version(version or "").base_version
    except InvalidVersion:
        return None


def install(version: str | None, index: str | None, *, reinstall: bool) -> str:
    """`reinstall`: the same build again, files only (--force-reinstall --no-deps); else a switch to
    the build of `index` at the same version, which pulls the libraries that build needs."""
    b = base(version)
    spec = f"torch=={b}+{index}" if b and index else (f"torch=={b}" if b else "torch")
    line = f"pip install {'--force-reinstall --no-deps ' if reinstall else ''}'{spec}'"
    return line + (f"   # {WHERE.format(index=index)}" if index and b else "")


# The one way a fix installs Triton: the release the env's torch pins in its own metadata (torch pins one exactly;
# the newest breaks Inductor), read there when the line runs. Knowledge writes `@TRITON_PIN@` for it (a shell word,
# quoted); the loaders expand it (expand_snippets). With no pin (a CPU torch, no torch) it expands to `triton==`,
# which pip refuses: nothing is installed.
TRITON_PIN = ("\"triton==$(python -c 'import importlib.metadata as m; print(next(r.split(\"==\")[1].split(\";\")[0].strip() "
              "for r in m.requires(\"torch\") or [] if r.startswith(\"triton==\")))')\"")
SNIPPETS = {"@TRITON_PIN@": TRITON_PIN}


def expand_snippets(obj):
    """Strings (in dicts and lists, as TOML parses them) with each knowledge snippet marker replaced."""
    if isinstance(obj, str):
        for k, v in SNIPPETS.items():
            obj = obj.replace(k, v)
        return obj
    if isinstance(obj, dict):
        return {k: expand_snippets(v) for k, v in obj.items()}
    if isinstance(obj, list):
        return [expand_snippets(v) for v in obj]
    return obj


WHERE = "the {index} build: from PyTorch's wheel index for {index} (pip --index-url) if pip's index lacks it"
