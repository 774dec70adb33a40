CUDA_VISIBLE_DEVICES=0 swift sft --model Qwen/Qwen2.5-1.5B-Instruct --train_type lora \
    --dataset AI-ModelScope/alpaca-gpt4-data-en#500 --attn_impl sdpa --fp16 true --output_dir output
