#!/bin/bash
KOHYA_CONFIG=configs/kohya/flux_lora.toml
export HF_HOME=/workspace/cache/huggingface
python flux_train_network.py --config_file $KOHYA_CONFIG --highvram
