accelerate launch --config_file ./accelerate.yaml --main_process_port=29501 --gpu_ids="0,1" --num_processes 2 sdxl_train_network.py \
    --pretrained_model_name_or_path=/models/sd_xl_base_1.0.safetensors --dataset_config=dataset.toml \
    --output_dir=out --output_name=lora --network_module=networks.lora --network_dim=32 \
    --sdpa --mixed_precision=bf16
