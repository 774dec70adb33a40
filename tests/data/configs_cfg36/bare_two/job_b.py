# written for cfg36's tests: the second job, another attention
from transformers import AutoModelForCausalLM
from trl import DPOConfig, DPOTrainer

model = AutoModelForCausalLM.from_pretrained("out", attn_implementation="sdpa")
DPOTrainer(model=model, args=DPOConfig(output_dir="dpo", fp16=True)).train()
