#!/usr/bin/env python3
"""How long `attn-doctor explain PATH` takes on logs that repeat a line naming an attention backend (a warning per step
or per worker), side by side for one or more source trees (e.g. main before and after a change, each checked out with
`git worktree add`): a fresh interpreter each run, CPU seconds (user+sys of the explain process) and wall clock, the
median of --runs after one warm-up run, and the process's peak RSS.

Why: a line that names a backend holds needles of many patterns (the prefilter, knowledge/match.py), so every such
line is searched by the patterns it names. The issue's bar is <= 2 s for a 50 MB log (benchmarks/explain_50mb.py); a
log of these lines was ~50x slower per byte than an ordinary training log (session 8, 2026-11-28).

The logs are generated (standard library only), each one kind of line repeated with a step number, at each --mb size,
with one real error (an undefined-symbol ImportError traceback) in the middle; it checks the error is found on its line:
- `transformers-fallback`: a loss line and transformers' "flash_attn is not installed, using sdpa instead" UserWarning;
- `xformers-info`: torchrun's `[rank0] ` and an xformers memory_efficient_attention info line;
- `flash-deprecation`: FlashAttention's FutureWarning about torch.cuda.amp.custom_fwd, with its source line;
- `sage-comfyui`: ComfyUI's "Using sage attention" and its sampler's progress;
- `flex-recompile`: torch._dynamo's recompile log of flex_attention (TORCH_LOGS=recompiles) and its guard failure.
Usage:

  python benchmarks/explain_repeated_lines.py --tree /tmp/before --tree . --runs 3 --mb 2 --mb 20 --out results.json
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
         "    from flash_attn import flash_attn_varlen_func\n"
         "  File \"/venv/lib/python3.11/site-packages/flash_attn/__init__.py\", line 3, in <module>\n"
         "    from flash_attn.flash_attn_interface import (\n"
         "ImportError: /venv/lib/python3.11/site-packages/flash_attn_2_cuda.cpython-311-x86_64-linux-gnu.so: "
         "undefined symbol: _ZN3c104cuda9SetDeviceEi\n")
ERROR_ID = "import.undefined-symbol"


def _transformers(i: int) -> str:
    return (f"step {i}: loss={(i * 7919 % 10000) / 4000:.4f} | /venv/lib/python3.11/site-packages/transformers/"
            f"modeling_utils.py:1234: UserWarning: flash_attn is not installed, using sdpa instead\n")


def _xformers(i: int) -> str:
    return f"[rank{i % 8}] step {i} xformers memory_efficient_attention ok, tokens/s {1000 + i * 37 % 90000}\n"


def _flash(i: int) -> str:
    return ("/venv/lib/python3.11/site-packages/flash_attn/flash_attn_interface.py:98: FutureWarning: "
            "`torch.cuda.amp.custom_fwd(args...)` is deprecated. Please use "
            "`torch.amp.custom_fwd(args..., device_type='cuda')` instead.\n"
            "  @torch.library.custom_op(\"flash_attn::_flash_attn_forward\", mutates_args=(), device_types=\"cuda\")\n"
            f"step {i} loss {(i * 31 % 1000) / 400:.3f}\n")


def _sage(i: int) -> str:
    return (f"Using sage attention\n"
            f"{i % 100:3d}%|{'#' * (i % 10)}{' ' * (10 - i % 10)}| {i % 20}/20 [00:{i % 60:02d}<00:12, 1.61it/s]\n"
            f"Prompt executed in {i % 90 + 3}.{i % 100:02d} seconds\n")


def _flex(i: int) -> str:
    return (f"V1128 12:{i // 60 % 60:02d}:{i % 60:02d}.{i % 999999:06d} {4242 + i % 8} torch/_dynamo/guards.py:2997] "
            f"[0/{i % 8}] [__recompiles] Recompiling function flex_attention in "
            f"/venv/lib/python3.11/site-packages/torch/nn/attention/flex_attention.py:1285\n"
            f"V1128 12:{i // 60 % 60:02d}:{i % 60:02d}.{i % 999999:06d} {4242 + i % 8} torch/_dynamo/guards.py:2997] "
            f"[0/{i % 8}] [__recompiles]     triggered by the following guard failure(s):\n"
            f"V1128 12:{i // 60 % 60:02d}:{i % 60:02d}.{i % 999999:06d} {4242 + i % 8} torch/_dynamo/guards.py:2997] "
            f"[0/{i % 8}] [__recompiles]     - 0/{i % 8 - 1 if i % 8 else 0}: tensor 'L['query']' size mismatch at "
            f"index 2. expected {256 * (i % 8 + 1)}, actual {256 * (i % 8 + 2)}\n")


KINDS = {"transformers-fallback": _transformers, "xformers-info": _xformers, "flash-deprecation": _flash,
         "sage-comfyui": _sage, "flex-recompile": _flex}


def write_log(path: str, kind: str, size: int) -> tuple[int, int]:
    """Write about `size` bytes of `kind`'s lines with the error in the middle; return (the error's last line, lines)."""
    make = KINDS[kind]
    written = line = i = 0
    error_line = 0
    with open(path, "w", encoding="utf-8") as fh:
        while written < size:
            i += 1
            text = make(i)
            if not error_line and written >= size // 2:
                text = ERROR + text
                error_line = line + ERROR.count("\n")
            fh.write(text)
            written += len(text.encode("utf-8"))
            line += text.count("\n")
    return error_line, line


def run(tree: str, path: str) -> tuple[float, float, float, dict]:
    """(wall seconds, CPU seconds, peak RSS MiB, JSON) of one `explain --json PATH` with `tree`'s code."""
    env = dict(os.environ, PYTHONPATH=os.path.abspath(tree))
    t = time.perf_counter()
    with tempfile.TemporaryFile() as out:
        p = subprocess.Popen([sys.executable, "-m", "attn_doctor", "explain", "--json", path], env=env,
                             cwd=os.path.abspath(tree), stdout=out, stderr=subprocess.DEVNULL)
        _, _, usage = os.wait4(p.pid, 0)
        p.returncode = 0
        dt = time.perf_counter() - t
        out.seek(0)
        raw = out.read().decode("utf-8", "replace")
    doc = json.loads(raw) if raw.strip().startswith("{") else {}
    return dt, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, doc


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tree", action="append", help="a source tree to time (repeatable; default: this one)")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--mb", type=float, action="append", help="log sizes in MB (repeatable; default 2 and 20)")
    ap.add_argument("--kind", action="append", choices=sorted(KINDS), help="only these kinds (repeatable)")
    ap.add_argument("--no-warmup", action="store_true", help="skip the warm-up run (for the slow big logs)")
    ap.add_argument("--out", help="write the results as JSON here")
    ap.add_argument("--note", default="")
    a = ap.parse_args()
    trees = a.tree or [os.path.dirname(os.path.dirname(os.path.abspath(__file__)))]
    sizes = a.mb or [2.0, 20.0]
    results = []
    ok_all = True
    with tempfile.TemporaryDirectory() as tmp:
        print(f"{'log':22s} {'MB':>5s}  " + "  ".join(f"{t[-30:]:>30s}" for t in trees))
        for mb in sizes:
            for kind in a.kind or KINDS:
                path = os.path.join(tmp, f"{kind}-{mb:g}.log")
                error_line, lines = write_log(path, kind, int(mb * 1_000_000))
                cells = []
                for tree in trees:
                    if not a.no_warmup:
                        run(tree, path)
                    walls, cpus, peak, doc = [], [], 0.0, {}
                    for _ in range(a.runs):
                        wall, cpu, rss, doc = run(tree, path)
                        walls.append(wall)
                        cpus.append(cpu)
                        peak = max(peak, rss)
                    found = [(m.get("id"), m.get("line")) for m in doc.get("matches", [])]
                    ok = (ERROR_ID, error_line) in found
                    ok_all &= ok
                    results.append({"log": kind, "mb": mb, "bytes": os.path.getsize(path), "lines": lines,
                                    "tree": tree, "runs": a.runs, "cpu_seconds_median": round(statistics.median(cpus), 3),
                                    "wall_seconds_median": round(statistics.median(walls), 3),
                                    "peak_rss_mib": round(peak, 1), "error_line": error_line,
                                    "error_found_on_its_line": ok, "found": found[:8]})
                    cells.append(f"CPU {statistics.median(cpus):6.2f} s {peak:5.0f} MiB{'' if ok else ' MISSED'}")
                print(f"{kind:22s} {os.path.getsize(path) / 1e6:5.1f}  " + "  ".join(f"{c:>30s}" for c in cells),
                      flush=True)
    if a.out:
        with open(a.out, "w", encoding="utf-8") as fh:
            json.dump({"what": "attn-doctor explain --json PATH on logs repeating a backend-naming line, one error "
                               "in the middle", "note": a.note, "cpus": os.cpu_count(),
                       "load_average": os.getloadavg()[0], "goal": "<= 2 s for 50 MB (issue 23)",
                       "results": results}, fh, indent=2)
            fh.write("\n")
    return 0 if ok_all else 1


if __name__ == "__main__":
    sys.exit(main())
