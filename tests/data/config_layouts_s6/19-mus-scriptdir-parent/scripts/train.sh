#!/bin/bash
SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
accelerate launch --num_cpu_threads_per_process 1 --mixed_precision bf16 "$MUSUBI_HOME/src/musubi_tuner/flux_2_train_network.py" \
    --config_file "$SCRIPT_DIR/../configs/config_nondet_adamw.toml"
