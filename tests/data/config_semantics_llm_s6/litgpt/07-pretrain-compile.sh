#!/bin/bash
litgpt pretrain pythia-160m \
  --tokenizer_dir checkpoints/EleutherAI/pythia-160m \
  --data TextFiles \
  --data.train_data_path data/custom_texts \
  --precision bf16-mixed \
  --train.max_tokens 10_000_000 \
  --out_dir out/custom-model
