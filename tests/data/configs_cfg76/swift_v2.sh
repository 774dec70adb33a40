# written by cfg76: fakes an older ms-swift 2.x command line (--sft_type, --model_type, --use_flash_attn)
CUDA_VISIBLE_DEVICES=0 swift sft \
    --model_type qwen1half-7b-chat \
    --sft_type lora \
    --dataset blossom-math-zh \
    --dtype bf16 \
    --use_flash_attn true \
    --batch_size 1 \
    --output_dir output
