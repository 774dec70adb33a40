CUDA_VISIBLE_DEVICES=0 swift sft \
    --model Qwen/Qwen3-8B --train_type full --dataset data/train.json \
    --torch_dtype bfloat16 --attn_impl flash_attention_2 \
    --torch_compile_mode max-autotune \
    --output_dir output
