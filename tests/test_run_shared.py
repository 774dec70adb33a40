"""tests/run_shared.py: an answer several xdist workers need is computed once per run, and never one of other content.
Cheap by design (the standard library only, a few short children)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import run_shared

TESTS = Path(__file__).resolve().parent


def test_computed_once_per_key_and_again_for_another_key(tmp_path):
    calls = []

    def compute(v):
        return lambda: calls.append(v) or {"v": v, "ids": ["a", "b"]}

    assert run_shared.once_per_run("x", "key 1", compute(1), where=tmp_path) == {"v": 1, "ids": ["a", "b"]}
    assert run_shared.once_per_run("x", "key 1", compute(2), where=tmp_path) == {"v": 1, "ids": ["a", "b"]}  # read
    assert run_shared.once_per_run("x", "key 2", compute(3), where=tmp_path) == {"v": 3, "ids": ["a", "b"]}  # other content
    assert run_shared.once_per_run("y", "key 1", compute(4), where=tmp_path) == {"v": 4, "ids": ["a", "b"]}  # other name
    assert calls == [1, 3, 4]
    assert not [p.name for p in tmp_path.iterdir() if p.name.startswith(".")]  # no temporary left


def test_a_failing_compute_leaves_no_answer(tmp_path):
    def boom():
        raise RuntimeError("half-way")

    try:
        run_shared.once_per_run("x", "k", boom, where=tmp_path)
    except RuntimeError:
        pass
    else:
        raise AssertionError("the error did not go on")
    assert run_shared.once_per_run("x", "k", lambda: [1], where=tmp_path) == [1]


def test_workers_at_once_compute_it_once(tmp_path):
    """Three processes ask at the same moment: one computes (slowly), the others wait and read the same answer."""
    code = ("import json, os, sys, time\nsys.path.insert(0, sys.argv[1])\nimport run_shared\n"
            "def compute():\n    open(os.path.join(sys.argv[2], 'calls'), 'a').write('1\\n')\n    time.sleep(0.5)\n"
            "    return [os.getpid()]\n"
            "print(json.dumps(run_shared.once_per_run('w', 'same key', compute, where=__import__('pathlib').Path(sys.argv[2]))))\n")
    procs = [subprocess.Popen([sys.executable, "-c", code, str(TESTS), str(tmp_path)], stdout=subprocess.PIPE, text=True)
             for _ in range(3)]
    answers = [json.loads(p.communicate(timeout=60)[0]) for p in procs]
    assert (tmp_path / "calls").read_text() == "1\n"
    assert answers[0] == answers[1] == answers[2] and answers[0][0] in [p.pid for p in procs]


def test_source_key_follows_every_file_and_ignores_bytecode(tmp_path):
    pkg = tmp_path / "attn_doctor"
    (pkg / "knowledge").mkdir(parents=True)
    (pkg / "explain.py").write_text("x = 1\n")
    (pkg / "knowledge" / "a.toml").write_text("[e]\n")
    k0 = run_shared.source_key(pkg)
    (pkg / "__pycache__").mkdir()
    (pkg / "__pycache__" / "explain.cpython-311.pyc").write_bytes(b"\0")
    assert run_shared.source_key(pkg) == k0
    (pkg / "knowledge" / "a.toml").write_text("[e2]\n")  # a knowledge file's content
    k1 = run_shared.source_key(pkg)
    (pkg / "knowledge" / "a.toml").rename(pkg / "knowledge" / "b.toml")  # a file's name
    k2 = run_shared.source_key(pkg)
    assert len({k0, k1, k2}) == 3


def test_shared_folder_is_the_runs_under_xdist_only(tmp_path):
    """Under xdist every worker's base temp (gw0, gw1, ...) sits in the run's own folder; in one process nothing is
    shared (and once_per_run only computes)."""
    where = run_shared.shared_dir()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        worker = os.environ["PYTEST_XDIST_WORKER"]
        assert tmp_path.parent.name == f"popen-{worker}" and where == tmp_path.parent.parent
    else:
        assert where is None
