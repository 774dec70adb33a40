python -m accelerate.commands.launch --num_cpu_threads_per_process=2 "./sdxl_train_network.py" \
    --pretrained_model_name_or_path="/models/sd_xl_base_1.0.safetensors" --dataset_config="dataset.toml" \
    --output_dir="output" --output_name="sdxl_lora" --network_module=networks.lora --network_dim=32 \
    --sdpa --mixed_precision="bf16" --save_precision="bf16"
