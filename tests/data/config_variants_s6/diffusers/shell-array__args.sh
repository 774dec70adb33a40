#!/usr/bin/env bash
ARGS=(
  --pretrained_model_name_or_path=stabilityai/stable-diffusion-xl-base-1.0
  --dataset_name=lambdalabs/naruto-blip-captions
  --resolution=1024
  --train_batch_size=1
  --mixed_precision=bf16
  --output_dir=sdxl-naruto
)
ARGS+=(--enable_xformers_memory_efficient_attention)
accelerate launch train_text_to_image_sdxl.py "${ARGS[@]}"
