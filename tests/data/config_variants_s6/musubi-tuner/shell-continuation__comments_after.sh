#!/bin/bash
# Wan 2.1 T2V 1.3B LoRA
# compile on: first epoch is slow
accelerate launch --num_cpu_threads_per_process 1 --mixed_precision bf16 src/musubi_tuner/wan_train_network.py    \
    --task t2v-1.3B      \
    --dit /models/wan2.1_t2v_1.3B_bf16.safetensors     \
    --dataset_config dataset.toml  \
    --sdpa    \
    --mixed_precision bf16  \
    --compile   \
    --compile_mode max-autotune-no-cudagraphs   \
    --network_module networks.lora_wan  \
    --network_dim 32  \
    --output_dir output  \
    --output_name wan-lora
# done
