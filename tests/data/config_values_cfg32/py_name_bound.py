# variant written for cfg32: the backend and dtype come from names bound earlier
import torch
from transformers import AutoModelForCausalLM, TrainingArguments

MODEL = "Qwen/Qwen2.5-0.5B"
ATTN = "flash_attention_2"
DTYPE = torch.bfloat16

model = AutoModelForCausalLM.from_pretrained(MODEL, attn_implementation=ATTN, torch_dtype=DTYPE)
args = TrainingArguments(output_dir="out", bf16=True, per_device_train_batch_size=4)
