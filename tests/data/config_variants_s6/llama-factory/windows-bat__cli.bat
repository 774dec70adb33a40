set CUDA_VISIBLE_DEVICES=0
set MODEL=Qwen/Qwen2.5-1.5B-Instruct
llamafactory-cli train ^
    --stage sft --do_train --model_name_or_path %MODEL% ^
    --dataset alpaca_en_demo --template qwen --finetuning_type lora --lora_target all ^
    --output_dir saves\qwen-lora --per_device_train_batch_size 1 ^
    --flash_attn sdpa --bf16 true
