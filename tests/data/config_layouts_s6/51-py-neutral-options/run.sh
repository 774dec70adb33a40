#!/bin/bash
accelerate launch train_sft.py --output_dir outputs/run1 --num_train_epochs 2 --report_to wandb
