"""Before the xdist workers start: compile once what every worker would otherwise compile at the same moment.

In CI's clean clone the 4 workers of `make test` start together and each rewrites the asserts of the same ~430 test
modules (pytest caches the result in __pycache__, but none of them finds another's file yet) and compiles attn_doctor:
measured in session 34 (benchmarks/results/ci-heavy-s34.md), each worker's collection took ~28 s of CPU from a clean
clone and ~15 s where the .pyc files were there. The controller (which collects nothing itself) now writes them first,
with pytest's own rewriting (its hash-checked .pyc: a source that changes is rewritten again, never read stale) and
compileall. Nothing is done where bytecode is not to be written (PYTHONDONTWRITEBYTECODE) or where pytest's rewriting
internals differ (another pytest version): then the workers rewrite as before. It changes no test's code, only who
compiles it first.
"""

from __future__ import annotations

import compileall
import sys
from pathlib import Path

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
REWRITTEN_HELPERS = ("conftest.py", "configs_corpus.py")  # conftest.py's register_assert_rewrite names configs_corpus


def wanted(config) -> bool:
    """The controller of an xdist run (workers > 0), where bytecode may be written."""
    return (not hasattr(config, "workerinput") and bool(getattr(config.option, "numprocesses", None))
            and not sys.dont_write_bytecode)


def chosen(config) -> list[Path] | None:
    """The test modules this run names: None for all of tests/ (CI's `pytest -n 4`, or a folder above it), else the files
    named (`pytest -n 2 tests/test_x.py::test_y`: only those are worth compiling first)."""
    out = set()
    for arg in config.args or [str(TESTS)]:
        p = Path(arg.split("::")[0])
        p = (p if p.is_absolute() else Path(config.invocation_params.dir) / p).resolve()
        if p.is_dir() and (p == TESTS or p in TESTS.parents):
            return None
        if p.is_file() and p.parent == TESTS and p.name.startswith("test_"):
            out.add(p)
    return sorted(out)


def prewarm(config, files: list[Path] | None = None) -> int:
    """Rewrite and cache every test module (or `files`) as a worker would; compile attn_doctor and the helpers. Returns
    how many test modules were written (0: nothing done)."""
    try:
        from _pytest.assertion import rewrite as rw
        from _pytest.assertion import assertstate_key

        state = config.stash[assertstate_key]
        if getattr(config.option, "assertmode", "rewrite") != "rewrite":
            return 0
        every = files is None
        if every:
            files = sorted(TESTS.glob("test_*.py")) + [TESTS / n for n in REWRITTEN_HELPERS]
        n = 0
        for fn in files:
            cache_dir = rw.get_cache_dir(fn)
            if not rw.try_makedirs(cache_dir):
                return n
            pyc = cache_dir / (fn.name[:-3] + rw.PYC_TAIL)
            if rw._read_pyc(fn, pyc, state.trace) is not None:
                continue  # already there for this very source
            source_hash, co = rw._rewrite_test(fn, config)
            if rw._write_pyc(state, co, source_hash, pyc):
                n += 1
    except Exception:  # another pytest's internals: the workers rewrite as before
        return 0
    if every:
        compileall.compile_dir(str(ROOT / "attn_doctor"), quiet=1)
        for helper in sorted(TESTS.glob("*.py")):  # fakefacts, explain_top, ...: imported as they are, not rewritten
            if not helper.name.startswith("test_") and helper.name not in REWRITTEN_HELPERS:
                compileall.compile_file(str(helper), quiet=1)
    return n
