# written for cfg36's tests (near miss): the dict is loaded at run time from a file not here: its entries are unknown
import yaml
from transformers import AutoModelForCausalLM, TrainingArguments, Trainer

CFG = yaml.safe_load(open("train.yaml"))
model = AutoModelForCausalLM.from_pretrained(CFG["model"]["name"], attn_implementation=CFG["model"]["attn"])
Trainer(model=model, args=TrainingArguments(output_dir="o", **CFG["training"])).train()
