ATTN="--sdpa"
PREC=bf16
NET_ARGS="--network_module=networks.lora --network_dim=32 --network_alpha=16"
accelerate launch --num_cpu_threads_per_process 1 sdxl_train_network.py \
    --pretrained_model_name_or_path=/models/sd_xl_base_1.0.safetensors \
    --dataset_config=dataset.toml --output_dir=output --output_name=sdxl_lora \
    $NET_ARGS $ATTN --mixed_precision $PREC --cache_text_encoder_outputs \
    --learning_rate=1e-4 --optimizer_type=AdamW8bit --max_train_epochs=10
