$env:MODEL_NAME = "stabilityai/stable-diffusion-xl-base-1.0"
$env:PRECISION = "bf16"
accelerate launch train_text_to_image_sdxl.py `
  --pretrained_model_name_or_path=$env:MODEL_NAME `
  --dataset_name=lambdalabs/naruto-blip-captions --resolution=1024 --train_batch_size=1 `
  --mixed_precision=$env:PRECISION --enable_xformers_memory_efficient_attention `
  --output_dir=sdxl-naruto
