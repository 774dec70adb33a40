#!/usr/bin/env python3
"""How well the trainer-config readers do on the HELD-OUT corpus (issue 24).

Every file under fixtures/configs/heldout/ (see its README: users' repositories the readers were not written
from, split by sha1(owner/repo) % 3) is read with the project's config library exactly as `check --config FILE`
reads it (attn_doctor.configs.load(path), no --trainer), and compared with its NAME.EXT.expect.toml:

  claimed trainers   trainer right, required right, dtype right, compile right, all four right
                     (a refusal, exit 2, counts as wrong on all four)
  unclaimed / none   refused (right: a one-line UsageError) or read as some trainer (wrong: the figure issue 24
                     wants at 0)

A reader that raises anything but UsageError is a crash: wrong, and listed. Comparison rules are those of
tests/test_configs_real.py: required as a set, dtype "" when the reader says None, compile_mode "" and "none"
alike (nothing compiled), musubi accepted for a blissful-tuner file. Accuracy is measured here, never asserted
in a test. Standard library plus the project; no GPU, no network.

  python benchmarks/configs_heldout.py
  python benchmarks/configs_heldout.py --out benchmarks/results/configs-heldout-$(date +%F).json --note "..."
  python benchmarks/configs_heldout.py --dir fixtures/configs/real     # same table for the readers' own corpus
  python benchmarks/configs_heldout.py --layout repo   # each file where its repository keeps it (below)

--layout flat (the default, and every figure reported before session 9) reads each file where the set keeps it:
flattened names (owner__repo__scripts__run.sh), so a launcher finds none of the files its job reads (`python
src/train.py`, `--config configs/x.yaml`) even when the set holds them. --layout repo copies every file of the set to a
temporary tree at its expect file's `source` path (OWNER/REPO/PATH) and reads it there, as `check --config` reads it in
the user's checkout: the launcher finds what the set holds of its repository, and nothing else (a lower bound of a
real checkout). A text pasted in a thread (`owner/repo#N`) goes with the other files of its thread, in a folder of
their own (_threads/OWNER__REPO__N/); a file whose source is neither, or a second file at the same path, stays flat
(configs_repo_layout.py, which the round tests' repository layout uses too).
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import subprocess
import sys
import tempfile
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
sys.path.insert(0, str(ROOT))

from configs_repo_layout import repository_layout  # noqa: E402  (--layout repo: shared with the round tests)

from attn_doctor import configs  # noqa: E402
from attn_doctor.model import UsageError  # noqa: E402

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

HELDOUT = ROOT / "fixtures" / "configs" / "heldout"
# the expect files' trainer names -> attn-doctor's reader ids
TRAINER = {"musubi-tuner": "musubi", "blissful-tuner": "blissful"}
# a blissful-tuner file read as musubi-tuner is read right (same parser; tests/test_configs_real.py SAME_READING)
SAME_READING = {"blissful": {"musubi"}}
FIELDS = ("trainer", "required", "dtype", "compile")


def corpus(root: Path) -> list[Path]:
    return sorted(p for p in root.rglob("*") if p.is_file() and not p.name.endswith(".expect.toml")
                  and p.name not in ("README.md", "TRAINERS.md", "ROUND2_SPLIT.tsv")
                  and not p.name.startswith("SEMANTICS-"))  # the semantics audits' notes (SEMANTICS-llm.md, SEMANTICS-diffusion.md)


def expect(path: Path) -> dict:
    return tomllib.loads(path.with_name(path.name + ".expect.toml").read_text(encoding="utf-8"))


def claimed(trainer: str) -> bool:
    return trainer != "none" and not trainer.startswith("unclaimed:")


def compile_of(value) -> str:
    return value or "none"  # "" (file says nothing) and "none" (file turns it off): nothing is compiled


def read(path: Path, strip: tuple[str, ...] = ()) -> dict:
    """What the config library makes of one file: {outcome: read|refused|crashed, ...}."""
    def said(text: str) -> str:
        for prefix in (f"{ROOT}{os.sep}",) + strip:
            text = text.replace(prefix, "")
        return text
    try:
        cfg = configs.load(str(path))
    except UsageError as e:
        return {"outcome": "refused", "message": said(str(e))}
    except Exception as e:  # noqa: BLE001 - a reader that crashes is a finding, not the benchmark's end
        return {"outcome": "crashed", "message": said(f"{type(e).__name__}: {e}")}
    det = cfg.get("detected") or {}
    return {"outcome": "read", "trainer": det.get("trainer"), "required": list(cfg.get("required") or []),
            "dtype": cfg.get("dtype") or "", "compile_mode": cfg.get("compile_mode") or "",
            "evidence": list(det.get("evidence") or [])[:8], "runner_up": det.get("runner_up")}


def score(path: Path, root: Path, at: Path | None = None, strip: tuple[str, ...] = ()) -> dict:
    """One file's record; `at`: where it is read (--layout repo), `path` where the set keeps it."""
    return judge(path.relative_to(root).as_posix(), expect(path), read(at or path, strip))


