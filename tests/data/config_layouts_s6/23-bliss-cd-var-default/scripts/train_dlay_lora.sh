#!/bin/bash
set -e
cd "$(dirname "$0")"
CONFIG_FILE="${1:-../configs/dlay_lora_training.toml}"
accelerate launch --num_cpu_threads_per_process 1 src/musubi_tuner/wan_train_network.py --config_file "$CONFIG_FILE"
