$env:MP = "bf16"
$env:CUDA_VISIBLE_DEVICES = "0"
.\venv\Scripts\Activate.ps1
accelerate launch --num_cpu_threads_per_process 1 --mixed_precision $env:MP src/musubi_tuner/wan_train_network.py `
    --task t2v-1.3B --dit "D:\models\wan2.1_t2v_1.3B_bf16.safetensors" --dataset_config dataset.toml `
    --xformers --mixed_precision $env:MP --fp8_base `
    --network_module networks.lora_wan --network_dim 32 `
    --output_dir output --output_name wan-lora
