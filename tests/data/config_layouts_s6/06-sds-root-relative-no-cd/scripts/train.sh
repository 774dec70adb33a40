#!/usr/bin/env bash
# run from the repository root: bash scripts/train.sh
set -euo pipefail
accelerate launch --num_cpu_threads_per_process 1 sdxl_train_network.py \
  --config_file configs/prodigy-01-eps.toml
