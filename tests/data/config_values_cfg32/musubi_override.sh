#!/bin/bash
# variant written for cfg32: musubi-tuner --config_file plus command-line overrides (the command line wins)
accelerate launch src/musubi_tuner/wan_train_network.py --config_file musubi_config.toml --mixed_precision fp16
