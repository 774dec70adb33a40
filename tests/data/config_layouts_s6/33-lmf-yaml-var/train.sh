#!/bin/bash
YAML=${YAML:-configs/lora_sft.yaml}
llamafactory-cli train ${YAML}
