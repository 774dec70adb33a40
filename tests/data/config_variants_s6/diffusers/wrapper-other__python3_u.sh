CUDA_VISIBLE_DEVICES=0 python3 -u train_dreambooth.py \
  --pretrained_model_name_or_path=CompVis/stable-diffusion-v1-4 \
  --instance_data_dir=dog --output_dir=out --instance_prompt="a photo of sks dog" \
  --resolution=512 --train_batch_size=1 --max_train_steps=400 \
  --enable_xformers_memory_efficient_attention 2>&1 | tee log.txt
