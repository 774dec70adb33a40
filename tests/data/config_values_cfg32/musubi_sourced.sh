#!/bin/bash
# variant written for cfg32: values exported by a sourced file
source ./musubi_env.sh
accelerate launch --mixed_precision $PRECISION src/musubi_tuner/hv_train_network.py \
  --dit /models/mp_rank_00_model_states.pt --dataset_config dataset.toml \
  $ATTN_FLAG --split_attn --mixed_precision $PRECISION --optimizer_type adamw8bit \
  --network_module networks.lora --network_dim 32 --output_dir out --output_name hv-lora
