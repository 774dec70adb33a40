"""The shapes of a log's lines that every part of attribution reads: how far it looks (WINDOW, CONTINUATION,
TITLE_LINES), a traceback's start and its chaining, a frame, pytest's location and node lines, an exception line, an
import line, a line that warns (WARNING_LINE, with the words of a fallback notice it shares with search.REPLACED_BY); the
traceback above a line (_traceback), the input's first lines (_first_lines, a pasted report's title); and the Attribution
record (the backend and the line that named it) the search returns.
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


# The words of a notice that the run goes on with another backend in place of one it lacks ("xformers is not available,
# falling back to SDPA", "Sage attention not available, using flash attention 2"), one list for the two patterns that read
# them: WARNING_LINE (is the line a warning?) and search.REPLACED_BY (which backend ran instead?). FALL_BACK is the verb
# ("falls back", "falling back", "fall back", the noun "fallback"; not "fall-back", in neither), SWITCH_TO the words that name
# the replacement after the absence's comma. REPLACED_BY also reads "defaulting to" there; WARNING_LINE does not (rv36: adding
# it would make "X not available, defaulting to Y" a warning line where it was none, a change of answers, not of form).
FALL_BACK = r"\bfall(?:s|ing)?[ \t]*back[ \t]+"
SWITCH_TO = ("using", "use", r"switching[ \t]+to")
# (and the verbs before "X instead": sentences.USED_INSTEAD, the lead's of session 26, and search.REPLACED_BY, ex35b's copy of
# it, rv36: one list; in another order than both had, which matches the same: no two match at one place, each being followed by
# a space there)
USED_VERBS = SWITCH_TO + ("uses", "used", r"defaulting[ \t]+to", r"switched[ \t]+to")

# ex35b (session 35, issue 23; moved here from explain.py by rv36, session 36): a line that warns, not one that fails: a
# logger's WARNING / WARN, a Python *Warning, torch's [W...] prefix, a notice that a speed-up is off, or one that the run falls
# back to another backend (FALL_BACK "to", SWITCH_TO; its own "fallback to" alternative matched nothing FALL_BACK's did not, and
# is gone). explain._failure_before_warning ranks an exception another backend raised below such a line before the finding
# read from it. Left apart from REPLACED_BY, each as it was (either built from the other's would match other lines): "fall back
# on" (REPLACED_BY's only), and "using ... instead" (any 40 characters after "using" alone here; one to three words after any
# of USED_VERBS, not "instead of", there).
WARNING_LINE = _R.compile(r"(?-i:\bWARN(?:ING)?\b|\b[A-Z]\w*Warning\b|^\s*\[?W\d{4}\b)|\bwarnings?\.warn\b|"
                          r"(?i:\bfor better performance\b|\bproceeding without\b|\boptimizations will not be enabled\b|"
                          r"\bwon'?t be available\b|" + FALL_BACK + r"to\b|\busing\b[^\n]{1,40}?\binstead\b|"
                          r"\bnot[ \t]+(?:available|installed|found)\b[^\n]{0,40}?[,;:][ \t]*(?:" + "|".join(SWITCH_TO) + r")\b)")


_R.save()  # (the patterns compiled above, kept for the next run: index_cache.module_pack)
