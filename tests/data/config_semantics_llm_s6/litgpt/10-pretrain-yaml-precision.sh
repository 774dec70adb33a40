#!/bin/bash
cat > pretrain.yaml <<EOF
model_name: pythia-14m
out_dir: out/pretrain/pythia-14m
precision: bf16-mixed
data: TinyStories
train:
  global_batch_size: 512
  micro_batch_size: 8
  max_tokens: 1000000
EOF
litgpt pretrain --config pretrain.yaml
