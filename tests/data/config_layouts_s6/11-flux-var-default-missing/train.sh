#!/bin/bash
CONFIG=${CONFIG:-configs/flux_lora_v2.toml}
accelerate launch --num_cpu_threads_per_process 1 flux_train_network.py --config_file $CONFIG
