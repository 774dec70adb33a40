# written by cfg76: fakes a musubi-tuner Wan2.1 LoRA launch with --xformers and a dataset of batch_size 2 beside it
accelerate launch --num_cpu_threads_per_process 1 --mixed_precision bf16 src/musubi_tuner/wan_train_network.py \
    --task t2v-14B --dit /m/wan2.1_t2v_14B_bf16.safetensors --dataset_config dataset.toml \
    --xformers --mixed_precision bf16 --fp8_base --gradient_checkpointing \
    --network_module networks.lora_wan --network_dim 32 --output_dir out --output_name wan_lora
