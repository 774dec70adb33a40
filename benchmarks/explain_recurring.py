#!/usr/bin/env python3
"""explain's misses at each blind round's FIRST measurement, and which of them recur across rounds (issue 23, session 29,
helper ex168; results: benchmarks/results/explain-recurring-s29.md and .tsv).

Each blind round was measured before anyone read it: that first measurement is a small held-out sample of its own. This
reads the first record of every blind round that is training now (FIRST below: the earliest start / first / before file
of that round in benchmarks/results, plain or packed, through results_io) and lists every miss in it (unmatched, wrong
backend, right backend with a listed cause missed, an unrelated log claimed) with what explain said then and what it says
at TAG (a training run's /tmp/TAG-ar-<round>.json), and a class:

  first_class  the decision explain made then, by rule: U (nothing), B-none-claimed / B-entry-right / B-generic-other /
               B-specific-other (wrong backend), C-catch-all-first / C-sibling-first / C-other-specific-first (a catch-all,
               an entry of the label's family, another specific entry ranks first where the label names an entry),
               X-unrelated-claimed
  now_class    fixed:catch-all / fixed:specific (TAG reads it right, and with what), else the mechanism class
               explain_residuals.py gives it at TAG (--rows, both its tables), X-still-claimed for an unrelated log

    PYTHONPATH=$PWD python benchmarks/explain_residuals.py TAG --rows /tmp/r.tsv
    PYTHONPATH=$PWD python benchmarks/explain_residuals.py TAG --unmatched --rows /tmp/u.tsv
    python benchmarks/explain_recurring.py TAG /tmp/r.tsv /tmp/u.tsv --tsv out.tsv > counts.md

Held-out and measure-only rounds are never read (FIRST names training rounds only; compare_matches.MEASURE_ONLY is checked).
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
from collections import Counter, defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import results_io  # noqa: E402
from compare_matches import MEASURE_ONLY, ROUNDS  # noqa: E402

# the first record of each blind round (73m and 81m have none kept from before their reading; 21m's earliest is 777bfb8's)
FIRST = {
    "round21m": "explain-round21m-2026-11-28-777bfb8.json", "round24m": "explain-round24m-2026-11-28-b16011e.json",
    "round30m": "explain-round30m-start-6d5c95b.json", "round36m": "explain-round36m-start-6d5c95b.json",
    "round41m": "explain-round41m-start-fe8b374.json", "round49m": "explain-round49m-start-d126cda.json",
    "round54m": "explain-round54m-start-6fb2d8e.json", "round60m": "explain-round60m-start-6fb2d8e.json",
    "round63m": "explain-round63m-start-11221d8.json", "round71m": "explain-round71m-blind-6fb44a5.json",
    "round85m": "explain-round85m-before-ex89.json", "round90m": "explain-round90m-before-ex94.json",
    "round95m": "explain-round95m-2026-11-29-session15-start-009e5212.json",
    "round101m": "explain-round101m-2026-11-29-session16-start-bae41cb0.json",
    "round105m": "explain-round105m-2026-11-29-session17-start-80d52909.json",
    "round109m": "explain-round109m-2026-11-29-session18-start-7f911e38.json",
    "round113m": "explain-round113m-2026-11-29-session19-start-c067c59a.json",
    "round118m": "explain-round118m-2026-11-30-session20-start-127b3d23.json",
    "round122m": "explain-round122m-2026-11-30-session21-start-fc4a881b.json",
    "round129m": "explain-round129m-2026-11-30-session22-start-a358b1f3.json",
    "round136m": "explain-round136m-2026-11-30-session23-start-178ca03e.json",
    "round142m": "explain-round142m-2026-11-30-session24-start-69139402.json",
    "round148m": "explain-round148m-2026-11-30-session25-start-15e7edae.json",
    "round154m": "explain-round154m-2026-11-30-session26-start-c6e34c6a.json",
    "round160m": "explain-round160m-2026-11-30-session27-first-55412f4e.json",
    "round172m": "explain-round172m-2026-12-01-session29-first-834eef7d.json",  # training since helper ex172 (session 30)
    "round178m": "explain-round178m-2026-12-01-session30-first-1ab6b1ec.json",  # training since helper ex178 (session 31)
    "round184m": "explain-round184m-2026-12-01-session31-first-25443c61.json",  # training since helper ex182 (session 32)
    "round190m": "explain-round190m-2026-12-02-session32-first-9be101e2.json",  # training since helper ex190 (session 33)
    "round196m": "explain-round196m-2026-12-02-session33-first-c7b7aa74.json",  # training since helper ex196 (session 34)
    "round197m": "explain-round197m-2026-12-02-session34-first-e2a17315.json",  # training since helper ex197 (session 35)
    "round198m": "explain-round198m-2026-12-02-session35-first-a0705e55.json",  # training since helper ex198 (session 36)
    "round199m": "explain-round199m-2026-12-02-session36-first-85d97abc.json",  # training since helper ex199 (session 37)
    "round200m": "explain-round200m-2026-12-03-session38-first-755f275b.json",  # training since helper ex200 (session 39)
    "round201m": "explain-round201m-2026-12-03-session39-first-aae28052.json",  # training since helper ex201 (session 40)
    "round202m": "explain-round202m-2026-12-03-session40-first-95a7210f.json",  # training since helper ex202 (session 41)
    "round203m": "explain-round203m-2026-12-03-session41-first-a14403fd.json",  # training since helper ex203 (session 42)
}
CATCH_ALL = ("prose.", "triage.", "generic.", "fallback.")
COLUMNS = ["round", "file", "first", "label_backend", "label", "first_top", "first_class", "now", "now_top", "now_class"]


def catch_all(entry: str | None) -> bool:
    return (entry or "").startswith(CATCH_ALL) or entry == "import.failed"


def kind(x: dict) -> str | None:
    """A miss of one text's result: unmatched, wrong-backend, wrong-cause (a listed cause, not `new: ...` alone), or None."""
    if not x["matched"]:
        return "unmatched"
    if not x["right_backend"]:
        return "wrong-backend"
    if any(not e.strip().startswith("new:") for e in x["entry"].split(" | ")) and not x["right_cause"]:
        return "wrong-cause"
    return None


