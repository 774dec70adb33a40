#!/bin/bash
if [ $# -eq 0 ]; then
    echo "Usage: ./run.sh <config_file.toml>"
    exit 1
fi
CONFIG_FILE=$1
NCCL_P2P_DISABLE="1" NCCL_IB_DISABLE="1" deepspeed --num_gpus=1 train.py --deepspeed --config $CONFIG_FILE
