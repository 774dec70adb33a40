set MODEL_NAME=CompVis/stable-diffusion-v1-4
set INSTANCE_DIR=dog
set OUTPUT_DIR=out
accelerate launch train_dreambooth.py ^
  --pretrained_model_name_or_path=%MODEL_NAME% ^
  --instance_data_dir=%INSTANCE_DIR% --output_dir=%OUTPUT_DIR% ^
  --instance_prompt="a photo of sks dog" --resolution=512 --train_batch_size=1 ^
  --mixed_precision=fp16 --enable_xformers_memory_efficient_attention
