$env:CUDA_VISIBLE_DEVICES = "0"
llamafactory-cli train `
    --stage sft --do_train --model_name_or_path Qwen/Qwen2.5-1.5B-Instruct `
    --dataset alpaca_en_demo --template qwen --finetuning_type lora --lora_target all `
    --output_dir saves\qwen-lora --per_device_train_batch_size 1 `
    --flash_attn fa2 --bf16 true
