#!/usr/bin/env python3
"""Is a warm `attn-doctor check` bound only by FA4's import? (issue 22: goal <= 1.1x)

Side by side on one machine, each a fresh process, warm (run --warmup times first), alternating
which goes first every round:
  import   python3 -c 'import flash_attn.cute'       (torch is imported by it)
  check    attn-doctor check --json <tmp>             (every usable backend's smoke tests)
  flex     attn-doctor check --backend flex --json <tmp>
  serial   attn-doctor check --json <tmp> with TORCHINDUCTOR_COMPILE_THREADS=1 (Flex's child starts no
           pool of compile workers; the check names the setting, that is expected)
  pool     attn-doctor check --json <tmp> with TORCHINDUCTOR_COMPILE_THREADS=<cores>: the behaviour before
           flex.py's one-worker rule (a value the user set is kept), so before and after run side by side
  torch    python3 -c 'import torch'
  floor    python3 -c 'import torch, torch._dynamo, torch._inductor.compile_fx': the imports any compiled
           Flex run pays before its first kernel (Flex's smoke cannot be faster than this in a fresh process)
Prints min / median / max of each, the check's per-backend smoke wall times (median), and the ratio
check / import of the medians. Whole-process wall clock; standard library only. Usage:

  python benchmarks/check_vs_fa4_import.py --runs 3 --out benchmarks/results/fa4-import-h100.json
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

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def timed(argv: list[str], timeout: float, extra: dict | None = None) -> tuple[float, int, dict | None]:
    with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as fh:
        path = fh.name
    argv = [a.replace("{json}", path) for a in argv]
    env = dict(os.environ, PYTHONPATH=ROOT + (os.pathsep + os.environ["PYTHONPATH"] if os.environ.get("PYTHONPATH") else ""),
               **(extra or {}))
    t = time.perf_counter()
    try:
        rc = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=timeout, env=env).returncode
    except subprocess.TimeoutExpired:
        rc = 124
    wall = time.perf_counter() - t
    report = None
    try:
        with open(path, encoding="utf-8") as fh:
            report = json.load(fh)
    except (OSError, ValueError):
        pass
    os.unlink(path)
    return wall, rc, report


def smoke_walls(report: dict | None) -> dict:
    out = {}
    for per in (((report or {}).get("facts") or {}).get("smoke") or {}).get("devices", {}).values():
        for name, res in per.items():
            out[name] = res.get("wall_seconds")
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--warmup", type=int, default=1)
    ap.add_argument("--timeout", type=float, default=300)
    ap.add_argument("--python", default=sys.executable, help="the interpreter with torch and FA4")
    ap.add_argument("--out")
    a = ap.parse_args()
    cmds = {
        "import": [a.python, "-c", "import flash_attn.cute"],
        "check": [a.python, "-m", "attn_doctor", "check", "--json", "{json}"],
        "flex": [a.python, "-m", "attn_doctor", "check", "--backend", "flex", "--json", "{json}"],
        "serial": [a.python, "-m", "attn_doctor", "check", "--json", "{json}"],
        "pool": [a.python, "-m", "attn_doctor", "check", "--json", "{json}"],
        "torch": [a.python, "-c", "import torch"],
        "floor": [a.python, "-c", "import torch, torch._dynamo, torch._inductor.compile_fx"],
    }
    extra = {"serial": {"TORCHINDUCTOR_COMPILE_THREADS": "1"},
             "pool": {"TORCHINDUCTOR_COMPILE_THREADS": str(os.cpu_count() or 1)}}
    for _ in range(a.warmup):
        for name, argv in cmds.items():
            timed(argv, a.timeout, extra.get(name))
    results: dict = {k: [] for k in cmds}
    walls: dict = {}
    for i in range(a.runs):
        for name in (list(cmds) if i % 2 == 0 else list(cmds)[::-1]):
            wall, rc, report = timed(cmds[name], a.timeout, extra.get(name))
            results[name].append({"wall": round(wall, 3), "rc": rc, "smoke": smoke_walls(report)})
            print(f"{name:6} {wall:6.2f} s rc={rc} {smoke_walls(report) or ''}", flush=True)
            for b, w in smoke_walls(report).items():
                walls.setdefault(f"{name}:{b}", []).append(w)
    summary = {}
    for name, rs in results.items():
        ws = [r["wall"] for r in rs]
        summary[name] = {"min": min(ws), "median": statistics.median(ws), "max": max(ws)}
        print(f"{name:6} min {min(ws):6.2f}  median {statistics.median(ws):6.2f}  max {max(ws):6.2f}")
    for k, ws in sorted(walls.items()):
        ws = [w for w in ws if w is not None]
        if ws:
            print(f"  smoke {k}: median {statistics.median(ws):.2f} s")
    ratio = summary["check"]["median"] / summary["import"]["median"]
    print(f"warm full check / import flash_attn.cute: {ratio:.2f} (goal <= 1.1)")
    print(f"warm check --backend flex: {summary['flex']['median']:.2f} s median")
    print(f"warm full check, no compile-worker pool: {summary['serial']['median'] / summary['import']['median']:.2f} x the import")
    print(f"warm full check, Inductor's pool forced (before): {summary['pool']['median'] / summary['import']['median']:.2f} x the import")
    print(f"imports alone: torch {summary['torch']['median']:.2f} s, torch + Dynamo + Inductor {summary['floor']['median']:.2f} s")
    if a.out:
        with open(a.out, "w", encoding="utf-8") as fh:
            json.dump({"runs": results, "summary": summary, "ratio": ratio}, fh, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
