#!/usr/bin/env bash
# Issue 13 on the H100 (torch 2.11.0+cu130, Python 3.12, nvcc 13.0): follow attn-doctor's FA2 plan for
# that machine, then smoke-test FA2 for real. Needs .gpu/fa2/ from scripts/gpu/stage-fa2.sh (carry it).
#   bash scripts/gpu/plan.sh         # prints the plans and checks them; starts the plan's source build
#                                    # in the background (setsid), log with timestamps in /root/fa2-build.log
#   bash scripts/gpu/plan.sh poll    # the build's progress and time; once installed: check -b fa2 -b cute
# Reports land in $OUT/plan/. Each call takes well under 4 minutes; the build itself goes on between calls.
# NOTE: flash-attn 2.8.3.post2 ships its own flash_attn/cute/: on a machine where flash-attn-4 is
# installed it overwrites FA4's files (cute.shadowed-by-fa2). The poll's check records what happens to cute.
set -u
mode=${1:-start}
OUT=${OUT:-/tmp/out}
R="$OUT/plan"; mkdir -p "$R"
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1
LOG=/root/fa2-build.log
STAGE=$PWD/.gpu/fa2
D="python3 -m attn_doctor"
pass() { echo "PASS $*" | tee -a "$R/results.txt"; }
fail() { echo "FAIL $*" | tee -a "$R/results.txt"; }

if [ "$mode" = poll ]; then
  [ -f "$LOG" ] || { fail "poll: no $LOG (run plan.sh first, on this machine session)"; exit 1; }
  cp "$LOG" "$R/fa2-build.log"
  start=$(grep -m1 ' START ' "$LOG" | cut -d' ' -f1)
  now=$(date -u +%FT%TZ)
  echo "started $start, now $now, elapsed $(( $(date +%s) - $(date -d "$start" +%s) )) s"
  grep -o '\[[0-9]*/[0-9]*\]' "$LOG" | tail -1 | sed 's/^/ninja progress /'
  grep 'MEMSAMPLE' "$LOG" | awk '{u=$3; sub("used_gib=","",u); if (u+0>m) m=u+0} END {print "peak memory used (30 s samples):", m, "GiB"}'
  tail -n 6 "$LOG"
  if grep -q ' EXIT 0$' "$LOG"; then
    end=$(grep -m1 ' EXIT 0$' "$LOG" | cut -d' ' -f1)
    echo "build finished at $end: $(( $(date -d "$end" +%s) - $(date -d "$start" +%s) )) s" | tee "$R/build-time.txt"
    timeout 200 $D check -b fa2 -b cute -v --json "$R/check-fa2.json" > "$R/check-fa2.txt" 2>&1
    python3 - "$R/check-fa2.json" <<'PY' | tee -a "$R/results.txt"
import json, sys
r = json.load(open(sys.argv[1]))
rows = r.get("backends") or {}
fa2 = rows.get("fa2", {})
print(("PASS" if fa2.get("status") == "ok" else "FAIL") + f" fa2 after the plan's build: {fa2.get('status')} {fa2.get('version')} {fa2.get('reason')}")
print(f"INFO cute beside it: {rows.get('cute', {}).get('status')} {rows.get('cute', {}).get('reason')}")
PY
  elif grep -q ' EXIT [1-9]' "$LOG"; then
    fail "the plan's build failed: $(grep -m1 ' EXIT ' "$LOG")"
  else
    echo "RUNNING (poll again)"
  fi
  exit 0
fi

# 1. What the doctor says on this machine, before anything changes
{ date -u; nvidia-smi --query-gpu=name,compute_cap,memory.total --format=csv,noheader; nproc; free -g | sed -n 2p
  python3 -c 'import torch, sys; print("torch", torch.__version__, torch.version.cuda, "abi", torch._C._GLIBCXX_USE_CXX11_ABI, "py", sys.version.split()[0])'
  which nvcc ninja; nvcc --version | tail -1; } > "$R/machine.txt" 2>&1
for b in fa2 fa3 cute xformers sage; do
  timeout 150 $D fix --require $b > "$R/fix-require-$b.txt" 2>&1
