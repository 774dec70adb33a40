pdm run accelerate launch --num_processes 2 trl/scripts/sft.py \
    --model_name_or_path Qwen/Qwen2-0.5B --dataset_name trl-lib/Capybara \
    --attn_implementation flex_attention --dtype bfloat16 --bf16 \
    --output_dir out-flex
