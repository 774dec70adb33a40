#!/bin/bash
CUDA_VISIBLE_DEVICES=0 llamafactory-cli train \
    --stage sft \
    --do_train True \
    --model_name_or_path Qwen/Qwen2.5-7B-Instruct \
    --finetuning_type lora \
    --template qwen \
    --flash_attn fa2 \
    --dataset alpaca_en_demo \
    --cutoff_len 2048 \
    --learning_rate 5e-05 \
    --num_train_epochs 3.0 \
    --per_device_train_batch_size 2 \
    --gradient_accumulation_steps 8 \
    --output_dir saves/Qwen2.5-7B/lora/train \
    --bf16 True \
    --lora_rank 8 \
    --lora_target all
