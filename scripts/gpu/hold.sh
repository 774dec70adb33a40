#!/usr/bin/env bash
# One GPU hold in one background run (start it with setsid; the calls around it only watch it and pack
# what exists, so the machine never sits idle and nothing is lost when the hold ends early):
#   call 1 (carry .gpu/src):  nice -n 10 bash scripts/gpu/builds.sh start       FA2/FA3/xformers compile
#   call 2 (carry .gpu/a):    mkdir -p /root/stage && cp .gpu/a/* /root/stage/
#   call 3 (carry .gpu/b .gpu/nvml): bash .gpu/b/install.sh && (setsid bash scripts/gpu/hold.sh > /root/hold/run.txt 2>&1 &)
#   then, back to back:       sleep N; bash scripts/gpu/hold.sh pack "$OUT"
# Order, most needed first: issue 21's traces and issue 22's functional parts while the builds compile
# (they need the GPU, not a quiet CPU; the builds run at nice 10); then issue 25's steps once the builds
# end; then the built backends traced; last what needs a quiet machine: issue 22's timings.
# Everything lands in /root/hold/out; `hold.sh pack DIR` tars it, with the builds' reports, into DIR.
set -u
H=/root/hold; mkdir -p "$H/out"; LOG=$H/log.txt
if [ "${1:-}" = pack ]; then
  OUT="$2" PACK_WHEELS=0 bash scripts/gpu/builds.sh pack > "$H/pack-builds.txt" 2>&1
  tar -C "$H" -czf "$H/all.tgz" out log.txt pack-builds.txt 2>/dev/null
  rm -f "$2"/hold.tgz.part-*; split -b 15M -d "$H/all.tgz" "$2/hold.tgz.part-"
  tail -25 "$LOG"; bash scripts/gpu/builds.sh status 2>&1 | head -8; ls -la "$2"; exit 0
fi
stamp() { echo "=== $(date +%T) $*" | tee -a "$LOG"; }
export PYTHONPATH=$PWD
stamp start
# 1. while the builds run: issue 21's traces, then issue 22.s functional parts (A-E)
OUT=$H/out timeout 480 bash scripts/gpu/trace.sh >>"$LOG" 2>&1; stamp "trace rc=$?"
SLOW_DIR=$H/out/slow SLOW_PARTS=ABCDE OUT=$H/out timeout 660 bash scripts/gpu/slow.sh >>"$LOG" 2>&1; stamp "slow A-E rc=$?"
# 2. issue 25: once every build has ended, all seven backends checked together, FA2 beside FA4 both ways, bench
for _ in $(seq 120); do bash scripts/gpu/builds.sh status 2>/dev/null | grep -q RUNNING || break; sleep 10; done
bash scripts/gpu/builds.sh status >>"$LOG" 2>&1; stamp "builds ended"
mkdir -p "$H/out/builds"
FINISH_BUDGET=${FINISH_BUDGET:-420} PACK_WHEELS=0 OUT=$H/out/builds timeout 540 bash scripts/gpu/builds.sh finish \
  all order-a uninstall order-b config bench xformers-pypi >>"$LOG" 2>&1
stamp "finish rc=$?"
timeout 150 python3 -m attn_doctor trace -v --json "$H/out/trace-built.json" -- python3 scripts/gpu/trace_cases/built.py \
  > "$H/out/trace-built.txt" 2>&1; stamp "trace built rc=$?"
# 3. a quiet machine: the timings
SLOW_DIR=$H/out/slow SLOW_PARTS=F OUT=$H/out timeout 360 bash scripts/gpu/slow.sh >>"$LOG" 2>&1; stamp "slow F rc=$?"
stamp end
