#!/usr/bin/env python3
"""Which knowledge patterns are slow on one very long line: each compiled pattern the matcher would run on the line
(those whose needle the line or the error after it holds, as knowledge/match.py's prefilter picks them) is timed alone over a 2 MB line of
realistic content, up to MAX_HITS matches as the matcher stops. A pattern whose cost grows with line length times
occurrences (an unbounded `[^\\n]*` or `.*` between two literals, run from every occurrence of the first) shows here
in seconds where a linear one takes milliseconds. Standard library only; the lines are generated:
- `json-line`: a JSON dump naming flash_attn in every record (benchmarks/explain_long_lines.py's);
- `json-log`: a minified JSON log (one object per event, joined without line ends) with error and warning texts;
- `traceback-joined`: a real-shaped traceback repeated and joined by spaces (a log flattened into one line).
The matcher itself reads only the first and last LINE_READ bytes of such a line (knowledge/match.py); this times the
patterns as compiled (their in-line gaps bounded by knowledge.bounded) over the whole line, to find the slow ones.
Usage:  PYTHONPATH=. python benchmarks/explain_pattern_cost.py [--top 15] [--mb 2] [--out FILE.json]
"""

from __future__ import annotations

import argparse
import json
import sys
import time

from attn_doctor.knowledge import match as M
from attn_doctor.knowledge import tailor

TRACE = ('Traceback (most recent call last):  File "/workspace/train.py", line 14, in <module>    '
         'out = flash_attn_func(q, k, v, causal=True)  File "/venv/lib/python3.11/site-packages/flash_attn/'
         'flash_attn_interface.py", line 831, in flash_attn_func    return FlashAttnFunc.apply(  '
         'RuntimeError: CUDA error: out of memory torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB '
         'xformers sdpa triton nan inf cache /tmp/ setup.py arch list cutlass DSL error assert ')


# the error after the line (benchmarks/explain_long_lines.py's): the matcher runs its patterns over the long line too,
# in the one search window the two lines share
ERROR = ('Traceback (most recent call last):\n  File "/workspace/train.py", line 14, in <module>\n'
         "RuntimeError: FlashAttention only supports Ampere GPUs or newer.\n")


def lines(mb: int) -> dict[str, str]:
    n = mb * 1_000_000
    record = '{"name": "flash_attn", "event": "loaded kernel", "ms": 12}, '
    event = ('{"ts": "2026-11-28T12:00:01Z", "level": "warning", "logger": "xformers", "msg": "A matching Triton is '
             'not available, some optimizations will not be enabled", "cuda": "12.4", "torch": "2.5.1", "loss": nan}, ')
    return {"json-line": "[" + record * (n // len(record)) + "]\n" + ERROR,
            "json-log": "[" + event * (n // len(event)) + "]\n" + ERROR,
            "traceback-joined": " ".join([TRACE] * (n // len(TRACE))) + "\n" + ERROR}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--top", type=int, default=15)
    ap.add_argument("--mb", type=int, default=2)
    ap.add_argument("--out")
    a = ap.parse_args()
    index = M._index(None, tailor.PROBES)  # explain's: the entries and tailor's version probes
    out = {}
    for name, text in lines(a.mb).items():
        data = text.encode()
        shaped = data.translate(M._SHAPE)
        pats = set(index.always)
        for needle, ks in index.needles.items():
            if needle in shaped:
                pats.update(k for k in ks if k != M._ID)
        costs = []
        for k in pats:
            e, pattern = index.patterns[k]
            rx = index.rx(k)
            t = time.perf_counter()
            for n, _ in enumerate(rx.finditer(text)):
                if n + 1 >= M.MAX_HITS:
                    break
            costs.append((time.perf_counter() - t, e.id if e else "probe " + index.probe_names[k], pattern))
        costs.sort(reverse=True)
        total = sum(c for c, _, _ in costs)
        print(f"{name}: {len(data) / 1e6:.1f} MB (and the error), {len(pats)} patterns run, {total:.2f} s in all")
        for c, eid, pattern in costs[:a.top]:
            print(f"  {c:7.3f} s  {eid:34s} {pattern[:110]}")
        out[name] = {"seconds": round(total, 3), "patterns": len(pats),
                     "slowest": [{"s": round(c, 3), "id": eid, "pattern": p} for c, eid, p in costs[:a.top]]}
    if a.out:
        with open(a.out, "w", encoding="utf-8") as fh:
            json.dump(out, fh, indent=2)
            fh.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
