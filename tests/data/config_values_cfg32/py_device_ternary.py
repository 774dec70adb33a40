# variant written for cfg32: a ternary on the device, the device itself a ternary on torch.cuda.is_available()
import torch
from transformers import AutoModelForCausalLM, TrainingArguments

device = "cuda" if torch.cuda.is_available() else "cpu"
attn = "flash_attention_2" if device == "cuda" else "eager"
dtype = torch.bfloat16 if device == "cuda" else torch.float32

model = AutoModelForCausalLM.from_pretrained("meta-llama/Llama-3.2-1B", attn_implementation=attn, torch_dtype=dtype)
model.to(device)
args = TrainingArguments(output_dir="out", bf16=device == "cuda")
