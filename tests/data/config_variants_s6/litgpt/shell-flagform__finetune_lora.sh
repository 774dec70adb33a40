#!/bin/bash
litgpt finetune_lora checkpoints/meta-llama/Llama-3.2-1B \
  --data Alpaca --data.val_split_fraction=0.1 \
  --train.epochs=1 --train.micro_batch_size=2 \
  --out_dir=out/llama-3.2-lora \
  --precision=bf16-true
