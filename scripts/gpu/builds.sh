#!/usr/bin/env bash
# Issue 25 on the GPU host (H100/H200 sm90, 16 cores, no network), as root, from the repo root, with
# .gpu/src from scripts/gpu/stage-builds.sh carried (carry [".gpu/src"]): build FlashAttention 2 and 3
# from source (reduced kernel sets, sm90 only) and xformers 0.0.35 against this torch, then smoke-test,
# bench and record FA2 beside FA4 in both orders.
#
#   bash scripts/gpu/builds.sh start    # < 1 min: checks, unpacks, reduces FA2, launches the builds in the
#                                       # background (setsid: they outlive the call); prints the plan
#   bash scripts/gpu/builds.sh status   # progress: ninja steps, files done, elapsed, memory; DONE/RUNNING/FAILED
#   bash scripts/gpu/builds.sh finish [STEP...]
#                                       # after status says the builds are done: installs the wheels, runs the
#                                       # steps (default all, in order, skipping what does not fit FINISH_BUDGET
#                                       # seconds, default 500; run the rest in the next call by name), then
#                                       # packs $OUT (at most 8 files): builds-reports.tgz and wheels.tar.part-*
#   bash scripts/gpu/builds.sh pack     # only the packing (e.g. after a call that ran out of time)
#   PACK_WHEELS=0 ...                   # bring back the reports only (wheels are packed only once no build runs)
# finish's steps need only their own build: fa3 and config need FA3; order-a, uninstall, order-b need FA2
# (and FA4 installed: .gpu/b/install.sh); xformers-src needs the xformers build; all and bench need all three.
# Steps: fa3 order-a uninstall order-b xformers-pypi xformers-src all config bench
#
# What is built (the smoke cases of `check` for fa2/fa3 are bf16 d128 causal GQA fwd+bwd, fp16 d64 full
# fwd+bwd, an fp32 refusal and a bf16 d128 causal varlen batch; see attn_doctor/smoke/plan.py):
#   FA2 2.8.3.post2: head dims FA2_HDIMS (default 64,128): fwd, bwd and split-KV fwd, fp16 and bf16,
#       causal and not = 24 kernel files + flash_api.cpp; each file compiled whole (dropout, ALiBi,
#       softcap, local, uneven K still in), so its time stands for a full build's file. MAX_JOBS=FA2_JOBS
#       (12), NVCC_THREADS=1, FLASH_ATTN_CUDA_ARCHS=90. Any other head dim raises "This flash attention
#       build does not support head dim N" (scripts/gpu/fa2_reduce.py). Version 2.8.3.post2+sm90.hdim64.hdim128.
#   FA3 (hopper/ at the staged commit): FLASH_ATTENTION_DISABLE_{FA3_DISABLE} = TRUE, i.e. head dims 64
#       and 128, fp16 and bf16, fwd + bwd, varlen kept; no split/paged/appendKV/local/softcap/packGQA/fp8/
#       cluster/sm80 = 8 kernel files + flash_api_stable.cpp + flash_prepare_scheduler.cu.
#       MAX_JOBS=FA3_JOBS (5), NVCC_THREADS=1 (one arch: nvcc --threads has nothing to split).
#   xformers 0.0.35 from its sdist, TORCH_CUDA_ARCH_LIST=9.0a (as its wheels), XFORMERS_BUILD_TYPE=Release, MAX_JOBS=XF_JOBS
#       (6): starts when the first of FA2/FA3 ends. PyPI's wheel (built for torch 2.10+cu128) is tested too.
set -u
mode=${1:-status}; [ $# -gt 0 ] && shift
ROOT=$PWD
W=${BUILDS_DIR:-/root/builds}
SRC=$ROOT/.gpu/src
OUT=${OUT:-/tmp/out}
PY=${PY:-python3}
FA2_HDIMS=${FA2_HDIMS:-64,128}
FA2_JOBS=${FA2_JOBS:-12}
FA3_JOBS=${FA3_JOBS:-5}
XF_JOBS=${XF_JOBS:-6}
FA3_DISABLE=${FA3_DISABLE:-SPLIT PAGEDKV APPENDKV LOCAL SOFTCAP PACKGQA FP8 CLUSTER HDIM96 HDIM192 HDIM256 SM80 HDIMDIFF64 HDIMDIFF192}
FINISH_BUDGET=${FINISH_BUDGET:-500}
R=$W/reports
export PYTHONPATH=$ROOT PYTHONUNBUFFERED=1 NO_COLOR=1
D="$PY -m attn_doctor"
die() { echo "builds.sh: $*" >&2; exit 2; }
say() { echo "$*" | tee -a "$R/results.txt"; }
now() { date +%s; }

fa2_label() { echo "sm90.hdim${FA2_HDIMS//,/.hdim}"; }

preflight() {
  [ -d "$SRC" ] || die "no .gpu/src here: run scripts/gpu/stage-builds.sh where pip reaches an index, and carry .gpu/src"
  (cd "$SRC" && grep -v '^#' MANIFEST.txt | sha256sum -c --quiet -) || die ".gpu/src does not match its MANIFEST.txt (a partial copy?)"
  $PY -c 'import torch, sys; sys.exit(0 if torch.version.cuda else 1)' 2>/dev/null \
    || die "$PY has no CUDA torch ($($PY -c 'import torch; print(torch.__version__)' 2>&1 | tail -1)): run this on the GPU host"
  local home; home=$($PY -c 'from torch.utils.cpp_extension import CUDA_HOME; print(CUDA_HOME or "")' 2>/dev/null)
  NVCC=""
  [ -n "$home" ] && [ -x "$home/bin/nvcc" ] && NVCC=$home/bin/nvcc
  [ -z "$NVCC" ] && NVCC=$(command -v nvcc || true)
  [ -n "$NVCC" ] || die "no nvcc (CUDA_HOME='${home}', none on PATH): the source builds need the CUDA toolkit torch's extension builder uses"
  local nv tc
  nv=$("$NVCC" --version | sed -n 's/.*release \([0-9]*\)\..*/\1/p')
  tc=$($PY -c 'import torch; print(torch.version.cuda.split(".")[0])')
  [ "$nv" = "$tc" ] || die "nvcc $NVCC is CUDA $nv, torch is built with CUDA $tc: a source build would fail (set CUDA_HOME)"
}

running() { [ -f "$W/pids/$1" ] && kill -0 "$(cat "$W/pids/$1")" 2>/dev/null; }

launch() {  # name workdir env... -- command...
  local name=$1 dir=$2; shift 2
  local envs=()
  while [ "$1" != "--" ]; do envs+=("$1"); shift; done; shift
  mkdir -p "$W/pids" "$W/logs" "$W/wheels"
  ( cd "$dir" && exec setsid env "${envs[@]}" "$PY" "$ROOT/scripts/gpu/timed.py" "$name" "$W/logs" -- "$@" \
      < /dev/null > /dev/null 2>&1 ) &
  echo $! > "$W/pids/$name"
}

start() {
  preflight
  if running fa2 || running fa3; then echo "builds.sh: already started; see: bash scripts/gpu/builds.sh status"; exit 0; fi
  rm -rf "$W"; mkdir -p "$W"/{fa2,fa3,xf,logs,wheels,pids,fa4} "$R"
  { date -u; nvidia-smi --query-gpu=name,compute_cap,driver_version,memory.total --format=csv,noheader
    echo "cores $(nproc)"; free -g | sed -n 2p; lscpu | grep -E '^(Model name|Thread|Core|Socket)' 
    $PY -c 'import torch, sys; print("torch", torch.__version__, "cuda", torch.version.cuda, "abi", torch._C._GLIBCXX_USE_CXX11_ABI, "py", sys.version.split()[0])'
    echo "nvcc $NVCC: $("$NVCC" --version | tail -1)"; command -v ninja git || true; } > "$R/machine.txt" 2>&1
  # build requirements the host lacks, from the stage (no index here)
  local need=()
  $PY -c 'import setuptools' 2>/dev/null || need+=(setuptools)
  $PY -c 'import wheel.bdist_wheel' 2>/dev/null || need+=(wheel)
  $PY -c 'import packaging' 2>/dev/null || need+=(packaging)
  $PY -c 'import einops' 2>/dev/null || need+=(einops)   # flash-attn's and FA3's runtime requirement
  command -v ninja > /dev/null || $PY -c 'import ninja' 2>/dev/null || need+=(ninja)
  if [ ${#need[@]} -gt 0 ]; then
    $PY -m pip install -q --no-index --no-deps --find-links "$SRC/deps" "${need[@]}" > "$R/prereq.txt" 2>&1 \
      || die "installing ${need[*]} from .gpu/src/deps failed: $(tail -2 "$R/prereq.txt")"
  fi
  echo "build requirements installed from the stage: ${need[*]:-none}" > "$R/prereq.txt"
  if ! command -v git > /dev/null; then  # hopper/setup.py runs `git submodule update` unchecked: a missing git would raise
    mkdir -p "$W/bin"; printf '#!/bin/sh\nexit 0\n' > "$W/bin/git"; chmod +x "$W/bin/git"; export PATH=$W/bin:$PATH
  fi
  # FA2: the sdist, cut to FA2_HDIMS
  tar xzf "$SRC"/flash_attn-*.tar.gz -C "$W/fa2" || die "unpacking the FA2 sdist failed"
  local fa2dir; fa2dir=$(ls -d "$W"/fa2/flash_attn-*)
  $PY "$ROOT/scripts/gpu/fa2_reduce.py" "$fa2dir" "$FA2_HDIMS" | tee "$R/fa2-reduce.txt" || die "fa2_reduce.py failed"
  tar xJf "$SRC/fa3-src.tar.xz" -C "$W/fa3" || die "unpacking fa3-src.tar.xz failed"
  tar xzf "$SRC"/xformers-*.tar.gz -C "$W/xf" || die "unpacking the xformers sdist failed"
  mkdir -p "$W/pypi" && cp "$SRC"/xformers-*-manylinux*.whl "$W/pypi/"
  save_fa4
  local f3env=(MAX_JOBS=$FA3_JOBS NVCC_THREADS=1 FLASH_ATTENTION_FORCE_BUILD=TRUE FLASH_ATTN_LOCAL_VERSION=sm90.reduced)
  for s in $FA3_DISABLE; do f3env+=("FLASH_ATTENTION_DISABLE_$s=TRUE"); done
  local pipw=(-m pip wheel -v --no-build-isolation --no-deps --no-index -w "$W/wheels" .)
  launch fa2 "$fa2dir" MAX_JOBS=$FA2_JOBS NVCC_THREADS=1 FLASH_ATTN_CUDA_ARCHS=90 FLASH_ATTENTION_FORCE_BUILD=TRUE \
    FLASH_ATTN_LOCAL_VERSION="$(fa2_label)" -- "$PY" "${pipw[@]}"
  launch fa3 "$W/fa3/flash-attention/hopper" "${f3env[@]}" -- "$PY" "${pipw[@]}"
  # xformers: when the first of FA2/FA3 ends, so it takes the cores one of them gives back
  local xfdir; xfdir=$(ls -d "$W"/xf/xformers-*)
  ( exec setsid bash -c "while [ ! -f '$W/logs/fa2.json' ] && [ ! -f '$W/logs/fa3.json' ]; do sleep 5; done
      cd '$xfdir' && exec env MAX_JOBS=$XF_JOBS TORCH_CUDA_ARCH_LIST=9.0a XFORMERS_BUILD_TYPE=Release BUILD_VERSION=0.0.35+torch2.11 \
        '$PY' '$ROOT/scripts/gpu/timed.py' xformers '$W/logs' -- '$PY' ${pipw[*]}" < /dev/null > /dev/null 2>&1 ) &
  echo $! > "$W/pids/xformers"
  date +%s > "$W/started"
  # What the doctor's plans say here (the plan as printed, with its time), while the builds run
  for b in fa2 fa3 xformers; do timeout 120 $D fix --require $b > "$R/fix-require-$b.txt" 2>&1; done
  predict > "$R/predicted.json" 2> "$R/predicted.err"
  echo "started $(date -u +%T): FA2 (head dims $FA2_HDIMS, MAX_JOBS=$FA2_JOBS), FA3 (MAX_JOBS=$FA3_JOBS," \
       "FLASH_ATTENTION_DISABLE_: $FA3_DISABLE), then xformers (MAX_JOBS=$XF_JOBS)"
  $PY - "$R/predicted.json" <<'EOF' 2>/dev/null
import json, sys
for k, v in json.load(open(sys.argv[1])).items():
    print(f"  the plan's model predicts {k}: {v['minutes'][0]}-{v['minutes'][1]} min ({v['files']} files, {v['streams']} streams)")
EOF
  echo "next: bash scripts/gpu/builds.sh status   (every few minutes, to keep the machine held)"
}

predict() {  # the plan's time model for the builds as launched (attn_doctor/plans/buildtime.py)
  $PY - "$FA2_HDIMS" "$FA2_JOBS" "$FA3_JOBS" "$(nproc)" "$FA3_DISABLE" <<'EOF'
import json, sys
from attn_doctor.plans import buildtime
hdims, j2, j3, cores, dis = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), sys.argv[5].split()
out = {}
fa2_files = buildtime.fa2_files([int(h) for h in hdims.split(",")])
out["fa2"] = buildtime.estimate("fa2", files=fa2_files, jobs=j2, threads=1, archs=1, cores=cores).to_json()
fa3_files = buildtime.fa3_files({f"FLASH_ATTENTION_DISABLE_{s}": "TRUE" for s in dis})
out["fa3"] = buildtime.estimate("fa3", files=fa3_files, jobs=j3, threads=1, archs=1, cores=cores,
                                reduced=True).to_json()
json.dump(out, sys.stdout, indent=1)
EOF
}

save_fa4() {  # keep FA4's wheel where order B can reinstall it (the .gpu/b carry may not stay)
  local w
  for w in "$ROOT"/.gpu/b/flash_attn_4-*.whl /root/stage/flash_attn_4-*.whl; do
    [ -f "$w" ] && cp -n "$w" "$W/fa4/" 2>/dev/null
  done
  return 0
}

progress() {  # name -> one line
  local n=$1 log=$W/logs/$1.log st el step done_files
  [ -f "$log" ] || { echo "$n: not started"; return; }
  st=$(head -1 "$log" | cut -d' ' -f1)
  el=$(( $(now) - $(date -d "$st" +%s) ))
  step=$(grep -o '\[[0-9]*/[0-9]*\]' "$log" | tail -1)
  done_files=$(find "$W/$( [ "$n" = xformers ] && echo xf || echo "$n")" -name .ninja_log -exec grep -vc '^#' {} + 2>/dev/null | tail -1)
  if [ -f "$W/logs/$n.json" ]; then
    $PY - "$W/logs/$n.json" "$n" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
state = "DONE" if d["rc"] == 0 else f"FAILED rc={d['rc']}"
print(f"{sys.argv[2]}: {state} in {d['wall_s'] / 60:.1f} min wall, {d['cpu_min']:.0f} CPU-min, "
      f"peak {d['peak_used_gib']} GiB used, MAX_JOBS={d['env'].get('MAX_JOBS')}")
EOF
  else
    echo "$n: RUNNING ${step:-[no ninja step yet]} after $((el / 60)) min $((el % 60)) s; ninja log entries: ${done_files:-0}; $(grep MEMSAMPLE "$log" | tail -1 | cut -d' ' -f3-)"
  fi
}

status() {
  [ -f "$W/started" ] || { echo "builds.sh: not started (bash scripts/gpu/builds.sh start)"; exit 1; }
  save_fa4
  echo "$(date -u +%T), $(( ($(now) - $(cat "$W/started")) / 60 )) min since start; load $(cut -d' ' -f1-3 /proc/loadavg); $(free -g | awk 'NR==2{print $3" GiB used of "$2}')"
  for n in fa2 fa3 xformers; do progress $n; done
  for n in fa2 fa3 xformers; do
    if [ -f "$W/logs/$n.json" ] && ! grep -q '"rc": 0' "$W/logs/$n.json"; then
      echo "--- $n log tail (errors):"; grep -iE 'error|FAILED|Killed' "$W/logs/$n.log" | tail -8 | cut -c1-300
    fi
  done
  ls "$W"/wheels/*.whl 2>/dev/null | sed 's/^/  wheel: /'
}

# ---------------------------------------------------------------------------------------------------
pipi() { $PY -m pip install -q --no-index --no-deps --no-compile --force-reinstall "$@" 2>&1 | grep -v -i warning; }
wheel_of() { ls "$W"/wheels/$1-*.whl 2>/dev/null | head -1; }

owners() {  # which distribution owns each file of flash_attn/ now: FA2's RECORD vs FA4's, by hash
  $PY - "$1" <<'EOF'
import base64, hashlib, json, sys
import importlib.metadata as md
from pathlib import Path
rec = {}
for dist in ("flash-attn", "flash-attn-4"):
    try:
        d = md.distribution(dist)
    except md.PackageNotFoundError:
        continue
    for f in d.files or []:
        if str(f).startswith("flash_attn/") and f.hash:
            rec.setdefault(str(f), {})[dist] = (f.hash.value, str(d.locate_file(f)), d.version)
out = {"versions": {}, "shared": {}, "only": {"flash-attn": 0, "flash-attn-4": 0}}
for path, by in sorted(rec.items()):
    for dist, (_, _, v) in by.items():
        out["versions"][dist] = v
    if len(by) == 1:
        out["only"][next(iter(by))] += 1
        continue
    loc = Path(next(iter(by.values()))[1])
    if not loc.exists():
        out["shared"][path] = "missing"
        continue
    h = base64.urlsafe_b64encode(hashlib.sha256(loc.read_bytes()).digest()).rstrip(b"=").decode()
    now = [d for d, (hv, _, _) in by.items() if hv == h]
    out["shared"][path] = "+".join(now) or "neither"
try:
    import flash_attn
    out["flash_attn.__file__"] = getattr(flash_attn, "__file__", None)
    out["flash_attn.__version__"] = getattr(flash_attn, "__version__", None)
except Exception as e:
    out["flash_attn import"] = f"{type(e).__name__}: {e}"
json.dump(out, open(sys.argv[1], "w"), indent=1)
print(f"{len(out['shared'])} files in both RECORDs; now: " + ", ".join(
    f"{k}={sum(1 for v in out['shared'].values() if v == k)}" for k in sorted(set(out['shared'].values()))))
EOF
}

chk() {  # name timeout args...: check --json R/name.json, text R/name.txt; one line per backend
  local name=$1 t=$2; shift 2
  timeout "$t" $D check -v "$@" --json "$R/$name.json" > "$R/$name.txt" 2>&1
  local rc=$?
  echo "$rc" > "$R/$name.rc"
  $PY - "$R/$name.json" "$rc" "$name" <<'EOF' | tee -a "$R/results.txt"
import json, sys
try:
    d = json.load(open(sys.argv[1]))
except Exception as e:
    print(f"{sys.argv[3]}: no report (exit {sys.argv[2]}): {e}"); sys.exit()
rows = []
for b, r in (d.get("backends") or {}).items():
    if r.get("status") in ("skipped",):
        continue
    rows.append(f"{b}={r.get('status')}" + (f" {r.get('version')}" if r.get("version") else "") + (f" [{r.get('notes') or r.get('reason') or ''}]"[:90]))
print(f"{sys.argv[3]} (exit {sys.argv[2]}): " + "; ".join(rows) + "; findings: " + ", ".join(f["id"] for f in d.get("findings", [])))
EOF
}

step_fa3() {
  local w; w=$(wheel_of flash_attn_3) || true
  [ -n "$w" ] || { say "fa3: no wheel (build not done or failed)"; return; }
  pipi "$w"; say "fa3: installed $(basename "$w")"
  $PY -c 'import flash_attn_config as c; print(c.CONFIG)' > "$R/fa3-build-flags.txt" 2>&1
}

step_order_a() {  # FA4 (staged) is installed; FA2 goes in over it
  $PY -c 'import importlib.metadata as m; m.version("flash-attn-4")' 2>/dev/null || { say "order-a: flash-attn-4 is not installed (stage FA4 first: .gpu/b/install.sh)"; return; }
  local w; w=$(wheel_of flash_attn) || true
  [ -n "$w" ] || { say "order-a: no FA2 wheel"; return; }
  pipi "$w"
  say "order-a (FA4 then FA2): $(owners "$R/order-a-files.json")"
  chk order-a 240 -b cute -b fa2
}

step_uninstall() {  # from order A: uninstall FA2, see what is left of FA4; then uninstall FA4 too
  $PY -m pip uninstall -y flash-attn > "$R/uninstall-fa2.txt" 2>&1
  say "uninstall flash-attn (FA4 still installed): $(owners "$R/uninstall-fa2-files.json")"
  chk uninstall-fa2 180 -b cute
  $PY -m pip uninstall -y flash-attn-4 >> "$R/uninstall-fa2.txt" 2>&1
  local sp; sp=$($PY -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
  { echo "left in $sp/flash_attn after uninstalling both:"; find "$sp/flash_attn" -type f 2>/dev/null | sed "s|$sp/||" | head -50; } > "$R/leftover.txt"
  say "after uninstalling both: $(($(wc -l < "$R/leftover.txt") - 1)) file(s) left under flash_attn/"
}

step_order_b() {  # FA2 first, then FA4 over it
  local w4; w4=$(ls "$W"/fa4/flash_attn_4-*.whl 2>/dev/null | head -1)
  local w; w=$(wheel_of flash_attn) || true
  [ -n "$w" ] && [ -n "$w4" ] || { say "order-b: need the FA2 wheel and FA4's ($W/fa4 from .gpu/b): fa2=${w:-none} fa4=${w4:-none}"; return; }
  rm -rf "$($PY -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')/flash_attn"  # start clean
  pipi "$w"; pipi "$w4"
  say "order-b (FA2 then FA4): $(owners "$R/order-b-files.json")"
  chk order-b 240 -b cute -b fa2
}

step_xformers_pypi() {
  local w; w=$(ls "$W"/pypi/xformers-*-manylinux*.whl | head -1)  # copied there by start
  pipi "$w"
  XFORMERS_MORE_DETAILS=1 timeout 120 $PY -c 'import xformers.ops, xformers._cpp_lib as c; print("C++ extension:", "loaded" if c._cpp_library_load_exception is None else repr(c._cpp_library_load_exception.__cause__ or c._cpp_library_load_exception)); print(c._build_metadata.metadata if c._build_metadata else None)' > "$R/xformers-pypi-load.txt" 2>&1
  say "xformers PyPI wheel: $(grep -m1 'C++ extension' "$R/xformers-pypi-load.txt" | cut -c1-200)"
  chk xformers-pypi 200 -b xformers
}

step_xformers_src() {
  local w; w=$(wheel_of xformers) || true
  [ -n "$w" ] || { say "xformers-src: no wheel (build not done or failed): the PyPI wheel stays installed"; return; }
  pipi "$w"
  timeout 120 $PY -c 'import xformers.ops, xformers._cpp_lib as c; print("C++ extension:", "loaded" if c._cpp_library_load_exception is None else repr(c._cpp_library_load_exception)); print(c._build_metadata.metadata if c._build_metadata else None)' > "$R/xformers-src-load.txt" 2>&1
  say "xformers source build: $(grep -m1 'C++ extension' "$R/xformers-src-load.txt" | cut -c1-200)"
  chk xformers-src 200 -b xformers
}

step_all() { chk check-all 300 -b fa2 -b fa3 -b xformers -b sdpa -b cute; }
step_config() { chk config-wan-fa3 240 --config "$ROOT/fixtures/configs/simpletuner-wan-fa3/config.toml" -b fa3 -b fa2 -b sdpa; }
step_bench() {
  timeout 300 $D bench --config "$ROOT/fixtures/configs/simpletuner-wan-fa3/config.toml" -b sdpa -b cute -b fa2 -b fa3 -b xformers \
    --seqlen 1024,4096 --min-time 0.3 --json "$R/bench.json" > "$R/bench.txt" 2>&1
  say "bench (exit $?): $(grep -iE 'fastest|1st|rank' "$R/bench.txt" | head -2 | tr '\n' ' ' | cut -c1-200)"
}

timings() {  # builds' measurements + the model's prediction side by side
  for n in fa2 fa3 xformers; do
    local d; d=$(ls -d "$W/$( [ $n = xformers ] && echo xf || echo $n)"/* 2>/dev/null | head -1)
    [ -n "$d" ] && $PY "$ROOT/scripts/gpu/timed.py" --ninja "$d" > "$R/ninja-$n.json" 2>/dev/null
  done
  $PY - "$W/logs" "$R" <<'EOF' | tee "$R/timings.txt"
import json, os, sys
logs, rep = sys.argv[1], sys.argv[2]
try:
    pred = json.load(open(os.path.join(rep, "predicted.json")))
except Exception:
    pred = {}
print(f"{'build':9} {'rc':>3} {'wall min':>8} {'CPU-min':>8} {'files':>5} {'CPU-min/file':>12} {'jobs':>4} {'peak GiB':>8} {'predicted min':>13}")
for n in ("fa2", "fa3", "xformers"):
    try:
        s = json.load(open(os.path.join(logs, f"{n}.json")))
    except Exception:
        print(f"{n:9} not finished"); continue
    try:
        files = [f for f in json.load(open(os.path.join(rep, f"ninja-{n}.json"))) if f["file"].endswith(".o")]
    except Exception:
        files = []
    per = f"{s['cpu_min'] / len(files):.2f}" if files else "-"
    p = pred.get(n, {}).get("minutes")
    print(f"{n:9} {s['rc']:>3} {s['wall_s'] / 60:>8.1f} {s['cpu_min']:>8.1f} {len(files):>5} {per:>12} {s['env'].get('MAX_JOBS', '-'):>4} {s['peak_used_gib']:>8} {('%s-%s' % tuple(p)) if p else '-':>13}")
EOF
}

pack() {
  mkdir -p "$OUT"
  timings > /dev/null 2>&1
  cp "$W"/logs/*.json "$R/" 2>/dev/null
  mkdir -p "$W/pack/logs"
  for f in "$W"/logs/*.log; do  # build logs can be large: keep the head, every ninja step and error line, the tail
    [ -f "$f" ] || continue
    { head -n 60 "$f"; echo "[... ninja steps, errors and warnings-with-error only ...]"
      grep -E '\[[0-9]+/[0-9]+\]|error|Error|FAILED|Killed|MEMSAMPLE' "$f" | cut -c1-400; echo "[... tail ...]"; tail -n 80 "$f"; } > "$W/pack/logs/$(basename "$f")"
  done
  tar czf "$OUT/builds-reports.tgz" -C "$W" reports -C "$W/pack" logs
  local n; n=$(ls "$W"/wheels/*.whl 2>/dev/null | wc -l)
  rm -f "$OUT"/wheels.tar.part-*
  local busy=""
  for b in fa2 fa3 xformers; do running $b && busy="$busy $b"; done
  if [ -n "$busy" ]; then echo "wheels not packed yet: still building:$busy (the call after they end packs them)"; n=0; fi
  if [ "$n" -gt 0 ] && [ "${PACK_WHEELS:-1}" = 1 ]; then
    tar cf "$W/wheels.tar" -C "$W/wheels" .
    local size; size=$(stat -c %s "$W/wheels.tar")
    if [ "$size" -le $((7 * 15 * 1024 * 1024)) ]; then
      split -b 15M -d "$W/wheels.tar" "$OUT/wheels.tar.part-"
    else
      echo "wheels.tar is $((size / 1048576)) MiB: over 7 x 15 MiB, left out" >> "$R/results.txt"
      tar czf "$OUT/builds-reports.tgz" -C "$W" reports -C "$W/pack" logs
    fi
  fi
  ls -la "$OUT"
  echo "reassemble here: cat wheels.tar.part-* > wheels.tar && tar xf wheels.tar"
}

finish() {
  [ -f "$W/started" ] || die "not started"
  mkdir -p "$R"; : >> "$R/results.txt"
  local t0; t0=$(now)
  for n in fa2 fa3; do
    running $n && echo "builds.sh: $n is still running: $(progress $n)"
  done
  local steps=("$@")
  [ ${#steps[@]} -eq 0 ] && steps=(fa3 order-a uninstall order-b xformers-pypi xformers-src all config bench)
  local s left=()
  for s in "${steps[@]}"; do
    if [ $(( $(now) - t0 )) -gt "$FINISH_BUDGET" ]; then left+=("$s"); continue; fi
    echo "== $s ($(( $(now) - t0 )) s)"
    case $s in
      fa3) step_fa3 ;; order-a) step_order_a ;; uninstall) step_uninstall ;; order-b) step_order_b ;;
      xformers-pypi) step_xformers_pypi ;; xformers-src) step_xformers_src ;; all) step_all ;;
      config) step_config ;; bench) step_bench ;; *) echo "builds.sh: unknown step $s" ;;
    esac
  done
  [ ${#left[@]} -gt 0 ] && say "NOT RUN (time budget ${FINISH_BUDGET}s): ${left[*]} -> next call: bash scripts/gpu/builds.sh finish ${left[*]}"
  echo "== summary"; timings; echo; cat "$R/results.txt"
  pack
}

case $mode in
  start) start ;;
  status) status ;;
  finish) finish "$@" ;;
  pack) pack ;;
  *) die "usage: builds.sh start|status|finish [STEP...]|pack" ;;
esac
