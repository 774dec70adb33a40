import torch
from transformers import AutoConfig, AutoModelForCausalLM, AutoTokenizer, Trainer, TrainingArguments

from peft import LoraConfig, get_peft_model

model = AutoModelForCausalLM.from_pretrained("meta-llama/Llama-3.2-1B", attn_implementation="flash_attention_2")
model = get_peft_model(model, LoraConfig(r=16, lora_alpha=32, target_modules=["q_proj", "v_proj"]))
model = model.to(torch.bfloat16)
args = TrainingArguments(output_dir="out", per_device_train_batch_size=8)
trainer = Trainer(model=model, args=args, train_dataset=train_dataset)
trainer.train()
