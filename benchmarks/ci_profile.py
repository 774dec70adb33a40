#!/usr/bin/env python3
"""Per test module, the seconds a CI run's tests took: the sum of every setup, call and teardown that pytest's
`--durations=0` report lists for the module (in an xdist run each is the worker's wall time, so on a 2-core machine
running 4 workers a second of it is about half a second of CPU). The heaviest modules first, with their share.

  CI=true PYTEST_ADDOPTS="--durations=0" bash .ci/run > /tmp/ci.log 2>&1
  python benchmarks/ci_profile.py /tmp/ci.log [--top 40] [--tests 20]

--tests N also lists the N slowest single phases. Reads the log only; runs nothing.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import defaultdict

LINE = re.compile(r"^\s*(\d+(?:\.\d+)?)s\s+(setup|call|teardown)\s+(\S+?\.py)(::\S.*)?$")


def parse(text: str) -> list[tuple[float, str, str, str]]:
    """(seconds, phase, module, test id) for every durations line of a pytest log."""
    out = []
    for line in text.splitlines():
        m = LINE.match(line)
        if m:
            out.append((float(m.group(1)), m.group(2), m.group(3), (m.group(4) or "")[2:]))
    return out


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("log")
    ap.add_argument("--top", type=int, default=40)
    ap.add_argument("--tests", type=int, default=0)
    a = ap.parse_args(argv)
    try:
        rows = parse(open(a.log, encoding="utf-8", errors="replace").read())
    except OSError as e:
        print(f"ci_profile: cannot read {a.log}: {e.strerror}", file=sys.stderr)
        return 2
    if not rows:
        print(f"ci_profile: {a.log} has no --durations lines (run pytest with --durations=0)", file=sys.stderr)
        return 2
    per = defaultdict(float)
    count = defaultdict(int)
    for s, phase, mod, _ in rows:
        per[mod] += s
        count[mod] += phase == "call"
    total = sum(per.values())
    print(f"{len(per)} modules, {len(rows)} phases listed, {total:.0f} s in all (worker seconds)")
    print(f"{'seconds':>8} {'share':>6} {'cum':>6} {'tests':>6}  module")
    cum = 0.0
    for mod, s in sorted(per.items(), key=lambda kv: -kv[1])[:a.top]:
        cum += s
        print(f"{s:8.1f} {100 * s / total:5.1f}% {100 * cum / total:5.1f}% {count[mod]:6d}  {mod}")
    if a.tests:
        print(f"\nthe {a.tests} slowest phases:")
        for s, phase, mod, test in sorted(rows, key=lambda r: -r[0])[:a.tests]:
            print(f"{s:8.1f} {phase:8} {mod}::{test}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
