# written for cfg36's tests (near miss): the alias is the thing imported, not the name it is given: LoraConfig spelt
# TrainingArguments configures no trainer, and the model is the script's own torch module
import torch
from peft import LoraConfig as TrainingArguments
from transformers import AutoTokenizer

tok = AutoTokenizer.from_pretrained("gpt2")
cfg = TrainingArguments(r=8, lora_alpha=16, bf16=True)
net = torch.nn.Linear(8, 8)
