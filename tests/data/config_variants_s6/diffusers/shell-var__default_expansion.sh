#!/bin/bash
MODEL_NAME=${MODEL_NAME:-stabilityai/stable-diffusion-xl-base-1.0}
VAE_NAME=${VAE_NAME:-madebyollin/sdxl-vae-fp16-fix}
: ${PRECISION:=fp16}
accelerate launch train_text_to_image_sdxl.py \
  --pretrained_model_name_or_path=$MODEL_NAME --pretrained_vae_model_name_or_path=$VAE_NAME \
  --dataset_name=lambdalabs/naruto-blip-captions --resolution=512 --center_crop --random_flip \
  --train_batch_size=1 --gradient_accumulation_steps=4 --gradient_checkpointing \
  --max_train_steps=10000 --use_8bit_adam --learning_rate=1e-06 \
  --mixed_precision="${PRECISION}" --enable_xformers_memory_efficient_attention \
  --output_dir="sdxl-naruto-model"
