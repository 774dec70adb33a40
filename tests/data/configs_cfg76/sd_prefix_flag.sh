# written by cfg76: fakes argparse unique-prefix use: --xform for --xformers in sd-scripts train_network.py
accelerate launch train_network.py --pretrained_model_name_or_path=/m/v15.safetensors \
  --dataset_config=ds.toml --output_dir=out --network_module=networks.lora \
  --xform --mixed_precision=fp16
