@echo off
rem written by cfg76: fakes cmd.exe arithmetic (set /a) for the batch size of an sd-scripts run
set /a BS=2*2
accelerate launch train_network.py --pretrained_model_name_or_path=C:\m\v15.safetensors ^
  --dataset_config=ds.toml --output_dir=out --network_module=networks.lora --sdpa --train_batch_size=%BS%
