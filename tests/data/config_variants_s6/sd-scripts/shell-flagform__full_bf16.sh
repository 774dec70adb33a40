accelerate launch --num_cpu_threads_per_process 1 sdxl_train.py \
    --pretrained_model_name_or_path /models/sd_xl_base_1.0.safetensors \
    --dataset_config dataset.toml --output_dir output --output_name sdxl_ft \
    --xformers --mixed_precision bf16 --full_bf16 \
    --optimizer_type adafactor --optimizer_args "scale_parameter=False" "relative_step=False" \
    --learning_rate 4e-7 --max_train_steps 10000 --gradient_checkpointing
