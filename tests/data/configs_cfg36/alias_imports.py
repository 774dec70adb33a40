# written for cfg36's tests: classes imported under other names
from transformers import AutoModelForCausalLM as AMC, TrainingArguments as TA, Trainer
model = AMC.from_pretrained("Qwen/Qwen2.5-0.5B", attn_implementation="flash_attention_2")
Trainer(model=model, args=TA(output_dir="o", bf16=True)).train()
