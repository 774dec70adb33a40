#!/usr/bin/env python3
"""Does a reading or ranking policy carry to the blind rounds' first-measurement misses (session 41, helper ex41p;
benchmarks/results/explain-policies-s41.md)? Two runs of benchmarks/explain_training.py (BASE: the code before, CAND: the
policy), and explain_recurring.py's table at BASE (every freed blind round's first-measurement miss, one row each): every
text whose reading got better or worse (none < matched < right backend < right cause; an unrelated log claimed is worse than
not), by round, each marked where it was a first-measurement miss. A policy carries where its gains are first-measurement
misses of several rounds and it claims no unrelated log it did not claim before.

    PYTHONPATH=$PWD python benchmarks/explain_training.py base            # and, with the policy, ... cand
    PYTHONPATH=$PWD python benchmarks/explain_residuals.py base --rows /tmp/r.tsv
    PYTHONPATH=$PWD python benchmarks/explain_residuals.py base --unmatched --rows /tmp/u.tsv
    python benchmarks/explain_recurring.py base /tmp/r.tsv /tmp/u.tsv --tsv /tmp/rec.tsv
    python benchmarks/explain_policy_carry.py base cand /tmp/rec.tsv

It reads only /tmp/TAG-ar-<round>.json (explain_training.py never writes a held-out or measure-only round's) and refuses a
measure-only round's file if one is there.
"""

from __future__ import annotations

import argparse
import csv
import glob
import json
import sys
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from compare_matches import MEASURE_ONLY  # noqa: E402

RANK = {"claimed": -1, "none": 0, "matched": 1, "backend": 2, "ok": 3}


def load(tag: str, where: str) -> dict[tuple[str, str], tuple[str, object]]:
    out: dict[tuple[str, str], tuple[str, object]] = {}
    for f in glob.glob(f"{where}/{tag}-ar-round*.json"):
        r = f.split("-ar-")[1][:-5]
        if r in MEASURE_ONLY or "heldout" in r:
            raise SystemExit(f"explain_policy_carry: {f}: a measure-only or held-out round, never read here")
        with open(f, encoding="utf-8") as fh:
            d = json.load(fh)
        for x in d["results"]:
            state = ("ok" if x["right_cause"] else "backend" if x["right_backend"] else "matched" if x["matched"] else "none")
            out[(r, x["file"])] = (state, x["top"])
        for x in d["unrelated_results"]:
            out[(r, "unrelated/" + x["file"])] = ("claimed" if x["matched"] else "none", tuple(x["all"]))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("base")
    ap.add_argument("cand")
    ap.add_argument("recurring", help="explain_recurring.py --tsv at BASE")
    ap.add_argument("--where", default="/tmp")
    a = ap.parse_args(argv)
    A, B = load(a.base, a.where), load(a.cand, a.where)
    with open(a.recurring, encoding="utf-8") as fh:
        first = {(row["round"], row["file"]) for row in csv.DictReader(fh, delimiter="\t")}
    moved: dict[str, dict[str, list]] = {"better": defaultdict(list), "worse": defaultdict(list)}
    for k in sorted(set(A) & set(B)):
        (sa, ta), (sb, tb) = A[k], B[k]
        if RANK[sa] == RANK[sb]:
            continue
        isfirst = k in first or (k[0], k[1].removeprefix("unrelated/")) in first
        moved["better" if RANK[sb] > RANK[sa] else "worse"][k[0]].append((k[1], sa, ta, sb, tb, isfirst))
    print(f"{a.cand} vs {a.base}")
    for name, d in moved.items():
        n = sum(len(v) for v in d.values())
        rf = sorted({r for r, v in d.items() for x in v if x[5]})
        nf = sum(1 for v in d.values() for x in v if x[5])
        print(f"  {name}: {n} texts in {len(d)} rounds; first-measurement misses among them: {nf} in {len(rf)} rounds "
              f"{' '.join(rf)}")
        for r, v in sorted(d.items()):
            for f, sa, ta, sb, tb, isf in v:
                print(f"    {r} {f}: {sa}:{ta} -> {sb}:{tb}{'  [first-miss]' if isf else ''}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
