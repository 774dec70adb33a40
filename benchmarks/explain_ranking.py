#!/usr/bin/env python3
"""Texts where explain lists the label's entry but ranks another first, and the ranking rule that decided it (issue 23,
session 30, helper ex176; results: benchmarks/results/explain-ranking-s30.md).

Two tables:
  first   the first-measurement rows of explain-recurring-s29.tsv's classes C-catch-all-first, C-sibling-first and
          C-other-specific-first (and round 166m's first record, measured after that table) where the label's entry is in
          explain's list then but not first, with the list at TAG (a training run's /tmp/TAG-ar-<round>.json)
  now     every training text (compare_matches.ROUNDS) whose label's entry TAG lists but not first, with the sort-key
          component of knowledge/match.py _rank that put the first one above it, read by running this checkout's matcher

    PYTHONPATH=$PWD python benchmarks/explain_ranking.py TAG            # both tables, markdown

The rules (_rank's final sort key, in order): R1 notes last; R2 last resorts (fallback) after known causes; R3 a report's
title in words after other last resorts; R4s a catch-all on the line of a specific non-cause after it (ex176); R4 a symptom
after every cause, an entry `explained_by` a found one after it; R5 a question or a guess after a statement; R6 where each
first shows; R7 score. Held-out and measure-only rounds are never read.
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
import results_io  # noqa: E402
from compare_matches import MEASURE_ONLY, ROUNDS  # noqa: E402
from explain_recurring import FIRST  # noqa: E402

CLASSES = ("C-catch-all-first", "C-sibling-first", "C-other-specific-first")
FIRST_166 = ("round166m", "benchmarks/results/explain-round166m-2026-12-01-session28-first-4b782054.json")
RULES = ("R1 notes last", "R2 last resort after causes", "R3 title words after other last resorts",
         "R4s catch-all after the specific reading of its line", "R4 symptom / explained_by after its cause",
         "R5 question or guess after a statement", "R6 position", "R7 score", "R8 id")


def label_ids(entry: str) -> list[str]:
    return [e.strip() for e in (entry or "").split(" | ")]


def listed_not_first(x: dict) -> bool:
    ids = label_ids(x["entry"])
    return bool(x["all"]) and x["all"][0] not in ids and any(e in ids for e in x["all"])


def first_rows(tag: str) -> list[list[str]]:
    with open(HERE / "results" / "explain-recurring-s29.tsv", encoding="utf-8") as fh:
        want = {(r["round"], r["file"]) for r in csv.DictReader(fh, delimiter="\t") if r["first_class"] in CLASSES}
    out = []
    for rd, name in list(FIRST.items()) + [FIRST_166]:
        assert rd in ROUNDS and rd not in MEASURE_ONLY, rd
        now = {x["file"]: x for x in json.loads(Path(f"/tmp/{tag}-ar-{rd}.json").read_text(encoding="utf-8"))["results"]}
        for x in results_io.load_json(ROOT / name if "/" in name else name)["results"]:
            if (rd in dict([FIRST_166]) or (rd, x["file"]) in want) and x["matched"] and x["right_backend"] \
                    and listed_not_first(x):
                n = now[x["file"]]
                out.append([rd, x["file"], x["entry"], " > ".join(x["all"]), " > ".join(n["all"]),
                            "right" if n["right_cause"] else "outranked" if listed_not_first(n) else "other"])
    return out


def _keys(found: list) -> dict[int, tuple]:
    """_rank's final sort key of each match (knowledge/match.py order_keys), from the ranked matches."""
    from attn_doctor.knowledge.match import order_keys

    return order_keys(found, line=lambda c: c.line)


def deciding_rule(text: str, label: list[str]) -> str:
    """The first sort-key component where explain's first finding and the label's entry differ (at the scan's ranking;
    explain may then rename an entry, knowledge/attribution's specialize / generalize, which keeps the order)."""
    from attn_doctor import explain
    from attn_doctor.knowledge.match import scan

    s = scan(text, probes=explain.probes())
    final = explain.examine(text).found
    if not final:
        return "-"
    by_pos = {c.position: c for c in s.found}
    top = by_pos.get(final[0].position)
    lab = next((by_pos.get(f.position) for f in final if f.entry.id in label), None)
    if top is None or lab is None:
        return "?"
    k = _keys(s.found)
    a, b = k[id(top)], k[id(lab)]
    return next((RULES[i] for i in range(len(a)) if a[i] != b[i]), "?")


def now_rows(tag: str) -> list[list[str]]:
    sys.path.insert(0, str(ROOT))
    import explain_heldout as h

    out = []
    for rd in ROUNDS:
        assert rd not in MEASURE_ONLY and "heldout" not in rd, rd
        for x in json.loads(Path(f"/tmp/{tag}-ar-{rd}.json").read_text(encoding="utf-8"))["results"]:
            if x["matched"] and listed_not_first(x):
                _, body = h.load(ROOT / "fixtures" / "errors" / rd / x["file"])
                out.append([rd, x["file"], x["entry"], " > ".join(x["all"]), deciding_rule(body, label_ids(x["entry"]))])
    return out


def table(head: list[str], rows: list[list[str]]) -> str:
    return "\n".join(["| " + " | ".join(head) + " |", "|" + "---|" * len(head)] +
                     ["| " + " | ".join(c.replace("|", "/") for c in r) + " |" for r in rows]) + "\n"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("tag")
    a = ap.parse_args()
    print(table(["round", "file", "label", "first measurement", a.tag, "at " + a.tag], first_rows(a.tag)))
    print(table(["round", "file", "label", a.tag, "rule that ranked the first above the label's"], now_rows(a.tag)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
