#!/usr/bin/env python3
"""`attn-doctor explain FILE` as a whole command, two checkouts side by side (A, B interleaved, a fresh interpreter each
run): CPU seconds (user + sys of the child) and wall seconds, median of --runs, on three inputs: a short report (a
training fixture text), the first 3 MB and the whole of a generated 50 MB training log (benchmarks/explain_50mb.py's
generator, two errors in it). B's index cache (knowledge/index_cache.py) is measured warm (a run before filled it) and
cold (an empty folder each run); A's likewise, where A has one (an older checkout ignores the variable).

    git worktree add /tmp/base <commit>
    python benchmarks/explain_ab.py --a /tmp/base --b . --runs 3 --out benchmarks/results/explain-ab-<date>.json

Under load (other processes on the 2 cores) wall time swells; CPU seconds move less. Compare A and B from the same run.
The children run with bytecode as an installed package's do (explain_50mb.child_env; --no-bytecode: the inherited
environment, PYTHONDONTWRITEBYTECODE kept where it is set).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import explain_50mb  # noqa: E402

SHORT = HERE.parent / "fixtures" / "errors" / "round74"


def once(tree: str, path: str, cache: str) -> tuple[float, float]:
    env = explain_50mb.child_env(dict(os.environ, PYTHONPATH=tree, ATTN_DOCTOR_CACHE_DIR=cache, NO_COLOR="1"))
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    subprocess.run([sys.executable, "-m", "attn_doctor", "explain", path], env=env, cwd=tempfile.gettempdir(),
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - t
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime), wall


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--a", required=True, help="checkout A (e.g. a worktree of the commit before)")
    ap.add_argument("--b", default=str(HERE.parent), help="checkout B (default: this one)")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--out", help="write the results as JSON here")
    ap.add_argument("--note", default="")
    ap.add_argument("--no-bytecode", dest="bytecode", action="store_false", help="the children's environment as inherited")
    a = ap.parse_args()
    explain_50mb.BYTECODE["on"] = a.bytecode
    trees = {"A": str(Path(a.a).resolve()), "B": str(Path(a.b).resolve())}
    with tempfile.TemporaryDirectory() as tmp:
        big = os.path.join(tmp, "log50.txt")
        explain_50mb.write_log(big, 50_000_000)
        mid = os.path.join(tmp, "log3.txt")
        with open(big, "rb") as src, open(mid, "wb") as dst:
            dst.write(src.read(3_000_000).rsplit(b"\n", 1)[0] + b"\n")
        short = str(sorted(SHORT.glob("*.txt"))[0])
        inputs = {"short": short, "3MB": mid, "50MB": big}
        warm = {k: os.path.join(tmp, f"cache-{k}") for k in trees}
        for k, t in trees.items():  # fill each warm cache once (and the bytecode: explain_50mb.child_env)
            once(t, short, warm[k])
        res: dict[str, list[tuple[float, float]]] = {}
        for _ in range(a.runs):
            for name, path in inputs.items():
                for k, t in trees.items():
                    res.setdefault(f"{name} {k} warm", []).append(once(t, path, warm[k]))
                    if name == "short":
                        cold = tempfile.mkdtemp(dir=tmp)
                        res.setdefault(f"{name} {k} cold", []).append(once(t, path, cold))
    rows = {k: {"cpu_median": round(statistics.median(c for c, _ in v), 3),
                "wall_median": round(statistics.median(w for _, w in v), 3), "runs": v} for k, v in res.items()}
    for k, v in rows.items():
        print(f"{k:16} cpu {v['cpu_median']:6.2f} s   wall {v['wall_median']:6.2f} s")
    load = os.getloadavg()
    print(f"load average {load[0]:.1f}")
    if a.out:
        Path(a.out).write_text(json.dumps({"what": __doc__.split("\n\n")[0], "trees": trees, "note": a.note,
                                           "load_average": load[0], "cpus": os.cpu_count(), "bytecode": a.bytecode, "results": rows}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
