#!/bin/bash
cd ~/sd-scripts && source venv/bin/activate && accelerate launch --num_cpu_threads_per_process 1 sdxl_train_network.py \
    --pretrained_model_name_or_path=/models/sd_xl_base_1.0.safetensors --dataset_config=dataset.toml \
    --output_dir=out --output_name=lora --network_module=networks.lora --network_dim=32 \
    --sdpa --mixed_precision=bf16
