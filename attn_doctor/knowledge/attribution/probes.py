"""Failures that are another's, read off the traceback: an optional import probe printed and passed over
(in_optional_probe) or handled by importing another backend (in_handled_probe), a loader error required by a library
that is no attention backend (required_by_other), an out-of-memory raised by an optimizer's step or a serving engine
(raised_by_optimizer), a Triton kernel of another library (foreign_kernel), and another CuTe DSL program's kernel
(another_dsl_kernel).
"""

from __future__ import annotations

import re
from functools import lru_cache

from .. import Entry
from .shapes import _traceback, FRAME, PYTEST_NODE, WINDOW, window_lines
from .tables import _toml, NOT_SEVEN, rules
from .naming import backend_named
from .search import nearest
from .. import index_cache
_R = index_cache.module_pack(__name__)  # this module's patterns: re.compile through the compiled-pattern cache


# a loader error's "(required by X)", in English and as glibc prints it in other locales (session 6, ex35: zh "(被 X 需要)",
# ru "(требуется для X)", de "(benötigt von X)", fr "(requis par X)", es "(requerido por X)", pt "(exigido por X)",
# ja "(X により要求されています)")
REQUIRED_BY = _R.compile(r"\((?:required by|требуется для|benötigt von|requis par|requerido por|exigido por|被)\s*([^)\n]+?)"
                         r"(?:\s*(?:需要|により要求されています))?\)")
# torch's and Triton's own libraries: every backend stands on them, so a loader error they raise is
# torch's (backend none), never another project's
STACK_LIB = _R.compile(r"[/\\](libtorch(_\w+)?\.so|libc10(_\w+)?\.so|libshm\.so|libtriton\.so)\b|[/\\](torch|triton)[/\\](lib|_C)[/\\]")


HANDLED = _R.compile(r"^\s*During handling of the above exception, another exception occurred")


def in_handled_probe(entry: Entry, lines, line: int) -> bool:
    """Is this match an import error the program caught, its except-branch importing another backend instead ("During
    handling of the above exception, another exception occurred:" right under it, the chained traceback showing that
    import; [handled_probe] in attribution.toml)? The chained exception is the failure; the first was a probe (helper ex58,
    round 54m: HiDream-ai/HiDream-I1#20's `flash_attn_interface` missing, then `from flash_attn import ...` failing)."""
    ids, marks, span = rules().handled_probe
    if entry.id not in ids or not 0 < line <= len(lines):
        return False
    chained = next((j for j in range(line, min(len(lines), line + 3)) if HANDLED.search(lines[j])), None)
    if chained is None or any(lines[j].strip() for j in range(line, chained)):
        return False  # only blank lines between the error and the chain's notice
    return any(rx.search(lines[j]) for j in range(chained + 1, min(len(lines), chained + 1 + span)) for rx in marks)


def in_optional_probe(entry: Entry, lines, line: int) -> bool:
    """Is this match a library's optional import probe, printed and passed over (see [optional_probe] in
    attribution.toml): xformers' "A matching Triton is not available" over the traceback of its `import triton`? Or an
    import error the program handled by importing another backend (in_handled_probe)?"""
    if in_handled_probe(entry, lines, line) or _announced_fallback(entry, lines, line):
        return True
    ids, marks, span = rules().optional_probe
    if not 0 < line <= len(lines):
        return False
    traced_ids, traced = _traced_probe()
    if entry.id in traced_ids and any(rx.search(m) for rx in marks for m in (lines[line - 1],)):
        # the probe's notice with the probe's traceback under it (helper ex62)
        return any(rx.search(lines[j]) for j in range(line, min(len(lines), line + span)) for rx in traced)
    if entry.id not in ids:
        return False
    return any(rx.search(lines[j]) for j in range(max(0, line - 1 - span), line) for rx in marks)


def _announced_fallback(entry: Entry, lines, line: int) -> bool:
    """Is this import error the program's own probe, whose next lines say it goes on without that backend (see
    [announced_fallback] in attribution.toml): "No module named 'flash_attn'" over "flash_attn not installed, disabling
    Flash Attention"?"""
    ids, notice, below = _announced()
    if entry.id not in ids or not 0 < line <= len(lines) or any(rx.search(lines[line - 1]) for rx in notice):
        return False  # (a notice itself, repeated line after line, is what the entry reads: A1111's "not available. Falling back")
    return any(rx.search(lines[j]) for j in range(line, min(len(lines), line + below)) for rx in notice)


@lru_cache(maxsize=1)
def _announced() -> tuple[frozenset[str], tuple[re.Pattern, ...], int]:
    """[announced_fallback] ids, lines, below (session 36)."""
    t = _toml().get("announced_fallback", {})
    return frozenset(t.get("ids", ())), tuple(re.compile(p) for p in t.get("lines", ())), int(t.get("below", 0))


@lru_cache(maxsize=1)
def _traced_probe() -> tuple[frozenset[str], tuple[re.Pattern, ...]]:
    """[optional_probe] traced_ids, traced (helper ex62): entries passed over on a probe's notice only where the probe's
    traceback stands under it."""
    t = _toml().get("optional_probe", {})
    return frozenset(t.get("traced_ids", ())), tuple(re.compile(p) for p in t.get("traced", ()))


LOADER_VERSION = _R.compile(r"\b(?:GLIBC|GLIBCXX|CXXABI)_\d+(?:\.\d+)+")


