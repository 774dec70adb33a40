#!/usr/bin/env python3
"""How long `attn-doctor explain PATH` takes on a 50 MB training log with two errors in it (issue 23:
<= 2 s on the 2-core CPU dev machine), as a whole command: a fresh interpreter each run, wall clock,
median of --runs after one warm-up run (the OS page cache then holds the file, as it does for a
log a trainer just wrote). It also prints the peak memory of the explain process (the matcher reads
in blocks, so it should not grow with the log) and checks both errors were found on their lines.

The log is generated, in the shape of real runs: loss dicts, tqdm bars redrawn with \\r, a logger
with timestamps, W&B lines with hex run ids, captions from a small vocabulary, an occasional
UserWarning traceback, and two error blocks (an undefined-symbol ImportError early, a CUDA
no-kernel-image error late). Standard library only. Usage:

  python benchmarks/explain_50mb.py --runs 5 --out benchmarks/results/explain-50mb-cpu-$(date +%F).json --note "machine"

--cr writes the same log with carriage returns alone as line ends (an old Mac's file, a capture without LF): every
`\r` is then a line end, tqdm's redraws too, and the errors' lines are counted so.

A second case runs beside it (helper ex144, session 24; --no-numbered leaves it out): a paste with line numbers, 60,000
lines like `  12  loss 0.5` with the CUDA error numbered at line 40,000, which explain reads through its line-number
dressing (knowledge/match.py's _unnumbered; quadratic there before 49324298, 11.5 s of CPU on this paste): its time is
reported beside the log's and held to the same goal.

Each child runs with bytecode, as an installed attn-doctor does (pip and pipx write the .pyc files at install; a
checkout's first run writes them): PYTHONDONTWRITEBYTECODE is dropped from its environment and PYTHONPYCACHEPREFIX points
into a temporary folder (the warm-up run fills it; no checkout is written to). A shell that sets PYTHONDONTWRITEBYTECODE
(this workplace's does) made every child compile its imports again: ~0.5 s of each run that no user pays (helper ex181,
session 32). --no-bytecode times the children with the inherited environment as before.
"""

from __future__ import annotations

import argparse
import atexit
import json
import os
import platform
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WORDS = ("a cat on a mat", "portrait of an old sailor, oil painting", "a red car in the rain at night",
         "two dogs playing in snow", "city skyline at dusk, 35mm", "macro photo of a dragonfly")
ERROR_1 = ("Traceback (most recent call last):\n  File \"/workspace/train.py\", line 14, in <module>\n"
           "    from flash_attn import flash_attn_varlen_func\n"
           "  File \"/venv/lib/python3.11/site-packages/flash_attn/__init__.py\", line 3, in <module>\n"
           "    from flash_attn.flash_attn_interface import (\n"
           "ImportError: /venv/lib/python3.11/site-packages/flash_attn_2_cuda.cpython-311-x86_64-linux-gnu.so: "
           "undefined symbol: _ZN3c104cuda9SetDeviceEi\n")
ERROR_2 = ("RuntimeError: CUDA error: no kernel image is available for execution on the device\n"
           "CUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be incorrect.\n")


