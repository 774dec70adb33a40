# written by cfg76: fakes a PowerShell sd-scripts launch whose attention flag sits in a PowerShell variable
$attn = "--xformers"
$model = "C:\sd\sd_xl_base_1.0.safetensors"
accelerate launch --num_cpu_threads_per_process 4 sdxl_train_network.py `
  --pretrained_model_name_or_path $model `
  --dataset_config .\ds.toml --output_dir .\out `
  --network_module networks.lora `
  $attn --mixed_precision bf16 --train_batch_size 1
