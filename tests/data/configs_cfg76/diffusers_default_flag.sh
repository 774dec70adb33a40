#!/bin/bash
# written by cfg76: fakes a diffusers text-to-image run whose attention flag is a ${VAR:-default} and batch a $((...))
ATTN=${ATTN:---enable_xformers_memory_efficient_attention}
BS=$(( 2 * 2 ))
accelerate launch --mixed_precision="fp16" train_text_to_image.py \
  --pretrained_model_name_or_path="stable-diffusion-v1-5/stable-diffusion-v1-5" \
  --dataset_name="lambdalabs/naruto-blip-captions" \
  --resolution=512 --center_crop --random_flip \
  --train_batch_size=$BS $ATTN \
  --output_dir="sd-naruto-model"
