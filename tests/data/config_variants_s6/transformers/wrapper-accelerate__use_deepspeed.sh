accelerate launch --use_deepspeed --deepspeed_config_file ds_z3.json --zero_stage 3 --num_processes 8 trl/scripts/dpo.py \
    --model_name_or_path Qwen/Qwen2-0.5B-Instruct --dataset_name trl-lib/ultrafeedback_binarized \
    --attn_implementation flash_attention_2 --dtype bfloat16 --bf16 \
    --output_dir Qwen2-0.5B-DPO
