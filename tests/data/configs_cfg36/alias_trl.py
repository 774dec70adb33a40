# written for cfg36's tests: TRL's classes under other names
from trl import SFTConfig as Cfg, SFTTrainer as T
from transformers import AutoModelForCausalLM

model = AutoModelForCausalLM.from_pretrained("Qwen/Qwen2.5-0.5B", attn_implementation="sdpa")
T(model=model, args=Cfg(output_dir="o", fp16=True, bf16=False)).train()
