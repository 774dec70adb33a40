python -m torch.distributed.launch --nproc_per_node 4 --use_env trl/scripts/sft.py \
    --model_name_or_path Qwen/Qwen2-0.5B --dataset_name trl-lib/Capybara \
    --attn_implementation flash_attention_2 --dtype bfloat16 --bf16 \
    --output_dir out
