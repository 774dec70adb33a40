#!/bin/bash
MUSUBI=../musubi-tuner
source "$MUSUBI/.venv/bin/activate"
accelerate launch --num_cpu_threads_per_process 1 --mixed_precision bf16 "$MUSUBI/src/musubi_tuner/hv_train_network.py" \
    --dit /models/mp_rank_00_model_states.pt --dataset_config dataset.toml \
    --sdpa --mixed_precision bf16 --fp8_base \
    --network_module networks.lora --network_dim 32 --output_dir output --output_name hv-lora
