# written for cfg36's tests: see tests/test_configs_cfg36.py
from transformers import AutoModelForCausalLM, TrainingArguments, Trainer
CFG = {"model": {"name": "Qwen/Qwen2.5-0.5B", "attn": "flash_attention_2"}, "bf16": True}
model = AutoModelForCausalLM.from_pretrained(CFG["model"]["name"], attn_implementation=CFG["model"]["attn"])
Trainer(model=model, args=TrainingArguments(output_dir="o", bf16=CFG["bf16"])).train()
