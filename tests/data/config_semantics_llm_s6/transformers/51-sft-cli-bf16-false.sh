#!/bin/bash
trl sft \
  --model_name_or_path Qwen/Qwen2.5-0.5B \
  --dataset_name trl-lib/Capybara \
  --attn_implementation flash_attention_2 \
  --dtype bfloat16 \
  --bf16 False \
  --output_dir Qwen2.5-0.5B-SFT
