import torch
from transformers import AutoModelForCausalLM, Trainer, TrainingArguments

model = AutoModelForCausalLM.from_pretrained("gpt2", attn_implementation="sdpa")
args = TrainingArguments(
    output_dir="out",
    bf16=True,
    torch_compile_backend="inductor",
    per_device_train_batch_size=8,
)
trainer = Trainer(model=model, args=args, train_dataset=train_dataset)
trainer.train()
