#!/bin/bash
export DIFFUSERS_ATTN_BACKEND=_native_cudnn
export MODEL_NAME="stabilityai/stable-diffusion-xl-base-1.0"
export OUTPUT_DIR="out"

accelerate launch train_dreambooth_lora_qwen_image.py \
  --pretrained_model_name_or_path=$MODEL_NAME \
  --instance_data_dir=./dog \
  --output_dir=$OUTPUT_DIR --instance_prompt="a photo of sks dog" --resolution=1024 \
  --train_batch_size=1 --gradient_accumulation_steps=4 --learning_rate=1e-4 --max_train_steps=500 --mixed_precision=bf16
