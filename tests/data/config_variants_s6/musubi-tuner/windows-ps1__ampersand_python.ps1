$python = ".\venv\Scripts\python.exe"
$mp = "bf16"
& $python -m accelerate.commands.launch --num_cpu_threads_per_process 1 --mixed_precision $mp src/musubi_tuner/wan_train_network.py `
    --task t2v-1.3B --dit "D:\models\wan2.1_t2v_1.3B_bf16.safetensors" --dataset_config dataset.toml `
    --flash_attn --mixed_precision $mp `
    --network_module networks.lora_wan --network_dim 32 --output_dir output --output_name wan-lora
