import torch
from transformers import AutoConfig, AutoModelForCausalLM, AutoTokenizer, Trainer, TrainingArguments

model = AutoModelForCausalLM.from_pretrained("gpt2", attn_implementation="sdpa")

def loss_fn(logits, labels):
    return torch.nn.functional.cross_entropy(logits.view(-1, logits.size(-1)), labels.view(-1))

loss_fn = torch.compile(loss_fn)
args = TrainingArguments(output_dir="out", bf16=True, per_device_train_batch_size=8)
trainer = Trainer(model=model, args=args, train_dataset=train_dataset)
trainer.train()
