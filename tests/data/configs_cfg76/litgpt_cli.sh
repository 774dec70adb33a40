#!/usr/bin/env bash
# written by cfg76: fakes a user's LitGPT CLI run (litgpt finetune full) with precision and a compile-free run
MODEL=${MODEL:-microsoft/phi-2}
litgpt finetune full checkpoints/$MODEL \
  --data JSON --data.json_path data/train.json \
  --precision 16-mixed \
  --train.micro_batch_size 1 \
  --devices 2 \
  --out_dir out/phi2-full
