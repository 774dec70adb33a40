deepspeed --hostfile hostfile --include localhost:0,1 --master_port 29501 src/train.py \
    --deepspeed ds_config.json --stage sft --do_train --model_name_or_path Qwen/Qwen2.5-1.5B \
    --dataset alpaca_en_demo --template qwen --finetuning_type lora --lora_target all \
    --output_dir saves/qwen-lora --flash_attn sdpa --fp16
