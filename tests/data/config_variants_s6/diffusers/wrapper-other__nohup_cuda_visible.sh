CUDA_VISIBLE_DEVICES=0 nohup accelerate launch train_dreambooth.py \
  --pretrained_model_name_or_path=CompVis/stable-diffusion-v1-4 \
  --instance_data_dir=dog --output_dir=out --instance_prompt="a photo of sks dog" \
  --resolution=512 --train_batch_size=1 --max_train_steps=400 \
  --mixed_precision=fp16 --enable_xformers_memory_efficient_attention > db.log 2>&1 &
