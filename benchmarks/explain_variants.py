#!/usr/bin/env python3
"""`attn-doctor explain` on hand-written variants (issue 23, generalisation): does a rule match new texts of the
same failure as often as the texts it came from?

Reads a variants file (default tests/data/explain_variants_s6.toml: [[variant]] text, backend, entry, class;
[[near_miss]] text, class, not_entry, not_backend) and runs the matcher `attn-doctor explain -` runs (the same
call as benchmarks/explain_heldout.py). For every variant:
  matched        explain found any known problem
  right backend  the first problem's backend is the variant's (or one of them, when `backend` is a list)
  right entry    the first problem's id is one of the variant's `entry` ids
and for every near miss: broken when it reports a `not_entry` id or its first problem names `not_backend` (with neither
given: when it reports anything at all).

    python benchmarks/explain_variants.py                        # table per class
    python benchmarks/explain_variants.py --out r.json --misses  # also the JSON, and every miss listed
"""

from __future__ import annotations

import argparse
import datetime as _dt
import json
import sys
import time
from collections import defaultdict
from pathlib import Path

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib  # type: ignore[no-redef]

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from explain_heldout import _resolve, match_backend, match_id, run_matcher  # noqa: E402

DATA = ROOT / "tests" / "data" / "explain_variants_s6.toml"


def _backends(v: dict) -> list[str]:
    b = v["backend"]
    return list(b) if isinstance(b, list) else [b]


def judge_variant(v: dict, found: list) -> dict:
    top = found[0] if found else None
    top_id, top_backend = (match_id(top), match_backend(top)) if top is not None else (None, None)
    want = _backends(v)
    return {"matched": bool(found),
            "right_backend": bool(found) and (top_backend in want or ("none" in want and top_backend in (None, ""))),
            "right_entry": bool(found) and top_id in v["entry"],
            "top": top_id, "top_backend": top_backend, "all": [match_id(m) for m in found]}


def judge_near_miss(n: dict, found: list) -> dict:
    ids = [match_id(m) for m in found]
    bad = ids if "not_entry" not in n and "not_backend" not in n else [i for i in ids if i in n.get("not_entry", ())]
    top_backend = match_backend(found[0]) if found else None
    broken = bool(bad) or ("not_backend" in n and top_backend == n["not_backend"])
    return {"broken": broken, "all": ids, "top_backend": top_backend}


def measure(path: Path, spec: str | None = None) -> dict:
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    fn, feed, name = _resolve(spec)
    t0 = time.perf_counter()
    rows = []
    for i, v in enumerate(data.get("variant", [])):
        rows.append({"n": i, "class": v["class"], "backend": v["backend"], "entry": v["entry"],
                     "text": v["text"][:120], **judge_variant(v, run_matcher(fn, feed, v["text"]))})
    near = []
    for i, n in enumerate(data.get("near_miss", [])):
        near.append({"n": i, "class": n["class"], "text": n["text"][:120],
                     **judge_near_miss(n, run_matcher(fn, feed, n["text"]))})
    by_class = defaultdict(list)
    for r in rows:
        by_class[r["class"]].append(r)

    def tot(rs):
        return {"texts": len(rs), **{k: sum(r[k] for r in rs) for k in ("matched", "right_backend", "right_entry")}}

    return {"schema": "attn-doctor.explain-variants/1", "date": _dt.date.today().isoformat(), "file": str(path.relative_to(ROOT)),
            "matcher": name, "seconds": round(time.perf_counter() - t0, 3),
            "totals": tot(rows), "by_class": {k: tot(v) for k, v in by_class.items()},
            "near_misses": {"texts": len(near), "broken": sum(n["broken"] for n in near)},
            "results": rows, "near_miss_results": near}


def pct(n: int, d: int) -> str:
    return f"{100.0 * n / d:5.1f}%" if d else "   - "


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--file", type=Path, default=DATA)
    ap.add_argument("--out", type=Path)
    ap.add_argument("--misses", action="store_true")
    ap.add_argument("--call", help="module:function to measure instead of attn_doctor.explain.match")
    a = ap.parse_args(argv)
    res = measure(a.file.resolve(), a.call)
    print(f"{'class':22} {'texts':>5} {'matched':>14} {'backend':>14} {'entry':>14}")
    for k, t in list(res["by_class"].items()) + [("TOTAL", res["totals"])]:
        n = t["texts"]
        print(f"{k:22} {n:5d} {t['matched']:4d} {pct(t['matched'], n)}   {t['right_backend']:4d} {pct(t['right_backend'], n)}"
              f"   {t['right_entry']:4d} {pct(t['right_entry'], n)}")
    nm = res["near_misses"]
    print(f"near misses broken: {nm['broken']}/{nm['texts']}   ({res['seconds']} s)")
    if a.misses:
        for r in res["results"]:
            if not (r["right_backend"] and r["right_entry"]):
                print(f"MISS #{r['n']} [{r['class']}] want {r['backend']}/{r['entry']} got {r['top_backend']}/{r['top']} "
                      f"all={r['all']}\n    {r['text']!r}")
        for n in res["near_miss_results"]:
            if n["broken"]:
                print(f"NEAR-MISS BROKEN #{n['n']} [{n['class']}] got {n['all']} ({n['top_backend']})\n    {n['text']!r}")
    if a.out:
        a.out.parent.mkdir(parents=True, exist_ok=True)
        a.out.write_text(json.dumps(res, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
