# variant written for cfg32: a {...} literal of keywords, one set after it by subscript, unpacked into from_pretrained
import torch
from transformers import AutoModelForCausalLM

model_kwargs = {"torch_dtype": torch.float16, "device_map": "auto"}
model_kwargs["attn_implementation"] = "sdpa"
model = AutoModelForCausalLM.from_pretrained("microsoft/phi-2", **model_kwargs)
