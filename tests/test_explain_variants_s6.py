"""Hand-written variants of the failure classes explain knows (helper ex35, session 6, 2026-11-28, issue 23: a rule must
match new texts of a failure as often as the texts it came from). The cases live in tests/data/explain_variants_s6.toml,
each with its class and what it is modelled on; benchmarks/explain_variants.py prints the same figures per class.

  variant    explain's first problem names the variant's backend (one of them, for a list) and one of its entries
  near miss  an unrelated text naming the same words reports none of its `not_entry` ids, and its first problem does not
             name its `not_backend` (with neither given: explain reports nothing)
"""

from __future__ import annotations

import sys
import tomllib
from pathlib import Path

from each_case import each

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from explain_heldout import match_backend, match_id, run_matcher, _resolve  # noqa: E402
from explain_variants import DATA, judge_near_miss, judge_variant  # noqa: E402

CASES = tomllib.loads(DATA.read_text(encoding="utf-8"))
VARIANTS = CASES["variant"]
NEAR = CASES["near_miss"]
_FN, _FEED, _ = _resolve(None)  # the matcher `attn-doctor explain -` runs, fed as it feeds it


def _found(text: str) -> list:
    return run_matcher(_FN, _FEED, text)


def _id(v: dict, n: int) -> str:
    return f"{v['class']}-{n}"


def test_the_data_file_is_what_the_brief_asks():
    classes = {}
    for v in VARIANTS:
        assert set(v) == {"class", "backend", "entry", "note", "text"}, v
        assert v["note"].startswith("written by ex35 on 2026-11-28, modelled on "), v["note"]
        assert v["entry"] and all(isinstance(e, str) for e in v["entry"])
        classes[v["class"]] = classes.get(v["class"], 0) + 1
    assert len(VARIANTS) >= 120 and len(NEAR) >= 30
    assert len(classes) == 13 and min(classes.values()) >= 6, classes
    for n in NEAR:
        assert set(n) <= {"class", "text", "note", "not_entry", "not_backend"} and n["class"] in classes, n


# (The variants and the near misses are one test each over their cases, each failing one named class-index as its pytest
# item was: tests/each_case.py says why.)

def test_variant():
    each(((_id(v, i), (v,)) for i, v in enumerate(VARIANTS)), _variant)


def _variant(v):
    found = _found(v["text"])
    got = judge_variant(v, found)
    assert got["right_backend"] and got["right_entry"], (
        f"want {v['backend']}/{v['entry']}, got {got['top_backend']}/{got['top']} (all: {got['all']})")


def test_near_miss():
    each(((_id(n, i), (n,)) for i, n in enumerate(NEAR)), _near_miss)


def _near_miss(n):
    found = _found(n["text"])
    got = judge_near_miss(n, found)
    assert not got["broken"], f"reported {got['all']} (first backend {got['top_backend']})"


def test_the_judges_can_fail():
    """A variant judged against the wrong entry fails, and a near miss with nothing allowed fails on any match."""
    v = dict(VARIANTS[0], entry=["no.such-entry"])
    assert not judge_variant(v, _found(v["text"]))["right_entry"]
    some = _found(VARIANTS[0]["text"])
    assert match_id(some[0]) and match_backend(some[0]) == VARIANTS[0]["backend"]
    assert judge_near_miss({"class": "x", "text": ""}, some)["broken"]
