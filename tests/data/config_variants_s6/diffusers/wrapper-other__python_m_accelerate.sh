python -m accelerate.commands.launch --mixed_precision=bf16 train_dreambooth_lora_sdxl.py \
  --pretrained_model_name_or_path=stabilityai/stable-diffusion-xl-base-1.0 \
  --instance_data_dir=dog --instance_prompt="a photo of sks dog" --output_dir=lora-sdxl \
  --resolution=1024 --train_batch_size=1 --learning_rate=1e-4 --max_train_steps=500 \
  --enable_xformers_memory_efficient_attention
