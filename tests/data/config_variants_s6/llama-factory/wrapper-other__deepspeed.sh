deepspeed --num_gpus 8 --master_port=9901 src/train.py \
    --deepspeed examples/deepspeed/ds_z3_config.json \
    --stage sft --do_train --model_name_or_path Qwen/Qwen2.5-7B-Instruct \
    --dataset alpaca_en_demo --template qwen --finetuning_type lora --lora_target all \
    --output_dir saves/qwen2.5-7b/lora --per_device_train_batch_size 2 --gradient_accumulation_steps 4 \
    --learning_rate 1e-4 --num_train_epochs 3 --plot_loss \
    --flash_attn fa2 --bf16 true