def judge(name: str, e: dict, got: dict) -> dict:
    """One file's record from its label `e` (an expect file's table) and a reading `got` (read()'s, or one kept in an
    earlier record: benchmarks/configs_recurring.py scores old readings against today's labels)."""
    rec = {"file": name, "source": e.get("source"), "expected": {
        "trainer": e["trainer"], "required": e["required"], "dtype": e["dtype"], "compile_mode": e["compile_mode"]},
        "got": got}
    if claimed(e["trainer"]):
        want = TRAINER.get(e["trainer"], e["trainer"])
        ok = dict.fromkeys(FIELDS, False)
        if got["outcome"] == "read":
            ok["trainer"] = got["trainer"] == want or got["trainer"] in SAME_READING.get(want, set())
            ok["required"] = sorted(got["required"]) == sorted(e["required"])
            ok["dtype"] = got["dtype"] == e["dtype"]
            ok["compile"] = compile_of(got["compile_mode"]) == compile_of(e["compile_mode"])
        rec["kind"] = "claimed"
        rec["right"] = ok
        rec["all_right"] = all(ok.values())
    else:
        rec["kind"] = "none" if e["trainer"] == "none" else "unclaimed"
        rec["refused"] = got["outcome"] == "refused"
    return rec


def pct(n: int, d: int) -> str:
    return f"{100.0 * n / d:5.1f}%" if d else "    -"


def summarise(records: list[dict]) -> dict:
    cl = [r for r in records if r["kind"] == "claimed"]
    un = [r for r in records if r["kind"] != "claimed"]
    per = defaultdict(list)
    for r in cl:
        per[r["expected"]["trainer"]].append(r)
    out = {
        "files": len(records), "claimed": len(cl), "unclaimed_or_none": len(un),
        "claimed_right": {f: sum(r["right"][f] for r in cl) for f in FIELDS},
        "claimed_all_right": sum(r["all_right"] for r in cl),
        "claimed_refused": sum(r["got"]["outcome"] == "refused" for r in cl),
        "crashed": sum(r["got"]["outcome"] == "crashed" for r in records),
        "unclaimed_refused": sum(r["refused"] for r in un),
        "unclaimed_read_as_trainer": sum(r["got"]["outcome"] == "read" for r in un),
        "per_trainer": {t: {"files": len(rs), **{f: sum(r["right"][f] for r in rs) for f in FIELDS},
                            "all": sum(r["all_right"] for r in rs)} for t, rs in sorted(per.items())},
        "per_unclaimed": {},
    }
    for r in un:
        d = out["per_unclaimed"].setdefault(r["expected"]["trainer"], {"files": 0, "refused": 0, "read_as": []})
        d["files"] += 1
        d["refused"] += r["refused"]
        if r["got"]["outcome"] == "read":
            d["read_as"].append(r["got"]["trainer"])
    return out


