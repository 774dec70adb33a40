torchrun --nproc_per_node=8 --nnodes=1 train_text_to_image_sdxl.py \
  --pretrained_model_name_or_path=stabilityai/stable-diffusion-xl-base-1.0 \
  --dataset_name=lambdalabs/naruto-blip-captions --resolution=1024 --train_batch_size=1 \
  --mixed_precision=fp16 --enable_xformers_memory_efficient_attention --output_dir=sdxl-naruto
