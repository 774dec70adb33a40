# written for cfg36's tests: from_pretrained(attn_implementation=model_config.attn_implementation) of a ModelConfig built here
import torch
from transformers import AutoModelForCausalLM
from trl import ModelConfig, SFTConfig, SFTTrainer

model_config = ModelConfig(model_name_or_path="Qwen/Qwen2.5-0.5B", attn_implementation="flash_attention_2",
                           torch_dtype="bfloat16")
training_args = SFTConfig(output_dir="out", bf16=True)
model = AutoModelForCausalLM.from_pretrained(model_config.model_name_or_path,
                                             attn_implementation=model_config.attn_implementation,
                                             torch_dtype=torch.bfloat16)
SFTTrainer(model=model, args=training_args).train()
