#!/bin/bash
MODEL=${MODEL:-Qwen/Qwen2.5-1.5B-Instruct}
ATTN=sdpa
DTYPE=float16
export CUDA_VISIBLE_DEVICES=0
swift sft \
    --model $MODEL --train_type lora --dataset AI-ModelScope/alpaca-gpt4-data-zh#500 \
    --attn_impl $ATTN --torch_dtype $DTYPE \
    --num_train_epochs 1 --output_dir output
