#!/bin/bash
export CUDA_VISIBLE_DEVICES=0,1
tune run --nproc_per_node 2 full_finetune_distributed --config ./configs/my_full.yaml \
    compile=True \
    output_dir=/tmp/full-ft
