#!/bin/bash
python litgpt/finetune/lora.py \
  --checkpoint_dir checkpoints/meta-llama/Llama-2-7b-hf \
  --data Alpaca \
  --precision 16-true \
  --out_dir out/lora/alpaca
