#!/usr/bin/env python3
"""Where Flex's smoke run spends its time, phase by phase, for one adapter variant in a fresh process
(issue 22: the warm full check was bound by Flex's smoke, 17-20 s on an H100).

Phases: `import torch`, torch.compile() (which imports Dynamo and Inductor), the device's start,
then each case of the smoke plan (the real Runner of attn_doctor/smoke/child.py), and what the run
left behind: graphs compiled, recompiles, block masks built.

  --variant current   attn_doctor/backends/flex.py (one BlockMask per case shape, module-level masks)
  --variant serial    the same with TORCHINDUCTOR_COMPILE_THREADS=1: no pool of compile workers. Warm,
                      Inductor still starts its pool (up to one process per core, each importing torch)
                      at the first cached kernel it loads, though it then loads it in-process; on a GPU
                      host those processes compete with the other smoke children for the CPU. Cold,
                      serial compiles are slower: run it cold too before choosing it.
  --variant before    benchmarks/flex_adapter_before.py (a new BlockMask and lambda on every call)
  --variant one-case  current, but only the plan's first case (fwd+bwd): the least a compiled Flex smoke
                      can cost, i.e. the "fewer distinct graphs" direction taken to its end
  --variant dynamic   current, compiled with dynamic=True (one graph per case kind instead of per shape;
                      its cache keys differ, so give it a warm-up run)
  Cases in parallel are not a variant: Dynamo traces under the GIL in one process, and more processes
  each pay the imports again (the floor row of check_vs_fa4_import.py).

On a CPU (the dev VM) it runs the GPU plan's cases forward only, as a proxy: the graph and
recompile counts are the same kind of number the GPU run gives; the seconds are not. Usage:

  python benchmarks/flex_smoke.py --variant before --device cuda:0 --json out.json
  python benchmarks/flex_smoke.py --compare --warmup 1 --runs 3 --device cuda:0   # all three, alternating
Run it twice with the same TORCHINDUCTOR_CACHE_DIR: the first run fills the cache (cold), the
second is what a warm `attn-doctor check` pays. Standard library only (torch in the children).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VARIANTS = ("current", "serial", "before", "one-case", "dynamic")


def one_run(variant: str, device: str) -> dict:
    """Runs in the child: everything timed from the interpreter's first line."""
    t0 = time.perf_counter()
    import torch

    out: dict = {"variant": variant, "device": device, "torch": torch.__version__,
                 "cpus": os.cpu_count()}
    out["import_torch"] = time.perf_counter() - t0
    sys.path.insert(0, ROOT)
    if variant == "before":
        sys.path.insert(0, os.path.join(ROOT, "benchmarks"))
        import flex_adapter_before as adapter
    else:
        from attn_doctor.backends import flex as adapter
    from attn_doctor.smoke.child import Runner, classify_numbers
    from attn_doctor.smoke.plan import plan

    t = time.perf_counter()
    from torch.nn.attention.flex_attention import flex_attention  # noqa: F401  (the import probe's line)
    out["import_flex"] = time.perf_counter() - t
    cap = None
    t = time.perf_counter()
    if device.startswith("cuda"):
        torch.cuda.set_device(device)
        cap = tuple(torch.cuda.get_device_capability(device))
        torch.empty(1, device=device)  # the context, as the first case would make it
    out["device_start"] = time.perf_counter() - t
    t = time.perf_counter()
    handle = adapter.load(torch)
    if variant == "dynamic":
        handle.compiled = torch.compile(handle.fa.flex_attention, dynamic=True)
    out["load"] = time.perf_counter() - t  # torch.compile(): Dynamo's and Inductor's imports
    cases, _ = plan("flex", (9, 0) if cap is None else cap)
    if cap is None:  # the CPU proxy: the GPU plan's cases, forward only
        cases = [dict(c, backward=False) for c in cases]
    if variant == "one-case":
        cases = cases[:1]
    runner = Runner(torch, adapter, handle, device, 0)
    out["cases"] = []
    for c in cases:
        t = time.perf_counter()
        try:
            res = getattr(runner, c["kind"].replace("-", "_"))(c)
            classify_numbers(c, res)
            ok, err = res["ok"], None
        except Exception as e:  # the CPU has no fp16 flex, say: a proxy run notes it and goes on
            ok, err = False, f"{type(e).__name__}: {str(e).splitlines()[0][:200] if str(e) else ''}"
        out["cases"].append({"name": c["name"], "seconds": time.perf_counter() - t, "ok": ok, "error": err})
    out["after"] = adapter.after(torch, handle)
    out["total"] = time.perf_counter() - t0
    return out


