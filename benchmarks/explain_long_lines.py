#!/usr/bin/env python3
"""How long `attn-doctor explain PATH` takes on logs with very long lines, side by side for one or more source trees
(e.g. main before and after a change, each checked out with `git worktree add`): a fresh interpreter each run, wall
clock, the median of --runs after one warm-up run.

The logs are generated (standard library only), in the shapes that put a megabyte or more on one line:
- `tqdm-top`: a training log whose second line is a tqdm bar as a file captures it (20,000 states joined by carriage
  returns, about 1.8 MB), then a traceback with a real error line;
- `tqdm-late`: the same bar after 20 ordinary lines;
- `json-line`: one 2 MB line of a JSON dump that names flash_attn in every record, then the error;
- `json-log`: a minified JSON log (warning events that name xformers and Triton) on one 2 MB line, then the error;
- `traceback-joined`: a traceback repeated and joined by spaces onto one 2 MB line (a log flattened), then the error.
It checks that the error is found on its line in each. Usage:

  python benchmarks/explain_long_lines.py --tree /tmp/before --tree . --runs 3
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

ERROR = ("Traceback (most recent call last):\n  File \"/workspace/train.py\", line 14, in <module>\n"
         "RuntimeError: FlashAttention only supports Ampere GPUs or newer.\n")


BLOCK = "\u2588"  # tqdm's full block
EVENT = ('{"ts": "2026-11-28T12:00:01Z", "level": "warning", "logger": "xformers", "msg": "A matching Triton is '
         'not available, some optimizations will not be enabled", "cuda": "12.4", "torch": "2.5.1", "loss": nan}, ')
TRACE = ('Traceback (most recent call last):  File "/workspace/train.py", line 14, in <module>    '
         'out = flash_attn_func(q, k, v, causal=True)  File "/venv/lib/python3.11/site-packages/flash_attn/'
         'flash_attn_interface.py", line 831, in flash_attn_func    return FlashAttnFunc.apply(  '
         'RuntimeError: CUDA error: out of memory torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB '
         'xformers sdpa triton nan inf cache /tmp/ setup.py arch list cutlass DSL error assert ')


def bar(n: int) -> str:
    return "\r".join(f"Steps: {i * 100 // n:3d}%|{BLOCK * (i * 10 // n):10s}| {i}/{n} [00:{i % 60:02d}<1:23:45, "
                     f"3.21it/s, lr=0.0001, step_loss=0.{i % 97:03d}]" for i in range(n))


def logs() -> dict[str, tuple[str, int]]:
    """name -> (text, the line the error's last line is on)."""
    ordinary = "".join(f"[2026-11-28 12:00:{i % 60:02d}] INFO step {i} loss 0.{i:03d}\n" for i in range(20))
    record = '{"name": "flash_attn", "event": "loaded kernel", "ms": 12}, '
    return {
        "tqdm-top": ("Loading flash_attn\n" + bar(20_000) + "\n" + ERROR, 5),
        "tqdm-late": (ordinary + bar(20_000) + "\n" + ERROR, 24),
        "json-line": ("[" + record * (2_000_000 // len(record)) + "]\n" + ERROR, 4),
        "json-log": ("[" + EVENT * (2_000_000 // len(EVENT)) + "]\n" + ERROR, 4),
        "traceback-joined": (" ".join([TRACE] * (2_000_000 // len(TRACE))) + "\n" + ERROR, 4),
    }


def run(tree: str, path: str) -> tuple[float, dict]:
    env = dict(os.environ, PYTHONPATH=os.path.abspath(tree))
    t = time.perf_counter()
    p = subprocess.run([sys.executable, "-m", "attn_doctor", "explain", path, "--json"], env=env,
                       cwd=os.path.abspath(tree), capture_output=True, text=True)
    dt = time.perf_counter() - t
    return dt, json.loads(p.stdout) if p.stdout.strip().startswith("{") else {}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tree", action="append", help="a source tree to time (repeatable; default: this one)")
    ap.add_argument("--runs", type=int, default=3)
    a = ap.parse_args()
    trees = a.tree or [os.path.dirname(os.path.dirname(os.path.abspath(__file__)))]
    with tempfile.TemporaryDirectory() as tmp:
        print(f"{'log':10s} {'MB':>5s}  " + "  ".join(f"{t[-24:]:>24s}" for t in trees))
        for name, (text, line) in logs().items():
            path = os.path.join(tmp, name + ".log")
            with open(path, "w", encoding="utf-8") as fh:
                fh.write(text)
            cells = []
            for tree in trees:
                run(tree, path)  # warm-up
                times, found = [], {}
                for _ in range(a.runs):
                    dt, found = run(tree, path)
                    times.append(dt)
                lines = [m.get("line") for m in found.get("matches", [])]
                mark = "" if line in lines else " (error not found on its line)"
                cells.append(f"{statistics.median(times):7.2f} s{mark}")
            print(f"{name:10s} {os.path.getsize(path) / 1e6:5.1f}  " + "  ".join(f"{c:>24s}" for c in cells))
    return 0


if __name__ == "__main__":
    sys.exit(main())
