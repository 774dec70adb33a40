import torch
from transformers import AutoModelForCausalLM, AutoTokenizer, Trainer, TrainingArguments

dtype = torch.bfloat16 if torch.cuda.is_bf16_supported() else torch.float16
model = AutoModelForCausalLM.from_pretrained("gpt2", attn_implementation="sdpa", torch_dtype=dtype)
args = TrainingArguments(output_dir="out", per_device_train_batch_size=8)
trainer = Trainer(model=model, args=args, train_dataset=train_dataset)
trainer.train()
