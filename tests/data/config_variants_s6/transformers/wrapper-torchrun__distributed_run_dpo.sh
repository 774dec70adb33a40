python -m torch.distributed.run --nproc_per_node 2 trl/scripts/dpo.py \
    --model_name_or_path Qwen/Qwen2-0.5B-Instruct --dataset_name trl-lib/ultrafeedback_binarized \
    --attn_implementation sdpa --dtype bfloat16 --bf16 --output_dir dpo-out
