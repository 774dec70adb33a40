#!/usr/bin/env python3
"""How long `attn-doctor explain PATH` takes on logs MADE of long lines, per shape, side by side for one or more source trees
(helper ex156, session 27): a fresh interpreter each run, wall clock and CPU seconds (user + sys of the child: less
sensitive to a busy machine), the median of --runs after one warm-up run (benchmarks/explain_50mb.py's run_once).

benchmarks/explain_50mb.py reads short lines and benchmarks/explain_long_lines.py one long line before an error; session 26's
quadratic pattern (de972c88: an optional newline after a library's name let a 3 KB nvcc line split two ways at every
character) needed MANY long lines with the library's name in each, and CI found it. Every shape here fills --mb megabytes
(5 by default) with lines of its kind, each naming an attention library where real ones do, and ends in an error whose line
is checked:
- `nvcc-2k`, `nvcc-16k`, `nvcc-64k`: flash-attn's source build, one nvcc command line of 2, 16 or 64 KB per kernel file
  (-gencode lists, -I paths, the kernel's .cu under csrc/flash_attn), then the build's failure;
- `json-records`: a JSON record of about 8 KB on each line (a run's metrics and config, naming xformers and flash_attn);
- `minified-stack`: a minified JavaScript / Python stack joined onto lines of about 32 KB (frames of flash_attn and torch);
- `cr-bar`: tqdm's bar redrawn with carriage returns 2,000 times on each line (a captured log), the step naming sdpa;
- `one-20mb-line`: a single line of 20 MB (whatever --mb says), then the error.
A shape over 2 s of CPU at 5 MB is a pattern to find (benchmarks/explain_pattern_cost.py times each pattern over a line)
and to fix at the pattern. Standard library only. Usage:

  python benchmarks/explain_longlines.py --tree /work/wt/s27start --tree . --runs 3 [--only nvcc-2k] [--out F.json]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import explain_50mb  # noqa: E402
from explain_long_lines import bar, TRACE  # noqa: E402

BUILD_ERROR = ("      RuntimeError: Error compiling objects for extension\n"
               "      error: command '/usr/local/cuda/bin/nvcc' failed with exit code 1\n"
               "  ERROR: Failed building wheel for flash-attn\n")
ERROR = ("Traceback (most recent call last):\n  File \"/workspace/train.py\", line 14, in <module>\n"
         "RuntimeError: FlashAttention only supports Ampere GPUs or newer.\n")


def nvcc_line(n: int, size: int) -> str:
    """One nvcc command of about `size` bytes for flash-attn's kernel file n, as setup.py's build prints it."""
    head = (f"/usr/local/cuda/bin/nvcc -I/tmp/pip-install-x/flash-attn/csrc/flash_attn -I/tmp/pip-install-x/flash-attn/csrc/"
            f"flash_attn/src -I/tmp/pip-install-x/flash-attn/csrc/cutlass/include -c csrc/flash_attn/src/"
            f"flash_fwd_hdim{32 * (n % 8 + 1)}_fp16_sm80.cu -o build/temp.linux-x86_64-cpython-310/csrc/flash_attn/src/"
            f"flash_fwd_hdim{32 * (n % 8 + 1)}_fp16_sm80.o ")
    archs = "".join(f"-gencode arch=compute_{a},code=sm_{a} " for a in (80, 86, 89, 90))
    flags = ("-D__CUDA_NO_HALF_OPERATORS__ -D__CUDA_NO_HALF_CONVERSIONS__ -O3 -std=c++17 --use_fast_math "
             "--expt-relaxed-constexpr --expt-extended-lambda -DTORCH_API_INCLUDE_EXTENSION_H -DTORCH_EXTENSION_NAME="
             "flash_attn_2_cuda ")
    inc = "-I/venv/lib/python3.10/site-packages/torch/include/torch/csrc/api/include "
    line = head + archs + flags
    return (line + inc * ((size - len(line)) // len(inc) + 1))[:size]


def json_record(n: int, size: int) -> str:
    rec = {"step": n, "loss": round(0.5 + (n % 97) / 1000, 4), "attn": "xformers", "fallback": "flash_attn",
           "config": {f"layer_{k}": {"heads": 16, "head_dim": 128, "kernel": "memory_efficient_attention", "ms": k % 13}
                      for k in range(max(1, size // 75))}}
    return json.dumps(rec, separators=(",", ":"))[:size]


def stack_line(size: int) -> str:
    js = ("at flashAttnFunc (webpack:///./src/flash_attn/attn.js:12:3)at e.forward (main.min.js:1:20413)"
          "at torch.nn.functional.scaled_dot_product_attention (bridge.min.js:1:884)")
    return ((TRACE + js) * (size // (len(TRACE) + len(js)) + 1))[:size]


def shapes(mb: int, one_line_mb: int = 20) -> dict[str, tuple[str, int]]:
    """name -> (text, the 1-based line of the error's last line): a finding on one of the error's last three lines counts.
    `one-20mb-line` is one line of `one_line_mb` megabytes whatever `mb` says."""
    total = mb * 1_000_000
    out: dict[str, tuple[str, int]] = {}
    for kb in (2, 16, 64):
        n = max(1, total // (kb * 1024))
        body = "\n".join(nvcc_line(i, kb * 1024) for i in range(n)) + "\n"
        out[f"nvcc-{kb}k"] = (body + BUILD_ERROR, n + BUILD_ERROR.count("\n"))
    n = max(1, total // 8192)
    out["json-records"] = ("\n".join(json_record(i, 8192) for i in range(n)) + "\n" + ERROR, n + 3)
    n = max(1, total // 32768)
    stack = stack_line(32768)
    out["minified-stack"] = ("\n".join([stack] * n) + "\n" + ERROR, n + 3)
    one = bar(2000).replace("step_loss", "sdpa step_loss")
    n = max(1, total // len(one))
    out["cr-bar"] = ("\n".join([one] * n) + "\n" + ERROR, n + 3)
    out["one-20mb-line"] = (stack_line(one_line_mb * 1_000_000) + "\n" + ERROR, 4)
    return out


class _Timed:
    """A compiled pattern whose searches are timed (profile) and the characters each is given counted (work): the matcher
    calls finditer, search and match on it."""

    def __init__(self, rx, cost: dict, key, chars: dict | None = None):
        self._rx, self._cost, self._key, self._chars = rx, cost, key, chars

    def __getattr__(self, name):
        return getattr(self._rx, name)

    def _count(self, a, k) -> None:
        if self._chars is not None:
            text = a[0] if a else k["string"]
            pos = a[1] if len(a) > 1 else k.get("pos", 0)
            end = a[2] if len(a) > 2 else k.get("endpos", len(text))
            self._chars[self._key] = self._chars.get(self._key, 0) + max(0, min(end, len(text)) - pos)

    def _time(self, t0: float) -> None:
        self._cost[self._key] = self._cost.get(self._key, 0.0) + time.process_time() - t0

    def finditer(self, *a, **k):
        self._count(a, k)
        it = self._rx.finditer(*a, **k)
        while True:
            t0 = time.process_time()
            try:
                m = next(it)
            except StopIteration:
                self._time(t0)
                return
            self._time(t0)
            yield m

    def _call(self, fn, *a, **k):
        self._count(a, k)
        t0 = time.process_time()
        try:
            return fn(*a, **k)
        finally:
            self._time(t0)

    def search(self, *a, **k):
        return self._call(self._rx.search, *a, **k)

    def match(self, *a, **k):
        return self._call(self._rx.match, *a, **k)


def _measured(text: str) -> tuple[list[tuple[float, int, str, str]], int]:
    """Explain `text` in this process with each compiled pattern's searches timed and the characters given to it counted,
    as the matcher runs them (its prefilter, gates, windows, kinds and long-line reads included): ([(CPU seconds,
    characters, entry id or probe, pattern)], the characters of the text explain read)."""
    from attn_doctor import explain
    from attn_doctor.knowledge import match as M

    index = M._index(None, tuple(explain.probes()))
    cost: dict[int, float] = {}
    chars: dict[int, int] = {}
    plain = index.rx
    index.rx = lambda k: _Timed(plain(k), cost, k, chars)  # (this process only)
    try:
        explain.examine(text)
    finally:
        del index.rx
    rows = []
    for k in cost.keys() | chars.keys():
        e, pattern = index.patterns[k]
        rows.append((cost.get(k, 0.0), chars.get(k, 0), e.id if e is not None else "probe " + index.probe_names[k], pattern))
    return rows, len(text)


def profile(text: str, top: int) -> list[tuple[float, str, str]]:
    """CPU seconds of each compiled pattern while explain reads `text` (_measured): (seconds, entry id or probe,
    pattern), slowest first."""
    rows, _ = _measured(text)
    return sorted(((s, eid, p) for s, _, eid, p in rows), reverse=True)[:top]


def work(text: str) -> float:
    """The matcher's work on `text`, not timed: the characters its patterns were given in all (one pattern's search over a
    text counts its length, each pattern and each search counted), per character of the text. A pattern read over every
    line of a log of long lines makes this the number of patterns that name its words (~40-100); read where its literals
    are and by the kinds of the lines, a few. tests/test_explain_long_lines.py bounds it per shape.

    Counted in the steady state: `text` is explained once first, uncounted. The matcher learns some things about a
    pattern the first time a text asks (its literal groups, whether it reads each line alone: knowledge/match.py), and
    that first reading gives some patterns more or fewer characters; counted cold, the figure depended on which shapes
    this process had read before (json-records 15.5 after the nvcc shapes, 18.0 first), so the test passed in one order
    and failed in another (session 31)."""
    from attn_doctor import explain

    explain.examine(text)
    rows, n = _measured(text)
    return sum(c for _, c, _, _ in rows) / max(1, n)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tree", action="append", help="a source tree to time (repeatable; default: this one)")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--mb", type=int, default=5, help="megabytes of each shape (one-20mb-line is 20 MB whatever this says)")
    ap.add_argument("--only", action="append", help="time this shape only (repeatable)")
    ap.add_argument("--timeout", type=float, default=300, help="seconds one run may take before it counts as a stall")
    ap.add_argument("--out", help="write the results as JSON here")
    ap.add_argument("--profile", metavar="SHAPE", help="instead: time each compiled pattern while this process's attn_doctor "
                    "(PYTHONPATH) reads SHAPE (--lines of it, and its error), slowest --top first")
    ap.add_argument("--lines", type=int, default=0, help="with --profile: the shape's first this many lines (0: all)")
    ap.add_argument("--top", type=int, default=12)
    ap.add_argument("--work", action="store_true", help="instead: the matcher's work per character of each shape (work())")
    a = ap.parse_args()
    if a.work:
        for name, (text, _) in shapes(a.mb).items():
            if not a.only or name in a.only:
                print(f"{name:15s} {work(text):8.2f} characters read by patterns per character")
        return 0
    if a.profile:
        text, _ = shapes(a.mb)[a.profile]
        if a.lines:
            parts = text.split("\n")
            text = "\n".join(parts[:a.lines] + parts[-4:])
        rows = profile(text, a.top)
        print(f"{a.profile}: {len(text) / 1e6:.2f} MB, {sum(r[0] for r in rows):.2f} s of CPU in its {len(rows)} slowest patterns")
        for sec, eid, pattern in rows:
            print(f"  {sec:7.3f} s  {eid:34s} {pattern[:100]}")
        return 0
    trees = [str(Path(t).resolve()) for t in (a.tree or [str(HERE.parent)])]
    result: dict[str, dict] = {"mb": a.mb, "runs": a.runs, "trees": trees, "load_average": os.getloadavg()[0], "shapes": {}}
    print(f"{'shape':15s} {'MB':>5s} {'lines':>7s}  " + "  ".join(f"{t[-30:]:>30s}" for t in trees))
    print(f"{'':15s} {'':>5s} {'':>7s}  " + "  ".join(f"{'CPU s / wall s, error on its line':>30s}" for _ in trees))
    with tempfile.TemporaryDirectory() as tmp:
        for name, (text, line) in shapes(a.mb).items():
            if a.only and name not in a.only:
                continue
            path = os.path.join(tmp, name + ".log")
            with open(path, "w", encoding="utf-8") as fh:
                fh.write(text)
            cells, row = [], {"bytes": os.path.getsize(path), "lines": text.count("\n"), "error_line": line, "trees": {}}
            for tree in trees:
                try:
                    explain_50mb.run_once(path, tree, a.timeout)  # warm-up
                    runs = [explain_50mb.run_once(path, tree, a.timeout) for _ in range(a.runs)]
                except Exception as exc:  # (subprocess.TimeoutExpired: a stall)
                    cells.append(f"{'stalled (' + type(exc).__name__ + ')':>30s}")
                    row["trees"][tree] = {"stalled": True}
                    continue
                cpu = statistics.median(r[1] for r in runs)
                wall = statistics.median(r[0] for r in runs)
                on_line = any(line - 2 <= (m.get("line") or 0) <= line for m in runs[-1][2].get("matches", []))
                cells.append(f"{cpu:7.2f} / {wall:6.2f}  {'yes' if on_line else 'NO':>3s}{' (>2 s)' if cpu > 2 else '':7s}")
                row["trees"][tree] = {"cpu_seconds_median": round(cpu, 3), "seconds_median": round(wall, 3),
                                      "error_found_on_its_line": on_line}
            result["shapes"][name] = row
            print(f"{name:15s} {row['bytes'] / 1e6:5.1f} {row['lines']:7d}  " + "  ".join(f"{c:>30s}" for c in cells))
    if a.out:
        with open(a.out, "w", encoding="utf-8") as fh:
            json.dump(result, fh, indent=2)
            fh.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
