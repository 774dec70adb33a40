@echo off
set CONFIG=configs\prodigy-01-eps.toml
set SCRIPT=sdxl_train_network.py
accelerate launch --mixed_precision="bf16" --num_cpu_threads_per_process=2 %SCRIPT% --config_file="%CONFIG%"
