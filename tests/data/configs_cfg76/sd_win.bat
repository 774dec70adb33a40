@echo off
REM written by cfg76: fakes a Windows .bat for sd-scripts train_network.py (set VAR=, %VAR%, ^ continuations)
set MODEL=C:\sd\models\v1-5-pruned-emaonly.safetensors
set OUT=C:\sd\lora_out
call venv\Scripts\activate.bat
accelerate launch --num_cpu_threads_per_process 2 train_network.py ^
  --pretrained_model_name_or_path="%MODEL%" ^
  --train_data_dir="C:\sd\img" ^
  --output_dir="%OUT%" ^
  --network_module=networks.lora ^
  --mixed_precision=bf16 ^
  --mem_eff_attn ^
  --xformers ^
  --train_batch_size=1
pause
