#!/usr/bin/env bash
set -euo pipefail
cd "$(dirname "$0")/.."
CONFIG_FILE="configs/kohya/flux_lora.toml"
python sd-scripts/flux_train_network.py --config_file "$CONFIG_FILE"
