#!/bin/bash
# written for cfg36's tests (near miss): the script the launch runs is not here
export WANDB_PROJECT=ft
python finetune_model.py
