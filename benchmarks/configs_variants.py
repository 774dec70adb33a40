#!/usr/bin/env python3
"""How well the trainer-config readers generalise to variants written by hand (issue 24, session 6, helper cfg22).

tests/data/config_variants_s6/ holds files written from the training rounds' own files (each expect file names the
fixture it is modelled on, `modelled_on`, and the way a user hands the settings over, `kind`): the same settings as
YAML/JSON/TOML written differently, as shell with variables, arrays, continuations, flag forms, argparse prefixes and
repeated flags, behind launchers and wrappers (accelerate, torchrun, python -m, deepspeed, uv/pdm/conda run, nohup,
srun), and as Windows .bat / PowerShell; plus near-misses that must be refused or must keep their reading.

Every file is scored with benchmarks/configs_heldout.py's comparison (score(): trainer, required, dtype, compile for
a claimed trainer; refused or not for `none` / `unclaimed:*`), then tallied per trainer and per kind. Accuracy is
measured here, never asserted; the data's parametrised test is tests/test_configs_variants_s6.py.

  python benchmarks/configs_variants.py
  python benchmarks/configs_variants.py --dir tests/data/config_variants_s6 --out benchmarks/results/configs-variants-s6-main.json
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
sys.path.insert(0, str(ROOT))

import configs_heldout as ch  # noqa: E402

DEFAULT = ROOT / "tests" / "data" / "config_variants_s6"


def right(rec: dict) -> bool:
    return rec["all_right"] if rec["kind"] == "claimed" else rec["refused"]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--dir", default=str(DEFAULT), help="variants directory (default: tests/data/config_variants_s6)")
    ap.add_argument("--out", help="write the figures and every file's result as JSON here")
    ap.add_argument("--note", default="", help="a line saying what was measured (stored in the JSON)")
    ap.add_argument("--misses", action="store_true", help="also list every file not read right")
    args = ap.parse_args(argv)
    root = Path(args.dir).resolve()
    files = ch.corpus(root)
    if not files:
        print(f"configs_variants: no files under {root}", file=sys.stderr)
        return 2
    records = []
    for p in files:
        rec = ch.score(p, root)
        e = ch.expect(p)
        rec["variant_kind"] = e.get("kind", "?")
        rec["modelled_on"] = e.get("modelled_on")
        rec["ok"] = right(rec)
        records.append(rec)
    s = ch.summarise(records)
    per_kind = defaultdict(lambda: [0, 0])
    per_trainer = defaultdict(lambda: [0, 0])
    for r in records:
        per_kind[r["variant_kind"]][0] += 1
        per_kind[r["variant_kind"]][1] += r["ok"]
        t = r["expected"]["trainer"] if r["kind"] == "claimed" else "(refuse)"
        per_trainer[t][0] += 1
        per_trainer[t][1] += r["ok"]
    total = sum(r["ok"] for r in records)
    print(f"{len(files)} files under {os.path.relpath(root, ROOT)} (code at {ch.git_head() or 'unknown'})\n")
    print(ch.table(s, records))
    print(f"\n{'kind':<22} {'files':>5} {'right':>6}")
    for k, (n, ok) in sorted(per_kind.items()):
        print(f"{k:<22} {n:>5} {ok:>6}  {ch.pct(ok, n)}")
    print(f"\n{'trainer':<22} {'files':>5} {'right':>6}")
    for k, (n, ok) in sorted(per_trainer.items()):
        print(f"{k:<22} {n:>5} {ok:>6}  {ch.pct(ok, n)}")
    print(f"\nall files right: {total}/{len(records)} {ch.pct(total, len(records)).strip()}")
    if args.misses:
        print("\nnot read right:\n" + (ch.misses(records) or "  (none)"))
        for r in records:
            if r["kind"] != "claimed" and not r["refused"] and r["got"]["outcome"] != "read":
                print(f"  {r['file']}: {r['got']}")
    if args.out:
        doc = {"date": datetime.date.today().isoformat(), "commit": ch.git_head(), "corpus": os.path.relpath(root, ROOT),
               "note": args.note, "summary": s, "all_right": total,
               "per_kind": {k: {"files": n, "right": ok} for k, (n, ok) in sorted(per_kind.items())},
               "per_trainer": {k: {"files": n, "right": ok} for k, (n, ok) in sorted(per_trainer.items())},
               "files": records}
        out = Path(args.out)
        out.parent.mkdir(parents=True, exist_ok=True)
        tmp = out.with_name(out.name + ".tmp")
        tmp.write_text(json.dumps(doc, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        os.replace(tmp, out)
        print(f"\nwrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
