#!/bin/bash
trl sft \
  --model_name_or_path Qwen/Qwen2.5-0.5B \
  --dataset_name trl-lib/Capybara \
  --model_init_kwargs '{"attn_implementation": "flash_attention_2"}' \
  --bf16 \
  --output_dir Qwen2.5-0.5B-SFT
