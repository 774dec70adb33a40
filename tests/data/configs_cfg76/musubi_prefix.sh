# written by cfg76: fakes musubi-tuner's unique prefix --xformer (of --xformers) under python -m accelerate.commands.launch
python -m accelerate.commands.launch --num_cpu_threads_per_process 1 --mixed_precision bf16 src/musubi_tuner/wan_train_network.py \
  --task t2v-1.3B --dit /m/wan2.1_t2v_1.3B_bf16.safetensors --dataset_config ds.toml \
  --xformer --mixed_precision bf16 --network_module networks.lora_wan --network_dim 16 --output_dir out
