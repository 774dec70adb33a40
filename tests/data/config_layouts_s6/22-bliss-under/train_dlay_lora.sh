#!/bin/bash
set -e
CONFIG_FILE="configs/dlay_lora_training.toml"
accelerate launch --num_cpu_threads_per_process 1 --mixed_precision bf16 \
    src/musubi_tuner/wan_train_network.py \
    --config_file "${CONFIG_FILE}"
