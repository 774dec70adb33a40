#!/bin/bash
cd "$(dirname "$0")/.."
tune run lora_finetune_single_device --config configs/llama3_2_3b_lora.yaml checkpointer.output_dir=checkpoints/
