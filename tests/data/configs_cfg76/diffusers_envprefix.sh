# written by cfg76: fakes a diffusers Flux DreamBooth LoRA run with DIFFUSERS_ATTN_BACKEND given as a `VAR=... cmd` prefix
DIFFUSERS_ATTN_BACKEND=flash_hub accelerate launch train_dreambooth_lora_flux.py \
  --pretrained_model_name_or_path=black-forest-labs/FLUX.1-dev \
  --instance_data_dir=dog --output_dir=trained-flux-lora --mixed_precision=bf16 \
  --instance_prompt="a photo of sks dog" --resolution=512 --train_batch_size=1 --max_train_steps=500
