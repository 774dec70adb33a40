"""`attn-doctor bench`: which correct backend is fastest at the user's shapes, and how to pick it.

Only backends whose smoke tests passed are timed, one child process at a time on the GPU (timings
taken side by side would disturb each other). SDPA is timed as its default choice and as each
fused sub-kernel. The GPU's own matmul rate is measured once as the ceiling.
"""

from __future__ import annotations

import json

from .. import __version__, proc
from ..backends import SPECS
from .child import RESULT, SENTINEL

SCHEMA = "attn-doctor.bench/1"
SDPA_VARIANTS = ("flash", "cudnn", "efficient")
TOL = {"float16": 1e-2, "bfloat16": 3e-2, "float32": 5e-3}
SAGE_TOL = 1e-1


def shapes_from(seqlens: list[int], batch: int | None, heads: int, kv_heads: int | None, head_dim: int,
                dtype: str, causal: bool, tokens: int = 32768) -> list[dict]:
    """One shape per sequence length; without --batch, batch x seqlen stays near `tokens`."""
    out = []
    for s in seqlens:
        b = batch if batch else max(1, tokens // s)
        out.append({"batch": b, "seqlen": s, "heads": heads, "kv_heads": kv_heads or heads, "head_dim": head_dim,
                    "dtype": dtype, "causal": causal})
    return out


from ..model import UsageError  # noqa: E402

DTYPE_BYTES = {"bfloat16": 2, "float16": 2, "float32": 4}
GIB = 1024 ** 3


def need_bytes(s: dict, backward: bool) -> int:
    """The least memory one shape's tensors take: q and the output per query head, k and v per
    key/value head (their gradients too when backward is timed). Any kernel needs more: a lower bound."""
    per = s["batch"] * s["seqlen"] * s["head_dim"] * DTYPE_BYTES.get(s["dtype"], 4)
    n = 2 * s["heads"] + 2 * (s.get("kv_heads") or s["heads"])
    return per * n * (2 if backward else 1)


def memory_of(facts: dict, device: int | None) -> tuple[int | None, str]:
    """(bytes, what) the timing runs on: the GPU's memory, or the host's available memory."""
    from ..facts import view

    if device is not None:
        g = next((g for g in view.gpus(facts) if g.get("index") == device), None)
        if g and g.get("memory_mib"):
            return g["memory_mib"] * 1024 ** 2, f"GPU {device} ({g.get('name')})"
    mem = ((facts.get("system") or {}).get("memory") or {})
    have = mem.get("available_bytes") or mem.get("total_bytes")
    limit = mem.get("cgroup_limit_bytes")
    if limit and (not have or limit < have):
        have = limit
    return have, "this machine's memory"


def fits(shapes: list[dict], backward: bool, memory: tuple[int | None, str]) -> None:
    """Refuse, before any timing, a shape whose tensors alone cannot fit (report row 18: a batch of
    100000 ran for two minutes, then every child was killed)."""
    have, what = memory
    if not have:
        return
    for s in shapes:
        need = need_bytes(s, backward)
        if need > have:
            raise UsageError(f"bench: batch {s['batch']} x seqlen {s['seqlen']} x {s['heads']} heads x head dim "
                             f"{s['head_dim']} needs at least {need / GIB:.1f} GiB for its tensors; {what} has "
                             f"{have / GIB:.1f} GiB: choose a smaller --batch, --seqlen or --head-dim")


def error_text(err) -> str:
    """A child's error as one line of text (it may come as the record's dict)."""
    if isinstance(err, dict):
        msg = [ln for ln in str(err.get("message") or "").splitlines() if ln.strip()]
        return f"{err.get('type') or 'error'}: {msg[0][:200] if msg else ''}"
    return str(err)


def label(backend: str, variant: str | None) -> str:
    return f"{backend}:{variant}" if variant else backend


def entries(statuses: dict[str, dict], device: str, only: list[str] | None) -> list[tuple[str, str | None]]:
    """(backend, variant) pairs to time: every ok backend; SDPA also per fused sub-kernel on a GPU."""
    out = []
    for name, row in statuses.items():
        if row.get("status") != "ok" or (only and name not in only):
            continue
        if device == "cpu" and not SPECS[name].cpu:
            continue
        out.append((name, None))
        if name == "sdpa" and device != "cpu":
            out += [("sdpa", v) for v in SDPA_VARIANTS]
    return out


def not_timed(statuses: dict[str, dict], device: str, only: list[str] | None, any_timed: bool = True) -> dict[str, str]:
    """Why each backend that is not timed is not: its status and reason, or the CPU. Backends not
    installed are listed when asked for (--backend) or when nothing could be timed."""
    out = {}
    for name, row in statuses.items():
        if only and name not in only:
            continue
        if row.get("status") != "ok":
            if not only and any_timed and row.get("status") in ("missing", "skipped"):
                continue  # not installed / not asked for: the default run does not list them
            out[name] = f"{row.get('status')}: {row.get('reason') or 'no reason recorded'}"
        elif device == "cpu" and not SPECS[name].cpu:
            out[name] = "needs a CUDA GPU; this run is on the CPU"
    return out


def _read(path: str) -> tuple[list[dict], dict | None]:
    recs, final = [], None
    try:
        with open(path, encoding="utf-8", errors="replace") as fh:
            for line in fh:
                try:
                    if line.startswith(RESULT):
                        recs.append(json.loads(line[len(RESULT):]))
                    elif line.startswith(SENTINEL):
                        final = json.loads(line[len(SENTINEL):])
                except ValueError:
                    continue
    except OSError:
        pass
    return recs, final


def run_child(plan: dict, timeout: float, python: str | None = None) -> dict:
    path = proc.temp_path("attn-doctor-bench-", ".jsonl")
    plan = dict(plan, results_path=path)
    r = proc.run(proc.child_argv("bench.child", json.dumps(plan), python=python), timeout=timeout)
    recs, final = _read(path)
    proc.discard(path)
    return {"records": recs, "final": final, "timed_out": r.timed_out, "signal": r.signal_name,
            "returncode": r.returncode, "stderr_tail": r.stderr[-2000:], "seconds": round(r.seconds, 2)}


def run(statuses: dict[str, dict], shapes: list[dict], device: str, backward: bool, timeout: float,
        only: list[str] | None = None, min_time: float = 1.0, max_iters: int = 200, progress=None,
        python: str | None = None) -> dict:
    """Time every (backend, variant) at every shape, one child after another."""
    todo = entries(statuses, device, only)
    ceiling = None
    # The roof is worth measuring only when something will be read against it, and only on a GPU: a CPU's
    # matmul (bf16 has no fast path on most) is no roof for its attention, which beat it (new-user row 11).
    if todo and device != "cpu":
        ceil = run_child({"device": device, "ceiling": True, "dtype": shapes[0]["dtype"]}, timeout, python)
        ceiling = next((r["ceiling"] for r in ceil["records"] if "ceiling" in r), None)
    results = []
    for i, (name, variant) in enumerate(todo):
        if progress:
            progress(f"timing {label(name, variant)} ({i + 1}/{len(todo)})")
        spec = SPECS[name]
        bwd = backward and spec.training and statuses[name].get("forward_only") is not True
        dts = [s for s in shapes if s["dtype"] in spec.dtypes]
        plan = {"backend": name, "variant": variant, "device": device, "shapes": dts, "backward": bwd,
                "tol": SAGE_TOL if name == "sage" else TOL.get(shapes[0]["dtype"], 3e-2),
                "min_time": min_time, "max_iters": max_iters}
        out = run_child(plan, timeout, python)
        base = {"backend": name, "variant": variant, "label": label(name, variant), "backward_timed": bwd}
        by_shape = {json.dumps(r["shape"], sort_keys=True): r for r in out["records"] if "shape" in r}
        for s in shapes:
            rec = by_shape.get(json.dumps(s, sort_keys=True))
            row = dict(base, shape=s)
            if s not in dts:
                row["skipped"] = f"{name} does not take {s['dtype']}"
            elif rec is None:
                row["error"] = ("timed out" if out["timed_out"] else
                                f"crashed ({out['signal']}){': out of memory, most likely' if out['signal'] == 'SIGKILL' else ''}"
                                if out["signal"] else error_text((out["final"] or {}).get("error") or "no result"))
            else:
                row.update({k: v for k, v in rec.items() if k != "shape"})
                if row.get("error") is not None:
                    row["error"] = error_text(row["error"])
            results.append(row)
    return {"schema": SCHEMA, "tool_version": __version__, "device": device, "ceiling": ceiling,
            "backward": backward, "shapes": shapes, "results": results,
            "not_timed": not_timed(statuses, device, only, any_timed=bool(todo)),
            "recommendations": recommend(shapes, results, backward)}


def usable(row: dict) -> bool:
    return bool(row.get("fwd")) and not row.get("wrong") and not row.get("error") and not row.get("skipped")


def recommend(shapes: list[dict], results: list[dict], backward: bool) -> list[dict]:
    """Per shape: the fastest correct backend (for training when backward was timed), and its gain over
    plain SDPA."""
    out = []
    for s in shapes:
        rows = [r for r in results if r["shape"] == s and usable(r)]
        train = [r for r in rows if r.get("fwd_bwd")]
        key = "fwd_bwd" if backward and train else "fwd"
        pool = train if key == "fwd_bwd" else rows
        if not pool:
            out.append({"shape": s, "best": None, "why": "no backend produced a correct, timed result"})
            continue
        best = min(pool, key=lambda r: r[key]["median"])
        sdpa = next((r for r in pool if r["backend"] == "sdpa" and r["variant"] is None), None)
        rec = {"shape": s, "best": best["label"], "metric": key, "median_ms": best[key]["median"] * 1e3,
               "tflops": best[key]["tflops"]}
        if sdpa:
            rec["speedup_vs_sdpa"] = sdpa[key]["median"] / best[key]["median"]
        rec["select"] = how_to_select(best["backend"], best["variant"])
        out.append(rec)
    return out


def how_to_select(backend: str, variant: str | None = None) -> dict:
    """How each trainer picks this backend, from the trainer name tables in attn_doctor.configs."""
    from ..configs import diffusers as dz
    from ..configs import musubi, simpletuner

    diff = [n for n, (b, masks, _alt, kern) in dz.LOCAL.items() if b == backend and kern == variant]
    diff.sort(key=lambda n: (dz.LOCAL[n][1] != "yes", n))  # mask-safe names first
    if backend == "sdpa" and variant is None:
        diff = ["native"]
    st = [simpletuner.FROM_DIFFUSERS[n] for n in diff if n in simpletuner.FROM_DIFFUSERS]
    if backend == "sdpa" and variant is None:
        st = ["diffusers"]
    elif backend == "xformers":
        st = ["xformers"]
    elif backend == "sage":
        st = ["sageattention"]
    flag = next((f"--{f}" for f, b in musubi.FLAGS.items() if b == backend and variant is None), None)
    out = {"diffusers": diff[0] if diff else None, "simpletuner": st[0] if st else None, "musubi": flag}
    if backend == "cute":  # --cute is blissful-tuner's (musubi-tuner's fork), not musubi-tuner's own
        out.update(musubi=None, blissful=flag)
        out["note"] = ("diffusers and SimpleTuner reach FA4 only as the Hub kernel flash_4_hub / "
                       "flash-attn-4-hub, not this flash-attn-4 install")
    if backend == "sage":
        out["note"] = "forward only: for inference/validation, never for training"
    return out

