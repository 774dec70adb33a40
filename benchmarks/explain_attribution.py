#!/usr/bin/env python3
"""Right backend per way of naming it (issue 23, session 6, helper ex37): `attn-doctor explain` on the hand-written
variants of tests/data/explain_attribution_s6.toml, each a short text whose backend is named in one way (an import
line, a frame's file path, a pip/uv line, a wheel's name, a trainer flag, a UI's log line, an environment variable,
a title in another language) or named only in passing beside the real one (`passing`, which must NOT decide).

For each variant: matched (explain found any problem), right backend (the first problem's backend is the variant's
`backend`; for `none`: the first problem has no backend, or nothing matched). Measures only.

    PYTHONPATH=$PWD python benchmarks/explain_attribution.py              # table
    PYTHONPATH=$PWD python benchmarks/explain_attribution.py --misses     # and every miss
    PYTHONPATH=$PWD python benchmarks/explain_attribution.py --out r.json # and the results as JSON
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib  # type: ignore[no-redef]

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
DATA = ROOT / "tests" / "data" / "explain_attribution_s6.toml"


def load(path: Path = DATA) -> list[dict]:
    with open(path, "rb") as fh:
        return tomllib.load(fh)["variant"]


def judge(v: dict) -> dict:
    from attn_doctor.explain import match

    found = match(v["text"])
    top = found[0] if found else None
    got = top.backend if top else None
    want = v["backend"]
    right = (got in (None, "none")) if want == "none" else (top is not None and got == want)
    return {"name": v["name"], "way": v["way"], "backend": want, "matched": top is not None, "right_backend": right,
            "top": top.entry.id if top else None, "top_backend": got}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=DATA)
    ap.add_argument("--misses", action="store_true")
    ap.add_argument("--out", type=Path)
    a = ap.parse_args(argv)
    rows = [judge(v) for v in load(a.data)]
    by = defaultdict(list)
    for r in rows:
        by[r["way"]].append(r)
    print(f"{'way of naming':<12} {'texts':>5} {'matched':>8} {'right backend':>14}")
    for way in sorted(by):
        rs = by[way]
        print(f"{way:<12} {len(rs):>5} {sum(r['matched'] for r in rs):>8} {sum(r['right_backend'] for r in rs):>9}"
              f" ({100 * sum(r['right_backend'] for r in rs) / len(rs):3.0f}%)")
    n, rb = len(rows), sum(r["right_backend"] for r in rows)
    print(f"{'all':<12} {n:>5} {sum(r['matched'] for r in rows):>8} {rb:>9} ({100 * rb / n:3.0f}%)")
    if a.misses:
        for r in rows:
            if not r["right_backend"]:
                print(f"  miss {r['name']:<28} want {r['backend']:<8} got {r['top_backend']} ({r['top']})")
    if a.out:
        totals = {way: {"texts": len(rs), "matched": sum(r["matched"] for r in rs),
                        "right_backend": sum(r["right_backend"] for r in rs)} for way, rs in sorted(by.items())}
        a.out.write_text(json.dumps({"totals": totals, "results": rows}, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
