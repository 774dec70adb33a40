#!/bin/bash
exec time accelerate launch --num_cpu_threads_per_process 1 train_network.py --pretrained_model_name_or_path=/models/v1-5-pruned.safetensors --dataset_config=dataset.toml --output_dir=out --output_name=lora --network_module=networks.lora --network_dim=16 --sdpa --mixed_precision=fp16
