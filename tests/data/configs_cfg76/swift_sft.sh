#!/bin/bash
# written by cfg76: fakes a user's ms-swift 3.x `swift sft` LoRA run with flash attention and packing
NPROC_PER_NODE=2 \
CUDA_VISIBLE_DEVICES=0,1 \
swift sft \
    --model Qwen/Qwen2.5-7B-Instruct \
    --train_type lora \
    --dataset 'AI-ModelScope/alpaca-gpt4-data-zh#500' \
    --torch_dtype bfloat16 \
    --num_train_epochs 1 \
    --per_device_train_batch_size 1 \
    --attn_impl flash_attn \
    --packing true \
    --lora_rank 8 \
    --output_dir output
