swift sft --model Qwen/Qwen2.5-0.5B-Instruct --train_type full --dataset data.jsonl \
    --torch_dtype float32 --fp16 false --bf16 false --attn_impl flash_attn --output_dir output
