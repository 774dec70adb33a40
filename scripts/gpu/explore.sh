#!/usr/bin/env bash
# First look at the staged stack on a lent GPU (run after .gpu/b/install.sh, from the repo root).
# Writes reports and a log under $OUT. Each step is bounded so the call ends inside its limit.
set -u
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1
log="$OUT/log.txt"
say() { echo "=== $*" | tee -a "$log"; }
run() { say "$*"; local t0=$(date +%s.%N); timeout 400 "$@" >>"$log" 2>&1; local rc=$?; say "rc=$rc wall=$(echo "$(date +%s.%N) - $t0" | bc) s"; }
say "host"; { nvidia-smi --query-gpu=name,compute_cap,driver_version,memory.total --format=csv; python3 -V;
  python3 -c 'import torch, triton, typer, rich; print(torch.__version__, torch.version.cuda, triton.__version__, typer.__version__)';
  which nvcc; nvcc --version | tail -2; echo "TMPDIR=${TMPDIR:-} USER=${USER:-} HOME=$HOME"; df -h /tmp | tail -1; } >>"$log" 2>&1
run python3 -m attn_doctor check --no-smoke --json "$OUT/nosmoke.json"
run python3 -m attn_doctor check -v --json "$OUT/good-cold.json"
run python3 -m attn_doctor check --json "$OUT/good-warm.json"
say "fault: quack-kernels 0.2.4 over flash-attn-4"
python3 -m pip install -q --no-index --no-deps --force-reinstall .gpu/b/extra/quack_kernels-0.2.4-*.whl >>"$log" 2>&1
run python3 -m attn_doctor check -v --backend cute --json "$OUT/fault-quack.json"
python3 -m pip install -q --no-index --no-deps --force-reinstall .gpu/b/quack_kernels-0.6.5-*.whl >>"$log" 2>&1
say "fault: xformers 0.0.35 beside torch 2.11 and flash-attn-4"
python3 -m pip install -q --no-index --no-deps .gpu/b/extra/xformers-0.0.35-*.whl >>"$log" 2>&1
run python3 -m attn_doctor check -v --backend xformers --json "$OUT/fault-xformers.json"
python3 -m pip uninstall -q -y xformers >>"$log" 2>&1
tail -c 11000 "$log"
