#!/usr/bin/env bash
# On the lent GPU machine (after the .gpu/a call): real error texts of the seven backends, scripts/gpu/fault_texts.py.
#   bash scripts/gpu/fault_texts.sh base        installs the staged stack, runs the base cases (SDPA, Flex, FA4, Sage)
#   bash scripts/gpu/fault_texts.sh extra       xformers 0.0.35 beside it, then quack-kernels 0.2.4 instead of 0.6.5
# Each call leaves $OUT/fault-texts-<stage>.tgz (texts/, cases.json, the log) and $OUT/machine.txt.
set -u
stage=${1:?base or extra}
r=/root/fault-texts; mkdir -p "$r"
{ nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv,noheader; python3 -V; git rev-parse HEAD 2>/dev/null; } > "$OUT/machine.txt" 2>&1
if [ "$stage" = base ]; then
  bash .gpu/b/install.sh > "$r/install-base.txt" 2>&1
  python3 scripts/gpu/fault_texts.py "$r" base 2>&1 | tee "$r/log-base.txt"
else
  bash .gpu/b/install.sh --with-extra xformers > "$r/install-xformers.txt" 2>&1
  python3 scripts/gpu/fault_texts.py "$r" xformers 2>&1 | tee "$r/log-xformers.txt"
  python3 -m pip uninstall -y -q xformers > /dev/null 2>&1
  bash .gpu/b/install.sh --with-extra quack_kernels > "$r/install-quack.txt" 2>&1
  python3 scripts/gpu/fault_texts.py "$r" quack 2>&1 | tee "$r/log-quack.txt"
fi
cat "$r"/install-*.txt >> "$OUT/machine.txt"
tar czf "$OUT/fault-texts-$stage.tgz" -C "$r" .
