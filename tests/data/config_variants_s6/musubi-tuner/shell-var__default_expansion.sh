#!/usr/bin/env bash
set -euo pipefail
DIT=${DIT:-/models/wan2.1_t2v_1.3B_bf16.safetensors}
PRECISION=${PRECISION:-bf16}
ATTN=${ATTN:-sdpa}

accelerate launch --num_cpu_threads_per_process 1 --mixed_precision ${PRECISION} src/musubi_tuner/wan_train_network.py \
    --task t2v-1.3B \
    --dit "$DIT" \
    --dataset_config dataset.toml --${ATTN} --mixed_precision ${PRECISION} --fp8_base \
    --optimizer_type adamw8bit --learning_rate 2e-4 --gradient_checkpointing \
    --network_module networks.lora_wan --network_dim 32 \
    --timestep_sampling shift --discrete_flow_shift 3.0 \
    --max_train_epochs 16 --save_every_n_epochs 1 --seed 42 \
    --output_dir output --output_name wan-lora
