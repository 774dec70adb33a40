#!/bin/bash
export CUDA_VISIBLE_DEVICES=0,1
export NPROC_PER_NODE=2
nohup swift sft \
    --model Qwen/Qwen3-8B --train_type lora --dataset data/train.json \
    --torch_dtype bfloat16 --attn_impl flash_attn --deepspeed zero2 \
    --output_dir output > sft.log 2>&1 &
