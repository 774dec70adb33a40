# Synthetic file written for tests/test_configs_cfg44.py (helper cfg44, issue 24): not taken from any repository.
# Mutation of t18: the model class held in a variable, then loaded through it, in the user's own loop.
import torch
from transformers import LlamaForCausalLM, MistralForCausalLM

model_cls = LlamaForCausalLM if "llama" in "./llama-7b" else MistralForCausalLM
model = model_cls.from_pretrained("./llama-7b", attn_implementation="sdpa")
opt = torch.optim.AdamW(model.parameters(), lr=1e-5)
