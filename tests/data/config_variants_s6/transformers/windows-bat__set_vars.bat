@echo off
set ATTN=sdpa
set MODEL=Qwen/Qwen2-0.5B
python trl/scripts/sft.py ^
    --model_name_or_path %MODEL% --dataset_name trl-lib/Capybara ^
    --attn_implementation %ATTN% --dtype bfloat16 --bf16 ^
    --output_dir out-sdpa
