#!/bin/bash
# variant written for cfg32: sd-scripts flags from ${VAR:-default} and a bash array
PREC=${MIXED_PRECISION:-fp16}
EXTRA=(--sdpa --gradient_checkpointing)
accelerate launch --mixed_precision="$PREC" train_network.py \
  --pretrained_model_name_or_path=/models/v1-5-pruned.safetensors --train_data_dir=/data/img \
  --output_dir=/out --network_module=networks.lora --network_dim=16 \
  --mixed_precision="$PREC" "${EXTRA[@]}"
