#!/bin/bash
# Synthetic file written for tests/test_configs_cfg44.py (helper cfg44, issue 24): not taken from any repository.
# Mutation of l01: under accelerate launch, the script renamed, options in a variable.
ARGS="--model_name_or_path meta-llama/Llama-3.1-8B --bf16 True --attn_implementation flash_attention_2 --gradient_checkpointing True"
accelerate launch --config_file zero3.yaml scripts/finetune_llama.py $ARGS --output_dir ckpt
