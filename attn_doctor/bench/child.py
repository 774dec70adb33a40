"""Runs in a child interpreter: time one backend at the user's shapes. Results go to a file.

Timing follows the usual GPU method: CUDA events around each call, warm-up and the first
(compiling) call kept out and reported apart, the median of many calls, and inputs rotated among
enough sets that they are not served from L2. Before timing, sampled output rows are checked
against a float64 reference: a fast wrong kernel is never ranked.
"""

from __future__ import annotations

import json
import math
import os
import statistics
import sys
import time

from ..smoke.child import _err, load_adapter

RESULT, SENTINEL = "@@ATTN_DOCTOR_BENCH@@", "@@ATTN_DOCTOR@@"
_OUT = None


def emit(tag: str, obj) -> None:
    line = tag + json.dumps(obj, default=str) + "\n"
    if _OUT is not None:
        _OUT.write(line)
        _OUT.flush()


def attn_flops(s: dict) -> float:
    """Matmul FLOPs of one forward (QK^T and PV): 4·B·H·Sq·Sk·D, halved when causal."""
    f = 4.0 * s["batch"] * s["heads"] * s["seqlen"] * s["seqlen"] * s["head_dim"]
    return f / 2 if s["causal"] else f


class Clock:
    """CUDA events on a GPU; perf_counter after a synchronize on the CPU."""

    def __init__(self, torch, device: str):
        self.torch, self.cuda = torch, device.startswith("cuda")

    def time(self, fn, iters: int, sets: list) -> list[float]:
        t = self.torch
        out = []
        if self.cuda:
            starts = [t.cuda.Event(enable_timing=True) for _ in range(iters)]
            ends = [t.cuda.Event(enable_timing=True) for _ in range(iters)]
            for i in range(iters):
                args = sets[i % len(sets)]
                starts[i].record()
                fn(*args)
                ends[i].record()
            t.cuda.synchronize()
            return [s.elapsed_time(e) / 1000.0 for s, e in zip(starts, ends)]
        for i in range(iters):
            args = sets[i % len(sets)]
            t0 = time.perf_counter()
            fn(*args)
            out.append(time.perf_counter() - t0)
        return out

    def sync(self):
        if self.cuda:
            self.torch.cuda.synchronize()


def measure(clock: Clock, fn, sets: list, min_time: float, max_iters: int) -> dict:
    """Warm up, then time enough calls for a stable median."""
    warm = clock.time(fn, 3, sets)
    per = max(statistics.median(warm), 1e-6)
    iters = int(min(max_iters, max(10, min_time / per)))
    times = clock.time(fn, iters, sets)
    return {"median": statistics.median(times), "min": min(times), "max": max(times), "iters": iters}


def ceiling(torch, device: str, dtype: str = "bfloat16") -> dict:
    """The GPU's own bf16 matmul rate (on the CPU: in the bench dtype), the roof the attention rates
    are read against."""
    clock = Clock(torch, device)
    if device.startswith("cuda"):
        n, dt = 8192, torch.bfloat16
    else:
        n, dt = 1024, getattr(torch, dtype)
    a = torch.randn(n, n, device=device, dtype=dt)
    b = torch.randn(n, n, device=device, dtype=dt)
    m = measure(clock, lambda x, y: x @ y, [(a, b)], 1.0 if device.startswith("cuda") else 0.5, 50)
    return {"dtype": str(dt).replace("torch.", ""), "n": n, "tflops": 2.0 * n ** 3 / m["median"] / 1e12, "iters": m["iters"]}


