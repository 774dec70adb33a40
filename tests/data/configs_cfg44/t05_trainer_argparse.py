# Synthetic file written for tests/test_configs_cfg44.py (helper cfg44, issue 24): not taken from any repository.
# Mutation of t01: the model name, learning rate and epochs come from argparse.
import argparse

import torch
from datasets import load_dataset
from transformers import AutoModelForCausalLM, AutoTokenizer, DataCollatorForLanguageModeling, Trainer, TrainingArguments

p = argparse.ArgumentParser()
p.add_argument("--model", default="Qwen/Qwen2.5-0.5B")
p.add_argument("--lr", type=float, default=2e-5)
p.add_argument("--epochs", type=int, default=1)
a = p.parse_args()
tokenizer = AutoTokenizer.from_pretrained(a.model)
model = AutoModelForCausalLM.from_pretrained(a.model, attn_implementation="sdpa", torch_dtype=torch.bfloat16)
ds = load_dataset("json", data_files="train.jsonl")["train"]
ds = ds.map(lambda b: tokenizer(b["text"], truncation=True, max_length=512), batched=True)
args = TrainingArguments(output_dir="out", learning_rate=a.lr, num_train_epochs=a.epochs, bf16=True)
Trainer(model=model, args=args, train_dataset=ds, data_collator=DataCollatorForLanguageModeling(tokenizer, mlm=False)).train()
