#!/usr/bin/env bash
# The session's last GPU hold in one background run (start it with setsid; the calls around it only
# watch it, so the machine never sits idle): the FA2/FA3/xformers builds (started before by
# `builds.sh start`) compile while the functional checks of issues 22, 21 and 20 run; then the builds'
# own steps (issue 25); then what needs a quiet machine: the timings of issue 22 and trace's overhead.
#   setsid bash scripts/gpu/hold2.sh > /root/hold2/run.txt 2>&1 &     then: tail /root/hold2/log.txt
# Everything lands in /root/hold2/out; `hold2.sh pack DIR` tars it into DIR in parts of at most 15 MiB.
set -u
H=/root/hold2; mkdir -p "$H/out"; LOG=$H/log.txt
if [ "${1:-}" = pack ]; then
  tar -C "$H" -czf "$H/all.tgz" out log.txt 2>/dev/null
  split -b 15M -d "$H/all.tgz" "$2/hold2.tgz.part-"; ls -la "$2"; exit 0
fi
stamp() { echo "=== $(date +%T) $*" | tee -a "$LOG"; }
export PYTHONPATH=$PWD
stamp start
# 1. while the builds run: issue 22's functional parts, issue 21's traces, issue 20's paste run
SLOW_DIR=$H/slow SLOW_PARTS=ACDE OUT=$H/out timeout 780 bash scripts/gpu/slow.sh >>"$LOG" 2>&1; stamp "slow A-E rc=$?"
OUT=$H/out timeout 420 bash scripts/gpu/trace.sh >>"$LOG" 2>&1 & tr=$!
OUT=$H/out timeout 420 bash scripts/gpu/paste.sh >>"$LOG" 2>&1; stamp "paste rc=$?"
wait $tr; stamp "trace rc=$?"
# 2. the builds' own steps, once every build has ended
for _ in $(seq 120); do bash scripts/gpu/builds.sh status 2>/dev/null | grep -q RUNNING || break; sleep 10; done
bash scripts/gpu/builds.sh status >>"$LOG" 2>&1; stamp "builds ended"
mkdir -p "$H/out/builds"
# the steps in the order they matter: all seven backends checked together, FA2 beside FA4 both ways, bench
FINISH_BUDGET=${FINISH_BUDGET:-380} PACK_WHEELS=0 OUT=$H/out/builds timeout 440 bash scripts/gpu/builds.sh finish \
  all order-a uninstall order-b bench xformers-pypi config >>"$LOG" 2>&1
stamp "finish rc=$?"
timeout 120 python3 -m attn_doctor trace -v --json "$H/out/trace-built.json" -- python3 scripts/gpu/trace_cases/built.py \
  > "$H/out/trace-built.txt" 2>&1; stamp "trace built rc=$?"
# 3. a quiet machine: the timings
SLOW_DIR=$H/slow SLOW_PARTS=F OUT=$H/out timeout 360 bash scripts/gpu/slow.sh >>"$LOG" 2>&1; stamp "slow F rc=$?"
stamp end
