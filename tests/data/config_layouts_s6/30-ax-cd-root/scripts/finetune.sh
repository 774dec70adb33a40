#!/usr/bin/env bash
set -e
cd "$(dirname "$0")/.."
axolotl train configs/qwen3-8b-lora.yaml --num-processes 2
