DIFFUSERS_ATTN_BACKEND=flash accelerate launch train_dreambooth_lora_sdxl.py \
  --pretrained_model_name_or_path=stabilityai/stable-diffusion-xl-base-1.0 \
  --instance_data_dir=dog --instance_prompt="a photo of sks dog" --output_dir=lora-sdxl \
  --resolution=1024 --train_batch_size=1 --mixed_precision=fp16
