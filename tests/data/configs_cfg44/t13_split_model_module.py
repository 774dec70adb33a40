# Synthetic file written for tests/test_configs_cfg44.py (helper cfg44, issue 24): not taken from any repository.
# Split into two files (1/2): the module that loads the model (t14 imports it).
import torch
from transformers import AutoModelForCausalLM


def load_model(name: str):
    return AutoModelForCausalLM.from_pretrained(name, attn_implementation="flash_attention_2", torch_dtype=torch.bfloat16)
