#!/bin/bash
cd ..
llamafactory-cli train examples/train_lora/lora_sft.yaml
