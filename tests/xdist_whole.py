"""Test modules one xdist worker runs whole: their module-scoped fixture is paid once per run, not once per worker.

`make test` runs pytest -n 4 with xdist's `load` distribution: it hands each worker runs of consecutive tests, and a run
may end inside a module, so that module's tests are split between workers. A module-scoped fixture is then set up again
in every worker that runs one of them: test_hardening's batch (32 doctor runs, ~180 s of CPU on the 2-core machine) ran
twice where its ~50 tests straddled a boundary. `scheduler()` (conftest.py's pytest_xdist_make_scheduler) is xdist's own
LoadScheduling whose every hand-out that would end inside one of WHOLE's modules takes that module's remaining tests too;
nothing else changes (the same tests, the same order, the same workers). With another xdist whose LoadScheduling lacks
the method it extends, or another --dist, xdist schedules as before (None).

tests/test_xdist_whole.py: every test module with a module- or session-scoped fixture is in WHOLE or in CHEAP (with why).
"""

from __future__ import annotations

# module -> the fixture that one worker pays instead of each
WHOLE = {
    "tests/test_hardening.py": "batch: 32 `attn-doctor check` runs on broken fake machines (~180 s of CPU, 4 hangs waited out)",
    "tests/test_cli.py": "live: a full `check --no-smoke` of this machine in a child (~3.5 s)",
    "tests/test_allocator.py": "torch_verdicts: torch's own parser on every allocator setting, in a child that imports torch",
    "tests/test_import_probe_e2e.py": "runs: five `check` runs against fake backends",
    "tests/test_python_flag.py": "doctor_py: a venv without torch, built with the doctor in it",
    "tests/test_new_user_rows.py": "venv: a bare venv made with python -m venv",
}

# modules whose module-scoped fixture is cheap, or used by one test only (split or not, it is set up once)
CHEAP = {
    "tests/configs_corpus.py": "staged_round's repo_layout: used by test_real_file_in_its_repository_layout only",
    "tests/test_configs_round29m.py": "repo_layout: used by test_real_file_in_its_repository_layout only",
    "tests/test_configs_round33m.py": "repo_layout: used by test_real_file_in_its_repository_layout only",
    "tests/test_safe_advice_rv16.py": "fake_bin: three small files written",
}


def module_of(nodeid: str) -> str:
    return nodeid.split("::", 1)[0]


def whole_count(collection: list[str], pending: list[int], num: int, whole=WHOLE) -> int:
    """How many of `pending` (indices into `collection`, the next to hand out first) to hand out where xdist would hand
    out `num`: more, when the num-th ends inside a module of `whole` whose next tests are still pending."""
    if 0 < num < len(pending):
        mod = module_of(collection[pending[num - 1]])
        if mod in whole:
            while num < len(pending) and module_of(collection[pending[num]]) == mod:
                num += 1
    return num


def scheduler(config, log):
    """xdist's LoadScheduling keeping WHOLE's modules on one worker, for --dist load (what -n N means); else None."""
    try:
        from xdist.scheduler import LoadScheduling
    except ImportError:
        return None
    if config.getvalue("dist") != "load" or not callable(getattr(LoadScheduling, "_send_tests", None)):
        return None

    class WholeModules(LoadScheduling):
        def _send_tests(self, node, num):
            super()._send_tests(node, whole_count(self.collection, self.pending, num))

    return WholeModules(config, log)