def first_class(k: str, label_backend: str, label: str, top: str) -> str:
    ids = [e.strip() for e in label.split(" | ")]
    if k == "unmatched":
        return "U"
    if k == "wrong-backend":
        if label_backend == "none":
            return "B-none-claimed"
        if top in ids:
            return "B-entry-right"
        return "B-generic-other" if catch_all(top) else "B-specific-other"
    if k == "wrong-cause":
        if catch_all(top):
            return "C-catch-all-first"
        return "C-sibling-first" if any(i.split(".")[0] == top.split(".")[0] for i in ids) else "C-other-specific-first"
    return "X-unrelated-claimed"


def rows(tag: str, residual_tsvs: list[str]) -> list[list[str]]:
    classes = {}
    for p in residual_tsvs:
        with open(p, encoding="utf-8") as fh:
            for x in csv.DictReader(fh, delimiter="\t"):
                classes[(x["round"], x["file"])] = x["class"]
    out = []
    for rd, name in FIRST.items():
        assert rd in ROUNDS and rd not in MEASURE_ONLY and "heldout" not in rd, rd
        plain = HERE / "results" / name  # a record not packed yet (round 172m's, session 30) is read where it lies
        first = results_io.load_json(plain if plain.is_file() else name)
        now = json.loads(Path(f"/tmp/{tag}-ar-{rd}.json").read_text(encoding="utf-8"))
        now_r = {x["file"]: x for x in now["results"]}
        now_u = {x["file"]: x for x in now["unrelated_results"]}
        for x in first["results"]:
            k = kind(x)
            if k is None:
                continue
            n = now_r.get(x["file"])
            nk = (kind(n) or "ok") if n else "absent"
            top = x.get("top") or ""
            ntop = (n.get("top") or "") if n else ""
            if nk == "ok":
                ncl = "fixed:" + ("catch-all" if catch_all(ntop) else "specific")
            else:
                ncl = classes.get((rd, x["file"]), "?")
            out.append([rd, x["file"], k, x["backend"], x["entry"], f"{top}/{x.get('top_backend')}",
                        first_class(k, x["backend"], x["entry"], top), nk,
                        f"{ntop}/{n.get('top_backend')}" if n else "-", ncl])
        for x in first["unrelated_results"]:
            if x["matched"]:
                n = now_u.get(x["file"])
                claimed = bool(n and n["matched"])
                out.append([rd, "unrelated/" + x["file"], "unrelated-claimed", "-", "-", ",".join(x["all"]),
                            "X-unrelated-claimed", "claimed" if claimed else "ok", ",".join(n["all"]) if n else "-",
                            "X-still-claimed" if claimed else "fixed:unclaimed"])
    return out


def matrix(table: list[dict], key, title: str, keep=lambda r: True, min_rounds: int = 1) -> str:
    rounds = list(FIRST)
    count: dict[str, Counter] = defaultdict(Counter)
    for r in table:
        if keep(r):
            count[key(r)][r["round"]] += 1
    short = [r.replace("round", "") for r in rounds]
    lines = [f"### {title}", "", "| class | texts | rounds | " + " | ".join(short) + " |",
             "|---|---:|---:|" + "---:|" * len(rounds)]
    for k, c in sorted(count.items(), key=lambda kv: (-len(kv[1]), -sum(kv[1].values()), kv[0])):
        if len(c) >= min_rounds:
            lines.append(f"| {k} | {sum(c.values())} | {len(c)} | " + " | ".join(str(c.get(x, "")) for x in rounds) + " |")
    return "\n".join(lines) + "\n"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("tag")
    ap.add_argument("residuals", nargs="+", help="explain_residuals.py --rows files of TAG (both tables)")
    ap.add_argument("--tsv", help="write every miss here")
    a = ap.parse_args()
    out = rows(a.tag, a.residuals)
    if a.tsv:
        with open(a.tsv, "w", encoding="utf-8") as fh:
            fh.write("\t".join(COLUMNS) + "\n" + "".join("\t".join(r) + "\n" for r in out))
    table = [dict(zip(COLUMNS, r)) for r in out]
    fixed = lambda r: r["now_class"].startswith("fixed")  # noqa: E731
    print(matrix(table, lambda r: r["first_class"], "Every first-measurement miss, by the decision explain made then"))
    print(matrix(table, lambda r: r["first_class"], f"(a) recurring and fixed later by reading (right at {a.tag})", fixed))
    print(matrix(table, lambda r: r["now_class"], f"(b) still missed at {a.tag}, by explain_residuals.py's class",
                 lambda r: not fixed(r)))
    print(matrix(table, lambda r: f"{r['label_backend']} -> {r['first_top'].split('/')[-1]}",
                 "Wrong backend at first measurement: the label's backend -> explain's",
                 lambda r: r["first"] == "wrong-backend", 1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
