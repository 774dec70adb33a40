accelerate launch --num_cpu_threads_per_process 1 train_network.py --config_file beside__cfg_override.toml --sdpa --mixed_precision bf16
