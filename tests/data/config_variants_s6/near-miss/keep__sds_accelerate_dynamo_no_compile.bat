accelerate launch --dynamo_backend inductor --num_cpu_threads_per_process 1 train_network.py ^
    --pretrained_model_name_or_path="C:\models\v1-5-pruned.safetensors" --dataset_config="dataset.toml" ^
    --output_dir="out" --output_name="lora" --network_module=networks.lora ^
    --xformers --mixed_precision=fp16
