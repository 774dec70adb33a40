#!/bin/bash
# written by cfg76: fakes a user's launch of a torchtune built-in config with overrides (packing, compile)
set -e
tune run --nproc_per_node 2 lora_finetune_distributed --config llama3_1/8B_lora \
  dataset.packed=True \
  compile=True \
  batch_size=2 \
  output_dir=/scratch/out
