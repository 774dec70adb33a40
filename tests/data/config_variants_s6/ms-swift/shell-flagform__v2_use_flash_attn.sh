CUDA_VISIBLE_DEVICES=0 swift sft \
    --model_type qwen2-7b-instruct \
    --sft_type lora \
    --dataset alpaca-zh#500 \
    --use_flash_attn true \
    --dtype bf16 \
    --output_dir output
