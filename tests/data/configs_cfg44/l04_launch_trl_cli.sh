#!/bin/bash
# Synthetic file written for tests/test_configs_cfg44.py (helper cfg44, issue 24): not taken from any repository.
# Near miss on the other side: TRL's own CLI with the same options is transformers / TRL's run.
trl sft --model_name_or_path Qwen/Qwen2.5-0.5B --dataset_name trl-lib/Capybara \
    --attn_implementation flash_attention_2 --bf16 True --output_dir out
