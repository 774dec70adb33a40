accelerate launch --num_processes 4 --mixed_precision bf16 trl/scripts/sft.py \
    --model_name_or_path=Qwen/Qwen2-0.5B --dataset_name=trl-lib/Capybara \
    --learning_rate=2e-4 --max_steps=100 \
    --dtype=bfloat16 --bf16 \
    --attn_implementation=flex_attention \
    --output_dir=output-flex
