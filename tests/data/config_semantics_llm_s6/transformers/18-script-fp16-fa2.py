import torch
from transformers import AutoModelForCausalLM, Trainer, TrainingArguments

model = AutoModelForCausalLM.from_pretrained(
    "mistralai/Mistral-7B-v0.1",
    dtype=torch.float16,
    attn_implementation="flash_attention_2",
)
args = TrainingArguments(output_dir="out", fp16=True, per_device_train_batch_size=1)
trainer = Trainer(model=model, args=args, train_dataset=train_dataset)
trainer.train()
