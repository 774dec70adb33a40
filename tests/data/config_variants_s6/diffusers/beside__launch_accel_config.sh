accelerate launch --config_file beside__accelerate.yaml train_dreambooth.py \
  --pretrained_model_name_or_path=CompVis/stable-diffusion-v1-4 --instance_data_dir=dog --output_dir=out \
  --instance_prompt="a photo of sks dog" --resolution=512 --train_batch_size=1 \
  --enable_xformers_memory_efficient_attention
