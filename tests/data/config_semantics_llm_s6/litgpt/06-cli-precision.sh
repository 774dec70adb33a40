#!/bin/bash
litgpt finetune_lora meta-llama/Llama-3.2-1B \
  --data Alpaca2k \
  --precision bf16-mixed \
  --train.micro_batch_size 1 \
  --out_dir out/finetune/lora
