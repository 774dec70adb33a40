# written for cfg36's tests: from_pretrained(use_flash_attention_2=True), the keyword before attn_implementation
import torch
from transformers import AutoModelForCausalLM, TrainingArguments, Trainer
model = AutoModelForCausalLM.from_pretrained("meta-llama/Llama-2-7b-hf", use_flash_attention_2=True, torch_dtype=torch.bfloat16)
Trainer(model=model, args=TrainingArguments(output_dir="o", bf16=True)).train()
