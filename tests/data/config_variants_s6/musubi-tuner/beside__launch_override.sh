accelerate launch --num_cpu_threads_per_process 1 src/musubi_tuner/wan_train_network.py --config_file beside__wan_cfg --xformers --compile_mode max-autotune
