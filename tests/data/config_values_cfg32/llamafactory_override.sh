#!/bin/bash
# variant written for cfg32: llamafactory-cli train YAML plus key=value overrides (the overrides win)
llamafactory-cli train llamafactory_base.yaml flash_attn=fa2 bf16=false fp16=true
