torchrun --nproc_per_node=8 trl/scripts/sft.py \
    --model_name_or_path Qwen/Qwen2-0.5B --dataset_name trl-lib/Capybara \
    --attn_implementation flash_attention_2 --dtype bfloat16 --bf16 \
    --torch_compile --torch_compile_mode reduce-overhead \
    --output_dir out
