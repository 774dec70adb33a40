deepspeed --num_gpus 4 --master_port 29600 trl/scripts/sft.py \
    --deepspeed examples/accelerate_configs/zero3.json \
    --model_name_or_path Qwen/Qwen2-0.5B --dataset_name trl-lib/Capybara \
    --attn_implementation flash_attention_2 --dtype bfloat16 --bf16 true \
    --output_dir out-ds
