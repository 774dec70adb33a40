export MODEL_NAME="CompVis/stable-diffusion-v1-4"
export MIXED="no"
accelerate launch --mixed_precision=fp16 train_dreambooth.py \
  --pretrained_model_name_or_path=$MODEL_NAME --instance_data_dir=dog --output_dir=out \
  --instance_prompt="a photo of sks dog" --resolution=512 --train_batch_size=1 \
  --mixed_precision=$MIXED
