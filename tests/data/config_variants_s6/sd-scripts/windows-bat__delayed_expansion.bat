@echo off
setlocal enabledelayedexpansion
set PREC=fp16
set ROOT=%~dp0
accelerate launch --num_cpu_threads_per_process 1 train_network.py ^
  --pretrained_model_name_or_path="%ROOT%models\v1-5-pruned.safetensors" ^
  --dataset_config="%ROOT%dataset.toml" --output_dir="%ROOT%out" --output_name="lora" ^
  --network_module=networks.lora --network_dim=16 ^
  --xformers --mixed_precision=!PREC!
