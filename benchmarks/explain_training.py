#!/usr/bin/env python3
"""`attn-doctor explain` on every TRAINING round of the error corpora (in-sample: fixtures/errors/<round>/ and its
unrelated/ logs, the rounds rules were written from), totals only, one JSON per round. This is what a rule change is
checked against before it lands: no text lost elsewhere, unrelated claims not up. Held-out and measure-only sets are
never read here (benchmarks/explain_heldout.py measures those).

    python benchmarks/explain_training.py TAG              # this checkout; writes /tmp/TAG-ar-<round>.json
    python benchmarks/explain_training.py TAG --tree DIR   # another checkout's attn_doctor (a git worktree of main)
    python benchmarks/compare_matches.py --allrounds TAG1 TAG2   # text by text, what changed between two runs

The rounds are compare_matches.ROUNDS (one list); EXTRA_ROUNDS="roundNN ..." adds a round not yet in it.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from compare_matches import MEASURE_ONLY, ROUNDS  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("tag", help="names the output files /tmp/TAG-ar-<round>.json")
    ap.add_argument("--tree", default=str(HERE.parent), help="the checkout whose attn_doctor is measured")
    ap.add_argument("--outdir", default="/tmp", help="where the per-round JSON files go")
    a = ap.parse_args(argv)
    tree = Path(a.tree).resolve()
    rounds = ROUNDS + os.environ.get("EXTRA_ROUNDS", "").split()
    bad = [r for r in rounds if "heldout" in r or r in MEASURE_ONLY]
    if bad:
        print(f"explain_training: {', '.join(bad)}: held-out or measure-only, never measured here", file=sys.stderr)
        return 2
    import explain_heldout as h

    if not h.import_from(tree, "explain_training"):
        return 2
    total = dict(texts=0, matched=0, right_backend=0, right_cause=0)
    claimed = logs = 0
    for r in rounds:
        doc = h.measure(tree / "fixtures" / "errors" / r, None)
        (Path(a.outdir) / f"{a.tag}-ar-{r}.json").write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
        for k in total:
            total[k] += doc["totals"][k]
        claimed += doc["unrelated"]["false_positives"]
        logs += doc["unrelated"]["texts"]
    print(f"{a.tag}: {len(rounds)} rounds, {total['texts']} texts: {total['matched']} matched / {total['right_backend']} "
          f"right backend / {total['right_cause']} right cause; unrelated logs claimed {claimed}/{logs}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
