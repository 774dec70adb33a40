# written by cfg76: fakes a musubi-tuner HunyuanVideo run with --xformers and --split_attn (batch > 1 needs split_attn for xformers/sage/flash)
accelerate launch --num_cpu_threads_per_process 1 --mixed_precision bf16 hv_train_network.py \
    --dit ckpts/hunyuan-video-t2v-720p/transformers/mp_rank_00_model_states.pt \
    --dataset_config dataset.toml --xformers --split_attn --mixed_precision bf16 --fp8_base \
    --network_module networks.lora --network_dim 32 --output_dir out
