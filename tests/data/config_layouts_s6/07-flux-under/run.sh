#!/usr/bin/env bash
set -euo pipefail
python flux_train_network.py --config_file configs/kohya/flux_lora.toml
