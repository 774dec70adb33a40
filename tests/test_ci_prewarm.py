"""tests/ci_prewarm.py: the controller's cached rewrite is the one a worker would make, and a changed source is never
read from it. (Its CPU: benchmarks/results/ci-heavy-s34.md.)"""

from __future__ import annotations

import sys
from types import SimpleNamespace

import ci_prewarm
from _pytest.assertion import rewrite as rw

SAMPLE = "def test_x():\n    a = [1, 2]\n    assert a == [1, 2], a\n"


def test_the_cached_rewrite_is_pytests_own_and_follows_the_source(tmp_path, pytestconfig):
    src = tmp_path / "test_sample.py"
    src.write_text(SAMPLE)
    assert ci_prewarm.prewarm(pytestconfig, [src]) == 1
    pyc = rw.get_cache_dir(src) / ("test_sample" + rw.PYC_TAIL)
    cached = rw._read_pyc(src, pyc)  # what a worker's import reads
    assert cached is not None
    assert cached == rw._rewrite_test(src, pytestconfig)[1]  # the same code (CPython compares it by value)
    (fn,) = [c for c in cached.co_consts if hasattr(c, "co_varnames")]
    assert any(v.startswith("@py_assert") for v in fn.co_varnames), fn.co_varnames  # asserts rewritten, not plain
    assert ci_prewarm.prewarm(pytestconfig, [src]) == 0  # there already: not written again
    src.write_text(SAMPLE.replace("[1, 2]", "[1, 3]"))
    assert rw._read_pyc(src, pyc) is None  # a changed source is rewritten again by whoever imports it
    assert ci_prewarm.prewarm(pytestconfig, [src]) == 1


def test_only_an_xdist_controller_that_may_write_bytecode_prewarms(pytestconfig, monkeypatch):
    assert not ci_prewarm.wanted(pytestconfig)  # a process that runs tests: a worker, or pytest -n 0
    controller = SimpleNamespace(option=SimpleNamespace(numprocesses=4))
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    assert ci_prewarm.wanted(controller)
    assert not ci_prewarm.wanted(SimpleNamespace(option=SimpleNamespace(numprocesses=0)))
    assert not ci_prewarm.wanted(SimpleNamespace(option=SimpleNamespace(numprocesses=4), workerinput={}))
    monkeypatch.setattr(sys, "dont_write_bytecode", True)  # PYTHONDONTWRITEBYTECODE: nothing written
    assert not ci_prewarm.wanted(controller)


def test_a_run_of_a_few_files_compiles_only_those(tmp_path):
    tests = ci_prewarm.TESTS

    def run(*args, cwd=tests.parent):
        return ci_prewarm.chosen(SimpleNamespace(args=list(args), invocation_params=SimpleNamespace(dir=cwd)))

    assert run("tests") is None and run(str(tests.parent)) is None and run() is None  # the whole suite (CI)
    assert run(".", cwd=tests) is None
    assert run("tests/test_cli.py::test_from_stdin", "tests/test_ci_prewarm.py") == [tests / "test_ci_prewarm.py",
                                                                                       tests / "test_cli.py"]
    assert run("test_cli.py", cwd=tests) == [tests / "test_cli.py"]
    assert run(str(tmp_path)) == []  # elsewhere: nothing of ours
