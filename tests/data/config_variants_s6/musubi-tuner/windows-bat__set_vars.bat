@echo off
call venv\Scripts\activate.bat
set MP=bf16
set DIT=D:\models\wan2.1_t2v_1.3B_bf16.safetensors
accelerate launch --num_cpu_threads_per_process 1 --mixed_precision %MP% src\musubi_tuner\wan_train_network.py ^
    --task t2v-1.3B --dit "%DIT%" --dataset_config dataset.toml ^
    --sdpa --mixed_precision %MP% --fp8_base ^
    --optimizer_type adamw8bit --learning_rate 2e-4 --gradient_checkpointing ^
    --network_module networks.lora_wan --network_dim 32 ^
    --output_dir output --output_name wan-lora
pause
