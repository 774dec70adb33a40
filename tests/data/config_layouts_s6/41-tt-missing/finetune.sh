#!/bin/bash
tune run lora_finetune_single_device --config ./configs/custom_lora.yaml
