#!/usr/bin/env python3
"""CPU seconds (process_time) of explain's matcher over every training text of the error corpora, in one process: the
texts compare_matches.py reads (its ROUNDS: each round's texts and unrelated/ logs; never the held-out or measure-only
rounds), each handed to `attn_doctor.explain.match` (as compare_matches.py hands it). What the corpus-scanning test modules spend
most of their CPU on (helper ci38a, session 38).

  python benchmarks/explain_corpus_cpu.py                          # this checkout, one run
  python benchmarks/explain_corpus_cpu.py --tree /tmp/old --tree . --runs 3   # side by side, interleaved
  python benchmarks/explain_corpus_cpu.py --profile 25             # where this checkout's time goes (cProfile)
  python benchmarks/explain_corpus_cpu.py --tree /tmp/old --tree . --runs 3 --every 8   # every 8th round: a sample

Each run is a fresh process with its own empty index cache (ATTN_DOCTOR_CACHE_DIR: a temporary folder, so a changed
match.py and an old one do not share or invalidate each other's), and reports:
- `import`: importing attn_doctor.explain and building the index (the first text's scan less its own matching);
- `pass1`: the first pass over the texts (what a test module that reads each text once pays; learns line shapes);
- `pass2`: a second pass in the same process (shapes learnt, report heads' matches kept where they still are).
Compare CPU time, not wall: the dev machine is shared.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def texts(every: int = 1) -> list[str]:
    """Every training text (`every`: of every N-th round of ROUNDS only, from the first: a sample for a loaded machine)."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import compare_matches as cm

    files = cm.round_files(r for r in cm.ROUNDS[::every] if r not in cm.MEASURE_ONLY)
    return [path.read_text(encoding="utf-8").partition("\n---\n")[2] for path in files]


def child(tree: str, profile: int, every: int = 1) -> dict:
    """One run, in this process (a fresh one): the figures as a dict."""
    bodies = texts(every)
    t0 = time.process_time()
    sys.path.insert(0, os.path.abspath(tree))
    import attn_doctor.explain as ex

    assert ex.__file__.startswith(os.path.abspath(tree) + os.sep), ex.__file__
    ex.match("")  # the index, built
    t1 = time.process_time()
    prof = None
    if profile:
        import cProfile

        prof = cProfile.Profile()
        prof.enable()
    for b in bodies:
        ex.match(b)
    t2 = time.process_time()
    if prof is not None:
        prof.disable()
    for b in bodies:
        ex.match(b)
    t3 = time.process_time()
    if prof is not None:
        import pstats

        pstats.Stats(prof, stream=sys.stderr).sort_stats("tottime").print_stats(profile)
        pstats.Stats(prof, stream=sys.stderr).sort_stats("cumulative").print_stats(profile)
    return {"tree": tree, "texts": len(bodies), "import": round(t1 - t0, 3), "pass1": round(t2 - t1, 3),
            "pass2": round(t3 - t2, 3)}


def run(tree: str, profile: int = 0, every: int = 1) -> dict:
    with tempfile.TemporaryDirectory(prefix="corpus-cpu-") as cache:
        env = {**os.environ, "ATTN_DOCTOR_CACHE_DIR": cache, "PYTHONPATH": ""}
        p = subprocess.run([sys.executable, __file__, "--child", tree, "--profile", str(profile), "--every", str(every)],
                           env=env, stdout=subprocess.PIPE, text=True, check=True)
    return json.loads(p.stdout.strip().splitlines()[-1])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tree", action="append", help="a source tree whose attn_doctor is measured (repeat: side by side)")
    ap.add_argument("--runs", type=int, default=1, help="runs of each tree, interleaved (default 1)")
    ap.add_argument("--profile", type=int, default=0, help="print cProfile's N top functions of pass 1 (one run)")
    ap.add_argument("--every", type=int, default=1, help="the texts of every N-th round only (a sample; default 1: all)")
    ap.add_argument("--child", help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.child:
        print(json.dumps(child(a.child, a.profile, a.every)))
        return 0
    trees = a.tree or [str(ROOT)]
    rows: dict[str, list[dict]] = {t: [] for t in trees}
    for i in range(a.runs):
        for t in trees:
            r = run(t, a.profile, a.every)
            rows[t].append(r)
            print(f"run {i + 1} {t}: {r['texts']} texts, import+index {r['import']:.2f} s, pass1 {r['pass1']:.2f} s, "
                  f"pass2 {r['pass2']:.2f} s (CPU)", flush=True)
    print()
    print("| tree | runs | import+index (median) | pass 1 (median; each) | pass 2 (median) |")
    print("| --- | --- | --- | --- | --- |")
    for t, rs in rows.items():
        med = {k: statistics.median(r[k] for r in rs) for k in ("import", "pass1", "pass2")}
        each = ", ".join(f"{r['pass1']:.2f}" for r in rs)
        print(f"| {t} | {len(rs)} | {med['import']:.2f} s | {med['pass1']:.2f} s ({each}) | {med['pass2']:.2f} s |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
