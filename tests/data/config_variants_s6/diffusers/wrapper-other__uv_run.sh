uv run accelerate launch --mixed_precision="fp16" train_instruct_pix2pix.py \
  --pretrained_model_name_or_path=stable-diffusion-v1-5/stable-diffusion-v1-5 \
  --dataset_name=fusing/instructpix2pix-1000-samples \
  --enable_xformers_memory_efficient_attention \
  --resolution=256 --random_flip --train_batch_size=4 --gradient_accumulation_steps=4 \
  --max_train_steps=15000 --learning_rate=5e-05 --output_dir=pix2pix
