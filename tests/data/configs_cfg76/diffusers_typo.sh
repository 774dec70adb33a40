# written by cfg76: fakes a misspelt diffusers flag (--enable_xformers_memory_efficent_attention) in train_dreambooth.py
accelerate launch train_dreambooth.py \
  --pretrained_model_name_or_path=stable-diffusion-v1-5/stable-diffusion-v1-5 \
  --instance_data_dir=./dog --output_dir=./out --instance_prompt="a photo of sks dog" \
  --resolution=512 --train_batch_size=1 --mixed_precision=fp16 \
  --enable_xformers_memory_efficent_attention
