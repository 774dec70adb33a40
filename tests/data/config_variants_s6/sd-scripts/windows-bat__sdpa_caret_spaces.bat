@echo off
setlocal
set "PREC=bf16"
set "NET=networks.lora"
accelerate launch --num_cpu_threads_per_process 1 sdxl_train_network.py    ^
    --pretrained_model_name_or_path="D:\models\sd_xl_base_1.0.safetensors"   ^
    --dataset_config="dataset.toml" --output_dir="D:\out" --output_name="sdxl_lora"   ^
    --network_module=%NET% --network_dim=32   ^
    --sdpa --mixed_precision=%PREC% --cache_latents
endlocal
