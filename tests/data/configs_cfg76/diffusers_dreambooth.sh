#!/bin/bash
# written by cfg76: fakes a diffusers examples DreamBooth LoRA launch with ${VAR:-default} and continuations
export MODEL_NAME=${MODEL_NAME:-"stabilityai/stable-diffusion-xl-base-1.0"}
export INSTANCE_DIR="${INSTANCE_DIR:-./dog}"
export OUTPUT_DIR=${OUTPUT_DIR:-lora-trained-xl}
PRECISION=${PRECISION:-fp16}

accelerate launch train_dreambooth_lora_sdxl.py \
  --pretrained_model_name_or_path=$MODEL_NAME  \
  --instance_data_dir=$INSTANCE_DIR \
  --output_dir=$OUTPUT_DIR \
  --mixed_precision=${PRECISION} \
  --instance_prompt="a photo of sks dog" \
  --resolution=1024 \
  --train_batch_size=1 \
  --enable_xformers_memory_efficient_attention \
  --max_train_steps=500
