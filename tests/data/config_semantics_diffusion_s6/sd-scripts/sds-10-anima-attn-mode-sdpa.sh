#!/bin/bash
accelerate launch --num_cpu_threads_per_process 1 anima_train_network.py \
  --pretrained_model_name_or_path=/models/base.safetensors \
  --dataset_config=/data/dataset.toml --output_dir=/out --output_name=mylora \
  --network_module=networks.lora_anima --network_dim=16 --network_alpha=8 --learning_rate=1e-4 \
  --max_train_epochs=10 --save_every_n_epochs=2 --optimizer_type=AdamW8bit --attn_mode sdpa --mixed_precision bf16
