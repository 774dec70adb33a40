#!/usr/bin/env python3
"""How long `attn-doctor check` (with smoke tests) takes, cold and warm, against the slowest
backend's own smoke run.

  cold single: `check --backend B` for each usable backend B, every compile cache fresh
  cold full:   `check` (all backends in parallel), every compile cache fresh
  warm full:   `check` again with persistent caches and FA4's disk cache on (median of --runs)

Goals (issue 3): cold full <= 1.3 x the slowest cold single; warm full <= 15 s on an H100/H200.
Whole-process wall-clock times; standard library only. Usage:
  python benchmarks/check_timing.py --out benchmarks/results/check-timing-h100.json
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


def doctor(args: list[str], env: dict, timeout: float = 900) -> tuple[float, dict | None, int]:
    with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as fh:
        path = fh.name
    t0 = time.perf_counter()
    p = subprocess.run([sys.executable, "-m", "attn_doctor", "check", *args, "--json", path],
                       env=env, cwd=ROOT, capture_output=True, text=True, timeout=timeout)
    wall = time.perf_counter() - t0
    try:
        with open(path, encoding="utf-8") as fh:
            report = json.load(fh)
    except (OSError, ValueError):
        report = None
    os.unlink(path)
    return wall, report, p.returncode


def cache_env(base: dict, root: str, fa4: bool) -> dict:
    env = dict(base)
    env.update({
        "TORCHINDUCTOR_CACHE_DIR": os.path.join(root, "inductor"),
        "TRITON_CACHE_DIR": os.path.join(root, "triton"),
        "CUTE_DSL_CACHE_DIR": os.path.join(root, "cute_dsl"),
        "FLASH_ATTENTION_CUTE_DSL_CACHE_DIR": os.path.join(root, "fa4"),
        "FLASH_ATTENTION_CUTE_DSL_CACHE_ENABLED": "1" if fa4 else "0",
    })
    return env


def walls(report: dict | None) -> dict:
    if not report:
        return {}
    return {n: b.get("wall_seconds") for n, b in report["backends"].items() if b.get("wall_seconds") is not None}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", help="write the results as JSON here")
    ap.add_argument("--runs", type=int, default=3, help="warm runs (median)")
    ap.add_argument("--skip-single", action="store_true", help="skip the per-backend cold runs")
    a = ap.parse_args()
    base = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    _, probe, _ = doctor(["--no-smoke"], base)
    usable = [n for n, b in (probe or {}).get("backends", {}).items() if b["status"] == "ok"]
    result: dict = {"usable": usable, "single_cold": {}, "machine": (probe or {}).get("facts", {}).get("driver", {}).get("gpus")}
    print(f"usable backends: {', '.join(usable)}", flush=True)
    if not a.skip_single:
        for name in usable:
            with tempfile.TemporaryDirectory() as d:
                wall, rep, rc = doctor(["--backend", name], cache_env(base, d, fa4=False))
            result["single_cold"][name] = {"wall": round(wall, 2), "exit": rc, "backend_wall": walls(rep).get(name)}
            print(f"cold  check --backend {name:<8} {wall:6.1f} s (exit {rc})", flush=True)
    with tempfile.TemporaryDirectory() as d:
        wall, rep, rc = doctor([], cache_env(base, d, fa4=False))
    result["full_cold"] = {"wall": round(wall, 2), "exit": rc, "backend_walls": walls(rep)}
    print(f"cold  check (all)            {wall:6.1f} s (exit {rc}) {walls(rep)}", flush=True)
    with tempfile.TemporaryDirectory() as d:
        env = cache_env(base, d, fa4=True)
        first, _, _ = doctor([], env)
        warm = []
        for _ in range(a.runs):
            wall, rep, rc = doctor([], env)
            warm.append(wall)
            print(f"warm  check (all)            {wall:6.1f} s (exit {rc}) {walls(rep)}", flush=True)
    result["full_warm"] = {"first": round(first, 2), "runs": [round(w, 2) for w in warm],
                           "median": round(statistics.median(warm), 2), "backend_walls": walls(rep)}
    if result["single_cold"]:
        slowest = max(result["single_cold"].items(), key=lambda kv: kv[1]["wall"])
        result["ratio_cold_full_vs_slowest_single"] = round(result["full_cold"]["wall"] / slowest[1]["wall"], 3)
        print(f"cold full / slowest single ({slowest[0]}): {result['ratio_cold_full_vs_slowest_single']:.2f} (goal <= 1.3)")
    print(f"warm full median: {result['full_warm']['median']:.1f} s (goal <= 15 s on an H100/H200)")
    if a.out:
        os.makedirs(os.path.dirname(os.path.abspath(a.out)), exist_ok=True)
        with open(a.out, "w", encoding="utf-8") as fh:
            json.dump(result, fh, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
