@echo off
rem written by cfg76: fakes a .bat whose attention flag is held in a variable (set "ATTN=--sdpa", %ATTN%, ^ continuations)
set "ATTN=--sdpa"
set PREC=bf16
call accelerate launch --num_cpu_threads_per_process=2 "sdxl_train_network.py" ^
 --pretrained_model_name_or_path="D:\models\ponyDiffusionV6XL.safetensors" ^
 --dataset_config="D:\train\ds.toml" --output_dir="D:\train\out" ^
 --network_module=networks.lora --mixed_precision=%PREC% %ATTN% ^
 --train_batch_size=2
