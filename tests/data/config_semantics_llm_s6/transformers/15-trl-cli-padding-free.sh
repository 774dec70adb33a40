#!/bin/bash
trl sft \
  --model_name_or_path Qwen/Qwen2.5-0.5B \
  --dataset_name trl-lib/Capybara \
  --attn_implementation flash_attention_2 \
  --padding_free \
  --bf16 \
  --per_device_train_batch_size 4 \
  --output_dir Qwen2.5-0.5B-SFT
