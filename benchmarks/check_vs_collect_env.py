#!/usr/bin/env python3
"""Wall time of `attn-doctor check --no-smoke` against `python -m torch.utils.collect_env`.

The goal (FOUNDATION issue): the doctor takes at most half of collect_env's wall time on the same
machine. Both are timed as whole commands, as a user runs them (a fresh interpreter each time,
stdout to /dev/null), after a warm-up run of each, alternating the order every round so drift
(page cache, CPU frequency, other load) hits both alike. The verdict compares medians.

    python benchmarks/check_vs_collect_env.py -n 7 --out benchmarks/results/cpu-$(date +%F).json \\
        --note "2-core CPU VM, Python 3.11, torch 2.13.0+cpu"

Standard library only: it must run wherever the doctor runs.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from importlib import metadata
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]  # the checkout whose attn_doctor is timed
GOAL = 0.5  # doctor median / collect_env median


def commands(python: str, json_path: str) -> dict[str, list[str]]:
    return {
        "attn-doctor": [python, "-m", "attn_doctor", "check", "--no-smoke", "--json", json_path],
        "collect_env": [python, "-m", "torch.utils.collect_env"],
    }


def time_once(argv: list[str], env: dict, timeout: float) -> tuple[float, int, str]:
    t0 = time.perf_counter()
    r = subprocess.run(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                       env=env, timeout=timeout)
    return time.perf_counter() - t0, r.returncode, r.stderr.decode("utf-8", "replace")[-2000:]


def ok(name: str, rc: int) -> bool:
    # The doctor exits 1 when it finds an error on the machine: that is a result, not a failure.
    return rc in (0, 1) if name == "attn-doctor" else rc == 0


def summary(xs: list[float]) -> dict:
    return {"min": round(min(xs), 3), "median": round(statistics.median(xs), 3), "max": round(max(xs), 3)}


def machine() -> dict:
    def version(dist: str) -> str | None:
        try:
            return metadata.version(dist)
        except metadata.PackageNotFoundError:
            return None

    return {
        "python": platform.python_version(),
        "platform": platform.platform(),
        "cpu_count": os.cpu_count(),
        "torch": version("torch"),
        "attn_doctor_checkout": str(ROOT),
    }


def write_json(path: str, doc: dict) -> None:
    """Atomically: a temporary file in the same directory, then a rename."""
    d = os.path.dirname(os.path.abspath(path))
    os.makedirs(d, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".bench-", dir=d)
    with os.fdopen(fd, "w") as fh:
        json.dump(doc, fh, indent=2)
        fh.write("\n")
    os.replace(tmp, path)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-n", "--runs", type=int, default=7, help="timed runs of each command (default 7)")
    ap.add_argument("--warmup", type=int, default=1, help="untimed runs of each first (default 1)")
    ap.add_argument("--python", default=sys.executable, help="the interpreter of the environment to inspect")
    ap.add_argument("--timeout", type=float, default=600.0, help="seconds allowed for one run")
    ap.add_argument("--out", help="write the result as JSON here")
    ap.add_argument("--note", default="", help="one line about the machine (kept in the JSON)")
    args = ap.parse_args(argv)
    if args.runs < 1 or args.warmup < 0:
        ap.error("--runs must be >= 1 and --warmup >= 0")

    env = dict(os.environ, NO_COLOR="1")
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT)] + ([env["PYTHONPATH"]] if env.get("PYTHONPATH") else []))
    with tempfile.TemporaryDirectory(prefix="attn-doctor-bench-") as tmp:
        cmds = commands(args.python, os.path.join(tmp, "report.json"))
        names = list(cmds)
        seconds: dict[str, list[float]] = {n: [] for n in names}
        codes: dict[str, list[int]] = {n: [] for n in names}
        load_before = os.getloadavg() if hasattr(os, "getloadavg") else None
        for i in range(args.warmup + args.runs):
            order = names if i % 2 == 0 else names[::-1]
            for name in order:
                s, rc, err = time_once(cmds[name], env, args.timeout)
                if not ok(name, rc):
                    print(f"{name} failed (exit {rc}): {' '.join(cmds[name])}\n{err}", file=sys.stderr)
                    return 2
                if i >= args.warmup:
                    seconds[name].append(s)
                    codes[name].append(rc)
            if i >= args.warmup:
                done = i - args.warmup + 1
                print(f"run {done}/{args.runs}: " + ", ".join(f"{n} {seconds[n][-1]:.2f} s" for n in names),
                      file=sys.stderr)
        load_after = os.getloadavg() if hasattr(os, "getloadavg") else None

    stats = {n: summary(seconds[n]) for n in names}
    ratio = stats["attn-doctor"]["median"] / stats["collect_env"]["median"]
    width = max(len(n) for n in names)
    print(f"{'command':<{width}}  {'min':>7}  {'median':>7}  {'max':>7}   (seconds, n={args.runs}, "
          f"warm-up {args.warmup})")
    for n in names:
        s = stats[n]
        print(f"{n:<{width}}  {s['min']:7.3f}  {s['median']:7.3f}  {s['max']:7.3f}")
    verdict = "met" if ratio <= GOAL else "NOT met"
    print(f"median ratio attn-doctor / collect_env = {ratio:.2f} (goal <= {GOAL:.2f}: {verdict})")

    if args.out:
        write_json(args.out, {
            "schema": "attn-doctor.bench/1",
            "benchmark": "check_vs_collect_env",
            "date": dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"),
            "note": args.note,
            "machine": machine(),
            "load_average_before": load_before,
            "load_average_after": load_after,
            "runs": args.runs,
            "warmup": args.warmup,
            "order": "alternating (even rounds attn-doctor first, odd rounds collect_env first)",
            "commands": {n: {"argv": cmds[n][1:], "seconds": [round(x, 3) for x in seconds[n]],
                             "exit_codes": codes[n], **stats[n]} for n in names},
            "median_ratio": round(ratio, 3),
            "goal": GOAL,
            "goal_met": ratio <= GOAL,
        })
        print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
