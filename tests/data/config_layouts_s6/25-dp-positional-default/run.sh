#!/bin/bash
CONFIG_FILE=${1:-configs/lora_video_training.toml}
echo "Starting training with $CONFIG_FILE..."
NCCL_P2P_DISABLE="1" NCCL_IB_DISABLE="1" deepspeed --num_gpus=1 train.py --deepspeed --config $CONFIG_FILE
