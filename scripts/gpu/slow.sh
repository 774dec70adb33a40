#!/usr/bin/env bash
# Issue 22 on the GPU ("Why will it be slow?"), for the lead to run on the lent H100 from the repo root,
# after `bash scripts/gpu/stage-nvml.sh` here (carry .gpu/nvml) and, for cute/sage, the staged FA4 stack.
# About 6-7 minutes; every step bounded by `timeout`. What it shows, each step a PASS/FAIL line:
#  A  healthy, NVML absent (a shadow `pynvml` that fails to import): full check, cold caches. GPU health
#     read through nvidia-smi and said so; no gpu.*, setting.* or smoke.slow finding (no false finding).
#  B  healthy, NVML present (nvidia-ml-py installed --no-index from .gpu/nvml): full check, warm. Same.
#  C  a second process of ours holds ~70% of the GPU's memory and keeps it busy: gpu.memory-held names
#     its pid, gpu.busy fires.
#  D  each setting class set for real, one at a time: compile off (flex required -> error, flex ran
#     with no graph), Triton interpreter (flex's smoke failure tied to it: smoke.setting), synchronous
#     launches, allocator off, caches off, cuBLAS deterministic workspace, cuDNN SDPA deprioritised
#     (and which SDPA kernel torch then picks), one compile worker, Triton debug: check names each.
#  E  `fix --write-env` then `. ./env.sh`: cache.moved is said; after its cp lines, flex is warm.
#  F  speed: benchmarks/flex_smoke.py (the old adapter, the new one, the new one with one compile
#     worker) and benchmarks/check_vs_fa4_import.py (warm full check, flex alone and the full check
#     with one compile worker, against `import flash_attn.cute`).
# Outputs: $OUT/slow.tgz (every report, log and nvidia-smi capture) and $OUT/summary.txt (the table,
# also printed last). Keep them under fixtures/gpu/h100-issue22/.
set -u
OUT=${OUT:-/tmp/out}; R=${SLOW_DIR:-$(mktemp -d)}; mkdir -p "$OUT" "$R"
# SLOW_PARTS (default ABCDEF): run some parts now and the rest later with the same SLOW_DIR, e.g. A-E
# while other work keeps the CPU busy and F (the timings) once the machine is quiet; the table and the
# tarball come with the part list that holds F.
PARTS=${SLOW_PARTS:-ABCDEF}
part() { case "$PARTS" in *"$1"*) return 0 ;; *) return 1 ;; esac; }
export PYTHONUNBUFFERED=1 NO_COLOR=1 COLUMNS=100
ROOT=$PWD; log="$R/log.txt"; touch "$log"
say() { echo "=== $(date +%T) $*" | tee -a "$log"; }
# Caches: the defaults (under /tmp) until step E, so env.sh has something to move.
unset TORCHINDUCTOR_CACHE_DIR TRITON_CACHE_DIR
export FLASH_ATTENTION_CUTE_DSL_CACHE_ENABLED=1 FLASH_ATTENTION_CUTE_DSL_CACHE_DIR="$HOME/.cache/flash_attention_cute_dsl"
doctor() {  # doctor NAME SECONDS [VAR=value ...] -- check args...
  local name=$1 secs=$2; shift 2
  local envs=()
  while [ "$1" != "--" ]; do envs+=("$1"); shift; done; shift
  local t0=$(date +%s%N)
  env PYTHONPATH="$ROOT${EXTRA_PATH:+:$EXTRA_PATH}" "${envs[@]}" timeout "$secs" \
    python3 -m attn_doctor check --json "$R/$name.json" "$@" >"$R/$name.txt" 2>>"$log"
  local rc=$?
  echo "$rc $(awk -v a="$t0" -v b="$(date +%s%N)" 'BEGIN{printf "%.1f", (b-a)/1e9}')" >"$R/$name.rc"
  say "$name: rc=$rc ($(cut -d' ' -f2 "$R/$name.rc") s)"
}

