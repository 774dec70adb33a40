#!/usr/bin/env python3
"""CPU seconds (time.process_time) that `attn_doctor.configs.load` takes over every trainer-config training file (the
files benchmarks/configs_snapshot.py reads: never heldout/ nor a measure-only set), for one or more checkouts, runs
interleaved (A B A B ...: the machine is shared, so a slow spell hits both sides), each run a fresh process.

    python benchmarks/configs_cpu.py --tree /tmp/base --tree . --runs 3
    python benchmarks/configs_cpu.py --tree /tmp/base --tree . --runs 3 --together   # each round's runs at once
    python benchmarks/configs_cpu.py --tree . --profile /tmp/configs.prof   # one run under cProfile
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent

_CHILD = r"""
import json, os, sys, time
tree, profile = sys.argv[1], sys.argv[2]
sys.path.insert(0, os.path.join(tree, "benchmarks"))
sys.path.insert(0, tree)
import configs_snapshot
from pathlib import Path
from attn_doctor import configs
if not configs.__file__.startswith(tree + os.sep):
    raise SystemExit(f"configs_cpu: attn_doctor imports from {configs.__file__}, not {tree}")
files = [str(p) for p in configs_snapshot.training_files(Path(tree), configs_snapshot.measure_only())]
def run():
    for f in files:
        try:
            configs.load(f)
        except Exception:
            pass
t0 = time.process_time()
if profile:
    import cProfile
    cProfile.run("run()", profile)
else:
    run()
print(json.dumps({"files": len(files), "cpu_s": time.process_time() - t0}))
"""


def one_run(tree: str, profile: str = "") -> dict:
    return _result(_start(tree, profile))


def _start(tree: str, profile: str = "") -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-c", _CHILD, tree, profile], stdout=subprocess.PIPE, text=True)


def _result(proc: subprocess.Popen) -> dict:
    out, _ = proc.communicate()
    if proc.returncode:
        raise SystemExit(f"configs_cpu: a run failed (exit {proc.returncode})")
    return json.loads(out.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tree", action="append", help="a checkout whose readers are timed (repeat: runs interleave)")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--profile", help="one run of the first tree under cProfile, its stats written here")
    ap.add_argument("--together", action="store_true",
                    help="each round's runs (one per tree) at once rather than one after the other: the same load on "
                         "every tree, in less wall time (CPU seconds are each process's own)")
    a = ap.parse_args(argv)
    trees = [str(Path(t).resolve()) for t in (a.tree or [str(HERE.parent)])]
    if a.profile:
        print(json.dumps(one_run(trees[0], a.profile)))
        return 0
    times: dict[str, list[float]] = {t: [] for t in trees}
    files: dict[str, int] = {}
    for i in range(a.runs):
        got = {t: _start(t) for t in trees} if a.together else {}
        for t in trees:
            r = _result(got[t]) if a.together else one_run(t)
            times[t].append(r["cpu_s"])
            files[t] = r["files"]
            print(f"run {i + 1} {t}: {r['files']} files, {r['cpu_s']:.1f} s CPU", flush=True)
    print("\n| tree | files | runs (CPU s) | median |\n|---|---|---|---|")
    for t in trees:
        print(f"| {t} | {files[t]} | {', '.join(f'{x:.1f}' for x in times[t])} | **{statistics.median(times[t]):.1f}** |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
