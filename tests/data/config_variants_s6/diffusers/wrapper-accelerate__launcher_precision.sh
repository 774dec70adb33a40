export MODEL_NAME="CompVis/stable-diffusion-v1-4"
export INSTANCE_DIR="dog"
export OUTPUT_DIR="out"

accelerate launch --mixed_precision fp16 train_dreambooth.py \
  --pretrained_model_name_or_path=$MODEL_NAME \
  --instance_data_dir=$INSTANCE_DIR --output_dir=$OUTPUT_DIR \
  --instance_prompt="a photo of sks dog" --resolution=512 --train_batch_size=1 \
  --gradient_accumulation_steps=1 --learning_rate=5e-6 --max_train_steps=400 \
  --enable_xformers_memory_efficient_attention
