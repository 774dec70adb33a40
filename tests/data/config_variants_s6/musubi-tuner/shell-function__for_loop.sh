#!/bin/bash
for dim in 16 32; do
    accelerate launch --num_cpu_threads_per_process 1 --mixed_precision bf16 src/musubi_tuner/wan_train_network.py \
        --task t2v-1.3B --dit /models/wan2.1_t2v_1.3B_bf16.safetensors --dataset_config dataset.toml \
        --flash_attn --mixed_precision bf16 \
        --network_module networks.lora_wan --network_dim $dim --output_dir output --output_name wan-r$dim
done
