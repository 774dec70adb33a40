# written for cfg36's tests: the old keyword in a kwargs dict spread into from_pretrained
import torch
from transformers import AutoModelForCausalLM
from trl import SFTTrainer
from transformers import TrainingArguments
model_kwargs = dict(use_flash_attention_2=True, torch_dtype=torch.bfloat16, use_cache=False)
model = AutoModelForCausalLM.from_pretrained("mistralai/Mistral-7B-v0.1", **model_kwargs)
SFTTrainer(model=model, args=TrainingArguments(output_dir="o", bf16=True)).train()
