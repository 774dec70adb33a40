accelerate launch my_train_sdxl_lora.py \
  --pretrained_model_name_or_path=stabilityai/stable-diffusion-xl-base-1.0 \
  --pretrained_vae_model_name_or_path=madebyollin/sdxl-vae-fp16-fix \
  --instance_data_dir=dog --instance_prompt="a photo of sks dog" --output_dir=lora-sdxl \
  --resolution=1024 --train_batch_size=1 --gradient_accumulation_steps=4 \
  --learning_rate=1e-4 --lr_scheduler=constant --lr_warmup_steps=0 \
  --max_train_steps=500 --checkpointing_steps=100 --seed=0 \
  --mixed_precision=bf16 --enable_xformers_memory_efficient_attention
