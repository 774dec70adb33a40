#!/bin/bash
python3 "${KOHYA_DIR}/train_network.py" \
  --pretrained_model_name_or_path=/models/v1-5-pruned.safetensors \
  --train_data_dir=/data/img --output_dir=out --output_name=lora \
  --network_module=networks.lora --network_dim=16 --resolution=512,512 \
  --xformers --mixed_precision=fp16 --save_model_as=safetensors
