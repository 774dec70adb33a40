#!/usr/bin/env python3
"""Which refusals cost claimed files and which earn their keep (issue 24): the refusal map of the training side.

Every labelled file of every config round on the training side (fixtures/configs/real and fixtures/configs/round*,
never heldout/ and never a measure-only round: MEASURE_ONLY below) is read exactly as benchmarks/configs_heldout.py
reads it (attn_doctor.configs.load(path), no --trainer). Each refusal (UsageError) is put in one class by what it
says (REASONS: the branch of configs.detect() or of the file's parsing that raised it), and counted twice:

  claimed   files labelled with a trainer attn-doctor claims: a refusal here is a file lost
  refused   files labelled unclaimed:X, none, or "" (refused): a refusal here is one earned

plus the claimed files read as the wrong trainer and the files to refuse that were read as a trainer. A class that
refuses many claimed files and few others is where evidence is too narrow; one that refuses only files to refuse
earns its keep. Standard library plus the project; no GPU, no network.

  python benchmarks/configs_refusals.py --out benchmarks/results/configs-refusals-main.json
  python benchmarks/configs_refusals.py --only round28 --list "not a trainer config"
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import re
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from attn_doctor import configs  # noqa: E402
from attn_doctor.model import UsageError  # noqa: E402

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

CONFIGS = ROOT / "fixtures" / "configs"
# never read here: the held-out set, and the measure-only rounds of the sessions (their gatherers alone open them);
# round 33m is training material since cfg40, round 41m since cfg46 (after the lead's measurements of session 10)
# THE list of measure-only config sets: every benchmark and test that reads the training folders skips these
# (tests/configs_corpus.py MEASURE_ONLY, benchmarks/configs_robustness.py, benchmarks/configs_snapshot.py read it from
# here). A blind round is added when it is gathered and removed when the lead has measured it and a helper reads it:
# 149m measure-only since session 42 (gathered blind by cfg149m, session 42: the lead measures it),
# 147m training since session 42 (gathered blind by cfg147m, session 41; freed by the lead after three equal measurements),
# 145m training since session 41 (gathered blind by cfg145m, session 40; freed by the lead after three measurements),
# 143m training since session 40 (gathered blind by cfg143m, session 39; freed by the lead after three equal measurements),
# 141m training since session 39 (gathered blind by cfg141m, session 38; freed by the lead after three equal measurements),
# 139m training since session 37 (gathered blind by cfg139m, session 36; freed by the lead after three equal measurements),
# 137m training since session 36 (gathered blind by cfg137m, session 35; freed by the lead after three equal measurements),
# 135m training since session 35 (gathered by cfg135m, session 34; freed by the lead after three equal measurements),
# 133m training since cfg134 (session 34; gathered by cfg133m, session 33),
# 130m training since cfg132 (session 33; gathered by cfg130m, session 32),
# 123m training since cfg127 (session 32; gathered by cfg125m, session 30),
# 119m training since cfg124 (session 30),
# 115m training since cfg120 (session 29),
# 111m training since cfg116 (session 28; cfg117m adds round115m here beside it, the lead merges),
# 107m training since cfg111 (session 27),
# 103m training since cfg106 (session 26), 99m training since cfg102 (session 25), 95m training since cfg98 (session 24), 92m training since cfg94 (session 23),
# 86m training since cfg91 (session 22), 82m training since cfg85 (session 21), 79m training since cfg81 (session 20),
# 75m training since cfg78 (session 19), 68m training since cfg71 (session 17), 64m since cfg67 (session 16), 61m since cfg63, 57m since cfg60, 54m since cfg56, 49m since
# cfg53, 47m since cfg48 (all 2026-11-29).
MEASURE_ONLY = {"heldout", "round149m"}
TRAINER = {"musubi-tuner": "musubi", "blissful-tuner": "blissful"}
SAME_READING = {"blissful": {"musubi"}}

# (class, pattern on the refusal's text), first match wins; the order follows configs.detect()'s branches
REASONS = [
    ("unreadable file (encoding, binary, size, syntax)",
     r"is not valid (JSON|YAML|TOML)|is binary|is not UTF-8|is UTF-16|save it as UTF-8|too large for|too deeply nested|"
     r"cannot read|is a directory|is JSON Lines|is not a regular file|Jsonnet"),
    ("dataset config", r"dataloader config|dataset registry|dataset (config|card|info)|a dataset"),
    ("not an object of settings", r"but not an object of trainer settings"),
    ("a run's saved output (Hydra)", r"saved by|Hydra run's|\.hydra/"),
    ("fits X and Y (mixes two trainers' own settings)", r"mixes settings only"),
    ("imports another framework", r"looks like a script of "),
    ("looks like Y (another framework's own evidence)", r"looks like "),
    ("parser keys refused (the trainer's own parser would refuse keys)", r"is not a trainer config of "),
    ("runs only another script", r"it only runs another script"),
    ("a trainer CLI's step that is not training", r"which is not a training command of the trainer CLI"),
    ("launch of a user's script beside it with options", r"a script of its own, with options attn-doctor does not read"),
    ("launch of a sampling/inference/eval script", r"samples, generates, evaluates or serves"),
    ("launch of a script no reader claims (absent or unread)", r"a training script none of\s+the trainers"),
    ("trainer options given to a foreign script", r"a script none of the trainers attn-doctor reads ships, so its options"),
    ("a trainer's config of an unreadable layout", r"is not a .* config that attn-doctor can read"),
    ("only settings several trainers share", r"holds only settings several\s+trainers share"),
    ("named presets of one trainer that choose differently", r"named sets of .* settings that choose differently"),
    ("a job spec running no trainer's script", r"(SkyPilot|Baseten|Modal|RunPod|Slurm).*not a trainer config"),
    ("a file of another kind (workflow, compose, manifest, settings module...)", r"\bis (an? |[A-Z][\w-]*'s ).*, not a trainer config"),
    ("Python script with no trainer calls", r"a Python script with no trainer calls"),
    ("no evidence (not a trainer config attn-doctor recognises)", r"not a trainer config attn-doctor recognises"),
]


def reason(message: str) -> str:
    for cls, pat in REASONS:
        if re.search(pat, message, re.S):
            return cls
    return "other"


def rounds(only: list[str] | None) -> list[Path]:
    out = [p for p in sorted(CONFIGS.iterdir()) if p.is_dir() and p.name not in MEASURE_ONLY
           and (p.name == "real" or p.name.startswith("round"))]
    return [p for p in out if not only or p.name in only]


def corpus(root: Path) -> list[Path]:
    return sorted(p for p in root.rglob("*") if p.is_file() and not p.name.endswith(".expect.toml")
                  and p.with_name(p.name + ".expect.toml").is_file())


def label(trainer: str) -> str:
    """claimed | refuse"""
    return "refuse" if trainer in ("", "none") or trainer.startswith("unclaimed:") else "claimed"


def read(path: Path) -> dict:
    try:
        cfg = configs.load(str(path))
    except UsageError as e:
        msg = str(e).replace(f"{ROOT}{os.sep}", "")
        return {"outcome": "refused", "reason": reason(msg), "message": msg}
    except Exception as e:  # noqa: BLE001 - a crash is a finding
        return {"outcome": "crashed", "message": f"{type(e).__name__}: {e}"[:300]}
    det = cfg.get("detected") or {}
    return {"outcome": "read", "trainer": det.get("trainer")}


def git_head() -> str | None:
    try:
        return subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True,
                              timeout=10).stdout.strip() or None
    except (OSError, subprocess.SubprocessError):
        return None


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", nargs="*", help="only these round folders (names under fixtures/configs)")
    ap.add_argument("--out", help="write the map and every refused / misread file as JSON here")
    ap.add_argument("--list", metavar="CLASS", help="print the files of refusal classes containing this text")
    args = ap.parse_args(argv)
    per = defaultdict(lambda: {"claimed": 0, "refuse": 0})
    files, wrong_trainer, read_as_trainer, crashed = [], [], [], []
    totals = {"files": 0, "claimed": 0, "refuse": 0, "claimed_read": 0, "claimed_refused": 0, "refuse_refused": 0}
    for rnd in rounds(args.only):
        for p in corpus(rnd):
            e = tomllib.loads(p.with_name(p.name + ".expect.toml").read_text(encoding="utf-8"))
            kind = label(e.get("trainer", ""))
            got = read(p)
            rel = p.relative_to(CONFIGS).as_posix()
            totals["files"] += 1
            totals[kind] += 1
            rec = {"file": rel, "label": e.get("trainer", ""), "kind": kind, **got}
            if got["outcome"] == "refused":
                per[got["reason"]][kind] += 1
                totals[f"{kind}_refused"] += 1
                files.append(rec)
            elif got["outcome"] == "crashed":
                crashed.append(rec)
            elif kind == "claimed":
                totals["claimed_read"] += 1
                want = TRAINER.get(e["trainer"], e["trainer"])
                if got["trainer"] != want and got["trainer"] not in SAME_READING.get(want, set()):
                    wrong_trainer.append(rec)
            else:
                read_as_trainer.append(rec)
    totals["claimed_wrong_trainer"] = len(wrong_trainer)
    totals["refuse_read_as_trainer"] = len(read_as_trainer)
    totals["crashed"] = len(crashed)
    names = [r.name for r in rounds(args.only)]
    print(f"{totals['files']} labelled files in {len(names)} folders (code at {git_head() or 'unknown'}): "
          f"{totals['claimed']} claimed, {totals['refuse']} to refuse\n")
    print(f"{'refusal class':<72} {'claimed':>7} {'refuse':>7}")
    for cls, d in sorted(per.items(), key=lambda kv: (-kv[1]["claimed"], -kv[1]["refuse"])):
        print(f"{cls[:72]:<72} {d['claimed']:>7} {d['refuse']:>7}")
    print(f"{'all refusals':<72} {totals['claimed_refused']:>7} {totals['refuse_refused']:>7}")
    print(f"\nclaimed files read as the wrong trainer: {len(wrong_trainer)}")
    print(f"files to refuse read as a trainer: {len(read_as_trainer)}")
    if crashed:
        print(f"crashed: {len(crashed)}")
        for r in crashed:
            print(f"  {r['file']}: {r['message']}")
    if args.list:
        print()
        for r in files:
            if args.list.lower() in r["reason"].lower():
                print(f"  [{r['kind']}] {r['file']}: {r['message'][:220]}")
    if args.out:
        doc = {"date": datetime.date.today().isoformat(), "commit": git_head(), "folders": names, "totals": totals,
               "per_reason": dict(sorted(per.items())), "refused": files, "claimed_wrong_trainer": wrong_trainer,
               "refuse_read_as_trainer": read_as_trainer, "crashed": crashed}
        out = Path(args.out)
        out.parent.mkdir(parents=True, exist_ok=True)
        tmp = out.with_name(out.name + ".tmp")
        tmp.write_text(json.dumps(doc, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        os.replace(tmp, out)
        print(f"\nwrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
