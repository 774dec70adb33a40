"""Accuracy of `attn_doctor.configs.load` on the training corpus (fixtures/configs/real): every file read with
no --trainer and compared with its expect file field by field (trainer, required, dtype, compile_mode), the
refused ones checked for their refusal. This is the figure on what the rules were written with; the held-out
figure comes from benchmarks/configs_heldout.py (another helper's, on files never read while writing rules).

    python benchmarks/configs_train.py [--json PATH]
    python benchmarks/configs_train.py --half B     # only the round-2 files of half B (fixtures/configs/real/ROUND2_SPLIT.tsv)

Prints a per-trainer table and the misses. The tests (tests/test_configs_real.py) assert the same files, with
the DISAGREE entries where attn-doctor reads a trainer's code differently from the expect file; this script counts
those as misses, as a held-out benchmark would.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from attn_doctor import configs  # noqa: E402
from attn_doctor.model import UsageError  # noqa: E402

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib  # type: ignore[no-redef]

REAL = ROOT / "fixtures" / "configs" / "real"
TRAINER = {"musubi-tuner": "musubi", "blissful-tuner": "blissful"}
SAME = {("blissful", "musubi")}  # a blissful-tuner file with none of its own keys reads as musubi-tuner's


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--json", help="write the figures here")
    ap.add_argument("--half", choices=("A", "B", "AB"), help="only issue 24's round-2 files of this half of their split "
                    "by repository (ROUND2_SPLIT.tsv; A: the rules were written from, B: measured only)")
    args = ap.parse_args()
    only = None
    if args.half:
        only = {ln.split("\t")[0] for ln in (REAL / "ROUND2_SPLIT.tsv").read_text().splitlines()
                if ln and not ln.startswith("#") and ln.split("\t")[2] in args.half}
    rows = []
    for path in sorted(p for p in REAL.rglob("*") if p.is_file() and not p.name.endswith(".expect.toml")
                       and p.suffix not in (".md", ".tsv")
                       # (a Hydra app's config folder and modules under real/hydra/, read through its launch: cfg88)
                       and not (p.relative_to(REAL).parts[0] == "hydra"
                                and not p.with_name(p.name + ".expect.toml").is_file())):
        if only is not None and path.relative_to(REAL).as_posix() not in only:
            continue
        e = tomllib.loads(path.with_name(path.name + ".expect.toml").read_text())
        want_trainer = TRAINER.get(e["trainer"], e["trainer"])
        row = {"file": path.relative_to(REAL).as_posix(), "trainer": want_trainer or "(refused)"}
        try:
            cfg = configs.load(str(path))
            got = {"trainer": cfg["detected"]["trainer"], "required": cfg["required"], "dtype": cfg["dtype"] or "",
                   "compile_mode": cfg["compile_mode"] or "none"}
            refusal = None
        except UsageError as err:
            got, refusal = None, str(err)
        if e.get("refused"):
            row["ok"] = {"refusal": refusal is not None and e["refused"] in refusal}
        elif got is None:
            row["ok"] = {"trainer": False, "required": False, "dtype": False, "compile_mode": False}
            row["refusal"] = refusal
        else:
            want = {"trainer": want_trainer, "required": e["required"], "dtype": e["dtype"],
                    "compile_mode": e["compile_mode"] or "none"}
            row["ok"] = {k: got[k] == want[k] or k == "trainer" and (want[k], got[k]) in SAME for k in want}
            row["got"], row["want"] = got, want
        rows.append(row)
    per = defaultdict(lambda: [0, 0])
    for r in rows:
        per[r["trainer"]][0] += all(r["ok"].values())
        per[r["trainer"]][1] += 1
    fields = defaultdict(lambda: [0, 0])
    for r in rows:
        for k, v in r["ok"].items():
            fields[k][0] += v
            fields[k][1] += 1
    total = sum(all(r["ok"].values()) for r in rows)
    print(f"{'trainer':<16} {'right':>5} / {'files':<5}")
    for t in sorted(per):
        print(f"{t:<16} {per[t][0]:>5} / {per[t][1]:<5}")
    print(f"{'all':<16} {total:>5} / {len(rows):<5}  ({100 * total / len(rows):.1f}% of files right in every field)")
    print("fields: " + ", ".join(f"{k} {v[0]}/{v[1]}" for k, v in sorted(fields.items())))
    for r in rows:
        if not all(r["ok"].values()):
            print(f"  miss {r['file']}: " + (r.get("refusal") or f"got {r.get('got')} want {r.get('want')}"))
    if args.json:
        Path(args.json).write_text(json.dumps({"files": len(rows), "right": total, "per_trainer": dict(per),
                                               "fields": dict(fields), "rows": rows}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
