@echo off
call venv\Scripts\activate
python train_sft.py
pause
