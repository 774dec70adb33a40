#!/bin/bash
accelerate launch --num_cpu_threads_per_process 1 src/musubi_tuner/wan_train_network.py \
    --task t2v-1.3B --dit /models/wan2.1_t2v_1.3B_bf16.safetensors --dataset_config dataset.toml \
    --sdpa --mixed_precision bf16 --network_module networks.lora_wan --output_dir output --output_name a
exit 0

accelerate launch --num_cpu_threads_per_process 1 src/musubi_tuner/wan_train_network.py \
    --task t2v-1.3B --dit /models/wan2.1_t2v_1.3B_bf16.safetensors --dataset_config dataset.toml \
    --flash_attn --mixed_precision fp16 --network_module networks.lora_wan --output_dir output --output_name b
