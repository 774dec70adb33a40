#!/bin/bash
export MIXED=bf16
export ATTN_ARG="--flash_attn"
export OUT=./output

accelerate launch --num_cpu_threads_per_process 1 --mixed_precision $MIXED src/musubi_tuner/wan_train_network.py \
    --task t2v-1.3B --dit /models/wan2.1_t2v_1.3B_bf16.safetensors --dataset_config dataset.toml \
    $ATTN_ARG --mixed_precision $MIXED --fp8_base \
    --optimizer_type adamw8bit --learning_rate 2e-4 --gradient_checkpointing \
    --network_module networks.lora_wan --network_dim 32 \
    --output_dir $OUT --output_name wan-lora
