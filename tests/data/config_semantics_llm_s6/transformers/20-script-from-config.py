import torch
from transformers import AutoModelForCausalLM, AutoConfig, Trainer, TrainingArguments

config = AutoConfig.from_pretrained("meta-llama/Llama-3.2-1B")
model = AutoModelForCausalLM.from_config(config, attn_implementation="flash_attention_2", torch_dtype=torch.bfloat16)
args = TrainingArguments(output_dir="out", bf16=True, per_device_train_batch_size=8)
trainer = Trainer(model=model, args=args, train_dataset=train_dataset)
trainer.train()
