# written by cfg76: fakes a misspelt attention flag in sd-scripts sdxl_train.py (--xfromers)
accelerate launch sdxl_train.py --pretrained_model_name_or_path=/m/sdxl.safetensors \
  --dataset_config=ds.toml --output_dir=out \
  --xfromers --mixed_precision=bf16 --train_batch_size=1
