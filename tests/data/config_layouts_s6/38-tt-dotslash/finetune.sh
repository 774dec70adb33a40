#!/bin/bash
tune run lora_finetune_single_device --config ./my.yaml
