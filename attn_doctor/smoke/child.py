"""Runs in a child interpreter: import torch and one backend, run its smoke cases, stream results.

Only the standard library, torch, the backend and its attn_doctor adapter module are imported.
Every case prints a START line before it runs and a CASE line after, so when the child hangs or
dies the parent knows which case did it and keeps the results of the others.

Numerics: outputs (and gradients) are compared with a float64 reference computed from the same
rounded inputs: ‖out − ref‖ / ‖ref‖ against a per-dtype tolerance, plus the worst single row, so
one wrong row among thousands still fails. NaN never passes. Memory is poisoned with NaN before
each call, so an output element the kernel never wrote shows up as NaN.
"""

from __future__ import annotations

import importlib
import json
import math
import os
import sys
import time
import traceback

START, CASE, SENTINEL = "@@ATTN_DOCTOR_START@@", "@@ATTN_DOCTOR_CASE@@", "@@ATTN_DOCTOR@@"
# FlashAttention 2 and 3 builds with FLASHATTENTION_DISABLE_* switches (or reduced kernel sets) refuse
# what they left out with this sentence (flash-attn csrc/flash_attn/flash_api.cpp, hopper/flash_api*.cpp):
# such a case is "not in this build", not a failure of the kernels that are there.
NOT_BUILT = "This flash attention build does not support"
IMPORT, PLAN = "@@ATTN_DOCTOR_IMPORT@@", "@@ATTN_DOCTOR_PLAN@@"


_OUT = None  # the results file the parent gave us: immune to whatever the backend prints
TIMED_REPEATS = 5


def emit(tag: str, obj) -> None:
    line = tag + json.dumps(obj, default=str) + "\n"
    if _OUT is not None:
        _OUT.write(line)
        _OUT.flush()
    if tag == SENTINEL:
        sys.stdout.write(line)
        sys.stdout.flush()


def _err(e: BaseException) -> dict:
    tb = "".join(traceback.format_exception(type(e), e, e.__traceback__))
    return {"type": type(e).__name__, "message": str(e)[:2000], "traceback": tb[-5000:]}


