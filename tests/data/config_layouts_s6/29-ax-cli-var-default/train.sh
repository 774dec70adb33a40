#!/bin/bash
CONFIG=${CONFIG:-configs/qwen3-8b-lora.yaml}
axolotl train $CONFIG
