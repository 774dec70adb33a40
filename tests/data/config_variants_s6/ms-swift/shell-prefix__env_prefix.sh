NPROC_PER_NODE=4 CUDA_VISIBLE_DEVICES=0,1,2,3 swift sft \
    --model Qwen/Qwen2.5-7B-Instruct --train_type lora \
    --dataset AI-ModelScope/alpaca-gpt4-data-en#500 \
    --torch_dtype=bfloat16 --attn_impl=flash_attn \
    --num_train_epochs 1 --per_device_train_batch_size 1 \
    --learning_rate 1e-4 --lora_rank 8 --lora_alpha 32 --output_dir output
