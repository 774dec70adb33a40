#!/bin/bash
accelerate launch --num_cpu_threads_per_process 1 flux_train.py \
  --pretrained_model_name_or_path=/models/base.safetensors \
  --dataset_config=/data/dataset.toml --output_dir=/out --output_name=mylora \
  --clip_l=/models/clip_l.safetensors --t5xxl=/models/t5xxl_fp16.safetensors --ae=/models/ae.safetensors --learning_rate=1e-4 \
  --max_train_epochs=10 --save_every_n_epochs=2 --optimizer_type=AdamW8bit --sdpa --mixed_precision bf16 --full_bf16 --fused_backward_pass
