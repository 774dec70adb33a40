#!/bin/bash
# variant written for cfg32: sd-scripts --config_file plus command-line overrides (the command line wins)
accelerate launch sdxl_train_network.py --config_file ./sdscripts_config.toml --mixed_precision fp16 --xformers
