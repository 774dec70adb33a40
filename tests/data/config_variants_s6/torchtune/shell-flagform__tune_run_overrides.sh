#!/bin/bash
tune run --nnodes 1 --nproc_per_node 4 lora_finetune_distributed --config llama3_1/8B_lora \
    dataset.packed=True \
    dtype=bf16 \
    compile=True \
    batch_size=2
