#!/usr/bin/env python3
"""Did any rule carry to a blind explain round before it was read? (issue 23, session 22, helper ex130)

For every blind round now training (the `m` rounds of compare_matches.ROUNDS), its texts are measured with the code of three
commits of main: `first` (the blind measurement's), `before` (the first parent of the merge of the helper who read the round:
the last code without the round's own rules) and `after` (that merge); `now` is a training run's /tmp/TAG-ar-<round>.json.
Each commit's attn_doctor is taken with `git archive` into /tmp/explain-blind-carry/<commit>/, and measured on TODAY's fixture
texts and labels (explain_heldout.measure), so the four states differ only by code. A first-measurement miss (not matched, wrong
backend, wrong cause, an unrelated log claimed) is fixed when the text reaches the level it missed; the table says, per class
of miss, how many were fixed by `before` (a rule written before the round was read), at `after` (the round's own reader),
later, or not. Results: benchmarks/results/explain-blind-carry-s22.md. Held-out and measure-only sets are never read.

    python benchmarks/explain_blind_carry.py --now s22start            # tables on stdout
    python benchmarks/explain_blind_carry.py --now s22start --out r.json   # and every miss, per text
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
from collections import Counter, defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
from compare_matches import MEASURE_ONLY, ROUNDS  # noqa: E402

# round: (first measurement's commit, reader's parent, reader's merge or None); see the results file for how each was found
COMMITS = {
    "21m": ("777bfb8", "4011decf^", None), "24m": ("b16011e", "9f50dde3", None), "30m": ("6d5c95b", "aa8edfb", None),
    "36m": ("6d5c95b", "aa8edfb", None), "41m": ("fe8b374", "1ec912e2", None), "49m": ("d126cda", "24963ba", None),
    "54m": ("6fb2d8e", "e347aa5b", "a013dcb1"), "60m": ("6fb2d8e", "23308f4e", "c3f29dea"),
    "63m": ("11221d8", "707512cf", "89d85189"), "71m": ("6fb44a5", "bad88bbc", "932e886a"),
    "73m": ("17c6c069", "c5235f8c", "6440511e"), "81m": ("b44554ee", "0c292443", "ea73fa8c"),
    "85m": ("e237c5f0", "d119dc30", "29ba8c48"), "90m": ("28bccef0", "9f416cb7", "b3a67c81"),
    "95m": ("009e5212", "27e3075d", "55e8c777"), "101m": ("bae41cb0", "326fa10d", "398e3ac7"),
    "105m": ("80d52909", "552d4626", "ee37c1ac"), "109m": ("7f911e38", "84103bbd", "ee1beac1"),
    "113m": ("c067c59a", "b2c1077d", "f3d1aec0"), "118m": ("127b3d23", "959d9f96", "3ac9045f"),
}
ATTENTION = re.compile(r"attention|attn|sdpa|scaled_dot_product|flash|xformers|sage|flex|fmha|cudnn", re.I)
ERROR_LINE = re.compile(r"^\s*(Traceback \(most recent call last\)|[\w.]*(Error|Exception|Warning)\b[:(]|error:|ERROR|FAILED|"
                        r"fatal error|Segmentation fault|CUDA error|RuntimeError|AssertionError)", re.M)
GENERIC = ("prose.", "triage.")


def tree(commit: str, cache: Path) -> Path:
    sha = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short=8", commit], capture_output=True, text=True,
                         check=True).stdout.strip()
    out = cache / sha
    if not (out / "attn_doctor").is_dir():
        out.mkdir(parents=True, exist_ok=True)
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", sha, "attn_doctor"], capture_output=True, check=True)
        subprocess.run(["tar", "-x", "-C", str(out)], input=archive.stdout, check=True)
    return out


def measure(code: Path, rounds: list[str]) -> dict[str, dict]:
    """Each round's explain_heldout document with `code`'s attn_doctor (a child process: one attn_doctor per process; `code`
    goes on sys.path after explain_heldout puts this checkout first)."""
    prog = ("import json,sys; sys.path.insert(0, sys.argv[1]); import explain_heldout as h; sys.path.insert(0, sys.argv[2]);"
            "import attn_doctor; assert attn_doctor.__file__.startswith(sys.argv[2]); from pathlib import Path;"
            "print(json.dumps({r: h.measure(Path(sys.argv[3]) / r, None) for r in sys.argv[4:]}))")
    out = subprocess.run([sys.executable, "-c", prog, str(HERE), str(code), str(ROOT / "fixtures" / "errors"), *rounds],
                         capture_output=True, text=True, check=True, env={**os.environ, "PYTHONPATH": ""}).stdout
    return json.loads(out.splitlines()[-1])


def level(x: dict | None) -> str:
    if x is None:
        return "-"
    return "U" if not x["matched"] else "B" if not x["right_backend"] else "C" if not x["right_cause"] else "ok"


def fixed(miss: str, state: str) -> bool:
    return state == "ok" if miss in ("F", "C") else state in ("C", "ok")


def klass(miss: str, x: dict, body: str) -> str:
    """One class per miss, by the written rule of the results file."""
    top = x.get("top") or (x.get("all") or [""])[0]
    if miss == "F":
        return "F-generic" if top.startswith(GENERIC) else "F-specific"
    if x.get("new"):
        return f"{miss}-new-class"
    if miss == "U":
        if not ATTENTION.search(body):
            return "U-no-attention-words"
        return "U-error-line-unread" if ERROR_LINE.search(body) else "U-prose-only"
    if miss == "B":
        if x.get("top_backend") in (None, "none"):
            return "B-backendless-first"
        return "B-generic-names-wrong" if top.startswith(GENERIC) else "B-other-backend-entry"
    if any(e in x["all"] for e in x["entry"].split(" | ")):
        return "C-rank-cause-listed-lower"
    return "C-only-generic-read" if top.startswith(GENERIC) else "C-neighbour-entry"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--now", required=True, help="a training run's tag (/tmp/TAG-ar-<round>.json, explain_training.py)")
    ap.add_argument("--cache", default="/tmp/explain-blind-carry", help="where each commit's attn_doctor is unpacked")
    ap.add_argument("--out", help="every miss, per text (JSON)")
    a = ap.parse_args(argv)
    rounds = [r for r in ROUNDS if r.endswith("m") and r[len("round"):] in COMMITS]
    assert not [r for r in rounds if r in MEASURE_ONLY or "heldout" in r]
    states: dict[str, dict[str, dict]] = defaultdict(dict)  # state -> round -> document
    for r in rounds:
        for state, commit in zip(("first", "before", "after"), COMMITS[r[len("round"):]]):
            if commit:
                states[state][r] = measure(tree(commit, Path(a.cache)), [r])[r]
        states["now"][r] = json.loads(Path(f"/tmp/{a.now}-ar-{r}.json").read_text(encoding="utf-8"))
    misses = []
    for r in rounds:
        by = {s: {x["file"]: x for x in states[s][r]["results"]} if r in states[s] else {} for s in states}
        unr = {s: {x["file"]: x for x in states[s][r]["unrelated_results"]} if r in states[s] else {} for s in states}
        for name, x in by["first"].items():
            miss = level(x)
            if miss == "ok":
                continue
            body = (ROOT / "fixtures" / "errors" / r / name).read_text(encoding="utf-8").partition("\n---\n")[2]
            misses.append(dict(round=r, file=name, source=x["source"], label=x["entry"], miss=miss, cls=klass(miss, x, body),
                               **{s: level(by[s].get(name)) for s in ("before", "after", "now")}))
        for name, x in unr["first"].items():
            if x["matched"]:
                misses.append(dict(round=r, file=name, source=x["source"], label="unrelated", miss="F", cls=klass("F", x, ""),
                                   **{s: ("-" if name not in unr[s] else "F" if unr[s][name]["matched"] else "ok")
                                      for s in ("before", "after", "now")}))
    for title, part in (("rounds read by a helper whose merge is known (R itself = fixed at that merge)", True),
                        ("older rounds (no reader's merge: R itself counts as later)", False)):
        table: dict[str, Counter] = defaultdict(Counter)
        for m in misses:
            if (COMMITS[m["round"][len("round"):]][2] is not None) != part:
                continue
            b, af, n = (fixed(m["miss"], m[s]) for s in ("before", "after", "now"))
            t = table[m["cls"]]
            t["misses"] += 1
            t["other rounds"] += b
            t["R itself"] += af and not b
            t["later"] += n and not af and not b
            t["open"] += not n
        print(f"{title}\n{'class':28s} misses  other rounds  R itself  later  open")
        for c in sorted(table):
            t = table[c]
            print(f"{c:28s} {t['misses']:6d} {t['other rounds']:13d} {t['R itself']:9d} {t['later']:6d} {t['open']:5d}")
    if a.out:
        Path(a.out).write_text(json.dumps(misses, indent=1, ensure_ascii=False), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