def _same_loader_error(lines, line: int, span: int = 30) -> int | None:
    """The nearest line within `span` lines of `line` that holds the same missing version as `line` with its
    '(required by X)' (round 32: ComfyUI#999's title "'GLIBCXX_3.4.26' not found" over the ImportError that names scipy)."""
    v = LOADER_VERSION.search(lines[line - 1])
    if v is None:
        return None
    for n in sorted(range(max(1, line - span), min(len(lines), line + span) + 1), key=lambda n: abs(n - line)):
        text = lines[n - 1]
        if n != line and v.group(0) in text and REQUIRED_BY.search(text):
            return n
    return None


def required_by_other(entry: Entry, lines, line: int) -> bool:
    """Is this a loader error whose '(required by X)' names a library that is no attention backend,
    with nothing near the error naming one? (see [required_by] in attribution.toml)"""
    if entry.id not in rules().required_by or not 0 < line <= len(lines):
        return False
    m = REQUIRED_BY.search(lines[line - 1])
    if m is None:  # a title or a sentence that repeats the loader error: the error's own line, a little further, says who needed it
        line = _same_loader_error(lines, line) or line
        m = REQUIRED_BY.search(lines[line - 1])
    if m is None or backend_named(m.group(1)) not in (None, "foreign") or STACK_LIB.search(m.group(1)):
        return False
    found = nearest(lines, line)
    return found is None or found.backend == "foreign"


OOM_LINE = _R.compile(r"out of memory|OutOfMemoryError|cudaErrorMemoryAllocation", re.IGNORECASE)


def raised_by_optimizer(entry: Entry, lines: list[str], line: int) -> bool:
    """Is this an out-of-memory match whose innermost traceback frame is an optimizer's step or a serving engine's, or,
    with no frame above it, under a script that starts a serving engine (see [optimizer_oom] in attribution.toml)?
    Then the training's (or the engine's) memory ran out, not an attention call's."""
    r = rules()
    if entry.id not in r.optimizer_oom or not 0 < line <= len(lines):
        return False
    err = next((k for k in range(line - 1, min(len(lines), line - 1 + WINDOW)) if OOM_LINE.search(lines[k])), None)
    if err is None:
        return False
    for j in _traceback(lines, err):
        if FRAME.search(lines[j]):
            return any(rx.search(lines[j]) for rx in r.optimizer_frames + r.engine_frames)
    # no frame above it: a serving engine the script starts a few lines up owns the memory (vllm-project/vllm#783)
    return any(rx.search(lines[j]) for j in range(max(0, err - 40), err) for rx in r.engine_lines)


def foreign_kernel(entry: Entry, lines: list[str], line: int) -> bool:
    """Is this a Triton-kernel entry raised from another library's kernel (see attention_kernel_only)?"""
    r = rules()
    if entry.id not in r.kernel_only or not 0 < line <= len(lines):
        return False
    block = [line - 1] + _traceback(lines, line - 1)
    if not any(FRAME.search(lines[j]) for j in block):
        nodes = [j for j in block if PYTEST_NODE.search(lines[j])]
        if not nodes:
            return False  # a bare message: nothing says whose kernel it was
        block = [line - 1] + nodes  # a test's summary line: the test's file is the place, not prose above it
    for j in block:
        # ("other": an engine's own Triton attention is not FlexAttention's, whose entries these are; round 7b)
        if backend_named(lines[j]) not in (None, *NOT_SEVEN) or any(rx.search(lines[j]) for rx in r.kernel_context):
            return False
    return True


def another_dsl_kernel(lines: list[str], line: int) -> bool:
    """Does the text around 1-based `line` show another CuTe DSL program's kernel (FlashInfer's cute_dsl, a CUTLASS example,
    a GEMM) and nothing of FA4's, within WINDOW lines either way? ([dsl_kernel] in attribution.toml)"""
    _, fa4, others = rules().dsl_kernel
    if not 0 < line <= len(lines):
        return False
    window = window_lines(lines, line)
    if any(rx.search(t) for t in window for rx in fa4):
        return False
    return any(rx.search(t) for t in window for rx in others)


@lru_cache(maxsize=1)
def _grid_limit() -> tuple[frozenset[str], re.Pattern | None, tuple[re.Pattern, ...]]:
    """[grid_limit_elsewhere] in attribution.toml (rev21b), compiled."""
    d = _toml().get("grid_limit_elsewhere", {})
    return (frozenset(d.get("ids", ())), re.compile(d["message"], re.IGNORECASE) if "message" in d else None,
            tuple(re.compile(p, re.IGNORECASE) for p in d.get("frames", ())))


def grid_limit_elsewhere(entry: Entry, lines: list[str], line: int) -> bool:
    """Is this CUDA's grid-limit error ('invalid configuration argument') raised by a non-attention op: its traceback's innermost
    frame (or the code line under it) is a convolution's, a norm's, a resampling's ([grid_limit_elsewhere] frames), and no line
    of that traceback names an attention library? The match's own line, or where it stands above its traceback (ComfyUI's
    '!!! Exception during processing !!!'), the same error's line under it within WINDOW lines, says."""
    ids, message, frames = _grid_limit()
    if entry.id not in ids or message is None or not 0 < line <= len(lines):
        return False
    for err in range(line - 1, min(len(lines), line - 1 + WINDOW)):
        if not message.search(lines[err]):
            continue
        block = _traceback(lines, err)
        inner = next((j for j in block if FRAME.search(lines[j])), None)
        if inner is None:
            continue  # no frame above this one: the same error further down may have its traceback
        if any(backend_named(lines[j]) not in (None, *NOT_SEVEN) for j in [err, *block]):
            return False
        code = [lines[inner]] + ([lines[inner + 1]] if inner + 1 < err else [])
        return any(rx.search(t) for t in code for rx in frames)
    return False


_R.save()  # (the patterns compiled above, kept for the next run: index_cache.module_pack)
