#!/bin/bash
cd sd-scripts
accelerate launch \
  --num_cpu_threads_per_process=8 \
  sdxl_train_network.py \
  --config_file="../train_config/XL_config/config_file.toml"
