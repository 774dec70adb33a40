#!/bin/bash
accelerate launch --num_cpu_threads_per_process 1 src/musubi_tuner/wan_train_network.py \
  --dit /models/dit.safetensors \
  --dataset_config /data/dataset.toml --output_dir /out --output_name mylora \
  --network_module networks.lora_wan --network_dim 32 --timestep_sampling shift --discrete_flow_shift 3.0 \
  --optimizer_type adamw8bit --learning_rate 2e-4 --gradient_checkpointing --max_train_epochs 16 --task i2v-14B --sdpa --mixed_precision bf16 --compile --compile_backend inductor
