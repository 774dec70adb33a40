#!/bin/bash
CFG=${CFG:-config_hub/finetune/llama-3.1-8b/full.yaml}
litgpt finetune_full --config $CFG
