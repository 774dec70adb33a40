#!/bin/bash
# Synthetic file written for tests/test_configs_cfg44.py (helper cfg44, issue 24): not taken from any repository.
# A launch of the user's own script (not here) with TrainingArguments' flag names: unclaimed:user-script (round 32u).
torchrun --nproc_per_node 8 my_sft.py \
    --model_name_or_path Qwen/Qwen2.5-7B \
    --bf16 True \
    --attn_implementation flash_attention_2 \
    --per_device_train_batch_size 4 \
    --output_dir out
