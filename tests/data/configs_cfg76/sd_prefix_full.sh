# written by cfg76: fakes an ambiguous prefix --full (full_bf16 / full_fp16) in sd-scripts train_network.py
accelerate launch train_network.py --pretrained_model_name_or_path=/m/v15.safetensors \
  --dataset_config=ds.toml --output_dir=out --network_module=networks.lora --sdpa --full --mixed_precision=fp16