done
timeout 150 $D check --no-smoke --require fa2 --json "$R/check-before.json" > "$R/check-before.txt" 2>&1
grep -q 'MAX_JOBS=' "$R/fix-require-fa2.txt" && pass "fix --require fa2 prints a source-build plan" || fail "fix --require fa2: no plan"
grep -q 'plan: attn-doctor fix -r fa2' "$R/check-before.txt" && pass "the backends table names the plan" || fail "table: no plan"
# the arch-list finding: TORCH_CUDA_ARCH_LIST=8.0 on the sm90 gave no finding before issue 13
TORCH_CUDA_ARCH_LIST=8.0 timeout 150 $D check --no-smoke -b fa2 --select build. > "$R/arch-list.txt" 2>&1
grep -q 'build.arch-list-leaves-out-gpu' "$R/arch-list.txt" && pass "TORCH_CUDA_ARCH_LIST=8.0 on sm90 is a warning" || fail "arch list: no finding"

# 2. The plan's figures for this machine (the same code fix printed them with)
read -r JOBS THREADS ARCHS HOME_ < <(timeout 150 python3 -c '
from attn_doctor import plans
from attn_doctor.facts import collect
p = plans.make("fa2", collect(backends=["fa2"], timeout=120))
r = next(x for x in p.routes if x.kind == "source")
print(r.params["max_jobs"], r.params["nvcc_threads"], r.params["archs"], r.params["cuda_home"] or "-")')
[ -n "${ARCHS:-}" ] || { fail "could not compute the plan's figures"; exit 1; }
echo "plan: MAX_JOBS=$JOBS NVCC_THREADS=$THREADS FLASH_ATTN_CUDA_ARCHS=$ARCHS CUDA_HOME=$HOME_" | tee "$R/plan-figures.txt"
[ "$ARCHS" = 90 ] && pass "plan builds sm90 only" || fail "plan archs: $ARCHS"

# 3. Follow it: the build requirements it names when missing, from the staged wheels (no index here)
need=()
command -v ninja >/dev/null || need+=(ninja)
python3 -c 'import packaging' 2>/dev/null || need+=(packaging)
python3 -c 'import setuptools' 2>/dev/null || need+=(setuptools)
python3 -c 'import wheel.bdist_wheel' 2>/dev/null || need+=(wheel)
python3 -c 'import einops' 2>/dev/null || need+=(einops)  # flash-attn's runtime requirement (--no-deps below)
if [ ${#need[@]} -gt 0 ]; then
  python3 -m pip install -q --no-index --find-links "$STAGE" "${need[@]}" > "$R/prereq.txt" 2>&1
  echo "installed from the stage: ${need[*]}" | tee -a "$R/prereq.txt"
fi
# FLASH_ATTENTION_FORCE_BUILD=TRUE: setup.py would first try to download a prebuilt wheel; this machine
# reaches nothing, and the plan already knows there is none for torch 2.11.
envs="MAX_JOBS=$JOBS NVCC_THREADS=$THREADS FLASH_ATTN_CUDA_ARCHS=$ARCHS FLASH_ATTENTION_FORCE_BUILD=TRUE"
[ "$HOME_" != - ] && envs="CUDA_HOME=$HOME_ $envs"
: > "$LOG"
setsid bash -c "
  export TZ=UTC
  stamp() { while IFS= read -r l; do printf '%(%Y-%m-%dT%H:%M:%SZ)T %s\n' -1 \"\$l\"; done; }
  {
    echo \"START $envs pip install --no-build-isolation --no-deps $STAGE/flash_attn-*.tar.gz\"
    ( while sleep 30; do echo \"MEMSAMPLE used_gib=\$(free -g | awk 'NR==2{print \$3}') nvcc_procs=\$(pgrep -c cicc)\"; done ) &
    sampler=\$!
    env $envs python3 -m pip install -v --no-build-isolation --no-deps --no-index --no-cache-dir $STAGE/flash_attn-*.tar.gz 2>&1
    rc=\$?
    kill \$sampler
    echo \"EXIT \$rc\"
  } 2>&1 | stamp >> $LOG
" < /dev/null > /dev/null 2>&1 &
sleep 5
head -n 2 "$LOG"
pass "build started in the background: bash scripts/gpu/plan.sh poll"
