"""benchmarks/compare_matches.py --split (helper ex91): the fixed DEV/CHECK halves of the training rounds and their totals."""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
import compare_matches as cm  # noqa: E402


def test_the_halves_partition_the_training_rounds():
    assert set(cm.DEV) | set(cm.CHECK) == set(cm.ROUNDS)
    assert not set(cm.DEV) & set(cm.CHECK)
    assert cm.DEV[0] == cm.ROUNDS[0] and cm.CHECK[0] == cm.ROUNDS[1]  # even positions DEV, odd CHECK (0-based)
    assert not (set(cm.DEV) | set(cm.CHECK)) & set(cm.MEASURE_ONLY)


def _run(where: Path, tag: str, r: str, matched: bool, texts: list[tuple[str, bool]], claimed: int = 0) -> None:
    doc = {"totals": {"texts": len(texts), "matched": sum(m for _, m in texts), "right_backend": sum(m for _, m in texts),
                      "right_cause": 0},
           "unrelated": {"texts": 2, "false_positives": claimed},
           "results": [{"file": f, "matched": m, "right_backend": m, "right_cause": False, "top": "x" if m else None,
                        "top_backend": None, "all": ["x"] if m else []} for f, m in texts],
           "unrelated_results": []}
    (where / f"{tag}-ar-{r}.json").write_text(json.dumps(doc), encoding="utf-8")


def test_split_prints_each_half_and_names_only_dev_texts(tmp_path, capsys):
    dev, check = cm.DEV[0], cm.CHECK[0]
    _run(tmp_path, "a", dev, True, [("d1.txt", False), ("d2.txt", True)])
    _run(tmp_path, "b", dev, True, [("d1.txt", True), ("d2.txt", True)])
    _run(tmp_path, "a", check, True, [("c1.txt", False)], claimed=1)
    _run(tmp_path, "b", check, True, [("c1.txt", True)], claimed=0)
    assert cm.split(["a", "b"], str(tmp_path)) == 0
    out = capsys.readouterr().out
    assert "DEV   a: 1 rounds, 2 texts: 1 matched" in out and "DEV   b: 1 rounds, 2 texts: 2 matched" in out
    assert "CHECK a: 1 rounds, 1 texts: 0 matched / 0 right backend / 0 right cause; unrelated claimed 1/2" in out
    assert "d1.txt" in out and "d2.txt" not in out  # DEV's changed text by name
    assert "c1.txt" not in out and "CHECK: 1 texts differ" in out  # CHECK's as a count only
