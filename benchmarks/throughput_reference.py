#!/usr/bin/env python3
"""The [[reference]] rows of attn_doctor/knowledge/throughput.toml, computed from saved reports
(`attn-doctor check --json`) of healthy GPUs: per (GPU, backend), the first dense smoke case's
median time, from `seconds_min` (the fastest of its timed calls) where the reports have it, else
the single-call `seconds`. Paste the rows it prints into throughput.toml. Usage:

  python benchmarks/throughput_reference.py fixtures/gpu/h100-issue22/*.json
"""

from __future__ import annotations

import json
import statistics
import sys
from collections import defaultdict


def main(paths: list[str]) -> int:
    runs: dict = defaultdict(list)
    for path in paths:
        try:
            with open(path, encoding="utf-8") as fh:
                facts = json.load(fh).get("facts") or {}
        except (OSError, ValueError, AttributeError):
            continue
        for per in ((facts.get("smoke") or {}).get("devices") or {}).values():
            for backend, res in per.items():
                c = next((c for c in res.get("cases") or [] if c.get("ok") and (c.get("seconds_min") or c.get("seconds"))), None)
                if c and res.get("gpu"):
                    key = (res["gpu"], backend, c["name"], "seconds_min" if c.get("seconds_min") else "seconds")
                    runs[key].append((c.get("seconds_min") or c["seconds"], path))
    for (gpu, backend, case, field), vals in sorted(runs.items()):
        times = [t for t, _ in vals]
        print(f'[[reference]]\ngpu = "{gpu}"\nbackend = "{backend}"\ncase = "{case}"\n'
              f'seconds = {statistics.median(times):.5f}\nruns = {len(times)}\n'
              f'source = "{", ".join(sorted({p for _, p in vals}))[:300]} ({field}; max/median {max(times) / statistics.median(times):.2f})"\n')
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
