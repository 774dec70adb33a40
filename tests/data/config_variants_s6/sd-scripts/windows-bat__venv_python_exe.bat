cd /d D:\kohya_ss\sd-scripts
.\venv\Scripts\python.exe -m accelerate.commands.launch --num_cpu_threads_per_process=2 "sdxl_train_network.py" ^
  --pretrained_model_name_or_path="D:\models\sd_xl_base_1.0.safetensors" --dataset_config="dataset.toml" ^
  --output_dir="D:\out" --output_name="sdxl_lora" --network_module=networks.lora --network_dim=32 ^
  --sdpa --mixed_precision="bf16"
