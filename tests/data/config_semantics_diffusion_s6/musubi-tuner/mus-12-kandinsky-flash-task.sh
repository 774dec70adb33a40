#!/bin/bash
accelerate launch --num_cpu_threads_per_process 1 src/musubi_tuner/kandinsky5_train_network.py \
  --dit /models/dit.safetensors \
  --dataset_config /data/dataset.toml --output_dir /out --output_name mylora \
  --network_module networks.lora_kandinsky --network_dim 32 --timestep_sampling shift --discrete_flow_shift 3.0 \
  --optimizer_type adamw8bit --learning_rate 2e-4 --gradient_checkpointing --max_train_epochs 16 --task k5-lite-t2v-5s-sd --flash_attn --mixed_precision bf16
