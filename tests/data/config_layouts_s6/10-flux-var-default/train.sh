#!/bin/bash
CONFIG=${CONFIG:-configs/kohya/flux_lora.toml}
accelerate launch --num_cpu_threads_per_process 1 flux_train_network.py --config_file $CONFIG
