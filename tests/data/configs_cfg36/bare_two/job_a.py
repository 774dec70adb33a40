# written for cfg36's tests: the user's TRL script the launch runs
from transformers import AutoModelForCausalLM
from trl import SFTConfig, SFTTrainer

model = AutoModelForCausalLM.from_pretrained("Qwen/Qwen2.5-1.5B", attn_implementation="flash_attention_2")
SFTTrainer(model=model, args=SFTConfig(output_dir="out", bf16=True)).train()
