#!/usr/bin/env python3
"""What `attn-doctor trace`'s hook costs a training step (issue 21's goal: <= 5% of a step on an H100,
after the first calls).

One process, one small GPT-style model (LayerNorm, qkv Linear, F.scaled_dot_product_attention causal,
MLP; AdamW), forward + backward + optimizer step, synchronised at the end of every step. Rounds alternate:

  plain   F.scaled_dot_product_attention is torch's builtin, no optimizer hook
  traced  the hook's wrapper in its place and its optimizer-step hook registered (after a warm-up, so
          every call site is identified already: what is timed is the counting path)

and the medians of the per-step times of each are compared (on the CPU: this thread's CPU time, one torch
thread, so a shared machine's other load does not count). Also timed: the first traced step (the
one that identifies each call site), the worst case, a tight loop of tiny SDPA calls (per-call cost of
the wrapper, in microseconds), and the optimizer-step hook alone; from those two, an estimate of the
overhead that the noise of two medians cannot hide or invent. Usage:

  python benchmarks/trace_overhead.py                      # cuda when there is one, else the CPU
  python benchmarks/trace_overhead.py --device cpu --out benchmarks/results/trace-overhead-cpu.json --note "..."
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--device", default=None, help="cuda or cpu (default: cuda when available)")
    ap.add_argument("--layers", type=int, default=None)
    ap.add_argument("--dim", type=int, default=None)
    ap.add_argument("--heads", type=int, default=None)
    ap.add_argument("--seq", type=int, default=None)
    ap.add_argument("--batch", type=int, default=None)
    ap.add_argument("--steps", type=int, default=20, help="timed steps per round")
    ap.add_argument("--rounds", type=int, default=7, help="rounds of each mode, alternating")
    ap.add_argument("--out", default=None, help="write the results as JSON here")
    ap.add_argument("--note", default="", help="what machine this is")
    a = ap.parse_args()

    from attn_doctor.trace import hook_module

    hook = hook_module()
    hook.install()  # before torch: the hook is in place the way `attn-doctor trace` puts it there
    import torch
    import torch.nn as nn
    import torch.nn.functional as F

    dev = a.device or ("cuda" if torch.cuda.is_available() else "cpu")
    gpu = dev.startswith("cuda")
    layers = a.layers or (6 if gpu else 2)
    dim = a.dim or (1024 if gpu else 64)
    heads = a.heads or (8 if gpu else 4)
    seq = a.seq or (1024 if gpu else 64)
    batch = a.batch or (8 if gpu else 4)
    dtype = torch.bfloat16 if gpu else torch.float32

    class Block(nn.Module):
        def __init__(self):
            super().__init__()
            self.ln1, self.ln2 = nn.LayerNorm(dim), nn.LayerNorm(dim)
            self.qkv, self.proj = nn.Linear(dim, 3 * dim), nn.Linear(dim, dim)
            self.mlp = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))

        def forward(self, x):
            B, T, C = x.shape
            q, k, v = self.qkv(self.ln1(x)).view(B, T, 3, heads, C // heads).permute(2, 0, 3, 1, 4)
            y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
            x = x + self.proj(y.transpose(1, 2).reshape(B, T, C))
            return x + self.mlp(self.ln2(x))

    model = nn.Sequential(*[Block() for _ in range(layers)]).to(dev, dtype)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
    x = torch.randn(batch, seq, dim, device=dev, dtype=dtype)
    sync = torch.cuda.synchronize if gpu else (lambda: None)
    # On a GPU: wall clock, synchronised. On the CPU: this thread's CPU time with one torch thread, so that
    # other processes on a shared machine do not count (the hook's cost is CPU time of this thread).
    clock = time.perf_counter if gpu else time.thread_time
    if not gpu:
        torch.set_num_threads(1)
    builtin = torch._C._nn.scaled_dot_product_attention
    wrapper = hook._sdpa_wrapper
    assert wrapper is not None and F.scaled_dot_product_attention is wrapper, "the hook did not wrap SDPA"

    def step():
        model(x).float().pow(2).mean().backward()
        opt.step()
        opt.zero_grad(set_to_none=True)

    def mode(traced: bool):
        F.scaled_dot_product_attention = wrapper if traced else builtin
        if hook._step_hook is not None:
            hook._step_hook.remove()
            hook._step_hook = None
        if traced:
            from torch.optim.optimizer import register_optimizer_step_post_hook

            hook._step_hook = register_optimizer_step_post_hook(hook._on_step)

    def timed(n: int) -> list[float]:
        out = []
        for _ in range(n):
            sync()
            t = clock()
            step()
            sync()
            out.append(clock() - t)
        return out

    mode(False)
    timed(3)  # warm-up: allocator, kernels, AdamW state
    base_first = statistics.median(timed(3))
    mode(True)
    first_traced = timed(1)[0]  # identifies every call site (one site here: Block.forward)
    timed(2)
    plain, traced = [], []
    for _ in range(a.rounds):
        for m, acc in ((False, plain), (True, traced)):
            mode(m)
            acc.extend(timed(a.steps))
    mode(True)
    p_med, t_med = statistics.median(plain), statistics.median(traced)

    # The worst case: tiny calls, nothing else. Per-call cost of the wrapper's counting path.
    q = torch.randn(1, 1, 8, 8, device=dev, dtype=dtype)
    n = 2000

    def loop(fn) -> float:
        sync()
        t = clock()
        for _ in range(n):
            fn(q, q, q)
        sync()
        return (clock() - t) / n

    loop(wrapper)
    per_call = []
    for _ in range(5):
        per_call.append(loop(wrapper) - loop(builtin))
    t = clock()
    for _ in range(n):
        hook._on_step(opt, (), {})
    step_hook = (clock() - t) / n
    rows = hook.rows()
    estimate = (layers * statistics.median(per_call) + step_hook) / p_med * 100
    result = {
        "device": torch.cuda.get_device_name() if gpu else platform.processor() or "cpu",
        "torch": torch.__version__, "python": platform.python_version(), "note": a.note,
        "model": {"layers": layers, "dim": dim, "heads": heads, "seq": seq, "batch": batch, "dtype": str(dtype)},
        "clock": "wall (cuda synchronised)" if gpu else "thread CPU time, torch.set_num_threads(1)",
        "attention_calls_per_step": layers, "rounds": a.rounds, "steps_per_round": a.steps,
        "step_ms_plain": round(p_med * 1e3, 3), "step_ms_traced": round(t_med * 1e3, 3),
        "overhead_pct": round((t_med - p_med) / p_med * 100, 2),
        "first_traced_step_ms": round(first_traced * 1e3, 3), "warm_plain_step_ms": round(base_first * 1e3, 3),
        "wrapper_us_per_call": round(statistics.median(per_call) * 1e6, 2),
        "step_hook_us": round(step_hook * 1e6, 2),
        "estimated_overhead_pct": round(estimate, 3),
        "rows": [{k: r.get(k) for k in ("site", "backend", "kernel", "count")} for r in rows],
    }
    print(f"{result['device']}, torch {result['torch']}: {layers} layers, dim {dim}, seq {seq}, batch {batch}, {dtype}")
    print(f"  step: plain {result['step_ms_plain']} ms, traced {result['step_ms_traced']} ms -> "
          f"overhead {result['overhead_pct']}% (median of {a.rounds} x {a.steps} steps each, alternating)")
    print(f"  first traced step {result['first_traced_step_ms']} ms (identifies the call site); "
          f"wrapper {result['wrapper_us_per_call']} us per call (tiny SDPA in a loop)")
    print(f"  optimizer-step hook {result['step_hook_us']} us; estimate: ({layers} calls x wrapper + step hook) / "
          f"plain step = {result['estimated_overhead_pct']}% of a step")
    print(f"  rows: {result['rows']}")
    if a.out:
        with open(a.out, "w") as fh:
            json.dump(result, fh, indent=2)
            fh.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
