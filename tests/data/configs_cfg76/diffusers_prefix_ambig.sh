# written by cfg76: fakes an ambiguous prefix --enable in diffusers train_text_to_image_sdxl.py (--enable_npu_flash_attention, --enable_xformers_memory_efficient_attention)
accelerate launch train_text_to_image_sdxl.py --pretrained_model_name_or_path=stabilityai/stable-diffusion-xl-base-1.0 \
  --dataset_name=lambdalabs/naruto-blip-captions --output_dir=out --mixed_precision=fp16 --enable