if part A; then
say "host"
{ nvidia-smi --query-gpu=name,compute_cap,driver_version,memory.total --format=csv,noheader; python3 -V
  python3 -c 'import torch; print("torch", torch.__version__, torch.version.cuda)'
  python3 -c 'import pynvml; print("pynvml already installed:", pynvml.__file__)' 2>&1 | tail -1
  python3 -c 'import importlib.util as u; print("staged: FA4", bool(u.find_spec("flash_attn")), "sage", bool(u.find_spec("sageattention")))'; } >>"$log" 2>&1
# Which cuDNN-SDPA variables this torch's CUDA library reads (the names changed between releases).
lib=$(python3 -c 'import glob, os, torch; print(" ".join(glob.glob(os.path.join(os.path.dirname(torch.__file__), "lib", "libtorch_cuda*.so"))))' 2>/dev/null)
for f in $lib; do echo "$f: $(grep -aoE 'TORCH_CUDNN_SDPA_[A-Z_]+' "$f" | sort -u | tr '\n' ' ')"; done >"$R/sdpa-env-names.txt" 2>&1
cat "$R/sdpa-env-names.txt" >>"$log"

fi
if part A; then
# ---- A: healthy, NVML absent -------------------------------------------------------------------
mkdir -p "$R/nonvml/pynvml"
echo 'raise ImportError("pynvml hidden by scripts/gpu/slow.sh: the nvidia-smi half of the test")' >"$R/nonvml/pynvml/__init__.py"
nvidia-smi -q -d PERFORMANCE,POWER,PCIE,ECC,ROW_REMAPPER,COMPUTE >"$R/health-healthy.txt" 2>&1
EXTRA_PATH="$R/nonvml" doctor a-healthy-smi 200 --
# ---- B: healthy, NVML present --------------------------------------------------------------------
# A pure-Python wheel: if pip may not install into this interpreter, the unpacked wheel on PYTHONPATH does.
if ! python3 -m pip install -q --no-index --no-deps .gpu/nvml/nvidia_ml_py-*.whl >>"$log" 2>&1; then
  say "pip could not install nvidia-ml-py: using the unpacked wheel on PYTHONPATH"
  python3 -m zipfile -e .gpu/nvml/nvidia_ml_py-*.whl "$R/nvmlpkg" >>"$log" 2>&1; EXTRA_PATH="$R/nvmlpkg"
fi
doctor b-healthy-nvml 150 --

fi
if part C; then
# ---- C: a second process of ours holds most of the memory and keeps the GPU busy ------------------
cat >"$R/hog.py" <<'EOF'
# Planted by scripts/gpu/slow.sh: holds ~70% of GPU 0's memory and keeps it busy with matmuls.
import os, sys, time, torch
free, total = torch.cuda.mem_get_info(0)
block = torch.empty(int(total * 0.70), dtype=torch.uint8, device="cuda:0")
a = torch.randn(8192, 8192, device="cuda:0", dtype=torch.bfloat16)
open(sys.argv[1], "w").write(str(os.getpid()))
end = time.time() + float(sys.argv[2])
while time.time() < end:
    for _ in range(20):
        a = (a @ a).clamp_(-1, 1)
    torch.cuda.synchronize()
EOF
timeout 200 python3 "$R/hog.py" "$R/hog.pid" 150 >>"$log" 2>&1 &
hog=$!
for _ in $(seq 60); do [ -s "$R/hog.pid" ] && break; sleep 1; done
sleep 3
nvidia-smi -q -d PERFORMANCE,POWER,PCIE,ECC,ROW_REMAPPER,COMPUTE >"$R/health-busy.txt" 2>&1
nvidia-smi --query-compute-apps=gpu_uuid,pid,process_name,used_memory --format=csv >>"$R/health-busy.txt" 2>&1
doctor c-busy 120 -- -b sdpa
kill "$hog" 2>/dev/null; wait "$hog" 2>/dev/null

