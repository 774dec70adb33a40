FROM nvidia/cuda:12.4.1-cudnn-runtime-ubuntu22.04
WORKDIR /app/sd-scripts
COPY . .
RUN pip install -r requirements.txt xformers
CMD ["accelerate", "launch", "--num_cpu_threads_per_process", "2", "sdxl_train_network.py", "--pretrained_model_name_or_path=/models/sd_xl_base_1.0.safetensors", "--dataset_config=/data/dataset.toml", "--output_dir=/out", "--network_module=networks.lora", "--xformers", "--mixed_precision=bf16"]
