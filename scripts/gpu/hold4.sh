#!/usr/bin/env bash
# A short hold after hold 3 (fixtures/gpu/h100-issue25/hold3): the fixes made from what hold 3 showed,
# checked on the real thing, with hold 3's built wheels carried back (.gpu/wheels: FA2 2.8.3.post2 reduced,
# FA3 reduced, xformers 0.0.35 for torch 2.11) and the FA4 stack staged (.gpu/a, then .gpu/b/install.sh).
#   bash scripts/gpu/hold4.sh            (carry .gpu/wheels; about 6 minutes; everything under $OUT)
#   SKIP_FLEX=1 leaves out step 3; WHEELS=DIR reads the wheels elsewhere. With the fixtures of hold 3 the
#   tree and .gpu/b no longer fit one call (64 MiB): carry .gpu/b without its extra/ folder.
# 1. SDPA's FA4 route without the trace hook (is the ValueError torch's and FA4's, not the hook's?), then
#    traced: trace.call-raised-known names sdpa.fa4-route; the SDPA case: head dim 512's reason named.
# 2. FA2 beside FA4, each state checked: FA4 then FA2 (error, fix = force-reinstall FA4 --no-deps);
#    `pip uninstall flash-attn` (cute.files-missing); the printed fix followed (cute ok, FA2 ok);
#    FA2 then FA4 (info note only). Then FA3 and xformers too: all seven backends in one check.
# 3. Flex's smoke benchmark, warm, with the child ending as the real one does.
set -u
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"; R=$OUT
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 NO_COLOR=1
W=${WHEELS:-$PWD/.gpu/wheels}
LOG=$R/log.txt
say() { echo "=== $(date +%T) $*" | tee -a "$LOG"; }
pipi() { python3 -m pip install -q --no-index --no-deps --no-compile "$@" 2>&1 | grep -v -i warning | tail -3; }
chk() {  # name seconds args...
  local n=$1 t=$2; shift 2
  timeout "$t" python3 -m attn_doctor check -v "$@" --json "$R/$n.json" > "$R/$n.txt" 2>&1; local rc=$?
  say "$n: exit $rc; $(python3 -c "
import json,sys
d=json.load(open('$R/$n.json'))
print('; '.join(f\"{b}={r['status']}\" for b,r in d['backends'].items() if r['status']!='skipped'), '|', ', '.join(f\"{f['id']}({f['severity']})\" for f in d['findings']))" 2>&1 | tail -1)"
}
FA4W=$(ls /root/stage/flash_attn_4-*.whl .gpu/[bc]/flash_attn_4-*.whl 2>/dev/null | head -1)
[ -n "$FA4W" ] || FA4W=$(ls "$PWD"/.gpu/[bc]/flash_attn_4-*.whl 2>/dev/null | head -1)
mkdir -p /root/fa4w && cp -n .gpu/[bc]/flash_attn_4-*.whl /root/fa4w/ 2>/dev/null; FA4W=$(ls /root/fa4w/flash_attn_4-*.whl 2>/dev/null | head -1)
say "start; FA4 wheel: ${FA4W:-none}; wheels: $(ls "$W" | tr '\n' ' ')"

# 1. SDPA's FA4 route, plain and traced; the SDPA case traced
timeout 120 python3 scripts/gpu/trace_cases/fa4.py > "$R/fa4-plain.txt" 2>&1; say "fa4.py without trace: exit $? :: $(grep 'SDPA FA4 route' "$R/fa4-plain.txt" | tr '\n' ' ')"
timeout 120 python3 -m attn_doctor trace -v --json "$R/trace-fa4.json" -- python3 scripts/gpu/trace_cases/fa4.py > "$R/trace-fa4.txt" 2>&1
say "trace fa4: exit $? :: $(grep -o '\[trace\.[a-z-]*\]' "$R/trace-fa4.txt" | tr '\n' ' ')"
timeout 120 python3 -m attn_doctor trace -v --json "$R/trace-sdpa.json" -- python3 scripts/gpu/trace_cases/sdpa.py > "$R/trace-sdpa.txt" 2>&1
say "trace sdpa: exit $? :: $(grep -A1 'head_dim_512) (' "$R/trace-sdpa.txt" | tr -s ' ' | tr '\n' ' ' | cut -c1-300)"

# 2. FA2 beside FA4
F2=$(ls "$W"/flash_attn-2*.whl | head -1)
pipi "$F2"; say "order A: FA4 installed, then $(basename "$F2")"
chk a-fa4-then-fa2 240 -b cute -b fa2
grep -A3 'shadowed-by-fa2\]' "$R/a-fa4-then-fa2.txt" | grep 'fix:' | tee -a "$LOG"
python3 -m pip uninstall -y flash-attn > "$R/uninstall.txt" 2>&1; say "pip uninstall -y flash-attn: $(tail -1 "$R/uninstall.txt")"
chk b-fa2-uninstalled 180 -b cute
grep -A3 'files-missing\]' "$R/b-fa2-uninstalled.txt" | grep 'fix:' | tee -a "$LOG"
# the printed fix, with this host's wheel directory in place of pip's index (no index here)
pipi --force-reinstall "$FA4W"; say "followed: pip install --force-reinstall --no-deps $(basename "$FA4W")"
chk c-after-fix 180 -b cute
pipi "$F2"; pipi --force-reinstall "$FA4W"; say "order B: FA2, then FA4"
chk d-fa2-then-fa4 240 -b cute -b fa2
pipi "$W"/flash_attn_3-*.whl "$W"/xformers-*.whl; say "FA3 and xformers installed"
chk e-all-seven 360 -b sdpa -b flex -b cute -b fa2 -b fa3 -b xformers -b sage

# 3. Flex's smoke, warm (the check runs above filled the cache)
[ "${SKIP_FLEX:-0}" = 1 ] || timeout 150 python3 benchmarks/flex_smoke.py --compare --warmup 1 --runs 2 --device cuda:0 --json "$R/flex-smoke.json" > "$R/flex-smoke.txt" 2>&1
say "flex smoke: exit $? :: $(tail -3 "$R/flex-smoke.txt" | tr '\n' ' ')"
say end
