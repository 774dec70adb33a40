"""The bench report: a table per shape, a bar chart of TFLOP/s, the recommendation, and a plot."""

from __future__ import annotations

import math

from rich.table import Table
from rich.text import Text

from ..model import UsageError


def _shape(s: dict) -> str:
    kv = f"/{s['kv_heads']}" if s["kv_heads"] != s["heads"] else ""
    return (f"batch {s['batch']} x seq {s['seqlen']}, heads {s['heads']}{kv}, dim {s['head_dim']}, "
            f"{s['dtype']}, {'causal' if s['causal'] else 'full'}")


def _rate(x: float) -> str:
    """TFLOP/s to two significant digits below 10 (nu42: a CPU's attention runs at a few GFLOP/s, which .2f printed as
    0.00 for every backend, its bars of different lengths labelled alike)."""
    if x >= 10:
        return f"{x:.0f}"
    if x <= 0 or x >= 0.1:
        return f"{x:.2f}"
    return f"{x:.{min(6, 1 - math.floor(math.log10(x)))}f}"


def render(result: dict, console) -> None:
    where = result["device"]
    ceil = (result.get("ceiling") or {}) if where != "cpu" else {}  # (a CPU's, in a saved older result, is no roof)
    console.print(Text(f"attn-doctor bench on {where}", style="bold"))
    if ceil:
        console.print(f"ceiling: {ceil['dtype']} {ceil['n']}^3 matmul at {_rate(ceil['tflops'])} TFLOP/s "
                      "(the % after fwd TFLOP/s)")
    if where == "cpu":
        console.print("on the CPU: wall-clock timings of sdpa and flex (the others need a CUDA GPU); no matmul "
                      "ceiling or % of it (a GPU's roof: a CPU's matmul is none for its attention)", soft_wrap=True)
    over = [r for r in result["results"] if ceil.get("tflops") and (r.get("fwd") or {}).get("tflops", 0) > ceil["tflops"]]
    if over:  # an attention kernel cannot beat the matmul it is made of: the roof was measured wrong
        console.print(Text(f"note: {over[0]['label']} ran faster than the matmul ceiling "
                           f"({_rate(ceil['tflops'])} TFLOP/s), so that ceiling measurement is wrong here "
                           "(clocks, other load, the CPU); percentages above 100% are shown as >100%", style="yellow"))
    for rec in result["recommendations"]:
        s = rec["shape"]
        console.print()
        console.print(Text(_shape(s), style="bold underline"))
        rows = [r for r in result["results"] if r["shape"] == s]
        tbl = Table(box=None, pad_edge=False, show_edge=False)
        for col in ("backend", "fwd ms", "fwd TFLOP/s", "fwd+bwd ms", "fwd+bwd TFLOP/s", "1st call s"):
            tbl.add_column(col, justify="left" if col == "backend" else "right", no_wrap=True)
        best = max((r["fwd"]["tflops"] for r in rows if r.get("fwd")), default=1.0) or 1.0
        for r in sorted(rows, key=lambda r: -(r.get("fwd") or {}).get("tflops", -1)):
            if not r.get("fwd"):
                why = r.get("skipped") or ("wrong result: not ranked" if r.get("wrong") else r.get("error") or "-")
                tbl.add_row(r["label"], Text(str(why)[:60], style="dim"), "", "", "", "")
                continue
            f, fb = r["fwd"], r.get("fwd_bwd")
            share = f["tflops"] / ceil["tflops"] if ceil.get("tflops") else None
            frac = "" if share is None else (" >100%" if share > 1 else f" {share:.0%}")
            tbl.add_row(r["label"], f"{f['median'] * 1e3:.3f}", f"{_rate(f['tflops'])}{frac}",
                        f"{fb['median'] * 1e3:.3f}" if fb else "-", _rate(fb["tflops"]) if fb else "-",
                        f"{r.get('compile_seconds', 0):.1f}")
        console.print(tbl)
        for r in sorted(rows, key=lambda r: -(r.get("fwd") or {}).get("tflops", -1)):
            if r.get("fwd"):
                n = int(30 * r["fwd"]["tflops"] / best)
                console.print(f"  {r['label']:<16} " + "#" * n + f" {_rate(r['fwd']['tflops'])}")
        if rec.get("best"):
            gain = f", {rec['speedup_vs_sdpa']:.2f}x plain SDPA" if rec.get("speedup_vs_sdpa") else ""
            console.print(Text(f"  fastest correct ({'fwd+bwd' if rec['metric'] == 'fwd_bwd' else 'forward'}): "
                               f"{rec['best']}{gain}", style="bold green"))
            sel = rec.get("select") or {}
            how = [f"{k}: {v}" for k, v in (("SimpleTuner attention_mechanism", sel.get("simpletuner")),
                                              ("musubi-tuner", sel.get("musubi")),
                                              ("blissful-tuner", sel.get("blissful")),
                                              ("diffusers", sel.get("diffusers"))) if v]
            if how:
                console.print("  select it with  " + "; ".join(how), soft_wrap=True)
            if sel.get("note"):
                console.print("  note: " + sel["note"], soft_wrap=True)
        else:
            console.print(Text("  " + rec.get("why", "nothing to recommend"), style="yellow"))
    why = result.get("not_timed") or {}
    if why:
        console.print()
        console.print(Text("not timed:", style="bold"))
        for name, reason in why.items():
            console.print(f"  {name}: {reason}", soft_wrap=True)


def plot(result: dict, path: str) -> None:
    """TFLOP/s against sequence length, one line per backend (needs matplotlib: the plot extra)."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise UsageError("--plot needs matplotlib: pip install matplotlib") from None
    import io
    import os

    from ..fsutil import write_atomic

    fig, axes = plt.subplots(1, 2 if result.get("backward") else 1, figsize=(11 if result.get("backward") else 6.5, 4.2),
                             squeeze=False)
    labels = sorted({r["label"] for r in result["results"]})
    colors = {lab: plt.get_cmap("tab10")(i % 10) for i, lab in enumerate(labels)}  # one colour per backend
    for ax, key, title in zip(axes[0], ("fwd", "fwd_bwd"), ("forward", "forward + backward")):
        for lab in labels:
            pts = sorted((r["shape"]["seqlen"], r[key]["tflops"]) for r in result["results"]
                         if r["label"] == lab and r.get(key) and not r.get("wrong"))
            if pts:
                ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", label=lab, color=colors[lab])
        ceil = (result.get("ceiling") or {}).get("tflops") if result.get("device") != "cpu" else None
        if ceil:
            ax.axhline(ceil, color="grey", linestyle="--", linewidth=1, label=f"matmul ceiling {ceil:.0f}")
        ax.set_xscale("log", base=2)
        ax.set_xlabel("sequence length")
        ax.set_ylabel("TFLOP/s")
        ax.set_title(title)
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize=7)
    s = result["shapes"][0]
    where = result["device"] + (f" ({result['gpu']})" if result.get("gpu") else "")
    fig.suptitle(f"attention on {where}: heads {s['heads']}, dim {s['head_dim']}, {s['dtype']}, "
                 f"{'causal' if s['causal'] else 'full'}", fontsize=10)
    fig.tight_layout()
    buf = io.BytesIO()
    ext = os.path.splitext(path)[1].lower().lstrip(".") or "png"
    if ext not in ("png", "svg", "pdf"):
        raise UsageError(f"--plot: {path} must end in .png, .svg or .pdf")
    fig.savefig(buf, format=ext, dpi=130)
    plt.close(fig)
    write_atomic(path, buf.getvalue())
