@echo off
rem LoRA for SD1.5
call .\venv\Scripts\activate
set MODEL=C:\models\v1-5-pruned.safetensors
set PREC=fp16
accelerate launch --num_cpu_threads_per_process 1 train_network.py ^
    --pretrained_model_name_or_path="%MODEL%" ^
    --dataset_config="dataset.toml" --output_dir="output" --output_name="my_lora" ^
    --network_module=networks.lora --network_dim=16 ^
    --xformers --mixed_precision=%PREC% --save_precision=%PREC%
pause
