# written by cfg76: fakes `VAR=... cmd` prefixes before a python -m accelerate launch of sd-scripts train_network.py
CUDA_VISIBLE_DEVICES=1 PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True python -m accelerate.commands.launch \
    --mixed_precision fp16 train_network.py \
    --pretrained_model_name_or_path=/m/v1-5-pruned.safetensors \
    --dataset_config=dataset.toml \
    --output_dir=out --network_module=networks.lora \
    --xformers --mixed_precision=fp16 --train_batch_size=4
