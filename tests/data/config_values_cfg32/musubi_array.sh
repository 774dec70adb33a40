#!/bin/bash
# variant written for cfg32: options gathered in a bash array
ARGS=(--mixed_precision bf16 --sage_attn --compile --compile_mode max-autotune)
ARGS+=(--optimizer_type adamw8bit --learning_rate 2e-4)
accelerate launch src/musubi_tuner/wan_train_network.py --task t2v-14B \
  --dit /models/wan2.1_t2v_14B_bf16.safetensors --dataset_config dataset.toml \
  "${ARGS[@]}" --network_module networks.lora_wan --network_dim 32 --output_dir out --output_name wan14
