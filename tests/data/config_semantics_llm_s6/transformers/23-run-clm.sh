#!/bin/bash
python run_clm.py \
    --model_name_or_path openai-community/gpt2 \
    --dataset_name wikitext \
    --dataset_config_name wikitext-2-raw-v1 \
    --per_device_train_batch_size 8 \
    --do_train \
    --torch_dtype bfloat16 \
    --bf16 \
    --torch_compile \
    --output_dir /tmp/test-clm
