# Synthetic file written for tests/test_configs_cfg44.py (helper cfg44, issue 24): not taken from any repository.
# Mutation of t01: every variable renamed.
import torch
from datasets import load_dataset
from transformers import AutoModelForCausalLM, AutoTokenizer, DataCollatorForLanguageModeling, Trainer, TrainingArguments

BASE = "Qwen/Qwen2.5-0.5B"
tok = AutoTokenizer.from_pretrained(BASE)
lm = AutoModelForCausalLM.from_pretrained(BASE, attn_implementation="sdpa", torch_dtype=torch.bfloat16)
corpus = load_dataset("json", data_files="train.jsonl")["train"]
corpus = corpus.map(lambda b: tok(b["text"], truncation=True, max_length=512), batched=True)
targs = TrainingArguments(output_dir="out", per_device_train_batch_size=4, bf16=True, num_train_epochs=1)
runner = Trainer(model=lm, args=targs, train_dataset=corpus, data_collator=DataCollatorForLanguageModeling(tok, mlm=False))
runner.train()
