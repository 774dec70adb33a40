"""Shared test setup. Where the suite's fakes live, and what each one fakes:

- tests/fakefacts.py  synthetic Facts dicts (the shape collect() returns, captured on the CPU dev VM
                      in fixtures/cpu/check-no-smoke.json) to drive every check through
                      report.evaluate(); `gpu_box()` is a healthy faked H200 with no findings.
- tests/fakesite.py   real *.dist-info directories and stub packages written in tmp dirs, with
                      METADATA/RECORD lines copied from the real wheels.
- tests/test_nvcc.py  fake nvcc shell scripts (good, hanging, garbage, not executable).
- environment         tests that need env vars pass them to a child process or to the collector as
                      a dict; none changes the test process's own os.environ.

Nothing under test is mocked: checks get dicts, collectors read real files, proc.run runs real
children. Run from the repository root: `python -m pytest -q` (CI: .ci/run).
"""

from __future__ import annotations

import gc
import sys
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent
if str(TESTS) not in sys.path:  # the helper modules above, whatever pytest's import mode
    sys.path.insert(0, str(TESTS))
ROOT = TESTS.parent
if str(ROOT) not in sys.path:  # attn_doctor from this checkout, installed or not
    sys.path.insert(0, str(ROOT))

# the shared config-round tests (configs_corpus.staged_round) fail with pytest's assertion introspection as in a test file
pytest.register_assert_rewrite("configs_corpus")

import fakefacts  # noqa: E402
import ci_prewarm  # noqa: E402
import run_shared  # noqa: E402
import xdist_whole  # noqa: E402


def pytest_configure(config):
    """run_shared.once_per_run finds the folder this run's xdist workers share through pytest's config; the controller
    of an xdist run compiles the test modules once before its workers start (ci_prewarm)."""
    run_shared._CONFIG = config
    if ci_prewarm.wanted(config):
        files = ci_prewarm.chosen(config)
        if files is None or files:
            ci_prewarm.prewarm(config, files)


@pytest.hookimpl(hookwrapper=True)
def pytest_collection(session):
    """Collection with the cyclic garbage collector's youngest generation 20,000 allocations deep, not 700: collecting
    ~16,000 items allocates millions of objects that stay alive, and each of CI's 4 workers spent ~0.65 s of its ~5.5 s
    collection traversing them (915 collections, 67 with this; session 42, helper ci42d). The thresholds are restored
    when collection ends, before any test runs; nothing is frozen or left uncollected."""
    before = gc.get_threshold()
    gc.set_threshold(20_000, 20, 20)
    try:
        yield
    finally:
        gc.set_threshold(*before)


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config, log):
    """xdist's load scheduling, with the modules whose module-scoped fixture is costly run whole by one worker
    (tests/xdist_whole.py); None (xdist's own) for any other --dist."""
    return xdist_whole.scheduler(config, log)


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node):
    """The controller tells each xdist worker whether its scheduler hands the heavy modules out first (a worker's own
    options say `--dist no`)."""
    node.workerinput[xdist_whole.KEY] = xdist_whole.schedules(node.config)


def pytest_collection_modifyitems(session, config, items):
    """In an xdist worker of a --dist load run: the heavy modules first, heaviest first (tests/xdist_whole.py FIRST), so
    that none starts late and keeps one worker busy while the others are done. Every worker sorts the same way (xdist
    checks that their collections are the same)."""
    if xdist_whole.reorders(config):
        items[:] = xdist_whole.heavy_first(items)


@pytest.fixture
def gpu_box() -> dict:
    """FAKED: a healthy one-H200 machine (see fakefacts.gpu_box)."""
    return fakefacts.gpu_box()


@pytest.fixture
def cpu_box() -> dict:
    """REAL: the facts captured on the 2-core CPU dev VM (fixtures/cpu/check-no-smoke.json)."""
    return fakefacts.cpu_box()
