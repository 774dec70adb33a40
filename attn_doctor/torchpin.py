"""The one way attn-doctor tells users to (re)install torch: pinned to the version and CUDA build
they need (`torch==2.11.0+cu130`), so pip neither upgrades torch nor picks another build by accident.
No index is named: pip's configured index serves it; a comment says which of PyTorch's wheel indexes
has that build, for a pip that is not set up with it."""

from __future__ import annotations

import re
import sys
from functools import lru_cache
from pathlib import Path

from packaging.version import InvalidVersion, Version

if sys.version_info >= (3, 11):
    import tomllib
else:  # Python 3.10
    import tomli as tomllib  # type: ignore[no-redef]

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
# the newest breaks Inductor), read there when the line runs. Knowledge writes `pip install @TRITON_PIN@` (or
# `python -m pip install @TRITON_PIN@`); both loaders expand it here (expand_snippets) into one shell line,
#     pin="$(python -c 'READ')" && pip install "triton==$pin"
# where READ prints the pin, or where torch names none (a CPU, ROCm, XPU or macOS torch; no torch) prints one line on
# stderr and exits 1, so pip is never run with an empty pin. READ and its message are words: knowledge/fix_words.toml.
_WORDS = Path(__file__).parent / "knowledge" / "fix_words.toml"
# what READ, single-quoted Python in a shell line, must not hold: a quote ends it, `!` is history expansion in an
# interactive bash or zsh, `#` `$` and backticks are read by the shell or by the fix-line checks
_UNQUOTABLE = set("'!#$`\n\\")


@lru_cache(maxsize=1)
def words() -> dict:
    """knowledge/fix_words.toml, read once."""
    with open(_WORDS, "rb") as fh:
        return tomllib.load(fh)


def _triton_read() -> str:
    t = words()["snippets"]["TRITON_PIN"]
    code = t["read"].replace("MESSAGE", t["message"])
    bad = sorted(set(code) & _UNQUOTABLE)
    if bad:
        raise ValueError(f"knowledge/fix_words.toml: snippets.TRITON_PIN holds {bad}, which a single-quoted shell word cannot")
    return code


TRITON_READ = f"python -c '{_triton_read()}'"


def triton_install(pip: str = "pip") -> str:
    """The one shell line that installs the Triton release the env's torch pins, with `pip` (`pip`, `python -m pip`)."""
    return f'pin="$({TRITON_READ})" && {pip} install "triton==$pin"'


TRITON_PIN = triton_install()  # what `pip install @TRITON_PIN@` becomes
_TRITON_MARKER = re.compile(r"((?:python3? -m )?pip3?) install @TRITON_PIN@")


def expand_snippets(obj):
    """Strings (in dicts and lists, as TOML parses them) with each knowledge snippet marker expanded; a marker
    anywhere else than after `pip install` is refused (it would print a line that does not run)."""
    if isinstance(obj, str):
        if "@TRITON_PIN@" not in obj:  # (most strings: the marker's regex not run on each, ~0.03 s of every explain)
            return obj
        obj = _TRITON_MARKER.sub(lambda m: triton_install(m.group(1)), obj)
        if "@TRITON_PIN@" in obj:
            raise ValueError(f"@TRITON_PIN@ is written after `pip install` only: {obj[:120]!r}")
        return obj
    if isinstance(obj, dict):
        return {k: expand_snippets(v) for k, v in obj.items()}
    if isinstance(obj, list):
        return [expand_snippets(v) for v in obj]
    return obj


WHERE = "the {index} build: from PyTorch's wheel index for {index} (pip --index-url) if pip's index lacks it"
