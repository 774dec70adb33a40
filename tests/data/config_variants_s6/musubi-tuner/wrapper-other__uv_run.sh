uv run --extra cu124 accelerate launch --num_cpu_threads_per_process 1 --mixed_precision bf16 src/musubi_tuner/qwen_image_train.py \
    --dit /models/qwen_image_bf16.safetensors --vae /models/qwen_image_vae.safetensors \
    --text_encoder /models/qwen_2.5_vl_7b.safetensors \
    --dataset_config dataset.toml --sdpa --mixed_precision bf16 \
    --optimizer_type adafactor --learning_rate 1e-5 --gradient_checkpointing \
    --max_train_epochs 16 --save_every_n_epochs 1 --seed 42 \
    --output_dir output --output_name qwen-ft
