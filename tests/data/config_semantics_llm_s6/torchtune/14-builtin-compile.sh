#!/bin/bash
tune run --nproc_per_node 8 full_finetune_distributed \
  --config llama3_1/8B_full \
  compile=True \
  batch_size=4
