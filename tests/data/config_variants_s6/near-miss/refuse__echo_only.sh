#!/bin/bash
echo "Usage:"
echo "  accelerate launch train_network.py --xformers --mixed_precision fp16 --network_module networks.lora"
cat <<'EOF2'
Tips: use --sdpa on torch 2.x; --mem_eff_attn only when xformers is missing.
EOF2
