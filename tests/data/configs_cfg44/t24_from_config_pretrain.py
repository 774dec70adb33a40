# Synthetic file written for tests/test_configs_cfg44.py (helper cfg44, issue 24): not taken from any repository.
# A user's own pretraining loop: a transformers model built from its config (untrained) with FlashAttention 2.
import torch
from transformers import AutoConfig, AutoModelForCausalLM

config = AutoConfig.from_pretrained("meta-llama/Llama-3.2-1B")
config.num_hidden_layers = 8
model = AutoModelForCausalLM.from_config(config, attn_implementation="flash_attention_2", torch_dtype=torch.bfloat16)
opt = torch.optim.AdamW(model.parameters(), lr=3e-4)
