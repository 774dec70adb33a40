#!/bin/bash
CUDA_VISIBLE_DEVICES=0 \
swift sft \
    --model_id_or_path qwen/Qwen2.5-7B-Instruct \
    --model_type qwen2_5-7b-instruct \
    --dataset 'AI-ModelScope/alpaca-gpt4-data-zh#500' \
    --num_train_epochs 1 \
    --per_device_train_batch_size 1 \
    --learning_rate 1e-4 \
    --lora_rank 8 \
    --lora_alpha 32 \
    --lora_target_modules ALL \
    --gradient_accumulation_steps 16 \
    --sft_type lora \
    --use_flash_attn true \
    --dtype fp16 \
    --max_length 2048 \
    --output_dir output
