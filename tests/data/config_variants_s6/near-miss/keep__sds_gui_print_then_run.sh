#!/bin/bash
printf 'old: accelerate launch sdxl_train_network.py --xformers --mixed_precision fp16\n'
accelerate launch --num_cpu_threads_per_process 1 sdxl_train_network.py \
    --pretrained_model_name_or_path=/models/sd_xl_base_1.0.safetensors --dataset_config=dataset.toml \
    --output_dir=out --network_module=networks.lora --sdpa --mixed_precision=bf16
