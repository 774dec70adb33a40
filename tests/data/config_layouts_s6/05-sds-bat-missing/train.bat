@echo off
accelerate launch --mixed_precision="bf16" --num_cpu_threads_per_process=2 ^
sdxl_train_network.py --config_file="%~dp0my_lora.toml"
