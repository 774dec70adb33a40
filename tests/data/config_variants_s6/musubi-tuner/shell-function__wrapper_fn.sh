#!/bin/bash
train() {
    accelerate launch --num_cpu_threads_per_process 1 src/musubi_tuner/wan_train_network.py \
        --task t2v-1.3B --dit /models/wan2.1_t2v_1.3B_bf16.safetensors --dataset_config dataset.toml \
        --network_module networks.lora_wan --network_dim 32 --output_dir output --output_name wan-lora "$@"
}

train --sdpa --mixed_precision bf16 --fp8_base
