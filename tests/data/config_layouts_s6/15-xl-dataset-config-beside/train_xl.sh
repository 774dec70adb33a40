#!/bin/bash
accelerate launch --num_cpu_threads_per_process=8 sdxl_train_network.py \
  --dataset_config ./dataset.toml \
  --config_file ./config_file.toml
