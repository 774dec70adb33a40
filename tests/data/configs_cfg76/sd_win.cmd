@echo off
REM written by cfg76: fakes a .cmd launcher (same syntax as .bat) with delayed expansion and !VAR!
setlocal enabledelayedexpansion
set ATTN=--sdpa
accelerate launch train_network.py --pretrained_model_name_or_path=C:\m\v15.safetensors ^
  --dataset_config=ds.toml --output_dir=out --network_module=networks.lora !ATTN! --mixed_precision=fp16