def write_log(path: str, size: int, seed: int = 0) -> tuple[int, int, int]:
    """Write about `size` bytes; return (line of error 1, line of error 2, lines)."""
    r = random.Random(seed)
    line = 0
    first = second = 0
    written = 0
    with open(path, "w", encoding="utf-8") as fh:
        step = 0
        while written < size:
            step += 1
            out = []
            k = r.random()
            if k < 0.45:
                out.append(f"{{'loss': {r.random() * 3:.4f}, 'grad_norm': {r.random() * 9:.3f}, "
                           f"'learning_rate': {r.random() * 1e-4:.3e}, 'epoch': {step / 5000:.2f}}}")
            elif k < 0.75:
                bar = "".join(f" {p}%|{'█' * (p // 10)}{' ' * (10 - p // 10)}| {p}/100 [00:{p % 60:02d}<01:40, "
                              f"{r.random() * 4:.2f}it/s]\r" for p in range(step % 90, step % 90 + 5))
                out.append(bar.rstrip("\r"))
            elif k < 0.92:
                out.append(f"2026-11-25 10:{r.randint(0, 59):02d}:{r.randint(0, 59):02d},{r.randint(0, 999):03d} "
                           f"INFO trainer.py:{r.randint(100, 999)} step {step} tokens/s {r.randint(1000, 99999)} "
                           f"mem {r.random() * 80:.1f}GiB")
            elif k < 0.98:
                out.append(f"wandb: run {r.getrandbits(32):08x} step={step} caption=\"{r.choice(WORDS)}\"")
            else:
                out.append("/venv/lib/python3.11/site-packages/torch/utils/checkpoint.py:87: UserWarning: "
                           "torch.utils.checkpoint: the use_reentrant parameter should be passed explicitly.")
                out.append("  return fn(*args, **kwargs)")
            text = "\n".join(out) + "\n"
            if not first and written > size // 10:
                first = line + ERROR_1.count("\n")
                text = ERROR_1 + text
            if not second and written > size * 9 // 10:
                second = line + text.count("\n") + 1
                text = text + ERROR_2
            fh.write(text)
            written += len(text.encode("utf-8"))
            line += text.count("\n")
    return first, second, line


def write_numbered(path: str, lines: int = 60_000, at: int = 40_000, seed: int = 0) -> int:
    """A paste with a line number before each line (an editor's or a viewer's), the CUDA error numbered at line `at`;
    return the error's line."""
    r = random.Random(seed)
    body = [f"loss {r.random():.4f}" if k % 7 else f"step {k} lr {r.random() * 1e-4:.2e}" for k in range(lines)]
    body[at - 1:at + 1] = ERROR_2.splitlines()
    with open(path, "w", encoding="utf-8") as fh:
        fh.writelines(f"{n:>6}  {t}\n" for n, t in enumerate(body[:lines], 1))
    return at


def measure(path: str, runs: int, tree: str = ROOT) -> tuple[list[float], list[float], dict]:
    """(wall seconds, CPU seconds, the last JSON) of `runs` runs after one warm-up, with `tree`'s attn_doctor."""
    run_once(path, tree)  # warm-up: imports compiled to .pyc, the file in the page cache
    times, cpus, doc = [], [], {}
    for _ in range(runs):
        wall, cpu, doc, _code = run_once(path, tree)
        times.append(wall)
        cpus.append(cpu)
    return times, cpus, doc


def _seconds(times: list[float]) -> dict:
    return {"min": round(min(times), 3), "median": round(statistics.median(times), 3), "max": round(max(times), 3)}


def carriage_returns(path: str) -> tuple[int, int, int]:
    """Rewrite the log with `\r` as its only line end; return its errors' lines and its lines, each `\r` a line end."""
    with open(path, "rb") as fh:
        data = fh.read().replace(b"\n", b"\r")
    with open(path, "wb") as fh:
        fh.write(data)
    first = data.count(b"\r", 0, data.index(b"undefined symbol: _ZN3c104cuda9SetDeviceEi")) + 1
    second = data.count(b"\r", 0, data.index(b"no kernel image is available")) + 1
    return first, second, data.count(b"\r")


BYTECODE = {"on": True}  # children run with bytecode (child_env); --no-bytecode: the inherited environment


