accelerate launch --mixed_precision bf16 --num_cpu_threads_per_process 1 flux_train_network.py \
    --pretrained_model_name_or_path /models/flux1-dev.safetensors --clip_l /models/clip_l.safetensors \
    --t5xxl /models/t5xxl_fp16.safetensors --ae /models/ae.safetensors \
    --network_module networks.lora_flux --network_dim 16 --sdpa \
    --dataset_config dataset.toml --output_dir output --output_name flux_lora \
    --mixed_precision bf16 --sdpa --fp8_base --timestep_sampling shift --discrete_flow_shift 3.1582
