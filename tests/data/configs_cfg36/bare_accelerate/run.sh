#!/bin/bash
# written for cfg36's tests: a launch line with no options running the user's own TRL script beside it
export CUDA_VISIBLE_DEVICES=0
cd "$(dirname "$0")"
accelerate launch finetune_model.py
