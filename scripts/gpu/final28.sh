#!/usr/bin/env bash
# Session 28's GPU check on a lent H200 with the staged FA4/CuTE + SageAttention stack and xformers 0.0.35
# (`bash .gpu/b/install.sh --with-extra xformers` first), from the repo root with the image's python3. The tracked tree is
# over the device's 64 MiB (scripts/tree_size.py), so the call leaves benchmarks/ docs/ fixtures/ tests/ out of the work tree
# (restored from git after). Everything lands in $OUT/final28/, tarred to $OUT/final28.tgz:
#   machine.txt                       GPU, driver, python, the commit (.commit, written before the call)
#   check.txt, check.time, check.json `attn-doctor check` (every backend the image has: probes and smoke tests)
#   trace-<case>.{txt,json}           `attn-doctor trace -v -- python3 scripts/gpu/trace_cases/<case>.py` for sdpa, fa4, sage, flex
set -u
OUT=${OUT:-/tmp/out}; R="$OUT/final28"; mkdir -p "$R"
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 NO_COLOR=1
{ date -u; nvidia-smi --query-gpu=name,compute_cap,driver_version --format=csv,noheader; python3 -V
  cat .commit 2>/dev/null; } > "$R/machine.txt" 2>&1
/usr/bin/time -v timeout 300 python3 -m attn_doctor check > "$R/check.txt" 2> "$R/check.time"; echo "exit $?" >> "$R/check.txt"
timeout 300 python3 -m attn_doctor check --format json > "$R/check.json" 2> "$R/check-json.stderr"
for c in sdpa fa4 sage flex; do
  timeout 200 python3 -m attn_doctor trace -v --json "$R/trace-$c.json" -- python3 "scripts/gpu/trace_cases/$c.py" \
    > "$R/trace-$c.txt" 2>&1; echo "exit $?" >> "$R/trace-$c.txt"
done
tar czf "$OUT/final28.tgz" -C "$OUT" final28
