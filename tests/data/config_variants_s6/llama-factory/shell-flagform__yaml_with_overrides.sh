#!/bin/bash
FORCE_TORCHRUN=1 NNODES=1 llamafactory-cli train examples/train_lora/qwen3_lora_sft.yaml \
    flash_attn=fa2 bf16=true \
    output_dir=saves/qwen3-4b/lora/sft-fa2
