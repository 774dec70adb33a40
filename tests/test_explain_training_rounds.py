"""benchmarks/explain_training.py (the in-sample runner every explain change is checked with) reads the training rounds
only: its one list (compare_matches.ROUNDS) names folders that exist, never the held-out set nor a measure-only round,
and the measure-only rounds it refuses are those tests/test_staged_error_corpora.py keeps measure-only."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
import compare_matches  # noqa: E402
import test_staged_error_corpora as staged  # noqa: E402


def test_every_training_round_exists_and_none_is_held_out_or_measure_only():
    for r in compare_matches.ROUNDS:
        assert (ROOT / "fixtures" / "errors" / r).is_dir(), r
        assert "heldout" not in r and r not in compare_matches.MEASURE_ONLY, r
    assert len(set(compare_matches.ROUNDS)) == len(compare_matches.ROUNDS)


def test_the_measure_only_rounds_are_the_staged_ones():
    assert set(compare_matches.MEASURE_ONLY) == {s.name for s in staged.MEASURE_ONLY}


def test_every_staged_training_round_is_measured():
    # a round registered as training material (rules were written from it) must be in the runner's list, or a rule change
    # that loses its texts would pass the in-sample check; round4b is checked by tests/test_error_corpus.py, not staged
    assert {s.name for s in staged.SETS} == set(compare_matches.ROUNDS) - {"round4b"}


def test_a_measure_only_round_is_refused_with_exit_2():
    for r in compare_matches.MEASURE_ONLY + ("heldout",):
        p = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "explain_training.py"), "t", "--outdir", "/nonexistent"],
                           env={"EXTRA_ROUNDS": r, "PATH": "/usr/bin:/bin"}, capture_output=True, text=True)
        assert p.returncode == 2, (r, p.stderr)
        assert "never measured here" in p.stderr and "Traceback" not in p.stderr
