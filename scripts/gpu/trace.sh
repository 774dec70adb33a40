#!/usr/bin/env bash
# Issue 21 (`attn-doctor trace`) on a lent H100, from the repo root, with the image's python3 (torch 2.11+cu130,
# triton 3.6.0, and the staged flash-attn-4 / quack-kernels / nvidia-cutlass-dsl / sageattention 1.0.6).
# About 3-5 minutes; every step is bounded by `timeout`. Everything lands in $OUT/trace/ (7 files):
#   sdpa.json   SDPA with flash / efficient / cuDNN each forced once, the dispatcher's pick, fp32, a causal mask
#               tensor, head dim 512 (scripts/gpu/trace_cases/sdpa.py)
#   flex.json   FlexAttention eager and compiled (trace_cases/flex.py)
#   fa4.json    FA4 via flash_attn.cute, and via SDPA's registered FA4 impl where torch has it (trace_cases/fa4.py)
#   sage.json   sageattn directly, and swapped in for F.scaled_dot_product_attention (trace_cases/sage.py)
#   overhead.json  benchmarks/trace_overhead.py on the GPU (the hook's cost per training step)
#   log.txt     each case's text report (what `attn-doctor trace` prints) and the programs' own output
#   summary.txt one PASS/FAIL line per expectation, then the table printed last
set -u
OUT=${OUT:-/tmp/out}; R="$OUT/trace"; mkdir -p "$R"
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 NO_COLOR=1
export TORCHINDUCTOR_CACHE_DIR=${TORCHINDUCTOR_CACHE_DIR:-/tmp/attn-doctor-trace-inductor}
log="$R/log.txt"; sum="$R/summary.txt"; : >"$log"; : >"$sum"
{ date -u; nvidia-smi --query-gpu=name,compute_cap,driver_version --format=csv,noheader
  python3 -c 'import torch; print("torch", torch.__version__, "cuda", torch.version.cuda)'; } >>"$log" 2>&1

case_run() {  # name, timeout, script
  echo "===== $1: attn-doctor trace -v -- python3 $3 =====" >>"$log"
  timeout "$2" python3 -m attn_doctor trace -v --json "$R/$1.json" -- python3 "$3" >>"$log" 2>&1
  echo "(exit $?)" >>"$log"
}

case_run sdpa 150 scripts/gpu/trace_cases/sdpa.py
case_run flex 200 scripts/gpu/trace_cases/flex.py
case_run fa4 200 scripts/gpu/trace_cases/fa4.py
case_run sage 150 scripts/gpu/trace_cases/sage.py
echo "===== overhead: benchmarks/trace_overhead.py =====" >>"$log"
timeout 200 python3 benchmarks/trace_overhead.py --out "$R/overhead.json" \
  --note "lent H100, torch 2.11+cu130 (scripts/gpu/trace.sh)" >>"$log" 2>&1
echo "(exit $?)" >>"$log"

python3 - "$R" >>"$sum" 2>&1 <<'PY'
import json, os, sys
R = sys.argv[1]
def load(name):
    try:
        return json.load(open(os.path.join(R, name + ".json")))
    except Exception as e:
        print(f"FAIL {name}: no report ({type(e).__name__}: {e})")
        return None
def rows(rep, **kw):
    return [c for c in (rep or {}).get("calls", []) if all(c.get(k) == v for k, v in kw.items())]
def at(rep, fn):
    return [c for c in (rep or {}).get("calls", []) if c.get("function") == fn]
def ids(rep):
    return sorted({f["id"] for f in (rep or {}).get("findings", [])})
def verdict(ok, what, seen):
    print(("PASS" if ok else "FAIL"), what, "|", seen)
table = []
s = load("sdpa")
if s:
    for fn, want in (("forced_flash", "flash"), ("forced_efficient", "efficient"), ("forced_cudnn", "cudnn")):
        r = at(s, fn)
        verdict(r and r[0]["kernel"].startswith(want), f"sdpa {fn} -> {want}", [(c["kernel"], c["count"]) for c in r])
    for fn in ("dispatcher_pick", "float32", "causal_mask_tensor", "head_dim_512"):
        r = at(s, fn)
        print("INFO", f"sdpa {fn}:", [(c["kernel"], c["dtype"], c["mask"], c.get("reason", "")[:120], c.get("raised")) for c in r])
    verdict("trace.sdpa-fp32" in ids(s), "sdpa fp32 -> trace.sdpa-fp32", ids(s))
    verdict("trace.sdpa-flash-disabled" in ids(s), "sdpa forced efficient -> trace.sdpa-flash-disabled", ids(s))
    table += [(c["backend"], c["function"], c["kernel"], c["compiled"], c["count"]) for c in s["calls"]]
f = load("flex")
if f:
    e, c = rows(f, backend="flex", compiled=False), rows(f, backend="flex", compiled=True)
    verdict(e and e[0]["kernel"] == "unfused (eager)" and "trace.flex-eager" in ids(f), "flex eager -> unfused + trace.flex-eager",
            [(x["kernel"], x["count"]) for x in e])
    verdict(c and "Triton" in c[0]["kernel"], "flex compiled -> fused (Inductor: Triton)", [(x["kernel"], x["count"]) for x in c])
    table += [("flex", x["site"], x["kernel"], x["compiled"], x["count"]) for x in f["calls"]]
a = load("fa4")
if a:
    cute = rows(a, backend="cute")
    verdict(cute and not cute[0].get("raised"), "cute via flash_attn.cute.flash_attn_func", [(x["kernel"], x["count"], x.get("raised")) for x in cute])
    via = [x for x in rows(a, backend="sdpa")]
    print("INFO sdpa FA4 route:", [(x["kernel"], x.get("flash_impl"), x["count"], x.get("raised")) for x in via] or "no SDPA call (see log.txt)")
    table += [(x["backend"], x["site"], x["kernel"], x["compiled"], x["count"]) for x in a["calls"]]
g = load("sage")
if g:
    sg = rows(g, backend="sage")
    verdict(len(sg) == 2 and "trace.entry-patched" in ids(g), "sage direct + swapped in for F.sdpa (trace.entry-patched)",
            [(x["site"], x["count"]) for x in sg])
    table += [("sage", x["site"], x["kernel"], x["compiled"], x["count"]) for x in g["calls"]]
try:
    o = json.load(open(os.path.join(R, "overhead.json")))
    verdict(o["overhead_pct"] <= 5 and o["estimated_overhead_pct"] <= 5, "overhead <= 5% of a step",
            f"plain {o['step_ms_plain']} ms, traced {o['step_ms_traced']} ms: {o['overhead_pct']}% measured, "
            f"{o['estimated_overhead_pct']}% estimated ({o['wrapper_us_per_call']} us/call)")
except Exception as e:
    print("FAIL overhead:", type(e).__name__, e)
print()
print(f"{'case':6} {'site / function':34} {'kernel':34} {'compiled':8} {'count':>6}")
for case, where, kernel, compiled, count in table:
    print(f"{case:6} {str(where)[-34:]:34} {str(kernel)[:34]:34} {str(compiled):8} {count:>6}")
PY
cat "$sum"
