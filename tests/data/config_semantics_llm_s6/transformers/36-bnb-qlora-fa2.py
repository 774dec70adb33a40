import torch
from transformers import AutoModelForCausalLM, BitsAndBytesConfig, TrainingArguments
from trl import SFTTrainer

bnb_config = BitsAndBytesConfig(load_in_4bit=True, bnb_4bit_quant_type="nf4", bnb_4bit_compute_dtype=torch.bfloat16)
model = AutoModelForCausalLM.from_pretrained("mistralai/Mistral-7B-v0.1", quantization_config=bnb_config, attn_implementation="flash_attention_2")
args = TrainingArguments(output_dir="out", bf16=True, per_device_train_batch_size=4)
trainer = SFTTrainer(model=model, args=args, train_dataset=dataset)
trainer.train()
