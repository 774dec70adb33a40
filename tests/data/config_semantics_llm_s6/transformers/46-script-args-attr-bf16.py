import torch
from transformers import AutoModelForCausalLM, AutoTokenizer, Trainer, TrainingArguments

model = AutoModelForCausalLM.from_pretrained("gpt2", attn_implementation="sdpa")
args = TrainingArguments(output_dir="out", per_device_train_batch_size=8)
args.bf16 = True
trainer = Trainer(model=model, args=args, train_dataset=train_dataset)
trainer.train()