def table(s: dict, records: list[dict]) -> str:
    lines = [f"{'trainer':<16} {'files':>5} {'trainer':>8} {'required':>8} {'dtype':>6} {'compile':>7} {'all 4':>6}"]
    for t, d in s["per_trainer"].items():
        lines.append(f"{t:<16} {d['files']:>5} {d['trainer']:>8} {d['required']:>8} {d['dtype']:>6} {d['compile']:>7} "
                     f"{d['all']:>6}")
    n = s["claimed"]
    r = s["claimed_right"]
    lines.append(f"{'claimed, all':<16} {n:>5} {r['trainer']:>8} {r['required']:>8} {r['dtype']:>6} {r['compile']:>7} "
                 f"{s['claimed_all_right']:>6}")
    lines.append(f"{'':<16} {'':>5} {pct(r['trainer'], n):>8} {pct(r['required'], n):>8} {pct(r['dtype'], n):>6} "
                 f"{pct(r['compile'], n):>7} {pct(s['claimed_all_right'], n):>6}")
    lines.append(f"claimed files refused (exit 2): {s['claimed_refused']}")
    lines.append("")
    lines.append(f"{'unclaimed / none':<24} {'files':>5} {'refused':>8}  read as")
    for t, d in sorted(s["per_unclaimed"].items()):
        lines.append(f"{t:<24} {d['files']:>5} {d['refused']:>8}  {', '.join(d['read_as'])}")
    m = s["unclaimed_or_none"]
    lines.append(f"{'all':<24} {m:>5} {s['unclaimed_refused']:>8}  {s['unclaimed_read_as_trainer']} read as a trainer "
                 f"(goal 0); refused {pct(s['unclaimed_refused'], m).strip()}")
    if s["crashed"]:
        lines.append(f"crashed (not a UsageError): {s['crashed']}")
        lines += [f"  {x['file']}: {x['got']['message']}" for x in records if x["got"]["outcome"] == "crashed"]
    return "\n".join(lines)


def misses(records: list[dict]) -> str:
    out = []
    for r in records:
        g = r["got"]
        if r["kind"] == "claimed" and not r["all_right"]:
            wrong = [f for f in FIELDS if not r["right"][f]]
            said = g["message"] if g["outcome"] != "read" else (
                f"{g['trainer']} required={g['required']} dtype={g['dtype']!r} compile={g['compile_mode']!r}")
            out.append(f"  {r['file']}: wrong {','.join(wrong)} — got {said}")
        elif r["kind"] != "claimed" and g["outcome"] == "read":
            out.append(f"  {r['file']}: {r['expected']['trainer']} read as {g['trainer']} (evidence {g['evidence']})")
    return "\n".join(out)


def git_head() -> str | None:
    try:
        return subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True,
                              timeout=10).stdout.strip() or None
    except (OSError, subprocess.SubprocessError):
        return None


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--dir", default=str(HELDOUT), help="corpus directory (default: fixtures/configs/heldout)")
    ap.add_argument("--out", help="write the figures and every file's result as JSON here")
    ap.add_argument("--note", default="", help="a line saying what was measured (stored in the JSON)")
    ap.add_argument("--misses", action="store_true", help="also list every file not read right")
    ap.add_argument("--layout", choices=("flat", "repo"), default="flat",
                    help="flat: where the set keeps each file (default); repo: at its source path, see above")
    args = ap.parse_args(argv)
    root = Path(args.dir).resolve()
    files = corpus(root)
    if not files:
        print(f"configs_heldout: no files under {root}", file=sys.stderr)
        return 2
    if args.layout == "repo":
        with tempfile.TemporaryDirectory(prefix="configs-layout-") as tmp:
            where = repository_layout(files, root, Path(tmp))
            records = [score(p, root, where[p], (f"{tmp}{os.sep}",)) for p in files]
    else:
        records = [score(p, root) for p in files]
    s = summarise(records)
    print(f"{len(files)} files under {os.path.relpath(root, ROOT)}, {args.layout} layout "
          f"(code at {git_head() or 'unknown'})\n")
    print(table(s, records))
    if args.misses:
        print("\nnot read right:\n" + (misses(records) or "  (none)"))
    if args.out:
        doc = {"date": datetime.date.today().isoformat(), "commit": git_head(), "corpus": os.path.relpath(root, ROOT),
               "layout": args.layout, "note": args.note, "summary": s, "files": records}
        out = Path(args.out)
        out.parent.mkdir(parents=True, exist_ok=True)
        tmp = out.with_name(out.name + ".tmp")
        tmp.write_text(json.dumps(doc, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        os.replace(tmp, out)
        print(f"\nwrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
