# written by cfg76: fakes a torchrun launch of sd-scripts flux_train_network.py with --sdpa and bf16
torchrun --nnodes=1 --nproc_per_node=2 flux_train_network.py \
  --pretrained_model_name_or_path /m/flux1-dev.safetensors --clip_l /m/clip_l.safetensors \
  --t5xxl /m/t5xxl_fp16.safetensors --ae /m/ae.safetensors \
  --dataset_config ds.toml --output_dir out --network_module networks.lora_flux \
  --sdpa --mixed_precision bf16 --full_bf16 --fp8_base
