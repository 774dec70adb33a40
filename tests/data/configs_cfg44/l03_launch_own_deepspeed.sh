#!/bin/bash
# Synthetic file written for tests/test_configs_cfg44.py (helper cfg44, issue 24): not taken from any repository.
# Mutation of l01: under deepspeed, the script in src/.
deepspeed --num_gpus 4 src/train_llm.py --deepspeed ds_z2.json --model_name_or_path mistralai/Mistral-7B-v0.1 \
    --bf16 True --torch_dtype bfloat16 --attn_implementation sdpa --learning_rate 2e-5
