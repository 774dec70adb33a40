accelerate launch --num_cpu_threads_per_process 1 train_db.py \
    --pretrained_model_name_or_path=/models/v1-5-pruned.safetensors \
    --dataset_config=dataset.toml --output_dir=output --output_name=db \
    --mem_eff_attn --xformers --mixed_precision=bf16 --learning_rate=1e-6 --max_train_steps=1600
