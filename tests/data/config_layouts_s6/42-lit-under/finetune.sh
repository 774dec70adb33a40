#!/bin/bash
litgpt finetune_full --config config_hub/finetune/full-htxsutd-tinyllama.yaml