class Runner:
    def __init__(self, torch, adapter, handle, device: str, seed: int):
        self.torch, self.adapter, self.handle, self.device = torch, adapter, handle, device
        self.seed = seed
        self.cuda = device.startswith("cuda")

    # ---- inputs and reference -------------------------------------------------------------
    def randn(self, shape, dtype, salt: int):
        t = self.torch
        g = t.Generator(device="cpu").manual_seed(self.seed * 1000 + salt)
        return t.randn(*shape, generator=g, dtype=t.float32).to(dtype).to(self.device)

    def dtype(self, name: str):
        return getattr(self.torch, name)

    def sync(self):
        if self.cuda:
            self.torch.cuda.synchronize(self.device)

    def poison(self, nbytes: list[int]) -> None:
        """Fill freed allocator blocks of these sizes with NaN: a kernel that leaves part of its
        output unwritten then shows NaN instead of stale zeros."""
        if not self.cuda:
            return
        t = self.torch
        junk = [t.full((max(1, n // 4),), float("nan"), dtype=t.float32, device=self.device) for n in nbytes for _ in range(2)]
        del junk

    @staticmethod
    def ref_attention(torch, q, k, v, causal: bool, scale: float, segments=None):
        """float64 attention on (B, S, H, D) inputs; GQA by repeating kv heads; `segments` is a
        (S,) tensor of segment ids (block-diagonal attention) or None."""
        q, k, v = q.double(), k.double(), v.double()
        rep = q.shape[2] // k.shape[2]
        if rep > 1:
            k = k.repeat_interleave(rep, dim=2)
            v = v.repeat_interleave(rep, dim=2)
        s = torch.einsum("bqhd,bkhd->bhqk", q, k) * scale
        sq, sk = q.shape[1], k.shape[1]
        mask = torch.ones(sq, sk, dtype=torch.bool, device=q.device)
        if causal:
            mask &= torch.ones(sq, sk, dtype=torch.bool, device=q.device).tril(sk - sq)
        if segments is not None:
            mask &= segments[:, None] == segments[None, :]
        s = s.masked_fill(~mask, float("-inf"))
        p = torch.softmax(s, dim=-1)
        p = torch.nan_to_num(p, nan=0.0)  # rows with nothing to attend to
        return torch.einsum("bhqk,bkhd->bqhd", p, v)

    def compare(self, out, ref) -> dict:
        t = self.torch
        out64 = out.detach().double()
        finite = bool(t.isfinite(out64).all())
        if not finite:
            bad = int((~t.isfinite(out64)).sum())
            return {"rel_err": None, "row_err": None, "nonfinite": bad}
        diff = out64 - ref
        denom = float(ref.norm()) or 1.0
        rel = float(diff.norm()) / denom
        # The worst row's error against a typical row's size: one wrong row among thousands stands
        # out, while rows that are legitimately near zero (causal gradients) do not.
        typical = float(ref.norm(dim=-1).mean()) or 1.0
        row = float(diff.norm(dim=-1).max()) / typical
        return {"rel_err": rel, "row_err": row, "nonfinite": 0}

    # ---- cases ----------------------------------------------------------------------------
    def dense(self, c: dict) -> dict:
        t = self.torch
        B, S, H, KVH, D = c["batch"], c["seqlen"], c["heads"], c["kv_heads"], c["head_dim"]
        dt = self.dtype(c["dtype"])
        scale = D ** -0.5
        q = self.randn((B, S, H, D), dt, 1)
        k = self.randn((B, S, KVH, D), dt, 2)
        v = self.randn((B, S, KVH, D), dt, 3)
        res: dict = {}
        fwd = lambda q_, k_, v_: self.adapter.forward(self.handle, t, q_, k_, v_, causal=c["causal"], scale=scale)
        # what the call was given (a kernel must not write into its inputs), copied before the poison so that the copies
        # do not take the NaN-filled blocks the output is meant to land on
        kept = (q.clone(), k.clone(), v.clone())
        self.poison([q.numel() * q.element_size()])
        t0 = time.perf_counter()
        out = fwd(q, k, v)
        self.sync()
        res["first_seconds"] = time.perf_counter() - t0
        changed = [n for n, now, was in zip("qkv", (q, k, v), kept) if not t.equal(now, was)]
        if changed:  # SageAttention 1.0.6 subtracts k's mean from the caller's k in place (fixed upstream in e1cac2f)
            res["inputs_changed"] = changed
            q, k, v = kept  # the reference and every later call from the inputs as given
        ref = self.ref_attention(t, q, k, v, c["causal"], scale)
        res.update(self.compare(out, ref))
        t0 = time.perf_counter()
        out2 = fwd(q, k, v)
        self.sync()
        res["seconds"] = time.perf_counter() - t0
        res["compile_seconds"] = max(0.0, res["first_seconds"] - res["seconds"])
        res["deterministic_fwd"] = bool(t.equal(out, out2))
        # The timed case (checks/throughput.py): a few more calls, the fastest counts. One call alone
        # is at the mercy of the other smoke children sharing the CPU.
        best = res["seconds"]
        for _ in range(TIMED_REPEATS):
            t0 = time.perf_counter()
            fwd(q, k, v)
            self.sync()
            best = min(best, time.perf_counter() - t0)
        res["seconds_min"] = best
        if c.get("backward"):
            res["bwd"] = self.backward(c, q, k, v, scale, fwd)
        return res

    def backward(self, c, q, k, v, scale, fwd) -> dict:
        t = self.torch
        leaves = [x.detach().clone().requires_grad_(True) for x in (q, k, v)]
        dout = self.randn(tuple(q.shape), q.dtype, 4)
        self.poison([x.numel() * x.element_size() for x in leaves])
        t0 = time.perf_counter()
        out = fwd(*leaves)
        (out.float() * dout.float()).sum().backward()
        self.sync()
        first = time.perf_counter() - t0
        refs = [x.detach().double().requires_grad_(True) for x in (q, k, v)]
        rout = self.ref_attention(t, *refs, c["causal"], scale)
        (rout * dout.double()).sum().backward()
        worst: dict = {"rel_err": 0.0, "row_err": 0.0, "nonfinite": 0}
        for name, got, want in zip("qkv", leaves, refs):
            if got.grad is None:
                return {"error": {"type": "NoGrad", "message": f"d{name} was not computed"}}
            m = self.compare(got.grad, want.grad)
            if m["nonfinite"]:
                worst["nonfinite"] += m["nonfinite"]
                worst["grad"] = f"d{name}"
                continue
            if m["rel_err"] > (worst["rel_err"] or 0):
                worst["rel_err"], worst["grad"] = m["rel_err"], f"d{name}"
            worst["row_err"] = max(worst["row_err"] or 0, m["row_err"])
        if worst["nonfinite"]:
            worst["rel_err"] = worst["row_err"] = None
        for x in leaves:
            x.grad = None
        t0 = time.perf_counter()
        out = fwd(*leaves)
        (out.float() * dout.float()).sum().backward()
        self.sync()
        worst["seconds"] = time.perf_counter() - t0
        worst["first_seconds"] = first
        worst["compile_seconds"] = max(0.0, first - worst["seconds"])
        return worst

    def varlen(self, c: dict) -> dict:
        """Packed sequences of different lengths (+ trailing padding rows of garbage): each
        sequence must equal its own attention computed alone, padding must change nothing, and
        changing the other sequences must not change the first one."""
        t = self.torch
        H, KVH, D = c["heads"], c["kv_heads"], c["head_dim"]
        lens, pad = c["lens"], c.get("pad", 0)
        dt = self.dtype(c["dtype"])
        scale = D ** -0.5
        total = sum(lens)
        q = self.randn((total + pad, H, D), dt, 11)
        k = self.randn((total + pad, KVH, D), dt, 12)
        v = self.randn((total + pad, KVH, D), dt, 13)
        cu = t.tensor([0] + list(_cumsum(lens)), dtype=t.int32, device=self.device)
        call = lambda q_, k_, v_: self.adapter.varlen(self.handle, t, q_, k_, v_, cu_q=cu, cu_k=cu, max_q=max(lens),
                                                     max_k=max(lens), causal=c["causal"], scale=scale)
        self.poison([q.numel() * q.element_size()])
        t0 = time.perf_counter()
        out = call(q, k, v)
        self.sync()
        res: dict = {"first_seconds": time.perf_counter() - t0}
        seg = t.repeat_interleave(t.arange(len(lens), device=self.device), t.tensor(lens, device=self.device))
        ref = self.ref_attention(t, q[None, :total], k[None, :total], v[None, :total], c["causal"], scale, seg)[0]
        res.update(self.compare(out[:total], ref))
        if res["nonfinite"]:
            return res
        # padding garbage changed: valid rows must not move
        if pad:
            q2, k2, v2 = q.clone(), k.clone(), v.clone()
            for x in (q2, k2, v2):
                x[total:] = self.randn(tuple(x[total:].shape), dt, 21) * 50
            out_p = call(q2, k2, v2)
            self.sync()
            res["padding_change"] = float((out_p[:total].double() - out[:total].double()).abs().max())
        # other sequences changed: the first must not move
        q3, k3, v3 = q.clone(), k.clone(), v.clone()
        n0 = lens[0]
        for x in (q3, k3, v3):
            x[n0:total] = self.randn(tuple(x[n0:total].shape), dt, 31)
        out_i = call(q3, k3, v3)
        self.sync()
        res["isolation_change"] = float((out_i[:n0].double() - out[:n0].double()).abs().max())
        t0 = time.perf_counter()
        call(q, k, v)
        self.sync()
        res["seconds"] = time.perf_counter() - t0
        res["compile_seconds"] = max(0.0, res["first_seconds"] - res["seconds"])
        return res

    def refusal(self, c: dict) -> dict:
        """A dtype the backend is documented not to take: refusing is right, wrong numbers are not."""
        try:
            res = self.dense(dict(c, backward=False))
        except Exception as e:
            return {"refused": True, "refusal": f"{type(e).__name__}: {str(e).strip().splitlines()[0][:300] if str(e).strip() else ''}"}
        res["refused"] = False
        return res

    def sdpa_kernels(self, c: dict) -> dict:
        """Each SDPA sub-kernel alone, and which one a plain call picks."""
        t = self.torch
        from torch.nn.attention import SDPBackend, sdpa_kernel

        B, S, H, D = c["batch"], c["seqlen"], c["heads"], c["head_dim"]
        dt = self.dtype(c["dtype"])
        q = self.randn((B, H, S, D), dt, 41)
        k = self.randn((B, H, S, D), dt, 42)
        v = self.randn((B, H, S, D), dt, 43)
        ref = self.ref_attention(t, q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2), c["causal"], D ** -0.5)
        kernels = {}
        for name in ("FLASH_ATTENTION", "EFFICIENT_ATTENTION", "CUDNN_ATTENTION", "MATH"):
            be = getattr(SDPBackend, name, None)
            if be is None:
                kernels[name.lower()] = {"ok": False, "refused": "not in this torch"}
                continue
            try:
                with sdpa_kernel([be]):
                    out = t.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=c["causal"])
                self.sync()
                m = self.compare(out.transpose(1, 2), ref)
                kernels[name.lower()] = dict(m, ok=m["nonfinite"] == 0 and m["rel_err"] <= c["tol"])
            except Exception as e:
                msg = str(e).strip().splitlines()[0][:200] if str(e).strip() else type(e).__name__
                kernels[name.lower()] = {"ok": False, "refused": msg}
        picked = None
        choice = getattr(t, "_fused_sdp_choice", None)  # what SDPA's dispatcher picks, without running it
        if choice is not None:
            try:
                idx = int(choice(q, k, v, None, 0.0, c["causal"]))
                names = {int(getattr(SDPBackend, n)): n.lower() for n in
                         ("MATH", "FLASH_ATTENTION", "EFFICIENT_ATTENTION", "CUDNN_ATTENTION", "OVERRIDEABLE", "ERROR")
                         if hasattr(SDPBackend, n)}
                picked = names.get(idx, f"backend {idx}")
            except Exception as e:
                picked = f"unknown ({type(e).__name__})"
        return {"kernels": kernels, "default": picked}


def _cumsum(xs):
    s = 0
    for x in xs:
        s += x
        yield s


def classify_numbers(case: dict, res: dict) -> None:
    """ok / failure reason from the measured numbers and the case's tolerances."""
    tol, row_tol = case["tol"], case["row_tol"]
    problems = []
    if case["kind"] == "refusal" and res.get("refused"):
        res["ok"] = True
        return
    if case["kind"] == "sdpa-kernels":
        res["ok"] = any(k.get("ok") for k in res["kernels"].values())
        if not res["ok"]:
            problems.append("no SDPA sub-kernel produced a correct result")
        res["problems"] = problems
        return
    if res.get("nonfinite"):
        problems.append(f"{res['nonfinite']} output values are NaN/inf (unwritten or overflowed)")
    elif res.get("rel_err") is not None and res["rel_err"] > tol:
        problems.append(f"output differs from the float64 reference: rel err {res['rel_err']:.2e} > {tol:.0e}")
    elif res.get("row_err") is not None and res["row_err"] > row_tol:
        problems.append(f"a row of the output is wrong: worst row rel err {res['row_err']:.2e} > {row_tol:.0e}")
    if res.get("padding_change", 0) > case.get("leak_tol", 0):
        problems.append(f"changing padding tokens changed valid outputs by {res['padding_change']:.2e}")
    if res.get("isolation_change", 0) > case.get("leak_tol", 0):
        problems.append(f"changing other sequences changed the first one by {res['isolation_change']:.2e}")
    b = res.get("bwd")
    if b:
        if b.get("error"):
            problems.append(f"backward failed: {b['error'].get('type')}: {b['error'].get('message')}")
        elif b.get("nonfinite"):
            problems.append(f"{b['nonfinite']} gradient values are NaN/inf ({b.get('grad')})")
        elif b["rel_err"] > tol * 2.5:
            problems.append(f"gradient {b.get('grad')} differs from the reference: rel err {b['rel_err']:.2e} > {tol * 2.5:.0e}")
        elif b["row_err"] > row_tol * 2.5:
            problems.append(f"a row of gradient {b.get('grad')} is wrong: worst row rel err {b['row_err']:.2e}")
    res["problems"] = problems
    res["ok"] = not problems


def load_adapter(spec: str):
    """'cute' → attn_doctor.backends.cute; 'pkg.mod:attr' → a test adapter object."""
    if ":" in spec:
        mod, attr = spec.split(":", 1)
        return getattr(importlib.import_module(mod), attr)
    return importlib.import_module(f"attn_doctor.backends.{spec}")


def import_stage(torch, plan: dict) -> dict:
    """The import probe: run the backend's import statement, recording time, warnings, error."""
    import warnings

    rec: dict = {"ok": False}
    code = plan.get("import_code")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        t1 = time.perf_counter()
        try:
            if code:
                exec(compile(code, "<attn-doctor import probe>", "exec"), {})
        except BaseException as e:
            rec.update(stage="backend", error=dict(_err(e), name=getattr(e, "name", None)))
        else:
            rec["ok"] = True
        rec["seconds"] = round(time.perf_counter() - t1, 3)
        rec["warnings"] = [f"{w.category.__name__}: {w.message}"[:2000] for w in caught][:20]
    return rec


def main() -> None:
    """plan: {backend, device, adapter?, import_code?, cases? | auto?: {level, dtype, head_dims}, results_path}."""
    global _OUT
    plan = json.loads(sys.argv[1])
    if plan.get("results_path"):
        _OUT = open(plan["results_path"], "a", encoding="utf-8")
    try:
        _main(plan)
    finally:
        if _OUT is not None:
            _OUT.flush()
        sys.stdout.flush()
        sys.stderr.flush()
        # Skip interpreter teardown: compile worker pools and CUDA contexts can take seconds to
        # shut down (or hang); every result is already written.
        os._exit(0)


def _main(plan: dict) -> None:
    info: dict = {"pid": os.getpid()}
    t0 = time.perf_counter()
    try:
        import torch
    except BaseException as e:
        emit(IMPORT, {"ok": False, "stage": "torch", "error": _err(e)})
        emit(SENTINEL, {"stage": "torch", "error": _err(e)})
        return
    info["torch_seconds"] = round(time.perf_counter() - t0, 3)
    rec = import_stage(torch, plan)
    rec["torch_seconds"] = info["torch_seconds"]
    emit(IMPORT, rec)
    if not rec["ok"]:
        emit(SENTINEL, dict(info, stage="import", error=rec["error"]))
        return
    cases = plan.get("cases")
    if cases is None and plan.get("auto") is None:
        emit(SENTINEL, dict(info, stage="done"))  # an import probe only
        return
    device = plan["device"]
    try:
        cap = None
        if device.startswith("cuda"):
            torch.cuda.set_device(device)
            cap = tuple(torch.cuda.get_device_capability(device))
            info["gpu"] = torch.cuda.get_device_name(device)
            info["capability"] = list(cap)
        if cases is None:
            from attn_doctor.smoke.plan import auto_dtype, plan as make_plan

            auto = plan["auto"]
            # (torch's TorchVersion compares with a string: whether its is_bf16_supported() counts emulation, 2.3+)
            dtype = auto_dtype(auto, cap, torch.__version__ >= "2.3")
            cases, notes = make_plan(plan["backend"], cap, level=auto.get("level", "standard"),
                                     dtype=dtype, head_dims=auto.get("head_dims"))
            emit(PLAN, {"cases": [c["name"] for c in cases], "notes": notes})
        adapter = load_adapter(plan.get("adapter") or plan["backend"])
        t1 = time.perf_counter()
        handle = adapter.load(torch)
        info["load_seconds"] = round(time.perf_counter() - t1, 3)
    except BaseException as e:
        emit(SENTINEL, dict(info, stage="load", error=_err(e)))
        return
    if hasattr(adapter, "environment"):
        try:
            info["environment"] = adapter.environment(torch)
        except Exception as e:
            info["environment"] = {"error": str(e)[:300]}
    runner = Runner(torch, adapter, handle, device, plan.get("seed", 0))
    broken = None
    for case in cases:
        emit(START, {"name": case["name"]})
        if broken:
            emit(CASE, {"name": case["name"], "ok": False, "skipped": f"not run: the GPU context broke in {broken}"})
            continue
        t0 = time.perf_counter()
        try:
            res = getattr(runner, case["kind"].replace("-", "_"))(case)
            classify_numbers(case, res)
        except BaseException as e:
            res = {"ok": False, "error": _err(e)}
            if NOT_BUILT in str(e):
                first = str(e).strip().splitlines()[0][:300]
                res.update(skipped=f"not in this build: {first}", not_built=True)
            low = str(e).lower()
            if "cuda error" in low or "illegal memory access" in low or "illegal instruction" in low:
                broken = case["name"]  # a sticky CUDA error: later cases would fail for its sake
        res["name"] = case["name"]
        res["wall"] = round(time.perf_counter() - t0, 3)
        for key, val in list(res.items()):
            if isinstance(val, float) and not math.isfinite(val):
                res[key] = None
        emit(CASE, res)
    if hasattr(adapter, "after"):  # what the run left behind (flex: how many graphs it compiled)
        try:
            info["after"] = adapter.after(torch, handle)
        except Exception as e:
            info["after"] = {"error": str(e)[:300]}
    emit(SENTINEL, dict(info, stage="done"))


if __name__ == "__main__":
    main()
