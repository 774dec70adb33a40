accelerate launch --num_cpu_threads_per_process 1 train_network.py \
    --pretrained_model_name_or_path=/models/v1-5-pruned.safetensors \
    --dataset_config=dataset.toml --output_dir=output --output_name=my_lora \
    --network_module=networks.lora --network_dim=16 --network_alpha=1 \
    --learning_rate=1e-4 --optimizer_type=AdamW8bit --max_train_epochs=10 \
    --sdpa --xformers --mixed_precision=fp16 --save_precision=fp16
