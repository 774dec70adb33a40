#!/bin/bash
python src/musubi_tuner/wan_cache_latents.py --dataset_config dataset.toml --vae /models/wan_2.1_vae.safetensors
python src/musubi_tuner/wan_cache_text_encoder_outputs.py --dataset_config dataset.toml --t5 /models/models_t5_umt5-xxl-enc-bf16.pth --batch_size 16 --fp8_t5
accelerate launch --num_cpu_threads_per_process 1 --mixed_precision bf16 src/musubi_tuner/wan_train_network.py \
    --task t2v-1.3B --dit /models/wan2.1_t2v_1.3B_bf16.safetensors --dataset_config dataset.toml \
    --sdpa --mixed_precision bf16 \
    --network_module networks.lora_wan --network_dim 32 --output_dir output --output_name wan-lora
