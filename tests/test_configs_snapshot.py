"""benchmarks/configs_snapshot.py (every config fixture's reading, before and after a reader change) never reads the
held-out set nor a measure-only round, and its diff says when a reading changed."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
import configs_snapshot  # noqa: E402


def test_it_skips_what_configs_refusals_keeps_measure_only():
    skip = configs_snapshot.measure_only()
    assert "heldout" in skip
    text = (ROOT / "benchmarks" / "configs_refusals.py").read_text(encoding="utf-8")
    assert all(f'"{name}"' in text.split("MEASURE_ONLY = ", 1)[1].split("\n", 1)[0] for name in skip)


def test_diff_exits_1_on_a_changed_reading_and_0_on_none(capsys):
    a = {"x.toml": {"trainer": "musubi"}, "y.yaml": {"refused": "not a trainer config"}}
    assert configs_snapshot.diff(a, dict(a)) == 0
    assert configs_snapshot.diff(a, {**a, "x.toml": {"trainer": "sd-scripts"}}) == 1
    assert "x.toml" in capsys.readouterr().out


def test_every_reader_of_the_training_folders_takes_its_skips_from_the_one_list():
    """benchmarks/configs_refusals.py's MEASURE_ONLY is the one list of measure-only config sets: the robustness
    benchmark, the tests' corpus helper and cfg33's own-files walk derive theirs from it, so adding or removing a blind
    round is one edit."""
    sys.path.insert(0, str(ROOT / "tests"))
    import configs_corpus

    assert set(configs_corpus.MEASURE_ONLY) | {"heldout"} == configs_snapshot.measure_only()
    rob = (ROOT / "benchmarks" / "configs_robustness.py").read_text(encoding="utf-8")
    assert "NOT_TRAINING = tuple(sorted(MEASURE_ONLY))" in rob and "from configs_refusals import MEASURE_ONLY" in rob
    assert '("heldout", *MEASURE_ONLY)' in (ROOT / "tests" / "test_configs_cfg33.py").read_text(encoding="utf-8")
