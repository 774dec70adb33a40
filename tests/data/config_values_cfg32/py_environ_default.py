# variant written for cfg32: values from os.environ.get / os.getenv with a default
import os
import torch
from transformers import AutoModelForCausalLM, TrainingArguments

ATTN = os.environ.get("ATTN_IMPL", "flash_attention_2")
model = AutoModelForCausalLM.from_pretrained("Qwen/Qwen2-1.5B", attn_implementation=ATTN,
                                             torch_dtype=torch.bfloat16)
args = TrainingArguments(output_dir="out", bf16=True, torch_compile=os.getenv("COMPILE", "0") == "1")
