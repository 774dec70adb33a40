# written by cfg76: fakes argparse prefixes in diffusers train_text_to_image_lora.py (--enable_xformers unique, --mixed ok)
accelerate launch train_text_to_image_lora.py --pretrained_model_name_or_path=runwayml/stable-diffusion-v1-5 \
  --dataset_name=lambdalabs/naruto-blip-captions --output_dir=out --mixed=fp16 --train_batch_size=2 --enable_xformers
