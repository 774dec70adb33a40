#!/usr/bin/env python3
"""Text by text, what explain finds in every training round of the error corpora (in-sample: ROUNDS, texts and
unrelated/ logs), in full: each match's id, backend, first line, the lines it
matched, how many lines and its evidence, in rank order. For a change that must find exactly the same (a matcher made
faster): run it with each tree, then compare.

  python benchmarks/compare_matches.py --tree /tmp/before --out /tmp/before.json
  python benchmarks/compare_matches.py --out /tmp/after.json
  python benchmarks/compare_matches.py --diff /tmp/before.json /tmp/after.json   # exit 1 when any text differs
  python benchmarks/compare_matches.py --allrounds TAG1 TAG2   # /tmp/TAG-ar-*.json of benchmarks/explain_training.py, field by field
  python benchmarks/compare_matches.py --split TAG1 [TAG2]      # the DEV and CHECK halves (benchmarks/results/explain-ex91-split.md)

The matcher is called as benchmarks/explain_heldout.py calls it (what `explain -` reads). Never the held-out sets.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ROUNDS = ("round30m round36m round41m round44 round46 round47 round4a round4b round5a round5b round6a round6b round7a "
          "round7b round8 round9 round10 round10b round11 round12 round13a round13b round14 round15 round16 round17 "
          "round21m round22 round23 round24m round25 round26 round27 round31 round32 round33 round38 round49m round54m "
          "round60m round63m round71m round73m round74 round75 round76 round77 round78 round79 round81m round82 round83 round88 round85m round92 round90m round97 round96 round103g round102 "
          "round95m round106 round101m round110 round111 round105m round109m round113m round118m round122m round129m round136m round142m round148m round154m round160m round166m round172m round178m round184m round190m round196m round197m round198m round199m round200m round201m round202m round41k round41k-blind round203m").split()
# gathered blind and measured only (by the lead, at a session's start and end): never a rule's material, never measured here
# (round 73m is training material since helper ex80, session 12; round 81m since helper ex84, session 13; round 85m since
# helper ex89, session 14; round 90m since helper ex94, session 15; round 95m since helper ex100, session 16; round 101m since
# helper ex104, session 17; round 105m since helper ex108, session 18; round 109m since helper ex112, session 19; round 113m since
# helper ex117, session 20; round 118m since helper ex121, session 21; round 122m since helper ex128, session 22; round 129m since
# helper ex135, session 23; round 136m since helper ex141, session 24; round 142m since helper ex145, session 25; round 148m
# since helper ex150, session 26; round 154m since helper ex154, session 27; round 160m since helper ex158, session 28; round 166m
# since helper ex164, session 29; round 172m since helper ex172, session 30; round 178m since helper ex178, session 31;
# round 184m since helper ex182, session 32; round 190m since helper ex190, session 33; round 196m since helper ex196,
# session 34; round 197m since helper ex197, session 35; round 198m since helper ex198, session 36; round 199m since helper
# ex199, session 37; round 200m since helper ex200, session 39; round 201m since helper ex201, session 40; round 202m since
# helper ex202, session 41; round 203m since helper ex203, session 42)
# Round 204m: ex204m's measure-only set of session 42 (fixtures/errors/round204m/README.md); the lead measures it.
MEASURE_ONLY: tuple[str, ...] = ("round204m",)


def round_files(rounds) -> list[Path]:
    """Each round's texts and its unrelated/ logs, in the order they are measured (callers keep held-out and
    measure-only rounds out: MEASURE_ONLY)."""
    out: list[Path] = []
    for r in rounds:
        corpus = ROOT / "fixtures" / "errors" / r
        out += sorted(corpus.glob("*.txt")) + sorted((corpus / "unrelated").glob("*.txt"))
    return out


def measure(rounds: list[str], tree: str) -> dict[str, list]:
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import explain_heldout as h  # noqa: E402  (it puts this checkout first on sys.path: `tree` goes before it)

    assert "attn_doctor" not in sys.modules
    sys.path.insert(0, os.path.abspath(tree))
    fn, feed, _ = h._resolve(None)
    import attn_doctor

    print(f"the code measured: {attn_doctor.__file__}")
    assert attn_doctor.__file__.startswith(os.path.abspath(tree) + os.sep)
    out: dict[str, list] = {}
    for path in round_files(rounds):
        _, body = h.load(path)
        found = h.run_matcher(fn, feed, body)
        out[str(path.relative_to(ROOT / "fixtures" / "errors"))] = [
            [h.match_id(m), h.match_backend(m), h._get(m, "line"), h._get(m, "lines"), h._get(m, "count"),
             h._get(m, "evidence")] for m in found]
    return out


def diff(a: dict[str, list], b: dict[str, list]) -> int:
    bad = 0
    for name in sorted(set(a) | set(b)):
        if a.get(name) != b.get(name):
            bad += 1
            print(f"{name}:\n  before {a.get(name)}\n  after  {b.get(name)}")
    print(f"{len(a)} texts before, {len(b)} after; {bad} differ (top, all, every match's lines, counts, evidence)")
    return 1 if bad else 0


def diff_allrounds(a: str, b: str) -> int:
    """Every text's fields in two allrounds runs (/tmp/TAG-ar-ROUND.json): matched, right_backend, right_cause, top,
    top_backend, all; and each unrelated log's matched and all."""
    import glob

    bad = n = 0
    for fa in sorted(glob.glob(f"/tmp/{a}-ar-round*.json")):
        fb = fa.replace(f"/tmp/{a}-ar-", f"/tmp/{b}-ar-")
        with open(fa, encoding="utf-8") as f1, open(fb, encoding="utf-8") as f2:
            da, db = json.load(f1), json.load(f2)
        for key, fields in (("results", ("matched", "right_backend", "right_cause", "top", "top_backend", "all")),
                            ("unrelated_results", ("matched", "all"))):
            xa = {x["file"]: x for x in da[key]}
            xb = {x["file"]: x for x in db[key]}
            for name in sorted(set(xa) | set(xb)):
                n += 1
                got = [(k, xa.get(name, {}).get(k), xb.get(name, {}).get(k)) for k in fields
                       if xa.get(name, {}).get(k) != xb.get(name, {}).get(k)]
                if got:
                    bad += 1
                    print(fa.split("-ar-")[1], key, name, got)
    print(f"{n} texts compared; {bad} differ")
    return 1 if bad else 0