fi
if part D; then
# ---- D: each setting class, set for real, one at a time -------------------------------------------
doctor d-compile-off 150 TORCH_COMPILE_DISABLE=1 -- -b flex --require flex
doctor d-interpret 120 TRITON_INTERPRET=1 -- -b flex -b sage --timeout 45
doctor d-launch-blocking 120 CUDA_LAUNCH_BLOCKING=1 -- -b sdpa
doctor d-no-caching 120 PYTORCH_NO_CUDA_MEMORY_CACHING=1 -- -b sdpa
doctor d-cublas-workspace 120 CUBLAS_WORKSPACE_CONFIG=:16:8 -- -b sdpa
doctor d-cudnn-sdpa-down 120 TORCH_CUDNN_SDPA_DEPRIORITIZED=1 TORCH_CUDNN_SDPA_PREFERRED=0 -- -b sdpa
doctor d-caches-off 100 TORCHINDUCTOR_FX_GRAPH_CACHE=0 TORCHINDUCTOR_AUTOGRAD_CACHE=0 TRITON_ALWAYS_COMPILE=1 -- -b flex --no-smoke
doctor d-compile-threads 100 TORCHINDUCTOR_COMPILE_THREADS=1 TRITON_DEBUG=1 TORCH_COMPILE_DEBUG=1 -- -b flex --no-smoke

fi
if part E; then
# ---- E: the cache moved by env.sh ---------------------------------------------------------------
( cd "$R" && PYTHONPATH="$ROOT" timeout 100 python3 -m attn_doctor fix --write-env >"$R/e-fix.txt" 2>&1 )
cp "$R/env.sh" "$R/e-env.sh" 2>/dev/null
( . "$R/env.sh" 2>/dev/null; doctor e-moved 100 -- -b flex --no-smoke )
copy=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(next((f["fix"].split("   #")[0] for f in d["findings"] if f["id"]=="cache.moved"), ""))' "$R/e-moved.json" 2>/dev/null)
echo "copy: $copy" >>"$log"
( . "$R/env.sh" 2>/dev/null; [ -n "$copy" ] && mkdir -p "$TORCHINDUCTOR_CACHE_DIR" "$TRITON_CACHE_DIR" && eval "$copy"; doctor e-after-copy 150 -- -b flex )

fi
if part F; then
# ---- F: speed -------------------------------------------------------------------------------------
# Where torch.compile()'s 7-8 s of imports go on this host (the warm flex child's largest phase).
timeout 60 python3 -X importtime -c 'import torch; from torch.nn.attention.flex_attention import flex_attention; torch.compile(flex_attention)' \
  2>"$R/f-importtime.txt" >/dev/null
sort -t'|' -k2 -n -r "$R/f-importtime.txt" | head -25 >"$R/f-importtime-top.txt"
# --warmup 1: the old adapter's mask functions differ, so its graphs have their own (cold) cache keys.
timeout 150 python3 benchmarks/flex_smoke.py --compare --warmup 1 --runs 1 --device cuda:0 --json "$R/f-flex-smoke.json" >"$R/f-flex-smoke.txt" 2>&1
say "flex_smoke rc=$?"; cat "$R/f-flex-smoke.txt" >>"$log"
timeout 110 python3 benchmarks/check_vs_fa4_import.py --runs 1 --warmup 0 --out "$R/f-fa4-import.json" >"$R/f-fa4-import.txt" 2>&1
say "check_vs_fa4_import rc=$?"; cat "$R/f-fa4-import.txt" >>"$log"

fi
# ---- the table ------------------------------------------------------------------------------------
part F || exit 0
python3 - "$R" <<'EOF' 2>&1 | tee "$R/summary.txt" "$OUT/summary.txt"
import json, os, sys
R = sys.argv[1]
def load(name):
    try:
        rc, secs = open(os.path.join(R, name + ".rc")).read().split()
        return json.load(open(os.path.join(R, name + ".json"))), int(rc), float(secs)
    except (OSError, ValueError) as e:
        return {"_error": str(e)}, -1, 0.0
def ids(d):
    return sorted({f["id"] for f in d.get("findings", [])})
def find(d, fid):
    return [f for f in d.get("findings", []) if f["id"] == fid]
rows = []
def row(step, ok, got):
    rows.append((step, "PASS" if ok else "FAIL", got))
