#!/usr/bin/env bash
# Session 16's GPU check on a lent H200 with the staged FA4/CuTE + SageAttention stack (.gpu/b/install.sh first), from the
# repo root with the image's python3. Everything lands in $OUT/final16/, tarred to $OUT/final16.tgz:
#   check.txt, check.json, check.time   `attn-doctor check` (as before, plus smoke.inputs-changed for sage 1.0.6)
#   trace-sage-mask.{txt,json}           `attn-doctor trace -v -- python3 scripts/gpu/trace_cases/sage_mask.py`
#   explain-*.txt                        `attn-doctor explain` on two texts of round 103g made on this machine's kind
set -u
OUT=${OUT:-/tmp/out}; R="$OUT/final16"; mkdir -p "$R"
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 NO_COLOR=1
{ date -u; nvidia-smi --query-gpu=name,compute_cap,driver_version --format=csv,noheader; python3 -V
  git rev-parse HEAD 2>/dev/null; cat .commit 2>/dev/null; } > "$R/machine.txt" 2>&1
/usr/bin/time -v timeout 300 python3 -m attn_doctor check > "$R/check.txt" 2> "$R/check.time"; echo "exit $?" >> "$R/check.txt"
timeout 300 python3 -m attn_doctor check --format json > "$R/check.json" 2> "$R/check-json.stderr"
timeout 200 python3 -m attn_doctor trace -v --json "$R/trace-sage-mask.json" -- python3 scripts/gpu/trace_cases/sage_mask.py \
  > "$R/trace-sage-mask.txt" 2>&1; echo "exit $?" >> "$R/trace-sage-mask.txt"
for t in cute-kv-lengths cute-last-dim-strided; do
  python3 - "$t" > "$R/text-$t.txt" 2>&1 <<'PY'
import subprocess, sys
sys.path.insert(0, "scripts/gpu"); import fault_texts as f
code = next(c for n, b, fam, c in f.CASES["base"] if n == sys.argv[1])
print(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True).stderr, end="")
PY
  timeout 60 python3 -m attn_doctor explain "$R/text-$t.txt" > "$R/explain-$t.txt" 2>&1; echo "exit $?" >> "$R/explain-$t.txt"
done
tar czf "$OUT/final16.tgz" -C "$OUT" final16
