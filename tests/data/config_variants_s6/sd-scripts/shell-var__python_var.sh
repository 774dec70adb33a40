#!/bin/bash
PYTHON=${PYTHON:-./venv/bin/python}
"$PYTHON" -m accelerate.commands.launch --num_cpu_threads_per_process 2 train_network.py --pretrained_model_name_or_path=/models/v1-5-pruned.safetensors --dataset_config=dataset.toml --output_dir=out --output_name=lora --network_module=networks.lora --network_dim=16 \
    --xformers --mixed_precision fp16
