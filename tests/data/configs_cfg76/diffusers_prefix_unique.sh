# written by cfg76: fakes a unique prefix --enable in diffusers train_text_to_image.py (only --enable_xformers_memory_efficient_attention starts so)
accelerate launch train_text_to_image.py --pretrained_model_name_or_path=runwayml/stable-diffusion-v1-5 \
  --dataset_name=lambdalabs/naruto-blip-captions --output_dir=out --mixed_precision=fp16 --enable
