#!/usr/bin/env python3
"""Two questions of issue 24's recurring misses (session 30, helper cfg126): would reading a launch of a script the set
lacks by its options' owner carry, and would reading an unknown transformers release as transformers 4 agree with the
labels?

1. Launches.
A launch line whose script is not here (`torchrun ... sft.py --per_device_train_batch_size 8 --bf16 ...`) is refused
today ("... is not here: give attn-doctor that script"). Its options are the only evidence: when they are transformers'
TrainingArguments field names (hf_transformers.HF_FIELDS, what HfArgumentParser makes of TrainingArguments) or TRL's
ModelConfig names, a rule could read the launch as transformers. This counts, over every training fixture that is such a
refused launch (benchmarks/configs_refusals.py MEASURE_ONLY and heldout/ are never read: asserted), how the rounds label
the launches such a rule would claim, for several thresholds, split into the rounds a rule may be written from (up to
103m, and real/) and the later ones it would be measured on (105 onward: 107m, 111m, 115m are the blind rounds).

2. --release: every training fixture read as transformers with no dtype is read again with transformers_load_default
answering "float32" where it answers None (the release not shown: transformers 4 assumed); each reading that changes is
listed with its label's dtype. Rows labelled "" say the labels do not take the default.

    python benchmarks/configs_launch_and_release.py [--snapshot /tmp/x.json]   # a configs_snapshot.py JSON of this tree
    python benchmarks/configs_launch_and_release.py --release --snapshot /tmp/x.json

Standard library plus the project; nothing is run or fetched.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(HERE))

from configs_refusals import MEASURE_ONLY  # noqa: E402

CONFIGS = ROOT / "fixtures" / "configs"
SOURCE_UNTIL = 103  # rounds a rule may be written from (the task's: up to 103m); later rounds measure its carry
ABSENT = re.compile(r"a training script none of .* is not here|a script of its own, with options .* is not here", re.S)
OPTION = re.compile(r"(?<![\w-])--([A-Za-z][\w-]*)")


def round_number(folder: str) -> int:
    m = re.match(r"round(\d+)", folder)
    return int(m.group(1)) if m else 0  # real/ and the named fixtures: source material


def readings(snapshot: str | None) -> dict:
    if snapshot:
        return json.loads(Path(snapshot).read_text())
    import configs_snapshot

    return configs_snapshot.snapshot(ROOT, MEASURE_ONLY)


def label(path: Path) -> str:
    import tomllib

    e = path.with_name(path.name + ".expect.toml")
    return tomllib.loads(e.read_text()).get("trainer", "?") if e.is_file() else "?"


def rows(snap: dict) -> list[dict]:
    from attn_doctor.configs.hf_transformers import HF_FIELDS, MODEL_CONFIG_FIELDS

    # TRL ModelConfig's own names, less those every trainer's parser shares (lora_r / lora_alpha / dtype ...)
    trl_own = MODEL_CONFIG_FIELDS - {"torch_dtype", "dtype", "attn_implementation", "lora_r", "lora_alpha", "lora_dropout"}
    out = []
    for rel, r in sorted(snap.items()):
        folder = rel.split("/")[0]
        assert folder not in MEASURE_ONLY, rel
        if not ABSENT.search(r.get("refused") or ""):
            continue
        p = CONFIGS / rel
        opts = set(OPTION.findall(p.read_text(errors="replace")))
        out.append({"file": rel, "round": folder, "source": round_number(folder) <= SOURCE_UNTIL, "label": label(p),
                    "options": len(opts), "hf": len(opts & HF_FIELDS), "trl": sorted(opts & trl_own)})
    return out


def sweep(rs: list[dict]) -> list[str]:
    lines = ["| rule: claim as transformers when | source: labelled transformers | source: labelled otherwise | "
             "later: labelled transformers | later: labelled otherwise |", "|---|---|---|---|---|"]
    rules = [(f">= {lo} TrainingArguments options" + (f", >= {share:.0%} of its options" if share else ""),
              lambda x, lo=lo, share=share: x["hf"] >= lo and x["hf"] >= share * x["options"])
             for lo in (5, 10, 15, 20) for share in (0, 0.5, 0.7)]
    rules.append(("a TRL ModelConfig option (use_peft, load_in_4bit, lora_target_modules, ...)", lambda x: bool(x["trl"])))
    for name, rule in rules:
        n = {(s, t): 0 for s in (True, False) for t in (True, False)}
        for x in rs:
            if rule(x):
                n[(x["source"], x["label"] == "transformers")] += 1
        lines.append(f"| {name} | {n[(True, True)]} | {n[(True, False)]} | {n[(False, True)]} | {n[(False, False)]} |")
    return lines


def release_default(snap: dict) -> list[str]:
    """The transformers readings with no dtype that "transformers 4 when the release is not shown" would change, each
    with its label's dtype (see the module's 2.)."""
    import tomllib

    from attn_doctor import configs
    from attn_doctor.configs import hf_transformers as hf
    from attn_doctor.model import UsageError

    real = hf.transformers_load_default
    hf.transformers_load_default = lambda doc, s: real(doc, s) or "float32"
    out = []
    try:
        for rel, r in sorted(snap.items()):
            assert rel.split("/")[0] not in MEASURE_ONLY, rel
            if r.get("trainer") != "transformers" or r.get("dtype"):
                continue
            try:
                got = configs.load(str(CONFIGS / rel)).get("dtype")
            except UsageError:
                continue
            if got != r.get("dtype"):
                e = (CONFIGS / rel).with_name(Path(rel).name + ".expect.toml")
                lab = tomllib.loads(e.read_text()).get("dtype") if e.is_file() else "?"
                out.append(f"{rel}\t{r.get('dtype')} -> {got}\tlabel {lab!r}")
    finally:
        hf.transformers_load_default = real
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--snapshot", help="a configs_snapshot.py JSON of this tree (else every fixture is read now)")
    ap.add_argument("--list", action="store_true", help="also list every refused launch of an absent script")
    ap.add_argument("--release", action="store_true", help="question 2 instead: the readings a transformers-4 default "
                    "would change, with their labels")
    args = ap.parse_args(argv)
    if args.release:
        print("\n".join(release_default(readings(args.snapshot))))
        return 0
    rs = rows(readings(args.snapshot))
    src = [x for x in rs if x["source"]]
    print(f"{len(rs)} launches of a script that is not here, refused ({len(src)} in the source rounds, "
          f"{len(rs) - len(src)} later); labelled transformers: {sum(x['label'] == 'transformers' for x in src)} / "
          f"{sum(x['label'] == 'transformers' for x in rs) - sum(x['label'] == 'transformers' for x in src)}\n")
    print("\n".join(sweep(rs)))
    if args.list:
        for x in rs:
            print(f"{x['round']}\t{x['label']}\t{x['hf']}/{x['options']}\t{','.join(x['trl'])}\t{x['file']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
