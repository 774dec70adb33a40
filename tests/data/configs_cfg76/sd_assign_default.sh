# written by cfg76: fakes ${VAR:=x} used inside the command, and its value reused later in the same line
accelerate launch sdxl_train_network.py --pretrained_model_name_or_path=/m/sdxl.safetensors \
  --dataset_config=ds.toml --output_dir=out --network_module=networks.lora \
  --mixed_precision=${PREC:=bf16} --save_precision=$PREC ${ATTN:=--xformers}
