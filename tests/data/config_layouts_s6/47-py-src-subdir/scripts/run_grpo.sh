#!/bin/bash
cd "$(dirname "$0")/.."
CUDA_VISIBLE_DEVICES=0 python src/train_grpo.py
