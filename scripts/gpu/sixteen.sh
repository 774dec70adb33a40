#!/usr/bin/env bash
# Issue 16 on a lent H100 (one GPU), from the repo root, with the image's python3 (torch 2.11+cu130
# and the staged FA4/Sage stack). About 3-4 minutes. Everything lands in $OUT/sixteen/; one PASS/FAIL
# line per case on stdout (and in $OUT/sixteen/summary.txt).
#   check-v.txt / check.json    the full `check -v` the README's "What it prints" block is cut from
#   check-after.txt             the same after `fix --write-env` and `. ./env.sh`
#   device.txt                  `check -d 5` (exit 2, naming the GPUs seen)
#   alloc-*.txt, alloc-*.env.sh the allocator fix applied on real torch: a CUDA allocation then works
#   bench.txt / bench.json      a short bench (no rate above the matmul ceiling without the note)
set -u
OUT=${OUT:-/tmp/out}; R="$OUT/sixteen"; mkdir -p "$R"
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 NO_COLOR=1
D="python3 -m attn_doctor"
sum="$R/summary.txt"; : >"$sum"
verdict() { echo "$1 $2${3:+: $3}" | tee -a "$sum"; }
{ date -u; nvidia-smi --query-gpu=name,compute_cap,driver_version,memory.total --format=csv,noheader;
  python3 -c 'import torch; print("torch", torch.__version__, "cuda", torch.version.cuda)'; } >"$R/host.txt" 2>&1
unset PYTORCH_CUDA_ALLOC_CONF PYTORCH_ALLOC_CONF

# 1. the full check, as the README shows it
timeout 200 $D check -v --json "$R/check.json" >"$R/check-v.txt" 2>"$R/check-v.err"; rc=$?
python3 - "$R/check.json" "$R/check-v.txt" "$rc" >"$R/check-v.verdict" 2>&1 <<'PY'
import json, sys
doc, text, rc = json.load(open(sys.argv[1])), open(sys.argv[2]).read(), int(sys.argv[3])
bad = [f["id"] for f in doc["findings"] if f.get("fix") and f"fix: {f['fix']}" not in text]
ok = rc == doc["exit_code"] and not bad and (not doc["findings"] or "problems, most important first:" in text)
print("PASS" if ok else "FAIL", f"exit {rc}, {len(doc['findings'])} finding(s), fix lines cut: {bad}")
PY
verdict "$(cut -d' ' -f1 "$R/check-v.verdict")" "check -v" "$(cut -d' ' -f2- "$R/check-v.verdict")"

# 2. fix --write-env, source it, check again
( cd "$R" && timeout 60 python3 -m attn_doctor fix --from check.json --write-env env.sh >fix.txt 2>&1 )
( . "$R/env.sh" && timeout 200 $D check -v --json "$R/check-after.json" >"$R/check-after.txt" 2>&1 )
n_after=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(sum(1 for f in d["findings"] if f["id"].startswith(("cache.","alloc."))))' "$R/check-after.json" 2>/dev/null || echo "?")
[ "$n_after" = "0" ] && verdict PASS "env.sh" "no cache/allocator finding after sourcing it" || verdict FAIL "env.sh" "$n_after cache/allocator finding(s) left"

# 3. a GPU that is not there
timeout 60 $D check -d 5 >"$R/device.txt" 2>&1; rc=$?
grep -q "GPUs seen: 0 (NVIDIA" "$R/device.txt" && [ $rc = 2 ] && verdict PASS "check -d 5" "exit 2 naming GPU 0" || verdict FAIL "check -d 5" "exit $rc: $(head -c 200 "$R/device.txt")"

# 4. the allocator fix applied on real torch: its value works at the first CUDA allocation
for v in "expandable_segments:true" "max_split_size_mb=512" "garbage"; do
  tag=$(echo "$v" | tr -c 'a-z0-9' '_' | cut -c1-24)
  PYTORCH_CUDA_ALLOC_CONF="$v" timeout 120 $D check --no-smoke --backend sdpa --json "$R/alloc-$tag.json" >"$R/alloc-$tag.txt" 2>&1
  ( cd "$R" && timeout 60 python3 -m attn_doctor fix --from "alloc-$tag.json" --write-env "alloc-$tag.env.sh" >>"alloc-$tag.txt" 2>&1 )
  PYTORCH_CUDA_ALLOC_CONF="$v" bash -c ". '$R/alloc-$tag.env.sh' && env | grep ALLOC_CONF; python3 -c 'import torch; torch.ones(1, device=\"cuda\"); print(\"allocation ok\")' && $D check --no-smoke --backend sdpa --select 'alloc.*' --json -" >"$R/alloc-$tag.after.txt" 2>&1
  left=$(python3 -c 'import json,sys; t=open(sys.argv[1]).read(); d=json.loads(t[t.index("{"):]); print(len(d["findings"]))' "$R/alloc-$tag.after.txt" 2>/dev/null || echo "?")
  grep -q "allocation ok" "$R/alloc-$tag.after.txt" && [ "$left" = "0" ] \
    && verdict PASS "allocator $v" "env.sh value allocates on CUDA, no alloc.* finding left" \
    || verdict FAIL "allocator $v" "allocation/findings: $(grep -c 'allocation ok' "$R/alloc-$tag.after.txt") / $left"
done

# 5. a short bench: percentages of the matmul ceiling stay at or under 100% or say why
timeout 120 $D bench -b sdpa -b cute --seqlen 4096 --min-time 0.2 --json "$R/bench.json" >"$R/bench.txt" 2>&1; rc=$?
if grep -Eq ' (1[0-9]{2}|[2-9][0-9]{2})%' "$R/bench.txt"; then verdict FAIL "bench" "a rate above 100% of the ceiling printed"
elif grep -q ">100%" "$R/bench.txt" && ! grep -q "ceiling measurement is wrong" "$R/bench.txt"; then verdict FAIL "bench" ">100% without the note"
else verdict PASS "bench" "exit $rc; ceiling percentages sane"; fi
cat "$sum"
