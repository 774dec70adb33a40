#!/usr/bin/env python3
"""Check `attn-doctor bench` against an independent timing: triton.testing.do_bench (median, its
own L2 flush before every call) of the same backend calls at the same shapes.

  python benchmarks/bench_vs_do_bench.py BENCH.json [--out compare.json]

BENCH.json is what `attn-doctor bench --json` wrote on this GPU. For every ranked result the
script rebuilds the same call through the backend's adapter, times it with do_bench and prints
both medians and their ratio (goal: within 5%). Runs on a CUDA GPU with triton installed.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("bench_json")
    ap.add_argument("--out")
    a = ap.parse_args()
    import torch
    from triton.testing import do_bench

    with open(a.bench_json, encoding="utf-8") as fh:
        bench = json.load(fh)
    device = bench["device"]
    torch.cuda.set_device(device)
    handles = {}
    rows = []
    for r in bench["results"]:
        if not r.get("fwd") or r.get("wrong"):
            continue
        name, variant, s = r["backend"], r["variant"], r["shape"]
        mod = importlib.import_module(f"attn_doctor.backends.{name}")
        if name not in handles:
            handles[name] = mod.load(torch)
        dt = getattr(torch, s["dtype"])
        layout, fn = mod.bench_call(handles[name], torch, causal=s["causal"], scale=s["head_dim"] ** -0.5,
                                    seqlen=s["seqlen"], device=device, variant=variant, gqa=s["heads"] != s["kv_heads"])
        B, S, H, KV, D = s["batch"], s["seqlen"], s["heads"], s["kv_heads"], s["head_dim"]
        qs, ks = ((B, H, S, D), (B, KV, S, D)) if layout == "bhsd" else ((B, S, H, D), (B, S, KV, D))
        q = torch.randn(*qs, device=device, dtype=dt)
        k = torch.randn(*ks, device=device, dtype=dt)
        v = torch.randn(*ks, device=device, dtype=dt)
        fwd_ms = do_bench(lambda: fn(q, k, v), warmup=100, rep=1000, return_mode="median")
        row = {"label": r["label"], "seqlen": S, "attn_doctor_fwd_ms": r["fwd"]["median"] * 1e3, "do_bench_fwd_ms": fwd_ms}
        row["fwd_ratio"] = row["attn_doctor_fwd_ms"] / fwd_ms
        if r.get("fwd_bwd"):
            qg, kg, vg = (x.detach().clone().requires_grad_(True) for x in (q, k, v))
            dout = torch.randn(*qs, device=device, dtype=dt)
            fb_ms = do_bench(lambda: torch.autograd.grad(fn(qg, kg, vg), (qg, kg, vg), dout), warmup=100, rep=1000,
                             return_mode="median")
            row.update(attn_doctor_fwd_bwd_ms=r["fwd_bwd"]["median"] * 1e3, do_bench_fwd_bwd_ms=fb_ms)
            row["fwd_bwd_ratio"] = row["attn_doctor_fwd_bwd_ms"] / fb_ms
        rows.append(row)
        del q, k, v
        torch.cuda.empty_cache()
        print(f"{row['label']:<16} seq {S:>6}  fwd {row['attn_doctor_fwd_ms']:8.3f} ms vs do_bench {fwd_ms:8.3f} ms "
              f"({row['fwd_ratio']:.3f})" + (f"  fwd+bwd {row['attn_doctor_fwd_bwd_ms']:8.3f} vs {row['do_bench_fwd_bwd_ms']:8.3f} "
                                             f"({row['fwd_bwd_ratio']:.3f})" if "fwd_bwd_ratio" in row else ""), flush=True)
    ratios = [x for row in rows for x in (row.get("fwd_ratio"), row.get("fwd_bwd_ratio")) if x]
    worst = max(ratios, key=lambda x: abs(x - 1)) if ratios else None
    print(f"{len(ratios)} timings compared; worst ratio {worst:.3f} (goal: within 0.95-1.05)" if worst else "nothing compared")
    if a.out:
        with open(a.out, "w", encoding="utf-8") as fh:
            json.dump({"rows": rows, "worst_ratio": worst}, fh, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
