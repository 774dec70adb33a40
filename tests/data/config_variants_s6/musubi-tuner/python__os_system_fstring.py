import os

dit = "/models/wan2.1_t2v_1.3B_bf16.safetensors"
precision = "fp16"
os.system(
    f"accelerate launch --num_cpu_threads_per_process 1 src/musubi_tuner/wan_train_network.py "
    f"--task t2v-1.3B --dit {dit} --dataset_config dataset.toml "
    f"--xformers --mixed_precision {precision} --network_module networks.lora_wan --output_dir out --output_name w"
)
