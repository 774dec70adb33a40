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
