"""benchmarks/configs_blind_carry.py (cfg101, session 24): its table of blind rounds never names a measure-only set or
the held-out one, and a first-measurement miss is put in the class its reading says (no round is read here)."""

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

import configs_blind_carry as carry  # noqa: E402
from configs_refusals import MEASURE_ONLY  # noqa: E402


def test_rounds_are_training_blind_rounds():
    for r in carry.COMMITS:
        name = f"round{r}"
        assert name not in MEASURE_ONLY and "heldout" not in name
        assert r.endswith("m") and (ROOT / "fixtures" / "configs" / name).is_dir(), name
        first, before, _after = carry.COMMITS[r]
        assert first and before


def test_miss_class():
    refused = {"got": {"outcome": "refused", "message": "--config: x.sh runs train.py, a training script none of the "
                                                         "trainers attn-doctor reads ships"}}
    assert carry.miss_class(refused) == "refused: launch of a script no reader claims (absent or unread)"
    read = {"got": {"outcome": "read"}, "right": {"trainer": True, "required": True, "dtype": False, "compile": False}}
    assert carry.miss_class(read) == "wrong dtype"
    assert carry.miss_class({"got": {"outcome": "crashed", "message": "KeyError"}}) == "crashed"
