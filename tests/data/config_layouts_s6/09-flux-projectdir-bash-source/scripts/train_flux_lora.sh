#!/usr/bin/env bash
set -euo pipefail
PROJECT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CONFIG_FILE="${KOHYA_CONFIG:-$PROJECT_DIR/configs/kohya/flux_lora.toml}"
cd "$PROJECT_DIR/sd-scripts"
python flux_train_network.py --config_file "$CONFIG_FILE"
