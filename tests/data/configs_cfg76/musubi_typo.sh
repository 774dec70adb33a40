# written by cfg76: fakes a misspelt musubi-tuner flag (--sdpa_attn)
accelerate launch --num_cpu_threads_per_process 1 --mixed_precision bf16 src/musubi_tuner/qwen_image_train_network.py \
  --dit /m/qwen_image_bf16.safetensors --vae /m/vae.safetensors --text_encoder /m/qwen_2.5_vl_7b.safetensors \
  --dataset_config ds.toml --sdpa_attn --mixed_precision bf16 --network_module networks.lora_qwen_image --output_dir out
