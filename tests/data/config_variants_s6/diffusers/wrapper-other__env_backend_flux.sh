export MODEL_NAME="black-forest-labs/FLUX.1-dev"
DIFFUSERS_ATTN_BACKEND=flash accelerate launch train_dreambooth_lora_flux.py \
  --pretrained_model_name_or_path=$MODEL_NAME --instance_data_dir=dog --output_dir=trained-flux-lora \
  --mixed_precision="bf16" --instance_prompt="a photo of sks dog" --resolution=512 \
  --train_batch_size=1 --gradient_accumulation_steps=4 --learning_rate=1e-4 --max_train_steps=500
