CUDA_VISIBLE_DEVICES=0,1 NPROC_PER_NODE=2 swift sft \
    --model Qwen/Qwen3-14B --train_type lora --dataset data/agent.jsonl \
    --attn_impl flash_attention_3 --torch_dtype bfloat16 \
    --use_liger_kernel true --output_dir output
