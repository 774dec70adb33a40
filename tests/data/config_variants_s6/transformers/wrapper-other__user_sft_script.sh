accelerate launch --config_file configs/zero3.yaml sft.py \
    --model_name_or_path meta-llama/Llama-3.1-8B --dataset_name HuggingFaceH4/ultrachat_200k \
    --learning_rate 2e-5 --num_train_epochs 1 --packing --max_length 4096 \
    --per_device_train_batch_size 2 --gradient_accumulation_steps 8 --gradient_checkpointing \
    --attn_implementation flash_attention_2 --dtype bfloat16 --bf16 \
    --output_dir llama-sft --report_to wandb
