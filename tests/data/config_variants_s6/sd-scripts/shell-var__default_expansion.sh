#!/bin/bash
MODEL=${MODEL:-/models/v1-5-pruned.safetensors}
PREC=${PREC:-fp16}
OUT=${1:-output}
accelerate launch --num_cpu_threads_per_process 1 train_network.py \
    --pretrained_model_name_or_path="$MODEL" \
    --dataset_config="dataset.toml" --output_dir="$OUT" --output_name="my_lora" \
    --network_module=networks.lora --network_dim=16 \
    --xformers --mixed_precision="$PREC" --gradient_checkpointing
