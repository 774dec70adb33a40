#!/bin/bash
cd "$(dirname "$0")/../diffusion-pipe"
deepspeed --num_gpus=1 train.py --deepspeed --config ../configs/lora_video_training.toml
