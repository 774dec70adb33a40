"""Test modules one xdist worker runs whole: their module-scoped fixture is paid once per run, not once per worker.

`make test` runs pytest -n 4 with xdist's `load` distribution: it hands each worker runs of consecutive tests, and a run
may end inside a module, so that module's tests are split between workers. A module-scoped fixture is then set up again
in every worker that runs one of them: test_hardening's batch (32 doctor runs, ~180 s of CPU on the 2-core machine) ran
twice where its ~50 tests straddled a boundary. `scheduler()` (conftest.py's pytest_xdist_make_scheduler) is xdist's own
LoadScheduling whose every hand-out that would end inside one of WHOLE's modules takes that module's remaining tests too;
nothing else changes (the same tests, the same order, the same workers). With another xdist whose LoadScheduling lacks
the method it extends, or another --dist, xdist schedules as before (None).

Heavy modules first (FIRST): with 2 cores and 4 workers the run's wall time cannot fall under ~user CPU / 2, and it did
(s36's start: 1571 s of pytest for 2283 s of CPU) where long tests were handed out late and kept one or two workers busy
while the others had nothing left (98% -> 100% took about 5 minutes). `heavy_first()` (conftest.py's
pytest_collection_modifyitems, in xdist workers under --dist load only) moves FIRST's modules, whole and in their own order,
to the front of the collection, heaviest first (FIRST's order); the scheduler hands them out one module at a time, a worker taking the next
when it has fewer than 2 tests left (longest-processing-time-first), then schedules the rest as xdist does. The same tests
run; only the order in which the workers get them changes.

tests/test_xdist_whole.py: every test module with a module- or session-scoped fixture is in WHOLE or in CHEAP (with why);
every FIRST module exists.
"""

from __future__ import annotations

# module -> the fixture that one worker pays instead of each
WHOLE = {
    "tests/test_hardening.py": "batch: 32 `attn-doctor check` runs on broken fake machines (~130 s of CPU since ci42b, "
                               "4 hangs waited out)",
    "tests/test_cli.py": "live: a full `check --no-smoke` of this machine in a child (~3.5 s)",
    "tests/test_allocator.py": "torch_verdicts: torch's own parser on every allocator setting, in a child that imports torch",
    "tests/test_import_probe_e2e.py": "runs: three `check` runs against fake backends (no hang since ci42b)",
    "tests/test_python_flag.py": "doctor_py: a venv without torch, built with the doctor in it; outside: its "
                                 "`check --no-smoke --python` of this venv (a torch probe), read by two tests (ci40c); "
                                 "wrapped: its `check -b sdpa --python` of a wrapper of this venv, read by two (ci42b)",
    "tests/test_new_user_rows.py": "venv: a bare venv made with python -m venv; checked_venv: rows 2 and 3's check of it",
    "tests/test_api.py": "fresh_api: a fresh interpreter's real check of sdpa (kernels) and require of sdpa and cute, its "
                         "children importing torch (~15 s of CPU), read by two tests (ci40c)",
    "tests/test_formats.py": "live: a `check --no-smoke` probe of this machine (torch imported in a child, ~5 s of CPU), "
                             "read by two tests (ci40c)",
    "tests/test_flex_workers.py": "answers: one child (torch + Inductor's config, ~6 s) answering its three cases (ci38c)",
    "tests/test_smoke_planted.py": "good: the good fake's smoke over every case, a child importing torch (ci38c)",
}

# modules whose module-scoped fixture is cheap, or used by one test only (split or not, it is set up once)
CHEAP = {
    "tests/configs_corpus.py": "staged_round's repo_layout: used by test_real_file_in_its_repository_layout only",
    "tests/test_configs_round29m.py": "repo_layout: used by test_real_file_in_its_repository_layout only",
    "tests/test_configs_round33m.py": "repo_layout: used by test_real_file_in_its_repository_layout only",
    "tests/test_safe_advice_rv16.py": "fake_bin: three small files written",
    "tests/test_flex_adapter.py": "torch: `import torch` in the worker that runs its two tests, not at collection in "
                                  "every worker (ci40c)",
    "tests/test_explain_long_lines.py": "matcher_forms: matcher_form, bounded, re.compile cached for 3 tests (filled as asked)",
    "tests/test_index_cache.py": "readings_off: 10 texts read with no cache (~3 s of CPU), where each of 5 tests read them; "
                                 "engine_once: a cache of index_cache._engine_compile (filled as asked)",
}