def spawn(variant: str, device: str, timeout: float) -> dict:
    """One fresh process; its wall clock includes the interpreter's start."""
    t = time.perf_counter()
    env = dict(os.environ)
    if variant == "serial":
        env["TORCHINDUCTOR_COMPILE_THREADS"] = "1"
    r = subprocess.run([sys.executable, os.path.abspath(__file__), "--child", "--variant", variant, "--device", device],
                       capture_output=True, text=True, timeout=timeout, env=env)
    wall = time.perf_counter() - t
    line = next((ln for ln in reversed(r.stdout.splitlines()) if ln.startswith("{")), None)
    if r.returncode or not line:
        return {"variant": variant, "wall": wall, "error": (r.stderr or r.stdout)[-2000:]}
    return dict(json.loads(line), wall=wall)


def show(res: dict) -> str:
    if res.get("error") and "cases" not in res:
        return f"{res['variant']:8} FAILED: {res['error'][-300:]}"
    a = res.get("after") or {}
    cases = " ".join(f"{c['seconds']:.2f}" + ("" if c["ok"] else "!") for c in res["cases"])
    return (f"{res['variant']:8} wall {res['wall']:6.2f} s | torch {res['import_torch']:.2f} flex {res['import_flex']:.2f} "
            f"device {res['device_start']:.2f} compile() {res['load']:.2f} | cases {cases} | graphs {a.get('graphs')} "
            f"recompiles {a.get('recompiles')} masks {a.get('mask_builds')}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variant", choices=VARIANTS, default="current")
    ap.add_argument("--variants", help="comma-separated variants to compare (with --compare; default before,current,serial)")
    ap.add_argument("--device", default="cpu")
    ap.add_argument("--compare", action="store_true", help="time both variants, alternating, --runs times each")
    ap.add_argument("--runs", type=int, default=1)
    ap.add_argument("--warmup", type=int, default=0,
                    help="untimed runs of each variant first (their graphs differ: 'before' has its own cache keys)")
    ap.add_argument("--timeout", type=float, default=600)
    ap.add_argument("--json", help="write the results here")
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.child:
        print(json.dumps(one_run(a.variant, a.device)), flush=True)
        if os.environ.get("FLEX_SMOKE_TEARDOWN") != "1":
            # as attn_doctor/smoke/child.py ends: no interpreter teardown. On the H100 (hold 3,
            # fixtures/gpu/h100-issue22/f-flex-smoke.txt) a normal exit waited ~8 s for Inductor's
            # compile-worker pool, which the real smoke child never pays; FLEX_SMOKE_TEARDOWN=1 keeps it.
            sys.stderr.flush()
            os._exit(0)
        return 0
    variants = (tuple(a.variants.split(",")) if a.variants else ("before", "current", "serial")) if a.compare else (a.variant,)
    bad = [v for v in variants if v not in VARIANTS]
    if bad:
        ap.error(f"unknown variant(s) {bad}; choose from {VARIANTS}")
    for _ in range(a.warmup):
        for v in variants:
            print("warm-up " + show(spawn(v, a.device, a.timeout)), flush=True)
    runs: list[dict] = []
    for i in range(a.runs):
        for v in (variants if i % 2 == 0 else variants[::-1]):
            r = spawn(v, a.device, a.timeout)
            runs.append(r)
            print(show(r), flush=True)
    summary = {}
    for v in variants:
        walls = [r["wall"] for r in runs if r["variant"] == v and "cases" in r]
        if walls:
            summary[v] = {"median_wall": statistics.median(walls), "runs": len(walls)}
            print(f"{v:8} median wall {summary[v]['median_wall']:.2f} s over {len(walls)} run(s)")
    if a.json:
        with open(a.json, "w", encoding="utf-8") as fh:
            json.dump({"device": a.device, "runs": runs, "summary": summary}, fh, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
