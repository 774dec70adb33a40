"""The shapes of a log's lines that every part of attribution reads: how far it looks (WINDOW, CONTINUATION,
TITLE_LINES), a traceback's start and its chaining, a frame, pytest's location and node lines, an exception line, an
import line; the traceback above a line (_traceback), the input's first lines (_first_lines, a pasted report's title);
and the Attribution record (the backend and the line that named it) the search returns.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from .. import index_cache
_R = index_cache.module_pack(__name__)  # this module's patterns: re.compile through the compiled-pattern cache


WINDOW = 80  # lines searched up (and down) from the error line
CONTINUATION = 3  # lines after the error line that still belong to its message
TITLE_LINES = 2  # the input's first lines, searched last (a pasted issue's title and first sentence)
TRACEBACK_START = _R.compile(r"Traceback \(most recent call last\)")
CHAINED = _R.compile(r"During handling of the above exception|The above exception was the direct cause")


def window_lines(lines: list[str], line: int) -> list[str]:
    """The distinct lines within WINDOW of 1-based `line`, each once, in order: a test of whether any of them says something
    reads a line the input repeats (a warning each step, a stack joined onto long lines) once (helper ex167)."""
    return list(dict.fromkeys(lines[j] for j in range(max(0, line - 1 - WINDOW), min(len(lines), line + WINDOW))))


@dataclass(frozen=True)
class Attribution:
    backend: str
    line: int  # 1-based line that names it
    text: str  # that line (trimmed)


FRAME = _R.compile(r'^\s*(\[rank\d+\]:\s*)?File "[^"\n]+", line \d+')
# pytest's summary line names the test whose kernel failed ("FAILED python/test/unit/operators/test_flash_attention.py::
# test_op[...] - triton.compiler.OutOfResources"): a place in source, like a frame (round 7a: triton-lang/triton#1248)
PYTEST_LOCATION = _R.compile(r"^\s*[^\s:]+\.py:\d+: (?:[\w.]*(?:Error|Exception)|Failed)\b")
PYTEST_E = _R.compile(r"^\s*E\s")
PYTEST_NODE = _R.compile(r"^\s*(?:FAILED|ERROR|SKIPPED)\s+(?:\[\d+\]\s+)?\S+\.py(?:::|:\d+:)")


def _traceback(lines: list[str], i: int) -> list[int]:
    """Line indexes from `i` up to the start of its traceback (chained tracebacks included), nearest first."""
    out = []
    for j in range(i - 1, max(-1, i - 1 - WINDOW), -1):
        out.append(j)
        if TRACEBACK_START.search(lines[j]) and not any(CHAINED.search(lines[k]) for k in range(max(0, j - 3), j)):
            break
    return out


# An exception line that ends a traceback ("RuntimeError: ...", "[rank0]: torch.AcceleratorError: ...")
EXCEPTION_LINE = _R.compile(r"^\s*(?:\[rank\d+\]:\s*)?(?:[A-Za-z_]\w*\.)*[A-Za-z_]\w*(?:Error|Exception|Interrupt)\b:?(?:\s|$)")


def _first_lines(lines, n: int) -> list[int]:
    """Indexes of the input's first `n` lines that are not blank (a title, then its first sentence)."""
    out = []
    for j in range(min(len(lines), 4 * n)):
        if lines[j].strip():
            out.append(j)
            if len(out) == n:
                break
    return out


IMPORT_CODE = _R.compile(r"^\s*(?:\[rank\d+\]:\s*)?(?:import|from)\s+[\w.]")


_R.save()  # (the patterns compiled above, kept for the next run: index_cache.module_pack)
