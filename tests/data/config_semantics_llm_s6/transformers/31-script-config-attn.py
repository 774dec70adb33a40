import torch
from transformers import AutoModelForCausalLM, AutoTokenizer, Trainer, TrainingArguments

model = AutoModelForCausalLM.from_pretrained("meta-llama/Llama-3.2-1B", torch_dtype=torch.bfloat16)
model.config._attn_implementation = "flash_attention_2"
args = TrainingArguments(output_dir="out", bf16=True, per_device_train_batch_size=8)
trainer = Trainer(model=model, args=args, train_dataset=train_dataset)
trainer.train()
