#!/bin/bash
trl sft \
  --model_name_or_path Qwen/Qwen2.5-0.5B \
  --dataset_name trl-lib/Capybara \
  --attn_implementation flash_attention_2 \
  --dtype bfloat16 \
  --learning_rate 2.0e-5 \
  --per_device_train_batch_size 2 \
  --gradient_accumulation_steps 8 \
  --output_dir Qwen2.5-0.5B-SFT
