#!/bin/bash
OPTS="--pretrained_model_name_or_path=/models/sd_xl_base_1.0.safetensors
  --dataset_config=dataset.toml --output_dir=out --output_name=lora
  --network_module=networks.lora --network_dim=32
  --sdpa --mixed_precision=bf16"
accelerate launch --num_cpu_threads_per_process 1 sdxl_train_network.py $OPTS
