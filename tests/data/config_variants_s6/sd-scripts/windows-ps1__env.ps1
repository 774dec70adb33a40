$env:PREC = "bf16"
$net = "networks.lora"
.\venv\Scripts\activate
accelerate launch --num_cpu_threads_per_process 1 sdxl_train_network.py `
    --pretrained_model_name_or_path="D:\models\sd_xl_base_1.0.safetensors" `
    --dataset_config="dataset.toml" --output_dir="D:\out" --output_name="sdxl_lora" `
    --network_module=$net --network_dim=32 `
    --sdpa --mixed_precision=$env:PREC
