@echo off
cd /d %~dp0
accelerate launch --dynamo_backend no --mixed_precision="bf16" --num_cpu_threads_per_process=2 ^
sdxl_train_network.py --config_file="%~dp0configs\prodigy-01-eps.toml" ^
--lr_scheduler_type="CosineAnnealingLR" ^
--lr_scheduler_args="T_max=30"
pause
