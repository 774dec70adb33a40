#!/usr/bin/env python3
"""Did any reader written before a blind configs round was read fix its misses? (issue 24, session 24, helper cfg101)

The configs twin of benchmarks/explain_blind_carry.py. For every blind configs round that is training material now (the
`m` rounds under fixtures/configs/ that benchmarks/configs_refusals.py MEASURE_ONLY does not list, taken from COMMITS
below, never by a glob), each claimed file is read with the code of three commits of main: `first` (the round's first
blind measurement), `before` (main when the session that read the round began: the last code no rule of the round's
reader had touched) and `after` (the reader's merge; None where the round was read in small commits on main or its
reader is not known), plus `now` (this checkout). Each commit's attn_doctor is taken with `git archive` into
CACHE/<commit>/ and run in a child process over TODAY's files and labels (benchmarks/configs_heldout.score, flat layout:
the layout of every first measurement), so the states differ only by code. A claimed file missed at `first` is put in one
class (refused, by configs_refusals.reason(); else the first wrong field of trainer, required, dtype, compile) and is
fixed at a state when all four fields are right there. Results: benchmarks/results/configs-blind-carry-s24.md. Held-out
and measure-only sets are never read (asserted).

    python benchmarks/configs_blind_carry.py                       # tables on stdout
    python benchmarks/configs_blind_carry.py --out r.json          # and every miss, per file
    python benchmarks/configs_blind_carry.py --extra /path/to/tree --extra-name mine   # one more state: another checkout
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from collections import Counter, defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
from configs_refusals import MEASURE_ONLY, reason  # noqa: E402
from explain_blind_carry import tree  # noqa: E402  (one commit's attn_doctor, unpacked with git archive)

# round: (first measurement's code, main at the start of the reading session, the reader's merge or None). Sources:
# the round's README ("Measured", "Read after its measurement") and the committed benchmarks/results/configs-roundNNm-*
# JSONs (their `commit`); 8m was read on main in 43480573 and 93ad4907 (no merge); 20m's reader is not recorded.
COMMITS = {
    "8m": ("66ad44f", "ca1c0dde", None), "9m": ("b2f24cb", "27eb802", "c4441a75"),
    "10m": ("2c31db6", "2c31db6", "f2d851f2"), "16m": ("b16011e", "e231db2", "9f50dde3"),
    "20m": ("6d5c95b", "aa8edfb", None), "26m": ("d126cda0", "120e468f", "d2b02a20"),
    "29m": ("6fb2d8e3", "c03837f8", "9d9b4315"), "33m": ("6fb2d8e3", "5f3028cd", "e192b310"),
    "41m": ("11221d85", "219e8dae", "707512cf"), "47m": ("6fb44a5f", "64efc91", "e7787cc9"),
    "49m": ("7536b8d8", "7536b8d8", "f3b7c0b8"), "54m": ("7536b8d8", "af355840", "aa388783"),
    "57m": ("af355840", "c572e3df", "d119dc30"), "61m": ("c572e3df", "009e5212", "bc4b40a7"),
    "64m": ("009e5212", "bae41cb0", "27e3075d"), "68m": ("bae41cb0", "80d52909", "1485f1e9"),
    "72m": ("80d52909", "7f911e38", "5ac0e218"), "75m": ("7f911e38", "c067c59a", "84103bbd"),
    "79m": ("c067c59a", "127b3d23", "99f9579a"), "82m": ("127b3d23", "fc4a881b", "0e865a0f"),
    "86m": ("fc4a881b", "a358b1f3", "e16f3c2b"), "92m": ("a358b1f3", "178ca03e", "6af89b21"),
}
STATES = ("first", "before", "after")


def measure(code: Path, rounds: list[str], layout: str = "flat") -> dict[str, list[dict]]:
    """Each round's files scored by configs_heldout with `code`'s attn_doctor: imported first, so that configs_heldout's
    own `from attn_doctor import configs` finds it in sys.modules (a child process per commit); `layout` as
    configs_heldout --layout."""
    prog = ("import json,os,sys,tempfile; from pathlib import Path; sys.path.insert(0, sys.argv[2]); import attn_doctor.configs, "
            "attn_doctor.model; assert attn_doctor.__file__.startswith(sys.argv[2]); sys.path.insert(0, sys.argv[1]);"
            "import configs_heldout as h; base = Path(sys.argv[3]); out = {}\n"
            "for r in sys.argv[5:]:\n"
            "    root = base / r; files = h.corpus(root)\n"
            "    if sys.argv[4] == 'flat':\n"
            "        out[r] = [h.score(p, root) for p in files]; continue\n"
            "    with tempfile.TemporaryDirectory(prefix='configs-blind-carry-') as tmp:\n"
            "        where = h.repository_layout(files, root, Path(tmp))\n"
            "        out[r] = [h.score(p, root, where[p], (tmp + os.sep,)) for p in files]\n"
            "print(json.dumps(out))")
    out = subprocess.run([sys.executable, "-c", prog, str(HERE), str(code), str(ROOT / "fixtures" / "configs"), layout,
                          *rounds], capture_output=True, text=True, check=True, env={**os.environ, "PYTHONPATH": ""}).stdout
    return json.loads(out.splitlines()[-1])


def miss_class(rec: dict) -> str:
    got = rec["got"]
    if got["outcome"] == "refused":
        return "refused: " + reason(got["message"])
    if got["outcome"] == "crashed":
        return "crashed"
    return "wrong " + next(f for f in ("trainer", "required", "dtype", "compile") if not rec["right"][f])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cache", default="/tmp/configs-blind-carry", help="where each commit's attn_doctor is unpacked")
    ap.add_argument("--out", help="every miss, per file (JSON)")
    ap.add_argument("--extra", help="one more state: the attn_doctor of this checkout (a worktree's root)")
    ap.add_argument("--extra-name", default="extra")
    ap.add_argument("--layout", choices=("flat", "repo"), default="flat", help="as configs_heldout --layout, every state")
    ap.add_argument("--now-repo", action="store_true", help="one more state: this checkout in the repository layout "
                    "(which first misses only the flat layout keeps: the file's evidence is another file of the set)")
    ap.add_argument("--fresh", action="store_true", help="measure every commit again (its readings are kept in --cache, "
                    "keyed by commit, layout and round: stale once a round's files or labels change)")
    a = ap.parse_args(argv)
    rounds = [f"round{r}" for r in COMMITS]
    assert not [r for r in rounds if r in MEASURE_ONLY or "heldout" in r]
    by_commit: dict[str, list[str]] = defaultdict(list)
    for r in rounds:
        for c in COMMITS[r[len("round"):]]:
            if c and r not in by_commit[c]:
                by_commit[c].append(r)
    got: dict[str, dict[str, list[dict]]] = {}
    for c, rs in by_commit.items():
        code = tree(c, Path(a.cache))
        kept = {r: code / f"{a.layout}-{r}.json" for r in rs}
        todo = [r for r in rs if a.fresh or not kept[r].is_file()]
        got[c] = measure(code, todo, a.layout) if todo else {}
        for r in rs:
            if r in todo:
                kept[r].write_text(json.dumps(got[c][r]), encoding="utf-8")
            got[c][r] = json.loads(kept[r].read_text(encoding="utf-8"))
    now = measure(ROOT, rounds, a.layout)
    extra = measure(Path(a.extra), rounds, a.layout) if a.extra else None
    now_repo = measure(ROOT, rounds, "repo") if a.now_repo else None
    misses, totals = [], Counter()
    for r in rounds:
        commits = dict(zip(STATES, COMMITS[r[len("round"):]]))
        by = {s: {x["file"]: x for x in got[c][r]} for s, c in commits.items() if c}
        by["now"] = {x["file"]: x for x in now[r]}
        if extra:
            by[a.extra_name] = {x["file"]: x for x in extra[r]}
        if now_repo:
            by["now repo"] = {x["file"]: x for x in now_repo[r]}
        for name, x in by["first"].items():
            if x["kind"] != "claimed":
                continue
            totals["claimed"] += 1
            if x["all_right"]:
                continue
            m = dict(round=r, file=name, source=x["source"], cls=miss_class(x),
                     message=x["got"].get("message", "")[:300])
            for s in by:
                if s != "first":
                    m[s] = by[s][name]["all_right"] if name in by[s] else None
            misses.append(m)
    later = [s for s in ("now", a.extra_name if extra else None) if s]
    print(f"{'round':9s} {'claimed':>7s} " + " ".join(f"{s:>7s}" for s in STATES + tuple(later)) + "   (all four right)")
    for r in rounds:
        commits = dict(zip(STATES, COMMITS[r[len("round"):]]))
        rows = {s: got[c][r] for s, c in commits.items() if c}
        rows.update(now=now[r], **({a.extra_name: extra[r]} if extra else {}))
        n = sum(x["kind"] == "claimed" for x in now[r])
        print(f"{r:9s} {n:7d} " + " ".join(
            f"{sum(bool(x.get('all_right')) for x in rows[s]) if s in rows else '-':>7}" for s in STATES + tuple(later)))
    table: dict[str, Counter] = defaultdict(Counter)
    for m in misses:
        for key in {m["cls"].split(":")[0], m["cls"]}:
            t = table[key]
            t["misses"] += 1
            t["before"] += bool(m["before"])
            t["R itself"] += bool(m.get("after")) and not m["before"]
            t["later"] += bool(m["now"]) and not m.get("after") and not m["before"]
            t["open now"] += not m["now"]
            if extra:
                t[f"{a.extra_name} fixes"] += bool(m[a.extra_name]) and not m["now"]
            if now_repo:
                t["open, repo right"] += bool(m["now repo"]) and not m["now"]
    print(f"{len(rounds)} blind rounds, {totals['claimed']} claimed files, {len(misses)} missed at the first measurement")
    cols = ["misses", "before", "R itself", "later", "open now"] + ([f"{a.extra_name} fixes"] if extra else []) + (
        ["open, repo right"] if now_repo else [])
    print(f"{'class':74s} " + " ".join(f"{c:>9s}" for c in cols))
    for c in sorted(table, key=lambda k: (":" in k, -table[k]["misses"], k)):
        print(f"{c[:74]:74s} " + " ".join(f"{table[c][k]:9d}" for k in cols))
    if a.out:
        Path(a.out).write_text(json.dumps({"later": later, "misses": misses}, indent=1, ensure_ascii=False),
                               encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
