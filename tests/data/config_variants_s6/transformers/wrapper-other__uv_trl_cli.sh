uv run trl sft \
    --model_name_or_path Qwen/Qwen2.5-0.5B --dataset_name trl-lib/Capybara \
    --learning_rate 2.0e-5 --num_train_epochs 1 --packing \
    --attn_implementation flash_attention_2 --dtype bfloat16 --bf16 true \
    --output_dir Qwen2.5-0.5B-SFT
