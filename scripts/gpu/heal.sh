#!/usr/bin/env bash
# Safe advice on a real GPU, with faults (session 12). On the GPU host after `bash .gpu/b/install.sh`, from the repo root:
#   bash scripts/gpu/heal.sh     # writes $OUT/heal.tgz: one paste.sh run per scenario, and a summary
# pip's configured index is made a local folder holding only the good stack's wheels (.gpu/b and the rebuilt CUTLASS
# libs wheel in /root/stage: PIP_NO_INDEX + PIP_FIND_LINKS, the way a user's pip.conf would name a mirror), so a
# printed `pip install` line really runs against what an index would offer, instead of failing for want of a network.
# Scenarios: good (the staged stack), quack (quack-kernels 0.2.4 over flash-attn-4: cute broken at import),
# xformers (xformers 0.0.35 built for torch 2.10, beside torch 2.11 and flash-attn-4). Each: check, fix, every printed
# line pasted into one bash session, check again (scripts/gpu/paste.sh). PASS: nothing that was ok is broken after,
# and no error is new; what the pasting healed is listed.
set -u
ROOT=$PWD
OUT=${OUT:-/tmp/out}
W=$(mktemp -d /tmp/heal.XXXXXX)
IDX=$W/index; mkdir -p "$IDX"
cp "$ROOT"/.gpu/b/*.whl "$IDX"/; cp /root/stage/*.whl "$IDX"/ 2>/dev/null
export PIP_NO_INDEX=1 PIP_FIND_LINKS=$IDX PIP_DISABLE_PIP_VERSION_CHECK=1
pipi() { python3 -m pip install -q --no-deps --force-reinstall "$@" >>"$W/log.txt" 2>&1; }
{ date -u; nvidia-smi --query-gpu=name,compute_cap,driver_version --format=csv,noheader; git -C "$ROOT" rev-parse HEAD 2>/dev/null; ls "$IDX"; } >>"$W/log.txt" 2>&1
run() {  # run NAME: paste.sh into $W/NAME
  local t0=$(date +%s)
  PASTE_DIR=$W/$1 timeout 560 bash "$ROOT/scripts/gpu/paste.sh" >>"$W/log.txt" 2>&1
  echo "== $1 ($(( $(date +%s) - t0 )) s)" >>"$W/summary.txt"; cat "$W/$1/summary.txt" >>"$W/summary.txt" 2>/dev/null
}
for s in ${HEAL_SCENARIOS:-good quack xformers}; do
  case $s in
    quack) pipi "$ROOT"/.gpu/b/extra/quack_kernels-0.2.4-*.whl ;;
    xformers) pipi "$ROOT"/.gpu/b/quack_kernels-0.6.5-*.whl; pipi "$ROOT"/.gpu/b/extra/xformers-0.0.35-*.whl ;;
  esac
  run "$s"
done
python3 -m pip list 2>/dev/null | grep -i -E "^(torch|triton|flash|quack|nvidia-cutlass|sage|xformers) " >>"$W/summary.txt"
cat "$W/summary.txt"
tar -C "$W" -czf "$OUT/heal.tgz" --exclude=index .
