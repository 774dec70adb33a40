#!/usr/bin/env python3
"""The structural reading alone (helper ex91, session 14): what explain says of every training text when only the entries
that read WHERE an error was raised may match (a traceback's innermost frames in a backend's package, a backend's compiled
extension; knowledge/triage.toml triage.raised-in-*, triage.through-backend, knowledge/ex91.toml), every message-level entry
switched off. In-sample, messages already explain nearly every text whose traceback ends in a backend; switching them off
simulates a text whose message is new, which is what a structural rule is for. Per half of ex91's fixed split
(benchmarks/results/explain-ex91-split.md): texts named, right backend, unrelated logs claimed. CHECK is totals only.

    python benchmarks/explain_structural.py [--tree DIR] [--list]   # --list: DEV's texts the reading names, one a line
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from compare_matches import CHECK, DEV, MEASURE_ONLY  # noqa: E402

PREFIXES = ("triage.raised-in-", "triage.through-backend", "ex91.")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tree", default=str(HERE.parent), help="the checkout whose attn_doctor is measured")
    ap.add_argument("--list", action="store_true", help="print DEV's texts the structural reading names (never CHECK's)")
    a = ap.parse_args(argv)
    tree = Path(a.tree).resolve()
    sys.path.insert(0, str(tree))
    import attn_doctor
    from attn_doctor import knowledge
    import explain_heldout as h

    if not attn_doctor.__file__.startswith(str(tree) + os.sep):
        print(f"explain_structural: attn_doctor imports from {attn_doctor.__file__}, not {tree}", file=sys.stderr)
        return 2
    from attn_doctor import explain as ex

    ids = {i for i in knowledge.entries() if i.startswith(PREFIXES)}
    print(f"structural entries: {', '.join(sorted(ids))}")
    for half, rounds in (("DEV", DEV), ("CHECK", CHECK)):
        t = dict(texts=0, named=0, right=0, wrong=0, logs=0, claimed=0)
        for r in rounds:
            if "heldout" in r or r in MEASURE_ONLY:
                return 2
            corpus = tree / "fixtures" / "errors" / r
            for path in sorted(corpus.glob("*.txt")):
                meta, body = h.load(path)
                found = ex.match(body, ids=ids)
                t["texts"] += 1
                backends = [m.backend for m in found if m.backend not in (None, "", "none")]
                if not backends:
                    continue
                t["named"] += 1
                ok = backends[0] == meta.get("backend")
                t["right" if ok else "wrong"] += 1
                if a.list and half == "DEV":
                    print(f"  {r}/{path.name}: label {meta.get('backend')}, read {backends[0]} "
                          f"({found[0].entry.id}){'' if ok else '  WRONG'}")
            for path in sorted((corpus / "unrelated").glob("*.txt")):
                meta, body = h.load(path)
                found = ex.match(body, ids=ids)
                t["logs"] += 1
                t["claimed"] += bool(found)
                if a.list and half == "DEV" and found:
                    print(f"  {r}/unrelated/{path.name}: claimed ({found[0].entry.id}, {found[0].backend})")
        print(f"{half:5}: {t['texts']} texts: the structural reading names a backend for {t['named']}, right {t['right']}, "
              f"wrong {t['wrong']}; unrelated logs claimed {t['claimed']}/{t['logs']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
