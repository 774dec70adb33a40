#!/usr/bin/env bash
# The runs that need a node of several GPUs (issue 7) plus the GPU-only hardening cases and a
# repeat of the timing cross-check; run from the repo root on nvidia-h200-x2, one part per call:
#   bash scripts/gpu/node.sh fleet       # scripts/gpu/fleet.sh: both GPUs, torchrun --distributed, merge
#   bash scripts/gpu/node.sh hardening   # scripts/gpu/hardening.sh + bench vs do_bench (sdpa, flex)
# Everything lands in $OUT/<part>.tar.gz.
set -u
part=${1:?fleet|hardening}
OUT=${OUT:-/tmp/out}
W=$(mktemp -d); R="$W/$part"; mkdir -p "$R"
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1
case "$part" in
fleet) OUT="$R" bash scripts/gpu/fleet.sh ;;
hardening)
  OUT="$R/hardening" timeout 560 bash scripts/gpu/hardening.sh > "$R/hardening.txt" 2>&1
  tail -30 "$R/hardening.txt"
  timeout 300 python3 -m attn_doctor bench --backend sdpa --backend flex --seqlen 1024,4096 --json "$R/bench.json" > "$R/bench.txt" 2>&1
  timeout 200 python3 benchmarks/bench_vs_do_bench.py "$R/bench.json" --out "$R/dobench.json" > "$R/dobench.txt" 2>&1
  tail -12 "$R/dobench.txt" ;;
esac
mkdir -p "$OUT"; tar -C "$W" -czf "$OUT/$part.tar.gz" "$part"
