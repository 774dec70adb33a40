#!/usr/bin/env bash
# written by cfg76: fakes a user's sd-scripts SDXL LoRA script with ${VAR:-default}, ${VAR:=x} and continuations
MODEL="${MODEL:-/models/sd_xl_base_1.0.safetensors}"
: "${ATTN:=--sdpa}"
PREC=${PREC:-bf16}
STEPS=$((EPOCHS * 100))
accelerate launch --num_cpu_threads_per_process 1 sdxl_train_network.py \
  --pretrained_model_name_or_path="$MODEL" \
  --train_data_dir=/data/train \
  --output_dir=/data/out \
  --network_module=networks.lora \
  --network_dim=32 \
  --mixed_precision=$PREC \
  --max_train_steps=$STEPS \
  $ATTN \
  --cache_latents \
  --train_batch_size 2
