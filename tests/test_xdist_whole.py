"""tests/xdist_whole.py: the modules whose module-scoped fixture is costly go whole to one xdist worker."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import xdist_whole as xw

TESTS = Path(__file__).resolve().parent
SCOPED = re.compile(r"""scope\s*=\s*["'](?:module|session)["']""")


def test_every_module_with_a_module_scoped_fixture_is_decided():
    """A new module-scoped (or session-scoped) fixture is either run whole by one worker or said to be cheap: a costly
    one left out would be paid again by every worker that runs one of its tests."""
    scoped = {f"tests/{p.name}" for p in TESTS.glob("*.py") if SCOPED.search(p.read_text(encoding="utf-8"))}
    assert scoped - set(xw.WHOLE) - set(xw.CHEAP) == set()
    assert set(xw.WHOLE) | set(xw.CHEAP) <= scoped | {"tests/configs_corpus.py"}  # no stale name
    assert not set(xw.WHOLE) & set(xw.CHEAP)


COLLECTION = ["tests/test_a.py::t1", "tests/test_a.py::t2",
              "tests/test_hardening.py::x1", "tests/test_hardening.py::x2", "tests/test_hardening.py::x3",
              "tests/test_b.py::t1", "tests/test_b.py::t2"]


def test_a_hand_out_never_ends_inside_a_whole_module():
    pending = list(range(len(COLLECTION)))
    assert xw.whole_count(COLLECTION, pending, 3) == 5  # x1 ends it: x2 and x3 go too
    assert xw.whole_count(COLLECTION, pending, 4) == 5
    assert xw.whole_count(COLLECTION, pending, 5) == 5  # ends at the module's last test
    assert xw.whole_count(COLLECTION, pending, 1) == 1  # inside another module: as xdist says
    assert xw.whole_count(COLLECTION, pending, 6) == 6
    assert xw.whole_count(COLLECTION, pending, 0) == 0
    assert xw.whole_count(COLLECTION, pending, 7) == 7  # everything
    assert xw.whole_count(COLLECTION, [3, 4, 5, 6], 1) == 2  # what is left of the module, from where pending stands
    assert xw.whole_count(COLLECTION, [2, 3, 4], 2) == 3


class _Config:
    """What xdist's LoadScheduling reads of pytest's config: -n 4, --dist load."""

    def __init__(self, dist="load"):
        self.dist = dist

    def getvalue(self, name):
        return {"dist": self.dist, "tx": ["4*popen"]}[name]

    def getoption(self, name):
        assert name == "maxschedchunk"
        return None


class _Node:
    """A worker as the scheduler sees one: it is sent indices, and is told to shut down."""

    def __init__(self, n):
        self.n, self.got, self.shutting_down = n, [], False
        self.gateway = type("G", (), {"id": f"gw{n}"})()

    def send_runtest_some(self, indices):
        self.got += indices

    def shutdown(self):
        self.shutting_down = True


def _workers_of(sched, collection, module, nodes=4):
    """Run xdist's scheduling of `collection` over fake workers that finish their tests in turn; the workers that ran
    one of `module`'s tests."""
    workers = [_Node(n) for n in range(nodes)]
    for w in workers:
        sched.add_node(w)
    for w in workers:
        sched.add_node_collection(w, collection)
    sched.schedule()
    while any(sched.node2pending[w] for w in workers):
        for w in workers:
            if sched.node2pending[w]:
                sched.mark_test_complete(w, sched.node2pending[w][0])
    ran = sorted(i for w in workers for i in w.got)
    assert ran == list(range(len(collection)))  # every test once
    return {w.n for w in workers if any(xw.module_of(collection[i]) == module for i in w.got)}


def test_the_scheduler_is_xdists_load_scheduling_keeping_a_whole_module_on_one_worker():
    """The real xdist scheduler, driven as pytest-xdist drives it (-n 4): a module xdist itself splits between two
    workers (its tests straddle the end of the first hand-out) runs on one; only --dist load is changed."""
    load = pytest.importorskip("xdist.scheduler").LoadScheduling
    collection = [f"tests/test_a.py::t{i}" for i in range(120)] + [f"tests/test_hardening.py::h{i}" for i in range(50)] \
        + [f"tests/test_z.py::t{i}" for i in range(400)]  # xdist hands out 35 at a time first: 105-140 straddles
    assert len(_workers_of(load(_Config(), None), collection, "tests/test_hardening.py")) > 1  # as xdist does it
    sched = xw.scheduler(_Config(), None)
    assert isinstance(sched, load)
    assert len(_workers_of(sched, collection, "tests/test_hardening.py")) == 1
    assert len(_workers_of(xw.scheduler(_Config(), None), collection, "tests/test_a.py")) > 1  # others as before
    assert xw.scheduler(_Config("loadscope"), None) is None and xw.scheduler(_Config("no"), None) is None


# ---- heavy modules first (FIRST) -------------------------------------------------------------------------------------

def test_every_first_module_is_a_test_module_with_its_why():
    for mod, (seconds, why) in xw.FIRST.items():
        assert (TESTS.parent / mod).is_file() and mod.startswith("tests/test_"), mod
        assert seconds > 0 and len(why) > 10, mod


HEAVY = {"tests/test_h1.py": (50, "heaviest"), "tests/test_h2.py": (30, "second"), "tests/test_h3.py": (20, "third")}


def test_first_is_heaviest_first_but_hardening_beside_modules_that_start_no_children():
    order = list(xw.FIRST)
    assert order[0] == "tests/test_hardening.py"
    rest = [xw.FIRST[m][0] for m in order[4:]]
    assert rest == sorted(rest, reverse=True)
    assert min(xw.FIRST[m][0] for m in order[1:4]) >= max(rest[1:])


def test_heavy_first_moves_whole_modules_to_the_front_in_firsts_order_the_rest_in_theirs():
    ids = [f"tests/test_a.py::t{i}" for i in range(3)] + [f"tests/test_h3.py::t{i}" for i in range(2)] \
        + [f"tests/test_b.py::t{i}" for i in range(2)] + [f"tests/test_h1.py::t{i}" for i in range(3)] \
        + ["tests/test_h2.py::t0"] + ["tests/test_c.py::t0"]
    got = xw.heavy_first(ids, nodeid=str, first=HEAVY)
    assert sorted(got) == sorted(ids)  # the same tests
    assert got == [f"tests/test_h1.py::t{i}" for i in range(3)] + ["tests/test_h2.py::t0"] \
        + [f"tests/test_h3.py::t{i}" for i in range(2)] + [f"tests/test_a.py::t{i}" for i in range(3)] \
        + [f"tests/test_b.py::t{i}" for i in range(2)] + ["tests/test_c.py::t0"]
    assert xw.heavy_first(ids, nodeid=str, first={}) == ids
    swapped = {m: HEAVY[m] for m in ("tests/test_h2.py", "tests/test_h1.py", "tests/test_h3.py")}
    assert xw.heavy_first(ids, nodeid=str, first=swapped)[:4] == ["tests/test_h2.py::t0"] + [f"tests/test_h1.py::t{i}"
                                                                                              for i in range(3)]


def test_heavy_modules_go_out_one_at_a_time_to_the_worker_free_first():
    """The real xdist scheduler, driven as pytest-xdist drives it (-n 4), on a collection heavy_first ordered: the four
    heaviest modules start at once, one on each worker (xdist's own would hand them all to the first worker); a worker
    gets the next heavy module only at its current one's last test; the rest as xdist does; every test once."""
    load = pytest.importorskip("xdist.scheduler").LoadScheduling
    heavy = {f"tests/test_h{k}.py": (100 - k, "heavy") for k in range(6)}
    collection = xw.heavy_first([f"tests/test_a.py::t{i}" for i in range(300)]
                                + [f"tests/test_h{k}.py::t{i}" for k in range(6) for i in range(10 + k)]
                                + [f"tests/test_z.py::t{i}" for i in range(300)], nodeid=str, first=heavy)
    first_module = lambda w: {xw.module_of(collection[i]) for i in w.got}  # noqa: E731
    own = [_Node(n) for n in range(4)]
    sched = load(_Config(), None)
    for w in own:
        sched.add_node(w)
    for w in own:
        sched.add_node_collection(w, collection)
    sched.schedule()
    assert len(first_module(own[0]) & set(heavy)) >= 4  # as xdist does it: the four heaviest on the first worker

    sched = xw.scheduler(_Config(), None, first=heavy)
    workers = [_Node(n) for n in range(4)]
    for w in workers:
        sched.add_node(w)
    for w in workers:
        sched.add_node_collection(w, collection)
    sched.schedule()
    assert [first_module(w) for w in workers] == [{f"tests/test_h{k}.py"} for k in range(4)]
    w1 = workers[1]
    while len(sched.node2pending[w1]) > 2:  # worker 1 runs its module: nothing more while two tests are left
        sched.mark_test_complete(w1, sched.node2pending[w1][0], duration=5.0)
        assert first_module(w1) == {"tests/test_h1.py"}
    sched.mark_test_complete(w1, sched.node2pending[w1][0], duration=5.0)  # its last test left: the next heavy module
    assert first_module(w1) == {"tests/test_h1.py", "tests/test_h4.py"}
    while any(sched.node2pending[w] for w in workers):
        for w in workers:
            if sched.node2pending[w]:
                sched.mark_test_complete(w, sched.node2pending[w][0])
    assert sorted(i for w in workers for i in w.got) == list(range(len(collection)))  # every test once
    assert len({w.n for w in workers if "tests/test_z.py" in first_module(w)}) > 1  # the light ones spread as before


def test_the_collection_is_reordered_only_in_a_worker_of_a_load_run():
    """The controller's --dist says (a worker's own options say `--dist no`): it puts KEY into each worker's input."""
    pytest.importorskip("xdist.scheduler")
    assert xw.schedules(_Config()) and not xw.schedules(_Config("loadscope")) and not xw.schedules(_Config("no"))

    class Worker(_Config):
        def __init__(self, told):
            super().__init__("no")
            self.workerinput = {"workerid": "gw0", xw.KEY: told}

    assert xw.reorders(Worker(True)) and not xw.reorders(Worker(False)) and not xw.reorders(_Config())