NEW = ("gpu.", "setting.", "smoke.slow", "smoke.setting", "flex.not-compiled")
for name, src in (("a-healthy-smi", "nvidia-smi"), ("b-healthy-nvml", "nvml")):
    d, rc, s = load(name)
    h = (d.get("facts") or {}).get("gpu_health") or {}
    bad = [i for i in ids(d) if i.startswith(NEW)]
    st = {k: v.get("status") for k, v in (d.get("backends") or {}).items() if v.get("status") != "missing"}
    row(f"{name[0].upper()} healthy ({src})", h.get("source") == src and not bad,
        f"rc={rc} {s:.0f}s source={h.get('source')} new-kind findings={bad} {st}")
d, rc, s = load("c-busy")
pid = open(os.path.join(R, "hog.pid")).read().strip() if os.path.exists(os.path.join(R, "hog.pid")) else "?"
held = find(d, "gpu.memory-held")
# NVML answers with the host's pids: inside a container the hog's own pid differs, and the finding says so.
row("C busy: pid named", held and (f"pid {pid} " in held[0]["title"] or "host's pid" in held[0]["title"]),
    f"pid={pid} {ids(d)} :: {held[0]['title'][:220] if held else ''}")
row("C busy: gpu.busy", bool(find(d, "gpu.busy")), ";".join(f["title"][:100] for f in find(d, "smoke.slow")) or "no smoke.slow")
d, rc, s = load("d-compile-off")
f = find(d, "setting.compile-disabled")
graphs = (((d.get("facts") or {}).get("smoke") or {}).get("devices", {}).get("0", {}).get("flex", {}).get("final", {}).get("after") or {}).get("graphs")
row("D compile off", f and f[0]["severity"] == "error" and rc == 1, f"rc={rc} graphs={graphs} {ids(d)}")
d, rc, s = load("d-interpret")
tied = find(d, "smoke.setting")
row("D Triton interpreter", bool(find(d, "setting.triton-interpret")) and any(t["backend"] == "flex" for t in tied),
    f"rc={rc} {s:.0f}s tied={[t['backend'] for t in tied]} generic={[i for i in ids(d) if i in ('smoke.case-error', 'smoke.hang', 'smoke.known-error')]}")
for name, fid in (("d-launch-blocking", "setting.launch-blocking"), ("d-no-caching", "setting.no-memory-caching"),
                  ("d-cublas-workspace", "setting.cublas-small-workspace"), ("d-cudnn-sdpa-down", "setting.cudnn-sdpa-down"),
                  ("d-caches-off", "setting.fx-graph-cache-off"), ("d-compile-threads", "setting.compile-threads-one")):
    d, rc, s = load(name)
    extra = ""
    if name == "d-cudnn-sdpa-down":
        cases = (((d.get("facts") or {}).get("smoke") or {}).get("devices", {}).get("0", {}).get("sdpa", {}).get("cases")) or []
        extra = "default kernel " + ",".join(str(c.get("default")) for c in cases if c.get("default"))
    row(f"D {name[2:]}", bool(find(d, fid)), f"rc={rc} {s:.0f}s {[i for i in ids(d) if i.startswith(('setting.', 'smoke.'))]} {extra}")
d, rc, s = load("e-moved")
row("E cache moved said", bool(find(d, "cache.moved")), f"{ids(d)}")
d, rc, s = load("e-after-copy")
cases = (((d.get("facts") or {}).get("smoke") or {}).get("devices", {}).get("0", {}).get("flex", {}).get("cases")) or []
first = cases[0].get("first_seconds") if cases else None
row("E after the cp lines flex is warm", first is not None and first < 3 and not find(d, "cache.moved"),
    f"{s:.0f}s flex first call {first}")
for fname, label in (("f-flex-smoke.txt", "F flex smoke"), ("f-fa4-import.txt", "F check vs import")):
    try:
        tail = [ln for ln in open(os.path.join(R, fname)).read().splitlines() if "median" in ln or "/" in ln]
    except OSError:
        tail = ["missing"]
    row(label, tail != ["missing"] and bool(tail), " | ".join(tail)[-300:])
w = max(len(r[0]) for r in rows)
for step, v, got in rows:
    print(f"{step:<{w}}  {v}  {got}")
EOF
tar -C "$R" -czf "$OUT/slow.tgz" . && rm -rf "$R"