def child_env(env: dict[str, str]) -> dict[str, str]:
    """`env` for a child that reads and writes .pyc files as an installed package's run does: without
    PYTHONDONTWRITEBYTECODE, with PYTHONPYCACHEPREFIX in a temporary folder kept for this process (so no checkout is
    written to); unchanged under --no-bytecode."""
    if not BYTECODE["on"]:
        return env
    if "prefix" not in BYTECODE:
        BYTECODE["prefix"] = tempfile.mkdtemp(prefix="attn-doctor-pyc-")
        atexit.register(shutil.rmtree, BYTECODE["prefix"], True)
    env = {k: v for k, v in env.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = BYTECODE["prefix"]
    return env


def run_once(path: str, tree: str = ROOT, timeout: float = 300) -> tuple[float, float, dict, int]:
    """(wall seconds, CPU seconds of the child, its JSON, exit code), with `tree`'s attn_doctor (default: this one)."""
    env = child_env(dict(os.environ, PYTHONPATH=tree) if tree != ROOT else dict(os.environ))
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    p = subprocess.run([sys.executable, "-m", "attn_doctor", "explain", "--json", path], cwd=tree, env=env,
                       capture_output=True, text=True, timeout=timeout)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, json.loads(p.stdout) if p.stdout.strip() else {}, p.returncode


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--mb", type=int, default=50)
    ap.add_argument("--out", help="write the results as JSON here")
    ap.add_argument("--note", default="", help="what machine this is")
    ap.add_argument("--cr", action="store_true", help="line ends as carriage returns alone")
    ap.add_argument("--no-numbered", dest="numbered", action="store_false", help="leave out the numbered paste's case")
    ap.add_argument("--tree", default=ROOT, help="the checkout whose attn_doctor is timed (default: this one)")
    ap.add_argument("--no-bytecode", dest="bytecode", action="store_false",
                    help="run the children with the inherited environment (PYTHONDONTWRITEBYTECODE kept where it is set)")
    args = ap.parse_args()
    BYTECODE["on"] = args.bytecode
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "train.log")
        first, second, lines = write_log(path, args.mb * 1_000_000)
        if args.cr:
            first, second, lines = carriage_returns(path)
        size = os.path.getsize(path)
        tree = os.path.abspath(args.tree)
        tree = ROOT if tree == ROOT else tree
        times, cpus, doc = measure(path, args.runs, tree)
        peak_kib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        numbered = None
        if args.numbered:
            npath = os.path.join(tmp, "numbered.txt")
            at = write_numbered(npath)
            ntimes, ncpus, ndoc = measure(npath, args.runs, tree)
            nfound = {m["id"]: m["line"] for m in ndoc.get("matches", [])}
            numbered = {"bytes": os.path.getsize(npath), "lines": 60_000, "seconds": _seconds(ntimes),
                        "cpu_seconds_median": round(statistics.median(ncpus), 3),
                        "error_found_on_its_line": nfound.get("gpu.arch-not-in-torch") == at, "found": nfound}
    found = {m["id"]: m["line"] for m in doc.get("matches", [])}
    ok = found.get("import.undefined-symbol") == first and found.get("gpu.arch-not-in-torch") == second
    ok = ok and (numbered is None or numbered["error_found_on_its_line"])
    result = {
        "what": "attn-doctor explain PATH (a fresh interpreter each run), generated training log with two errors",
        "note": args.note, "tree": tree, "python": platform.python_version(), "cpus": os.cpu_count(),
        "bytecode": args.bytecode,  # the children read .pyc files (child_env); False: the inherited environment
        "bytes": size, "lines": lines, "runs": args.runs,
        "seconds": _seconds(times),
        "cpu_seconds_median": round(statistics.median(cpus), 3),  # user+sys of the explain process: less sensitive to a busy machine
        "load_average": os.getloadavg()[0],
        "peak_rss_mib": round(peak_kib / 1024, 1),
        "errors_found_on_their_lines": ok, "found": found, "expected": {"import.undefined-symbol": first,
                                                                        "gpu.arch-not-in-torch": second},
        "goal": "median <= 2 s (issue 23)",
        "numbered": numbered,  # the paste with line numbers (None: --no-numbered)
    }
    print(f"{size / 1e6:.1f} MB, {lines:,} lines: median {result['seconds']['median']} s "
          f"(min {result['seconds']['min']}, max {result['seconds']['max']}, {args.runs} runs; CPU {result['cpu_seconds_median']} s, "
          f"load average {result['load_average']:.1f}), "
          f"peak RSS {result['peak_rss_mib']} MiB, both errors on their lines: {ok}"
          f"{'' if args.bytecode else ' (--no-bytecode)'}")
    if numbered:
        print(f"numbered paste: {numbered['bytes'] / 1e6:.1f} MB, 60,000 lines: median {numbered['seconds']['median']} s "
              f"(min {numbered['seconds']['min']}, max {numbered['seconds']['max']}; CPU {numbered['cpu_seconds_median']} s), "
              f"error on its line: {numbered['error_found_on_its_line']}")
    if args.out:
        with open(args.out, "w", encoding="utf-8") as fh:
            json.dump(result, fh, indent=2)
            fh.write("\n")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