# module -> (seconds its tests took in CI at s36's start (3902fddc, the log's 150 slowest, 4 workers on 2 cores), why heavy),
# in the order they are handed out: heaviest first, but test_hardening first of all, beside three modules that start no
# children (findings, index_cache, explain_long_lines): its batch's hang runs give a fake backend HANG s to start and
# say its pid, and in a trial run with the order by seconds alone (HANG = 20 s then) it started beside test_distributed's
# and test_trace's torch children (on a machine at load 12) and two hang runs failed so ("the fake never wrote its pid");
# HANG = 90 s since ci40a (session 40), as the first place alone did not make 20 s enough on a loaded machine.
FIRST = {
    "tests/test_hardening.py": (147, "WHOLE: its batch of 32 doctor runs (setup 140 s; its hangs wait HANG = 90 s since s40)"),
    "tests/test_findings.py": (358, "renders every import-error / cuda-init text of the corpora (one test 174 s)"),
    "tests/test_index_cache.py": (214, "compiles and runs every head pattern cold, warm and from damaged caches"),
    "tests/test_explain_long_lines.py": (209, "parses every entry pattern twice; megabyte lines through the matcher"),
    "tests/test_failure_kept.py": (249, "noise x failure fake runs of the doctor, 30 of them slow (one 102 s)"),
    "tests/test_distributed.py": (188, "torchrun / srun ranks as children, with hangs and deaths waited out"),
    "tests/test_trace.py": (152, "transformers' tiny llama for each attention implementation, torchrun ranks"),
    "tests/test_explain_variants_ex104.py": (110, "one test: round101m's entries over every unrelated log"),
    "tests/test_explain_variants_ex100.py": (97, "one test: round95m's entries over every unrelated log"),
    "tests/test_new_user_rows.py": (92, "WHOLE: a bare venv; shape refusals timed on the CPU (s40, ci40c: 47.6 -> 13.5 user s "
                                        "at -n 0, row 18 refused before any child and row 8 run once: no longer heavy)"),
    "tests/test_python_flag.py": (76, "WHOLE: a venv without torch; checks through --python"),
    "tests/test_roundtrip.py": (74, "printed pip lines run for real; env.sh sourced and checked again"),
    "tests/test_advice.py": (62, "every printed command run against three interpreters' layouts"),
    "tests/test_error_corpus.py": (59, "the corpus rates: explain over every training text"),
    "tests/test_loud.py": (58, "doctor runs stopped by signals, OOMs and refusals"),
    "tests/test_cli.py": (49, "WHOLE: a live check of this machine"),
    "tests/test_staged_error_corpora.py": (46, "explain over each staged round"),
    "tests/test_bench.py": (41, "the bench CLI timing kernels on the CPU"),
    "tests/test_api.py": (40, "check and require in children that must not import torch"),
    "tests/test_import_probe_e2e.py": (34, "WHOLE: three check runs against fake backends (setup 34 s; its hang, ~90 s asleep "
                                           "since stop 66, folded into test_hardening's batch by ci42b)"),
    "tests/test_flex_workers.py": (34, "flex attention compiled cold in a pool and in process"),
}


def heavy_first(items: list, nodeid=lambda item: item.nodeid, first=FIRST) -> list:
    """`items` with `first`'s modules moved to the front, in `first`'s order, each whole and in its own order; the others
    after them in theirs (a stable sort)."""
    rank = {m: r for r, m in enumerate(first)}
    return sorted(items, key=lambda item: rank.get(module_of(nodeid(item)), len(rank)))


KEY = "attn_doctor_heavy_first"  # in each worker's workerinput, set by the controller (conftest's pytest_configure_node)


def schedules(config) -> bool:
    """Whether scheduler() schedules this run (the controller's view: --dist load with an xdist it can extend)."""
    try:
        from xdist.scheduler import LoadScheduling
    except ImportError:
        return False
    return config.getvalue("dist") == "load" and _supported(LoadScheduling)


def reorders(config) -> bool:
    """Whether this process is an xdist worker whose controller schedules with scheduler() (only there does putting the
    heavy modules first save time: xdist's own scheduler would hand them all to the first worker). A worker's own
    options say `--dist no`: the controller tells it in its workerinput."""
    return bool(getattr(config, "workerinput", {}).get(KEY))


def _supported(load) -> bool:
    return all(callable(getattr(load, name, None)) for name in ("_send_tests", "check_schedule"))


def module_of(nodeid: str) -> str:
    return nodeid.split("::", 1)[0]


def whole_count(collection: list[str], pending: list[int], num: int, whole=WHOLE, first=()) -> int:
    """How many of `pending` (indices into `collection`, the next to hand out first) to hand out where xdist would hand
    out `num`: more, when the num-th ends inside a module of `whole` whose next tests are still pending; exactly the next
    module's pending tests when that module is one of `first` (the heavy modules go out one at a time)."""
    if num > 0 and pending and module_of(collection[pending[0]]) in first:
        mod, num = module_of(collection[pending[0]]), 1
        while num < len(pending) and module_of(collection[pending[num]]) == mod:
            num += 1
        return num
    if 0 < num < len(pending):
        mod = module_of(collection[pending[num - 1]])
        if mod in whole:
            while num < len(pending) and module_of(collection[pending[num]]) == mod:
                num += 1
    return num


def scheduler(config, log, first=FIRST):
    """xdist's LoadScheduling keeping WHOLE's modules on one worker, and handing out `first`'s modules (at the front of
    the collection: heavy_first) one at a time to a worker that has fewer than 2 tests left, for --dist load (what -n N
    means); else None."""
    if not schedules(config):
        return None
    from xdist.scheduler import LoadScheduling

    class WholeModules(LoadScheduling):
        _heavy = True  # until the first hand-out of a module not in `first`: the heavy modules at the front

        def _in_heavy(self) -> bool:
            self._heavy = self._heavy and bool(self.pending) and module_of(self.collection[self.pending[0]]) in first
            return self._heavy

        def check_schedule(self, node, duration=0.0):
            # a worker busy with a heavy module keeps it alone until its last test: the next heavy module goes to
            # whichever worker is free first
            if self.collection is not None and self._in_heavy() and len(self.node2pending.get(node, ())) >= 2:
                return
            super().check_schedule(node, duration)

        def _send_tests(self, node, num):
            heavy = self._in_heavy()
            super()._send_tests(node, whole_count(self.collection, self.pending, num, first=first if heavy else ()))

    return WholeModules(config, log)
