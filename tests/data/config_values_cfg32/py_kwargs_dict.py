# variant written for cfg32: a dict of keywords unpacked into from_pretrained
import torch
from transformers import AutoModelForCausalLM

model_kwargs = dict(attn_implementation="flash_attention_2", torch_dtype=torch.bfloat16, use_cache=False)
model = AutoModelForCausalLM.from_pretrained("google/gemma-2-2b", **model_kwargs)