# ex91's fixed split of ROUNDS (benchmarks/results/explain-ex91-split.md): DEV may be read, CHECK is totals only
DEV = tuple(ROUNDS[0::2])
CHECK = tuple(ROUNDS[1::2])


def _split_totals(tag: str, rounds: tuple[str, ...], where: str = "/tmp") -> dict[str, int]:
    t = dict(rounds=0, texts=0, matched=0, right_backend=0, right_cause=0, logs=0, claimed=0)
    for r in rounds:
        try:
            with open(f"{where}/{tag}-ar-{r}.json", encoding="utf-8") as fh:
                d = json.load(fh)
        except OSError:
            continue
        t["rounds"] += 1
        for k in ("texts", "matched", "right_backend", "right_cause"):
            t[k] += d["totals"][k]
        t["logs"] += d["unrelated"]["texts"]
        t["claimed"] += d["unrelated"]["false_positives"]
    return t


def split(tags: list[str], where: str = "/tmp") -> int:
    """Each half's totals for each TAG; with two TAGs, DEV's changed texts by name and CHECK's as counts only."""
    for half, rounds in (("DEV", DEV), ("CHECK", CHECK)):
        for tag in tags:
            t = _split_totals(tag, rounds, where)
            print(f"{half:5} {tag}: {t['rounds']} rounds, {t['texts']} texts: {t['matched']} matched / "
                  f"{t['right_backend']} right backend / {t['right_cause']} right cause; unrelated claimed "
                  f"{t['claimed']}/{t['logs']}")
    if len(tags) != 2:
        return 0
    a, b = tags
    for half, rounds in (("DEV", DEV), ("CHECK", CHECK)):
        changed = 0
        for r in rounds:
            try:
                with open(f"{where}/{a}-ar-{r}.json", encoding="utf-8") as f1, \
                        open(f"{where}/{b}-ar-{r}.json", encoding="utf-8") as f2:
                    da, db = json.load(f1), json.load(f2)
            except OSError:
                continue
            for key, fields in (("results", ("matched", "right_backend", "right_cause", "top", "top_backend", "all")),
                                ("unrelated_results", ("matched", "all"))):
                xa = {x["file"]: x for x in da[key]}
                xb = {x["file"]: x for x in db[key]}
                for name in sorted(set(xa) | set(xb)):
                    got = [(k, xa.get(name, {}).get(k), xb.get(name, {}).get(k)) for k in fields
                           if xa.get(name, {}).get(k) != xb.get(name, {}).get(k)]
                    if got:
                        changed += 1
                        if half == "DEV":
                            print(r, key, name, got)
        print(f"{half}: {changed} texts differ" + (" (CHECK: counts only)" if half == "CHECK" else ""))
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", help="write what each text's matches are here (JSON)")
    ap.add_argument("--round", action="append", help="these rounds only (repeatable)")
    ap.add_argument("--tree", default=str(ROOT), help="the source tree whose attn_doctor is measured (default: this one)")
    ap.add_argument("--diff", nargs=2, metavar=("BEFORE", "AFTER"), help="compare two --out files")
    ap.add_argument("--allrounds", nargs=2, metavar=("TAG1", "TAG2"), help="compare two runs of benchmarks/explain_training.py")
    ap.add_argument("--split", nargs="+", metavar="TAG", help="ex91's DEV and CHECK halves' totals of one or two runs "
                    "(two: DEV's changed texts, CHECK's count only)")
    a = ap.parse_args()
    if a.split:
        if len(a.split) > 2:
            ap.error("--split takes one or two tags")
        return split(a.split)
    if a.allrounds:
        return diff_allrounds(*a.allrounds)
    if a.diff:
        from results_io import load_json  # (benchmarks/ is on sys.path) a record under benchmarks/results/ may be packed

        return diff(load_json(a.diff[0]), load_json(a.diff[1]))
    rounds = a.round or ROUNDS + os.environ.get("EXTRA_ROUNDS", "").split()
    for r in rounds:
        if "heldout" in r or r in MEASURE_ONLY:
            raise SystemExit(f"{r}: a held-out or measure-only set")
    doc = measure(list(rounds), a.tree)
    with open(a.out, "w", encoding="utf-8") as fh:
        json.dump(doc, fh, indent=0)
    print(f"{len(doc)} texts -> {a.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
