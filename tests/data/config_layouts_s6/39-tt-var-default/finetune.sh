#!/bin/bash
CONFIG=${CONFIG:-configs/llama3_2_3b_lora.yaml}
tune run --nproc_per_node 2 lora_finetune_distributed --config $CONFIG
