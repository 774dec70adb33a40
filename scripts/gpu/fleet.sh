#!/usr/bin/env bash
# Every GPU of a node, and a node as a torchrun job: run from the repo root on a 2-GPU machine
# (optionally after .gpu/b/install.sh, so FA4 and SageAttention are in the picture).
# Writes reports, text output and a log under $OUT; worth keeping under fixtures/fleet/.
# Each step is bounded, and all of them together stay under 10 minutes.
set -u
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1
log="$OUT/log.txt"
say() { echo "=== $*" | tee -a "$log"; }
# run NAME LIMIT CMD...: stdout to $OUT/NAME.txt, stderr to the log, exit code and wall time logged
run() {
  local name=$1 limit=$2; shift 2
  say "$name: $*"
  local t0; t0=$(date +%s%N)
  timeout "$limit" "$@" >"$OUT/$name.txt" 2>>"$log"; local rc=$?
  say "$name: rc=$rc wall=$(( ($(date +%s%N) - t0) / 1000000 )) ms"
}
say "host"; { nvidia-smi --query-gpu=index,name,compute_cap,driver_version,memory.total --format=csv; python3 -V;
  python3 -c 'import torch; print("torch", torch.__version__, torch.version.cuda, torch.cuda.device_count())';
  env | grep -E '^(NCCL_|CUDA_VISIBLE|PYTORCH_)' | sort; } >>"$log" 2>&1
TR="python3 -m torch.distributed.run --nproc-per-node 2 --master-addr 127.0.0.1"

# 1. One process, both GPUs: a smoke child per backend and GPU, a row per GPU.
run gpu2-check 240 python3 -m attn_doctor check --timeout 150 --json "$OUT/gpu2-check.json"
# 2. torchrun, rank 1 alone with PYTORCH_CUDA_ALLOC_CONF set (a launcher gives both ranks the same
#    environment, so tests/rank_env.py sets it for local rank 1 only): rank 0 must flag it.
run gpu2-torchrun-env-differs 240 $TR --master-port 29533 tests/rank_env.py \
    1:PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True -- \
    check --distributed --timeout 150 --gather-timeout 150 --json "$OUT/gpu2-torchrun-env-differs.json"
# 3. The command as users type it (no wrapper), kernels off to stay short: both ranks, nothing differs.
run gpu2-torchrun-plain 60 $TR --master-port 29534 -m attn_doctor check --distributed --no-smoke \
    --gather-timeout 40 --json "$OUT/gpu2-torchrun-plain.json"
# 4. The saved reports merged: the node's own report and the two ranks, one fleet.
run gpu2-merge 30 python3 -m attn_doctor merge "$OUT/gpu2-check.json" "$OUT/gpu2-torchrun-env-differs.json"
for f in gpu2-check gpu2-torchrun-env-differs gpu2-torchrun-plain gpu2-merge; do
  echo "----- $f.txt" >>"$log"; cat "$OUT/$f.txt" >>"$log" 2>/dev/null
done
tail -c 11500 "$log"
