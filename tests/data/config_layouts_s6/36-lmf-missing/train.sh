#!/bin/bash
YAML=${YAML:-examples/train_lora/qwen3_lora_sft.yaml}
llamafactory-cli train ${YAML}
