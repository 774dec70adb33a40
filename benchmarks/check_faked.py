#!/usr/bin/env python3
"""Whole `check`s on faked facts and short `explain`s, in-process, two checkouts side by side (A B A B ..., a fresh
interpreter each time): per-call milliseconds, median over --rounds, and B/A. What the slow property tests do
(tests/test_failure_kept.py, tests/test_findings.py's "any import error text renders"): a backend's import probe failed
with an error no entry names, and each run adds one knowledge example (a warning or a note) to what it printed; a
short explain reads each example text once, as a fresh report (explain.examine).

    python benchmarks/check_faked.py --a ../attn-doctor-start --b . --rounds 3 -n 150

Each child warms up first (one check, one explain: the index, the compiled patterns), then times n checks and n
explains; the numbers include no start-up. Under load (other processes on the cores) compare A and B from the same
run, by their medians.
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def child(n: int) -> dict:
    """Run in the checkout on sys.path: n checks, n explains; per-call ms."""
    import fakefacts as ff
    from attn_doctor import knowledge
    from attn_doctor.explain import examine

    base = ff.gpu_box()  # FAKED: sage installed, its import raised an error no entry names (tests/test_failure_kept.py)
    ff.install(base, "sage", "sageattention", "1.0.6", probe=ff.failed_import(
        "RuntimeError", "sageattention: kernel registry is empty",
        'Traceback (most recent call last):\n  File "<attn-doctor import probe>", line 1, in <module>\n'))
    noise = [ex for e in knowledge.entries().values() if e.severity in ("warning", "info") for ex in e.examples]
    texts = [ex for e in knowledge.entries().values() for ex in e.examples]
    ff.check(copy.deepcopy(base))
    examine(texts[0])

    def with_noise(text: str) -> dict:
        f = copy.deepcopy(base)
        run = f["imports"]["sage"]["probe"]
        run["warnings"] = list(run.get("warnings") or []) + [text]
        return f

    t = time.perf_counter()
    for i in range(n):
        ff.check(with_noise(noise[i % len(noise)]))
    check_ms = (time.perf_counter() - t) / n * 1000
    step = max(1, len(texts) // n)
    t = time.perf_counter()
    for text in texts[::step][:n]:
        examine(text)
    explain_ms = (time.perf_counter() - t) / min(n, len(texts[::step])) * 1000
    return {"check_ms": check_ms, "explain_ms": explain_ms}


def once(tree: str, n: int) -> dict:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([tree, os.path.join(tree, "tests")]))
    out = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--child", "-n", str(n)], env=env, cwd=tree,
                         capture_output=True, text=True)
    if out.returncode != 0:
        raise SystemExit(f"check_faked: the child in {tree} failed:\n{out.stderr[-2000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--a", help="checkout A (e.g. a worktree of the commit before)")
    ap.add_argument("--b", default=str(HERE.parent), help="checkout B (default: this one)")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("-n", type=int, default=100, help="checks and explains timed in each child")
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.n < 1 or a.rounds < 1:
        print("check_faked: -n and --rounds must be 1 or more", file=sys.stderr)
        return 2
    if a.child:
        print(json.dumps(child(a.n)))
        return 0
    trees = {"A": a.a, "B": a.b} if a.a else {"B": a.b}
    for name, tree in trees.items():
        if not (Path(tree) / "attn_doctor").is_dir() or not (Path(tree) / "tests" / "fakefacts.py").is_file():
            print(f"check_faked: {tree}: not a checkout of attn-doctor", file=sys.stderr)
            return 2
    got: dict[str, list[dict]] = {k: [] for k in trees}
    for r in range(a.rounds):
        for name, tree in trees.items():
            got[name].append(once(str(Path(tree).resolve()), a.n))
            print(f"round {r + 1} {name}: " + ", ".join(f"{k} {v:.2f}" for k, v in got[name][-1].items()), flush=True)
    med = {name: {k: statistics.median(x[k] for x in rows) for k in rows[0]} for name, rows in got.items()}
    for name in trees:
        print(f"{name} ({trees[name]}): median of {a.rounds}: check {med[name]['check_ms']:.2f} ms, "
              f"explain {med[name]['explain_ms']:.2f} ms (n={a.n})")
    if "A" in med:
        print(f"B/A: check {med['B']['check_ms'] / med['A']['check_ms']:.2f}, "
              f"explain {med['B']['explain_ms'] / med['A']['explain_ms']:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
