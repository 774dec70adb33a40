#!/bin/bash
set -euo pipefail
CONFIG="configs/config_nondet_adamw.toml"
accelerate launch --num_cpu_threads_per_process 1 --mixed_precision bf16 "src/musubi_tuner/flux_2_train_network.py" \
    --config_file "$CONFIG"
