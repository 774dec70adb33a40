accelerate launch 'train_text_to_image_sdxl.py' \
  '--pretrained_model_name_or_path=stabilityai/stable-diffusion-xl-base-1.0' \
  --dataset_name='lambdalabs/naruto-blip-captions' --resolution=1024 \
  --mixed_precision='bf16' \
  "--enable_xformers_memory_efficient_attention" \
  --output_dir='sdxl-naruto'
