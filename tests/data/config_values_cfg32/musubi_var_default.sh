#!/bin/bash
# variant written for cfg32: backend and precision from ${VAR:-default}
ATTN=${ATTN:-flash_attn}
PREC="${PRECISION:-bf16}"
accelerate launch --num_cpu_threads_per_process 1 --mixed_precision "$PREC" src/musubi_tuner/wan_train_network.py \
  --task t2v-1.3B --dit /models/wan2.1_t2v_1.3B_bf16.safetensors --dataset_config dataset.toml \
  --$ATTN --mixed_precision "$PREC" --fp8_base --optimizer_type adamw8bit --learning_rate 2e-4 \
  --network_module networks.lora_wan --network_dim 32 --output_dir out --output_name wan-lora
