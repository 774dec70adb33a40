export MODEL_NAME="black-forest-labs/FLUX.1-dev"
export DIFFUSERS_ATTN_BACKEND=_flash_3
accelerate launch --mixed_precision bf16 train_dreambooth_flux.py \
  --pretrained_model_name_or_path=$MODEL_NAME --instance_data_dir=dog --output_dir=trained-flux \
  --instance_prompt="a photo of sks dog" --resolution=512 --train_batch_size=1 \
  --learning_rate=1e-6 --max_train_steps=500