def sample_check(torch, fn, q, k, v, layout: str, causal: bool, scale: float, out, rows: int = 48) -> dict:
    """float64 attention for a few random query rows against the full K/V; compare those rows."""
    g = torch.Generator(device="cpu").manual_seed(7)
    if layout == "bhsd":
        q, k, v, out = (x.transpose(1, 2) for x in (q, k, v, out))  # to (B, S, H, D)
    B, S, H, D = q.shape
    rep = H // k.shape[2]
    errs, worst, nonfinite = [], 0.0, 0
    for _ in range(rows):
        b = int(torch.randint(B, (1,), generator=g))
        s = int(torch.randint(S, (1,), generator=g))
        h = int(torch.randint(H, (1,), generator=g))
        qi = q[b, s, h].double()
        kk = k[b, :, h // rep].double()
        vv = v[b, :, h // rep].double()
        sc = (kk @ qi) * scale
        if causal:
            sc[s + 1:] = float("-inf")
        ref = torch.softmax(sc, dim=0) @ vv
        got = out[b, s, h].double()
        if not bool(torch.isfinite(got).all()):
            nonfinite += 1
            continue
        e = float((got - ref).norm() / ref.norm().clamp_min(1e-12))
        errs.append(e)
        worst = max(worst, e)
    mean = math.sqrt(sum(e * e for e in errs) / len(errs)) if errs else None
    return {"rows": rows, "rms_rel_err": mean, "worst_rel_err": worst, "nonfinite": nonfinite}


def run_shape(torch, adapter, handle, plan: dict, s: dict, l2_bytes: int) -> dict:
    device = plan["device"]
    clock = Clock(torch, device)
    dt = getattr(torch, s["dtype"])
    B, S, H, KVH, D = s["batch"], s["seqlen"], s["heads"], s["kv_heads"], s["head_dim"]
    scale = D ** -0.5
    layout, fn = adapter.bench_call(handle, torch, causal=s["causal"], scale=scale, seqlen=S, device=device,
                                    variant=plan.get("variant"), gqa=H != KVH)
    shape_q = (B, H, S, D) if layout == "bhsd" else (B, S, H, D)
    shape_kv = (B, KVH, S, D) if layout == "bhsd" else (B, S, KVH, D)
    set_bytes = (math.prod(shape_q) + 2 * math.prod(shape_kv)) * torch.finfo(dt).bits // 8
    # At least two sets, so no call finds the previous call's inputs still in L2.
    n_sets = max(2, min(8, math.ceil(3 * l2_bytes / max(set_bytes, 1))))
    if device.startswith("cuda"):
        free, _ = torch.cuda.mem_get_info()
        while n_sets > 1 and set_bytes * n_sets * 4 > free * 0.5:
            n_sets -= 1
        if set_bytes * 6 > free * 0.8:
            return {"skipped": f"needs about {set_bytes * 6 / 2**30:.1f} GiB; {free / 2**30:.1f} GiB free"}
    res: dict = {"sets": n_sets, "layout": layout}

    def mk(salt):
        gen = torch.Generator(device="cpu").manual_seed(salt)
        return (torch.randn(*shape_q, generator=gen).to(device=device, dtype=dt),
                torch.randn(*shape_kv, generator=gen).to(device=device, dtype=dt),
                torch.randn(*shape_kv, generator=gen).to(device=device, dtype=dt))

    sets = [mk(100 + i) for i in range(n_sets)]
    t0 = time.perf_counter()
    out = fn(*sets[0])
    clock.sync()
    first = time.perf_counter() - t0
    res["check"] = sample_check(torch, fn, *sets[0], layout, s["causal"], scale, out)
    if res["check"]["nonfinite"] or res["check"]["worst_rel_err"] > plan["tol"]:
        res["wrong"] = True
        return res
    del out
    fwd = measure(clock, fn, sets, plan["min_time"], plan["max_iters"])
    res["fwd"] = fwd
    res["compile_seconds"] = max(0.0, first - fwd["median"])
    flops = attn_flops(s)
    res["fwd"]["tflops"] = flops / fwd["median"] / 1e12
    if plan.get("backward"):
        gsets = [tuple(x.detach().clone().requires_grad_(True) for x in st) for st in sets]
        douts = [torch.randn(*shape_q, device=device, dtype=dt) for _ in range(n_sets)]
        pairs = [(*st, d) for st, d in zip(gsets, douts)]

        def fwd_bwd(q, k, v, dout):
            o = fn(q, k, v)
            torch.autograd.grad(o, (q, k, v), dout)

        t0 = time.perf_counter()
        fwd_bwd(*pairs[0])
        clock.sync()
        first_b = time.perf_counter() - t0
        fb = measure(clock, fwd_bwd, pairs, plan["min_time"], plan["max_iters"])
        fb["tflops"] = 3.5 * flops / fb["median"] / 1e12  # backward = 2.5x the forward's matmuls
        fb["compile_seconds"] = max(0.0, first_b - fb["median"])
        res["fwd_bwd"] = fb
    return res


def main() -> None:
    global _OUT
    plan = json.loads(sys.argv[1])
    _OUT = open(plan["results_path"], "a", encoding="utf-8")
    try:
        _main(plan)
    finally:
        _OUT.flush()
        os._exit(0)


def _main(plan: dict) -> None:
    try:
        import torch

        device = plan["device"]
        if device.startswith("cuda"):
            torch.cuda.set_device(device)
            l2 = int(getattr(torch.cuda.get_device_properties(device), "L2_cache_size", 50 * 2**20))
        else:
            l2 = 32 * 2**20
        if plan.get("ceiling"):
            emit(RESULT, {"ceiling": ceiling(torch, device, plan.get("dtype") or "bfloat16")})
        if not plan.get("backend"):
            emit(SENTINEL, {"stage": "done"})
            return
        adapter = load_adapter(plan.get("adapter") or plan["backend"])
        handle = adapter.load(torch)
    except BaseException as e:
        emit(SENTINEL, {"stage": "load", "error": _err(e)})
        return
    for s in plan["shapes"]:
        emit("@@ATTN_DOCTOR_START@@", {"shape": s})
        try:
            r = run_shape(torch, adapter, handle, plan, s, l2)
        except BaseException as e:
            r = {"error": _err(e)}
            if device.startswith("cuda"):
                try:
                    torch.cuda.empty_cache()
                except Exception:
                    pass
        emit(RESULT, {"shape": s, **r})
    emit(SENTINEL, {"stage": "done"})


if __name__ == "__main__":
    main()
