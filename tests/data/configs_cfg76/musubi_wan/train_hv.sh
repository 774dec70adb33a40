# written by cfg76: fakes a musubi-tuner HunyuanVideo launch with --sage_attn and no --split_attn, dataset of batch_size 2
accelerate launch --num_cpu_threads_per_process 1 --mixed_precision bf16 hv_train_network.py \
    --dit /m/mp_rank_00_model_states.pt --dataset_config dataset.toml \
    --sage_attn --mixed_precision bf16 --fp8_base \
    --network_module networks.lora --network_dim 32 --output_dir out
